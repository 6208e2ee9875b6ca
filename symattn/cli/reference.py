"""``symattn reference Q.npy K.npy V.npy -o OUT.npy``: correctly rounded attention, a test oracle.

Inputs are ``.npy`` arrays of float16, float32, float64 (or integers), read as their exact
binary values; float128 is refused (rounding it to float64 would change the input). numpy
has no bfloat16: save a bfloat16 tensor as float32 (``t.float()``), which holds every
bfloat16 value exactly. A header is checked against the file before anything is allocated.
The output is the attention correctly rounded to float64 (``.npy``; subnormal outputs
included), or with ``--digits N`` the values correctly rounded to N significant digits as
text. ``--jobs N`` shares the query rows among N processes (the same answers).
``--compare ACTUAL.npy`` measures a kernel's output against the reference; ``--max-ulps X``
(finite, 0 or more) turns it into a gate.
"""

from __future__ import annotations

import argparse
import io
import math
import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, TextIO

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


EPILOG = """examples:
  symattn reference q.npy k.npy v.npy -o ref.npy
  symattn reference q.npy k.npy v.npy --causal --jobs 2 --compare kernel_out.npy --max-ulps 2
  symattn reference q.npy k.npy v.npy --mask bias.npy --digits 30 -o ref.txt

Inputs are read as their exact binary values (float16, float32, float64, integers; a
bfloat16 tensor saved as float32 is exact; float128 is refused). The output is the
attention correctly rounded to float64 (every entry proved, subnormals included), or with
--digits N correctly rounded decimals. --compare prints the kernel's error in ulps of each
format; --max-ulps X exits 1 when it exceeds X ulps of the kernel's own format.
See docs/performance.md."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``reference``."""
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
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
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="share the query rows among N processes (the same answers, correctly rounded)",
    )
    p.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: on a terminal, for runs longer than a second)",
    )


def _npy_header(data: bytes, path: str) -> tuple[tuple[int, ...], bool, np.dtype[Any], int]:
    """``(shape, fortran_order, dtype, offset)`` of a ``.npy`` file, read before anything is
    allocated (numpy's own loader allocates what the header claims, then reads)."""
    f = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"unknown format version {version}")
    except ValueError as e:
        raise InputError(f"{path}: not a .npy array ({e})") from None
    return tuple(int(n) for n in shape), bool(fortran), dtype, f.tell()


def load_npy(path: str, what: str, limits: Limits) -> np.ndarray:
    """An array from a ``.npy`` file, without pickles; floats and integers (booleans for masks).

    The header is checked against the file before any allocation: the element count against
    the limits, and the data it claims against the bytes the file holds.
    """
    data = read_bytes(path, limits=limits)
    shape, fortran, dtype, offset = _npy_header(data, path)
    if dtype.hasobject:
        raise InputError(f"{path}: object arrays (pickles) are not read")
    limits.check_elements(shape, f"{path} ({what})")
    count = math.prod(shape)
    need, have = count * dtype.itemsize, len(data) - offset
    if need != have:
        raise InputError(
            f"{path}: the header claims shape {shape} of {dtype} ({need} bytes of data) "
            f"but the file holds {have}"
        )
    if dtype.kind == "V" and dtype.itemsize == 2:
        raise InputError(
            f"{path}: looks like bfloat16; save it as float32 (exact): tensor.float().numpy()"
        )
    if dtype.kind == "f" and dtype.itemsize > 8:
        raise InputError(
            f"{path}: dtype {dtype} (extended precision) is not supported: symattn reads "
            "float16, float32 and float64 exactly, and rounding a float128 to float64 would "
            "change the input"
        )
    if dtype.kind not in ("fiub" if what == "mask" else "fiu"):
        raise InputError(
            f"{path}: dtype {dtype} is not supported for {what} (float16/32/64 or integers)"
        )
    a: np.ndarray = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
    a = a.reshape(shape, order="F" if fortran else "C")
    if a.dtype.kind in "iu":
        if a.size and int(np.abs(a.astype(np.float64)).max()) >= 2**53:
            raise InputError(f"{path}: integers of 2**53 or more are not supported")
        a = a.astype(np.float64)
    if a.dtype.kind == "f" and a.size and what != "mask" and not np.isfinite(a).all():
        raise InputError(f"{path}: {what} has inf or nan entries")
    if a.dtype.kind == "f" and a.size and np.isnan(a).any():  # a mask may hold -inf, not nan
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


