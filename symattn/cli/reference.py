"""``symattn reference Q.npy K.npy V.npy -o OUT.npy``: correctly rounded attention, a test oracle.

Inputs are ``.npy`` arrays of float16, float32, float64 (or integers), read as their exact
binary values. numpy has no bfloat16: save a bfloat16 tensor as float32 (``t.float()``),
which holds every bfloat16 value exactly. The output is the attention correctly rounded
to float64 (``.npy``), or with ``--digits N`` the values correctly rounded to N significant
digits as text (from certified Arb balls; undecided entries through the exact engine).
``--compare ACTUAL.npy`` measures a kernel's output against the reference.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TextIO

import numpy as np

from symattn.cli.options import limits_from
from symattn.cli.output import write_bytes_atomic, write_text_atomic
from symattn.config import Limits
from symattn.errors import InputError
from symattn.fast import attention_decimals, attention_float64
from symattn.io import read_bytes
from symattn.numbers import parse_number

HELP = "correctly rounded attention of .npy inputs (a test oracle for kernels), and --compare"

#: (name, significand bits including the implicit one, smallest normal exponent)
FORMATS: tuple[tuple[str, int, int], ...] = (
    ("float16", 11, -14),
    ("bfloat16", 8, -126),
    ("float32", 24, -126),
    ("float64", 53, -1022),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``reference``."""
    p.add_argument("query", metavar="Q.npy", help="queries (..., L, E)")
    p.add_argument("key", metavar="K.npy", help="keys (..., S, E)")
    p.add_argument("value", metavar="V.npy", help="values (..., S, Ev)")
    p.add_argument(
        "--mask", metavar="M.npy", help="boolean (True takes part) or additive (-inf allowed) mask"
    )
    p.add_argument(
        "--causal", action="store_true", help="top-left causal mask, as torch's is_causal"
    )
    p.add_argument(
        "--scale",
        help="the score scale (default 1/sqrt(E)); exact decimal or fraction, e.g. 0.125 or 1/8",
    )
    p.add_argument(
        "--gqa", action="store_true", help="grouped-query attention (torch's enable_gqa)"
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the reference: OUT.npy (float64) or, with --digits, text",
    )
    p.add_argument(
        "--digits",
        type=int,
        help="write N significant digits (certified, correctly rounded) as text",
    )
    p.add_argument(
        "--compare", metavar="ACTUAL.npy", help="print the errors of ACTUAL against the reference"
    )
    p.add_argument(
        "--max-ulps",
        type=float,
        metavar="X",
        help="with --compare: exit 1 when the error exceeds X ulps of ACTUAL's own format",
    )
    p.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: on a terminal, for runs longer than a second)",
    )


def load_npy(path: str, what: str, limits: Limits) -> np.ndarray:
    """An array from a ``.npy`` file, without pickles; floats and integers (booleans for masks)."""
    data = read_bytes(path, limits=limits)
    try:
        a: np.ndarray = np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as e:
        raise InputError(f"{path}: not a .npy array ({e})") from None
    if not isinstance(a, np.ndarray):
        raise InputError(f"{path}: expected one array in .npy format")
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        raise InputError(
            f"{path}: looks like bfloat16; save it as float32 (exact): tensor.float().numpy()"
        )
    if a.dtype.kind not in ("fiub" if what == "mask" else "fiu"):
        raise InputError(
            f"{path}: dtype {a.dtype} is not supported for {what} (float16/32/64 or integers)"
        )
    if a.dtype.kind in "iu":
        if a.size and int(np.abs(a).max()) >= 2**53:
            raise InputError(f"{path}: integers of 2**53 or more are not supported")
        a = a.astype(np.float64)
    if a.dtype.kind == "f" and a.size and what != "mask" and not np.isfinite(a).all():
        raise InputError(f"{path}: {what} has inf or nan entries")
    if a.dtype.kind == "f" and a.size and np.isnan(a).any():
        raise InputError(f"{path}: {what} has nan entries")
    return a


@dataclass(frozen=True)
class _Bar:
    """A progress bar on a stream; shown only after ``delay`` seconds unless ``always``."""

    stream: TextIO
    always: bool
    start: float
    delay: float = 1.0

    def __call__(self, done: int, total: int) -> None:
        if not self.always and time.perf_counter() - self.start < self.delay:
            return
        width = 30
        full = width * done // max(total, 1)
        self.stream.write(f"\r[{'#' * full}{'.' * (width - full)}] {done}/{total} blocks")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _progress(mode: str) -> Callable[[int, int], None] | None:
    if mode == "never" or (mode == "auto" and not sys.stderr.isatty()):
        return None
    return _Bar(sys.stderr, mode == "always", time.perf_counter())


