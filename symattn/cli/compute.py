"""``symattn compute SPEC``: every stage of the attention in a spec, exactly and to N decimals.

The output is bounded: an entry of the weights holds its whole row sum, an entry of the
output a sum over every key, so exact forms grow as L*S*S. A stage whose exact forms would
hold more than ``max_exact_terms`` terms (estimated from the trace, before building any) is
written as certified decimals only, with a line saying so; rational stages (inputs, scores)
are always exact, since they are no longer than their decimals.
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.cli.options import limits_from
from symattn.cli.output import write_text_atomic
from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.result import AttentionResult
from symattn.engine.trace import Trace
from symattn.errors import InputError, LimitError
from symattn.exact import ExactTensor
from symattn.numbers import fraction_text, plain
from symattn.spec import load_spec

HELP = "compute the attention in a spec and print every stage exactly and to N decimals"

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


EPILOG = """examples:
  symattn compute docs/examples/thinking_machines.toml
  symattn compute docs/examples/animal_street.toml --digits 20 --format json -o stages.json
  symattn compute big.toml --limit max_exact_terms=100000

Every stage is printed exactly (rationals as decimals when they terminate, else p/q; the
rest as expressions in exp and sqrt) and, after ≈, correctly rounded (ties to even) to
--digits decimal places, as explain rounds (certified: decided from enclosures, never from
a float). A stage whose exact forms would hold more
than max_exact_terms terms (weights and outputs grow as L*S*S) is printed as decimals
only. See docs/security.md for the limits."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``compute``."""
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("spec", help="spec file (.toml or .json); see docs/spec.md")
    p.add_argument(
        "--digits",
        type=int,
        default=10,
        help="decimal places of the rounded values (default 10)",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout"
    )


#: operations whose results are rational whenever their inputs are (inputs are rational)
_RATIONAL_OPS = frozenset({"input", "transpose", "repeat_kv", "split_heads"})


def exact_terms(trace: Trace) -> dict[int, int]:
    """For each step (by index), about how many terms its exact forms hold in all.

    Rational steps count 0 (their exact form is a number, as long as its decimals); a surd or
    an ``exp`` is one term; a sum over n entries n times its operand's; a softmax entry is its
    exp plus its row sum; a matrix product over k adds k to its operands' terms (the entries
    of one softmax row share their denominator); concatenated heads multiply by the heads.
    """
    per_entry: dict[int, int] = {}
    for step in trace:
        operands = [trace[i] for i in step.inputs]
        parts = [max(1, per_entry[i]) for i in step.inputs]
        rational = step.op in _RATIONAL_OPS or (
            step.op == "matmul" and all(per_entry[i] == 0 for i in step.inputs)
        )
        if not isinstance(step.value, ExactTensor) or rational:
            n = 0
        elif step.op == "sum":
            n = operands[0].shape[-1] * parts[0]
        elif step.op == "softmax":
            n = sum(parts)
        elif step.op == "matmul":
            n = operands[0].shape[-1] + sum(parts)
        elif step.op == "concat_heads":
            n = operands[0].shape[-3] * parts[0]
        else:
            n = max(parts, default=1)
        per_entry[step.index] = n
    return {i: n * int(np.prod(trace[i].shape)) for i, n in per_entry.items()}


def _exact_strings(t: ExactTensor) -> np.ndarray:
    """The exact entries as text: a rational as a decimal when it terminates (``0.2``), else
    ``p/q``; ``-inf`` where masked; an expression as sympy prints it (terms not re-ordered,
    which is much faster)."""
    from sympy import sstr  # lazy: importing the command line does not load sympy

    exact = t.exact()
    out = np.empty(exact.shape, dtype=object)
    for idx in np.ndindex(*exact.shape):
        e: object = exact[idx]
        if isinstance(e, Fraction):
            out[idx] = fraction_text(e)
        elif t.is_neg_inf(idx):
            out[idx] = "-inf"
        else:
            out[idx] = sstr(e, order="none")
    return out


def _approx_text(d: Decimal) -> str:
    """A rounded value in positional notation (``0.0000000000``, not ``0E-10``), or ``-inf``."""
    if not d.is_finite():
        return "-inf" if d < 0 else str(d)
    return plain(d)