@dataclass(frozen=True)
class _Task:
    """One reference computation (all of it, or the query rows of one process)."""

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    mask: np.ndarray | None
    causal: bool
    scale: Any
    gqa: bool
    digits: int | None
    limits: Limits

    def run(self, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        kw: dict[str, Any] = {
            "attn_mask": self.mask,
            "is_causal": self.causal,
            "scale": self.scale,
            "enable_gqa": self.gqa,
            "limits": self.limits,
        }
        if self.digits is not None:
            return attention_decimals(self.q, self.k, self.v, digits=self.digits, **kw)
        return attention_float64(self.q, self.k, self.v, progress=progress, **kw)

    def rows(self, lo: int, hi: int) -> _Task:
        """The same computation for query rows ``lo:hi`` (a causal mask made explicit)."""
        L, S = self.q.shape[-2], self.k.shape[-2]
        mask = self.mask
        if self.causal:
            mask = np.tril(np.ones((L, S), dtype=bool))[lo:hi]
        elif mask is not None and mask.ndim >= 2 and mask.shape[-2] == L:
            mask = mask[..., lo:hi, :]
        return replace(self, q=self.q[..., lo:hi, :], mask=mask, causal=False)


def _run_task(task: _Task) -> np.ndarray:
    return task.run()


def _compute(task: _Task, jobs: int, progress: Callable[[int, int], None] | None) -> np.ndarray:
    """The reference, with the query rows shared among ``jobs`` processes (the rows are
    independent and every entry is correctly rounded: the same answers as one process)."""
    if jobs <= 1 or task.q.ndim < 2 or task.q.shape[-2] < 2:  # (shapes are fast's to check)
        return task.run(progress)
    L = task.q.shape[-2]
    bounds = np.linspace(0, L, min(jobs, L) + 1).astype(int).tolist()
    parts = [task.rows(lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False)]
    context = multiprocessing.get_context("spawn")  # no fork of a process with BLAS threads
    with ProcessPoolExecutor(max_workers=len(parts), mp_context=context) as pool:
        results = list(pool.map(_run_task, parts))
    return np.concatenate(results, axis=-2)


def run(args: argparse.Namespace) -> int:
    """Run ``reference``."""
    limits = limits_from(args)
    if args.output is None and args.compare is None:
        raise InputError("nothing to do: give -o OUT and/or --compare ACTUAL.npy")
    if args.digits is not None and not 1 <= args.digits <= 1000:
        raise InputError(f"--digits {args.digits}: choose between 1 and 1000")
    if args.causal and args.mask:
        raise InputError("--causal and --mask cannot both be given")
    if args.max_ulps is not None and not (math.isfinite(args.max_ulps) and args.max_ulps >= 0):
        raise InputError(
            f"--max-ulps {args.max_ulps}: give a finite number of ulps, 0 or more "
            "(nan or inf would let every error pass)"
        )
    if args.max_ulps is not None and args.compare is None:
        raise InputError("--max-ulps needs --compare ACTUAL.npy")
    if not 1 <= args.jobs <= 256:
        raise InputError(f"--jobs {args.jobs}: choose between 1 and 256")
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
    task = _Task(q, k, v, mask, args.causal, scale, args.gqa, None, limits)
    progress = _progress(args.progress) if args.jobs == 1 else None
    out = None
    if actual is not None or args.digits is None:
        out = _compute(task, args.jobs, progress)
    if args.output:
        if args.digits is not None:
            values = _compute(replace(task, digits=args.digits), args.jobs, None)
            write_text_atomic(args.output, _digits_text(values))
        else:
            assert out is not None
            buf = io.BytesIO()
            np.save(buf, out, allow_pickle=False)
            write_bytes_atomic(args.output, buf.getvalue())
    if actual is not None:
        assert out is not None
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
