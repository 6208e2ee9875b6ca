"""Attention backends side by side: numpy float64, sympy, mpmath, python-flint, symattn.

Each size runs in its own process (``--one N D``) with every backend in that process, on the
same inputs (uniform in [-1, 1] with two decimals). The parent prints one table with the
time of each backend, its ratio to numpy float64 and to mpmath, and peak memory, then the
issue-6 goals, each marked met or missed by how much.

    python benchmarks/bench_attention.py             # the full table (a few minutes)
    python benchmarks/bench_attention.py --quick     # n = 16 and 256 only
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SIZES = ((16, 64), (256, 64), (1024, 64), (4096, 128))
BACKENDS = (
    ("numpy", "numpy float64 (not exact; the floor)"),
    ("sympy", "sympy Matrix, symbolic exp, evalf(50)"),
    ("mpmath", "mpmath matrices, 50 digits"),
    ("flint", "python-flint: fmpq_mat Q K^T, Arb balls for the rest"),
    ("symattn50", "symattn certified 50 digits (attention_enclose)"),
    ("symattn64", "symattn correctly rounded float64 (attention_float64)"),
    ("api64", "symattn API to_numpy: scaled_dot_product_attention(q, k, v).to_numpy()"),
    ("api50", "symattn API enclose(50): scaled_dot_product_attention(q, k, v).enclose(50)"),
    (
        "apiw64",
        "symattn API weights to_numpy: scaled_dot_product_attention(q, k, v).weights.to_numpy()",
    ),
    (
        "apiw50",
        "symattn API weights enclose(50): scaled_dot_product_attention(q, k, v).weights.enclose(50)",
    ),
)
API_LIMITS_ELEMENTS = 2**25  # the default Limits refuse score matrices above 4e6 entries (n = 4096)


class Timeout(Exception):
    """The backend ran past its time cap."""


@dataclass(frozen=True)
class Inputs:
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray

    @classmethod
    def make(cls, n: int, d: int) -> Inputs:
        rng = np.random.default_rng(n * 1000 + d)
        return cls(*(np.round(rng.uniform(-1, 1, (n, d)), 2) for _ in range(3)))


def run_numpy(x: Inputs) -> Any:
    s = x.q @ x.k.T / np.sqrt(x.q.shape[1])
    s -= s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return (e / e.sum(axis=1, keepdims=True)) @ x.v


def _fractions(a: np.ndarray) -> list[list[Any]]:
    from fractions import Fraction

    return [[Fraction(str(v)) for v in row] for row in a.tolist()]


def run_sympy(x: Inputs) -> Any:
    import sympy

    q, k, v = (
        sympy.Matrix([[sympy.Rational(str(t)) for t in row] for row in a.tolist()])
        for a in (x.q, x.k, x.v)
    )
    s = q * k.T / sympy.sqrt(x.q.shape[1])
    e = s.applyfunc(sympy.exp)
    w = sympy.Matrix(e.rows, e.cols, lambda i, j: e[i, j] / sum(e.row(i)))
    return (w * v).evalf(50)


def run_mpmath(x: Inputs) -> Any:
    import mpmath

    mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
    old = mp.dps
    mp.dps = 50
    try:
        q, k, v = (
            mp.matrix([[mp.mpf(str(t)) for t in row] for row in a.tolist()])
            for a in (x.q, x.k, x.v)
        )
        s = q * k.T / mp.sqrt(x.q.shape[1])
        out_rows = []
        for i in range(s.rows):
            e = [mp.exp(s[i, j]) for j in range(s.cols)]
            tot = mp.fsum(e)
            out_rows.append(
                [mp.fsum(e[j] * v[j, c] for j in range(s.cols)) / tot for c in range(v.cols)]
            )
        return out_rows
    finally:
        mp.dps = old


def run_flint(x: Inputs) -> Any:
    import flint

    q, k, v = (flint.fmpq_mat(_fractions_fmpq(a)) for a in (x.q, x.k, x.v))
    s = q * k.transpose()
    n, m = s.nrows(), s.ncols()
    with flint.ctx.workprec(200):
        root = flint.arb(x.q.shape[1]).sqrt()
        e = [[(flint.arb(s[i, j]) / root).exp() for j in range(m)] for i in range(n)]
        w = []
        for row in e:
            tot = flint.arb(0)
            for t in row:
                tot += t
            w.append([t / tot for t in row])
        return flint.arb_mat(w) * flint.arb_mat(
            [[flint.arb(v[i, j]) for j in range(v.ncols())] for i in range(v.nrows())]
        )


def _fractions_fmpq(a: np.ndarray) -> list[list[Any]]:
    import flint

    return [[flint.fmpq(f.numerator, f.denominator) for f in row] for row in _fractions(a)]


def run_symattn50(x: Inputs) -> Any:
    from symattn.fast import attention_enclose

    return attention_enclose(x.q, x.k, x.v, digits=50, exact_float=False)


def run_symattn64(x: Inputs) -> Any:
    from symattn.fast import attention_float64

    return attention_float64(x.q, x.k, x.v, exact_float=False)


def _api(x: Inputs) -> Any:
    import symattn
    from symattn.config import Limits

    return symattn.scaled_dot_product_attention(
        x.q, x.k, x.v, limits=Limits(max_elements=API_LIMITS_ELEMENTS)
    )


def run_api64(x: Inputs) -> Any:
    return _api(x).to_numpy()


def run_api50(x: Inputs) -> Any:
    return _api(x).enclose(50)


def run_apiw64(x: Inputs) -> Any:
    return _api(x).weights.to_numpy()


def run_apiw50(x: Inputs) -> Any:
    return _api(x).weights.enclose(50)


RUNNERS: dict[str, Callable[[Inputs], Any]] = {
    "numpy": run_numpy,
    "sympy": run_sympy,
    "mpmath": run_mpmath,
    "flint": run_flint,
    "symattn50": run_symattn50,
    "symattn64": run_symattn64,
    "api64": run_api64,
    "api50": run_api50,
    "apiw64": run_apiw64,
    "apiw50": run_apiw50,
}


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


def measure(fn: Callable[[Inputs], Any], x: Inputs, cap: float, memory: bool) -> dict[str, Any]:
    """Wall time (best of a few when fast), and the tracemalloc peak of one more run."""
    signal.signal(signal.SIGALRM, _alarm)
    best = None
    try:
        for _ in range(3):
            signal.setitimer(signal.ITIMER_REAL, cap)
            t0 = time.perf_counter()
            fn(x)
            dt = time.perf_counter() - t0
            signal.setitimer(signal.ITIMER_REAL, 0)
            best = dt if best is None else min(best, dt)
            if best > 1.0:
                break
    except Timeout:
        return {"time": None, "capped": cap}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    out: dict[str, Any] = {"time": best}
    if memory:
        tracemalloc.start()
        fn(x)
        out["peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return out


def one(n: int, d: int, cap: float, sympy_max: int) -> dict[str, Any]:
    """Every backend on one size, in this process."""
    x = Inputs.make(n, d)
    res: dict[str, Any] = {}
    for name, _ in BACKENDS:
        if name == "sympy" and n > sympy_max:
            res[name] = {"time": None, "skipped": f"n > {sympy_max}"}
            continue
        if name in ("sympy", "mpmath", "flint", "symattn50", "api50", "apiw50") and n > 1024:
            res[name] = {"time": None, "skipped": "float64 path only at this size"}
            continue
        res[name] = measure(
            RUNNERS[name],
            x,
            cap,
            memory=name in ("numpy", "symattn64", "symattn50", "api64", "apiw64"),
        )
    # the API's routed output must be the fast path's, bit for bit
    res["api_agrees"] = bool(np.array_equal(run_api64(x), run_symattn64(x)))
    res["maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return res


def _fmt_time(t: float | None) -> str:
    if t is None:
        return "—"
    return f"{t * 1e3:.3g} ms" if t < 1 else f"{t:.3g} s"


def _cell(r: dict[str, Any], base: dict[str, Any], mp: dict[str, Any]) -> str:
    if r.get("time") is None:
        return f"> {r['capped']:g} s (cap)" if "capped" in r else "—"
    parts = [_fmt_time(r["time"])]
    if base.get("time"):
        parts.append(f"{r['time'] / base['time']:.3g}× np")
    if mp.get("time"):
        parts.append(f"{mp['time'] / r['time']:.3g}× faster than mpmath")
    elif "capped" in mp:
        parts.append(f"> {mp['capped'] / r['time']:.3g}× faster than mpmath")
    return ", ".join(parts)


def table(results: dict[tuple[int, int], dict[str, Any]]) -> str:
    sizes = list(results)
    head = "| backend | " + " | ".join(f"n = {n}, d = {d}" for n, d in sizes) + " |"
    lines = [head, "|---" * (len(sizes) + 1) + "|"]
    for name, label in BACKENDS:
        cells = [_cell(results[s][name], results[s]["numpy"], results[s]["mpmath"]) for s in sizes]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Peak memory (tracemalloc, Python and numpy allocations) / whole process max RSS:")
    lines.append("")
    lines.append("| backend | " + " | ".join(f"n = {n}, d = {d}" for n, d in sizes) + " |")
    lines.append("|---" * (len(sizes) + 1) + "|")
    for name in ("numpy", "symattn50", "symattn64", "api64", "apiw64"):
        cells = []
        for s in sizes:
            peak = results[s][name].get("peak")
            cells.append(f"{peak / 2**20:.1f} MiB" if peak is not None else "—")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append(
        "| API to_numpy == attention_float64 (bit for bit) | "
        + " | ".join(str(results[s].get("api_agrees", "—")).lower() for s in sizes)
        + " |"
    )
    lines.append(
        "| process max RSS | "
        + " | ".join(f"{results[s]['maxrss'] / 2**20:.0f} MiB" for s in sizes)
        + " |"
    )
    return "\n".join(lines)


def explain_time() -> list[tuple[str, float]]:
    """Wall time of ``python -m symattn explain`` on each seed example, import included."""
    out = []
    for spec in sorted((ROOT / "docs" / "examples").glob("*.toml")):
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "symattn", "explain", str(spec), "-o", os.devnull],
            cwd=ROOT,
            capture_output=True,
            check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        name = spec.name if proc.returncode == 0 else f"{spec.name} (exit {proc.returncode})"
        out.append((name, time.perf_counter() - t0))
    return out


def goals(results: dict[tuple[int, int], dict[str, Any]], explain: list[tuple[str, float]]) -> str:
    lines = ["Goals (issue 6):", ""]

    def get(size: tuple[int, int], name: str, key: str = "time") -> float | None:
        return results.get(size, {}).get(name, {}).get(key)

    t = get((1024, 64), "symattn50")
    if t is not None:
        lines.append(
            f"- certified 50 digits, n=1024 d=64: {_fmt_time(t)} (goal 0.5 s): "
            + ("met" if t <= 0.5 else f"missed by {t / 0.5:.3g}×")
        )
    t, base = get((1024, 64), "symattn64"), get((1024, 64), "numpy")
    if t is not None and base:
        r = t / base
        lines.append(
            f"- float64 correctly rounded, n=1024 d=64: {r:.3g}× numpy (goal ≤ 10×): "
            + ("met" if r <= 10 else f"missed by {r / 10:.3g}×")
        )
    t, peak = get((4096, 128), "symattn64"), get((4096, 128), "symattn64", "peak")
    if t is not None:
        rss = results[(4096, 128)]["maxrss"]
        lines.append(
            f"- float64 correctly rounded, n=4096 d=128: {_fmt_time(t)} (goal < 10 s), "
            f"peak {peak / 2**20:.0f} MiB traced, process max RSS {rss / 2**20:.0f} MiB (goal < 4 GiB): "
            + ("met" if t < 10 and rss < 4 * 2**30 else "missed")
        )
    t = get((1024, 64), "api64")
    if t is not None:
        lines.append(
            f"- API `scaled_dot_product_attention(q, k, v).to_numpy()`, n=1024 d=64: {_fmt_time(t)} "
            "(goal ≤ 1 s): " + ("met" if t <= 1 else f"missed by {t:.2g}×")
        )
    t = get((1024, 64), "api50")
    if t is not None:
        lines.append(
            f"- API `.enclose(50)`, n=1024 d=64: {_fmt_time(t)} (goal ≤ 2 s): "
            + ("met" if t <= 2 else f"missed by {t / 2:.2g}×")
        )
    t, peak = get((4096, 128), "api64"), get((4096, 128), "api64", "peak")
    if t is not None:
        rss = results[(4096, 128)]["maxrss"]
        lines.append(
            f"- API `.to_numpy()`, n=4096 d=128: {_fmt_time(t)} (goal < 10 s), peak {peak / 2**20:.0f} MiB "
            f"traced, process max RSS {rss / 2**20:.0f} MiB (goal < 4 GiB): "
            + ("met" if t < 10 and rss < 4 * 2**30 else "missed")
        )
    t = get((1024, 64), "apiw64")
    if t is not None:
        lines.append(
            f"- API `.weights.to_numpy()`, n=1024 d=64: {_fmt_time(t)} (goal ≤ 1 s): "
            + ("met" if t <= 1 else f"missed by {t:.2g}×")
        )
    t = get((1024, 64), "apiw50")
    if t is not None:
        lines.append(
            f"- API `.weights.enclose(50)`, n=1024 d=64 (1M balls; no stated goal, the output's ≤ 2 s "
            f"for reference): {_fmt_time(t)}: " + ("met" if t <= 2 else f"missed by {t / 2:.2g}×")
        )
    t, peak = get((4096, 128), "apiw64"), get((4096, 128), "apiw64", "peak")
    if t is not None:
        rss = results[(4096, 128)]["maxrss"]
        lines.append(
            f"- API `.weights.to_numpy()`, n=4096 d=128: {_fmt_time(t)} (goal < 10 s), peak {peak / 2**20:.0f} MiB "
            f"traced, process max RSS {rss / 2**20:.0f} MiB (goal < 4 GiB): "
            + ("met" if t < 10 and rss < 4 * 2**30 else "missed")
        )
    for name, dt in explain:
        lines.append(
            f"- `symattn explain {name}` wall time incl. import: {dt:.2f} s (goal < 1 s): "
            + ("met" if dt < 1 else f"missed by {dt:.2g}×")
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one", nargs=2, type=int, metavar=("N", "D"), help=argparse.SUPPRESS)
    ap.add_argument(
        "--cap", type=float, default=60.0, help="time cap per backend run, seconds (default 60)"
    )
    ap.add_argument("--sympy-max-n", type=int, default=16, help="largest n for sympy (default 16)")
    ap.add_argument("--quick", action="store_true", help="only n = 16 and 256")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], args.one[1], args.cap, args.sympy_max_n)))
        return 0
    sizes = SIZES[:2] if args.quick else SIZES
    results = {}
    for n, d in sizes:
        print(f"running n={n} d={d} ...", file=sys.stderr, flush=True)
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                "--one",
                str(n),
                str(d),
                "--cap",
                str(args.cap),
                "--sympy-max-n",
                str(args.sympy_max_n),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        results[(n, d)] = json.loads(proc.stdout.strip().splitlines()[-1])
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} cores, "
        f"load average at the end {load}; inputs uniform in [-1, 1] with two decimals\n"
    )
    print(table(results))
    print()
    print(goals(results, explain_time()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