def _rows(
    t: ExactTensor,
    labels: tuple[str, ...] | None,
    digits: int,
    *,
    per_row: bool = False,
    with_exact: bool = True,
) -> list[str]:
    approx = t.round(digits)
    exact = _exact_strings(t) if with_exact else None
    if per_row:  # one number per query row (the softmax denominators)
        approx = approx[..., None]
        exact = None if exact is None else exact[..., None]
    lines = []
    for idx in np.ndindex(*approx.shape[:-1]) if approx.ndim > 1 else [()]:
        row_approx = np.atleast_1d(approx[idx] if idx else approx)
        if exact is None:
            cells = [_approx_text(a) for a in row_approx]
        else:
            row_exact = np.atleast_1d(exact[idx] if idx else exact)
            cells = [_cell(e, a) for e, a in zip(row_exact, row_approx, strict=True)]
        label = _label(idx, labels)
        lines.append(f"  {label}[{', '.join(cells)}]")
    return lines


def _cell(exact: str, approx: Decimal) -> str:
    text = _approx_text(approx)
    return exact if exact == text or _same_number(exact, approx) else f"{exact} ≈ {text}"


def _same_number(exact: str, approx: Decimal) -> bool:
    if not approx.is_finite():
        return False
    try:
        return Fraction(exact) == Fraction(approx)
    except ValueError:  # not a plain number: an expression
        return False


def _label(idx: tuple[int, ...], labels: tuple[str, ...] | None) -> str:
    if not idx:
        return ""
    if labels is not None and len(idx) == 1:
        return f"{labels[idx[0]]}: "
    return f"{list(idx)}: "


def render_text(
    result: AttentionResult, title: str, digits: int, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The plain-text report of every stage."""
    terms = exact_terms(result.trace)
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
        with_exact = terms[step.index] <= limits.max_exact_terms
        if not with_exact:
            lines.append(f"  ({_decimals_only(terms[step.index], limits)})")
        try:
            lines.extend(
                _rows(step.value, labels, digits, per_row=name == "exp_sums", with_exact=with_exact)
            )
        except LimitError as e:  # e.g. e^x of a huge score: the later stages are still exact
            lines.append(f"  (not written out: {e})")
    rows = result.fully_masked_rows
    if rows:
        lines.append("")
        names = ", ".join(_row_name(idx, result.query_labels) for idx in rows)
        lines.append(f"fully masked rows (weights and output are 0, as in torch 2.5+): {names}")
    return "\n".join(lines) + "\n"


def _row_name(idx: tuple[int, ...], labels: tuple[str, ...] | None) -> str:
    """A query row by its token: ``"<pad>" (row 3)``, after its batch/head index if any
    (counted from 0)."""
    row = idx[-1]
    name = f'"{labels[row]}" (row {row})' if labels and row < len(labels) else f"row {row}"
    lead = idx[:-1]
    return f"[{', '.join(str(i) for i in lead)}] {name}" if lead else name


def _decimals_only(terms: int, limits: Limits) -> str:
    return (
        f"decimals only: the exact forms would hold about {terms} terms, more than "
        f"max_exact_terms={limits.max_exact_terms} (raise it with --limit max_exact_terms=N)"
    )


def render_json(
    result: AttentionResult, digits: int, limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """The trace as JSON: a step's ``approx`` rounded to ``digits`` decimal places, its
    ``exact`` strings only within ``max_exact_terms``."""
    data = result.to_json(digits=1, exact_limit=0)  # the structure; approx is replaced below
    data["approx_decimals"] = digits
    terms = exact_terms(result.trace)
    for step, out in zip(result.trace, data["steps"], strict=True):
        if not isinstance(step.value, ExactTensor):
            continue
        try:
            out["approx"] = np.vectorize(_approx_text, otypes=[object])(
                step.value.round(digits)
            ).tolist()
        except LimitError as e:  # e.g. e^x beyond 2^262144: no digits to write
            del out["approx"]
            out["approx_omitted"] = str(e)
        if terms[step.index] <= limits.max_exact_terms:
            out["exact"] = _exact_strings(step.value).tolist()
        else:
            out["exact_omitted"] = _decimals_only(terms[step.index], limits)
    return data


def run(args: argparse.Namespace) -> int:
    """Run ``compute``."""
    limits = limits_from(args)
    if not 0 <= args.digits <= 1000:
        raise InputError(f"--digits {args.digits}: choose between 0 and 1000")
    spec = load_spec(args.spec, limits=limits)
    result = spec.run()
    if args.format == "json":
        data = render_json(result, args.digits, limits)
        data["spec"] = {"path": spec.path, "title": spec.title, "d_k_stated": spec.d_k}
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    else:
        title = f"{spec.title or spec.path} ({spec.path})"
        text = render_text(result, title, args.digits, limits)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