def ulp(x: np.ndarray, bits: int, emin: int) -> np.ndarray:
    """The unit in the last place of ``|x|`` in a binary format (subnormals included)."""
    ax = np.abs(x)
    e = np.floor(np.log2(np.where(ax > 0, ax, 1.0)))
    e = np.maximum(np.where(ax > 0, e, emin), emin)
    return np.ldexp(1.0, (e - bits + 1).astype(np.int64))


def compare_report(
    reference: np.ndarray, actual: np.ndarray, actual_dtype: str
) -> tuple[str, float]:
    """The comparison table, and the worst error in ulps of ``actual_dtype`` (default float64)."""
    ref = reference.astype(np.float64)
    act = actual.astype(np.float64)
    err = np.abs(act - ref)  # error of a float subtraction <= u |act - ref|: fine for a report
    lines = [
        f"compared {act.size} entries (actual dtype {actual_dtype}) "
        "with the correctly rounded reference"
    ]
    if act.size == 0:
        return lines[0] + "\n", 0.0
    worst = np.unravel_index(int(np.argmax(err)), err.shape)
    rel = np.where(
        ref != 0, err / np.where(ref != 0, np.abs(ref), 1.0), np.where(err == 0, 0.0, np.inf)
    )
    lines.append(
        f"max abs error  {err.max():.3e}  at {list(map(int, worst))} "
        f"(reference {float(ref[worst])!r}, actual {float(act[worst])!r})"
    )
    lines.append(f"max rel error  {rel.max():.3e}")
    lines.append("error in ulps of the reference, per format:")
    own = 0.0
    for name, bits, emin in FORMATS:
        u = err / ulp(ref, bits, emin)
        mark = "  <- actual's format" if name == actual_dtype else ""
        lines.append(f"  {name:9s} max {u.max():.3g}  mean {u.mean():.3g}{mark}")
        if name == actual_dtype or (
            actual_dtype not in [f[0] for f in FORMATS] and name == "float64"
        ):
            own = float(u.max())
    exact = int(np.count_nonzero(err == 0))
    lines.append(f"identical to the reference: {exact} of {act.size}")
    return "\n".join(lines) + "\n", own


def _digits_text(values: np.ndarray) -> str:
    lines = [f"# symattn reference, shape {tuple(values.shape)}, correctly rounded decimals"]
    rows = values.reshape(-1, values.shape[-1]) if values.ndim else values.reshape(1, 1)
    for row in rows:
        lines.append(" ".join(str(x) if isinstance(x, Decimal) else repr(x) for x in row))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``reference``."""
    limits = limits_from(args)
    if args.output is None and args.compare is None:
        raise InputError("nothing to do: give -o OUT and/or --compare ACTUAL.npy")
    if args.digits is not None and not 1 <= args.digits <= 1000:
        raise InputError(f"--digits {args.digits}: choose between 1 and 1000")
    if args.causal and args.mask:
        raise InputError("--causal and --mask cannot both be given")
    q, k, v = (
        load_npy(p, n, limits) for p, n in ((args.query, "Q"), (args.key, "K"), (args.value, "V"))
    )
    mask = load_npy(args.mask, "mask", limits) if args.mask else None
    scale = (
        parse_number(args.scale, limits=limits, what="--scale").value
        if args.scale is not None
        else None
    )
    actual = load_npy(args.compare, "actual", limits) if args.compare else None
    out = attention_float64(
        q,
        k,
        v,
        attn_mask=mask,
        is_causal=args.causal,
        scale=scale,
        enable_gqa=args.gqa,
        progress=_progress(args.progress),
        limits=limits,
    )
    if args.output:
        if args.digits is not None:
            values = attention_decimals(
                q,
                k,
                v,
                attn_mask=mask,
                is_causal=args.causal,
                scale=scale,
                enable_gqa=args.gqa,
                digits=args.digits,
                limits=limits,
            )
            write_text_atomic(args.output, _digits_text(values))
        else:
            buf = io.BytesIO()
            np.save(buf, out, allow_pickle=False)
            write_bytes_atomic(args.output, buf.getvalue())
    if actual is not None:
        if actual.shape != out.shape:
            raise InputError(
                f"{args.compare}: shape {actual.shape} differs from the reference's {out.shape}"
            )
        text, own = compare_report(out, actual, str(actual.dtype))
        sys.stdout.write(text)
        if args.max_ulps is not None and own > args.max_ulps:
            print(f"error {own:.3g} ulps exceeds --max-ulps {args.max_ulps}", file=sys.stderr)
            return 1
    return 0
