"""``symattn compute SPEC``: every stage of the attention in a spec, exactly and to N digits."""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np

from symattn.cli.options import limits_from
from symattn.cli.output import write_text_atomic
from symattn.engine.result import AttentionResult
from symattn.errors import InputError, LimitError
from symattn.exact import ExactTensor
from symattn.spec import load_spec

HELP = "compute the attention in a spec and print every stage exactly and to N digits"

#: (stage, heading) in the order they are printed
STAGES: tuple[tuple[str, str], ...] = (
    ("Q", "Q"),
    ("K", "K"),
    ("V", "V"),
    ("scores", "scores  Q K^T"),
    ("scaled_scores", "scaled scores"),
    ("masked_scores", "masked scores"),
    ("exp_scores", "exp(scaled score)"),
    ("exp_sums", "row sums of exp"),
    ("weights", "weights  softmax"),
    ("output", "output"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``compute``."""
    p.add_argument("spec", help="spec file (.toml or .json); see docs/spec.md")
    p.add_argument(
        "--digits", type=int, default=10, help="significant digits of the decimals (default 10)"
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout"
    )


def _rows(
    t: ExactTensor, labels: tuple[str, ...] | None, digits: int, *, per_row: bool = False
) -> list[str]:
    exact, approx = t.exact(), t.evalf(digits)
    if per_row:  # one number per query row (the softmax denominators)
        exact, approx = exact[..., None], approx[..., None]
    lines = []
    for idx in np.ndindex(*exact.shape[:-1]) if exact.ndim > 1 else [()]:
        row_exact = exact[idx] if idx else exact
        row_approx = approx[idx] if idx else approx
        cells = []
        for e, a in zip(np.atleast_1d(row_exact), np.atleast_1d(row_approx), strict=True):
            es, as_ = str(e), str(a)
            cells.append(es if es == as_ or _same_number(e, a) else f"{es} ≈ {as_}")
        label = _label(idx, labels)
        lines.append(f"  {label}[{', '.join(cells)}]")
    return lines


def _same_number(exact: object, approx: object) -> bool:
    return isinstance(exact, Fraction) and isinstance(approx, Decimal) and Fraction(approx) == exact


def _label(idx: tuple[int, ...], labels: tuple[str, ...] | None) -> str:
    if not idx:
        return ""
    if labels is not None and len(idx) == 1:
        return f"{labels[idx[0]]}: "
    return f"{list(idx)}: "


def render_text(result: AttentionResult, title: str, digits: int) -> str:
    """The plain-text report of every stage."""
    lines = [title, ""]
    d = result.d_k
    if d is not None:
        lines.append(f"d_k used = {d}  (divisor sqrt({d}); width of K = {result.key_width})")
    lines.append(f"scale = {result.scale}")
    seen = set()
    for name, heading in STAGES:
        step = result.trace.find(name)
        if step is None or id(step.value) in seen or not isinstance(step.value, ExactTensor):
            continue
        seen.add(id(step.value))
        labels = result.key_labels if name in ("K", "V") else result.query_labels
        lines.append("")
        lines.append(f"{heading}:")
        try:
            lines.extend(_rows(step.value, labels, digits, per_row=name == "exp_sums"))
        except LimitError as e:  # e.g. e^x of a huge score: the later stages are still exact
            lines.append(f"  (not written out: {e})")
    rows = result.fully_masked_rows
    if rows:
        lines.append("")
        lines.append(
            f"fully masked rows (weights and output are 0, as in torch 2.5+): {list(rows)}"
        )
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``compute``."""
    limits = limits_from(args)
    if not 1 <= args.digits <= 1000:
        raise InputError(f"--digits {args.digits}: choose between 1 and 1000")
    spec = load_spec(args.spec, limits=limits)
    result = spec.run()
    if args.format == "json":
        data = result.to_json(digits=args.digits)
        data["spec"] = {"path": spec.path, "title": spec.title, "d_k_stated": spec.d_k}
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    else:
        title = f"{spec.title or spec.path} ({spec.path})"
        text = render_text(result, title, args.digits)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
