"""Hostile input at growing sizes: CPU time, peak memory and the growth exponent of each.

Issue 15 asks every reader and every size-driven path to grow linearly. For each hostile
generator (the audit reproducers of issue 15 rows 1-7, and the compute, spec and number
sizes of rows 10, 11, 19 and 20) this runs one size per fresh process (``--one GEN SIZE``),
measures the CPU time of the call and the growth of peak RSS during it, and fits the
growth exponent (the slope of log time against log size over the three largest sizes).
Every exponent must be at most 1.2; the script exits 1 when one is not, or when a size ran
past its time cap (the remaining sizes of that generator are then skipped).

    python benchmarks/hostile.py                  # every generator, 1 KB ... 10 MB
    python benchmarks/hostile.py --quick          # 1 KB ... 1 MB
    python benchmarks/hostile.py --only audit-     # generators whose name starts so
    python benchmarks/hostile.py --markdown       # the table as Markdown (docs/security.md)
    python benchmarks/hostile.py --code ../other  # measure another checkout's symattn

Not a timed test: the numbers depend on the machine; run it and read them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KB, MB = 1_000, 1_000_000
TEXT_SIZES = (1 * KB, 10 * KB, 100 * KB, 1 * MB, 10 * MB)
MAX_EXPONENT = 1.2
#: a size that takes longer than this (seconds) stops its generator
CAP = 120.0


def _lines(make: Callable[[int], str], size: int) -> str:
    """Lines ``make(0)``, ``make(1)``, ... until ``size`` characters."""
    out: list[str] = []
    total, i = 0, 0
    while total < size:
        line = make(i) + "\n"
        out.append(line)
        total += len(line)
        i += 1
    return "".join(out)[:size]


def _blocks(block: Callable[[int], str], size: int) -> str:
    """One block of ``size`` characters, or blocks of at most ~90 KB (under max_line_length)."""
    if size <= 90 * KB:
        return block(size)
    return "\n\n".join(block(90 * KB) for _ in range(size // (90 * KB)))


def _ones(size: int) -> str:  # row 5: $$ 1+1+...+1 = N $$ (one long chain)
    terms = max(1, (size - 20) // 2)
    return f"$$ {'1+' * (terms - 1)}1 = {terms + 1} $$"


def _parens(size: int) -> str:  # row 4: one long line of \( \( \( ...
    return "\\( " * (size // 3)


ROW7 = [  # row 7: math the grammar does not know, and characters that change nothing
    "$$ 1 +\u200b 1 = 3 $$",
    "$$ " + "(" * 50 + "1+1" + ")" * 50 + " = 3 $$",
    "$$ 1 + 1 + 0e999 = 3 $$",
    "$$ 5! = 100 $$",
    "$$ \\ln 2 = 0.69 $$",
    "$$ \\binom{4}{2} = 5 $$",
    "$$ \\max(1, 2) = 3 $$",
    "$$ 1 + 1\x00 = 3 $$",
    "$$ 1 + 1\u00ad = 3 $$",
]

PROSE = (
    "Attention weighs every key by how well it matches the query; the weights sum to one. "
    "注意力机制根据查询与键的匹配程度为每个键分配权重，权重之和为一。"
)

#: name -> (what it is, the issue-15 row, text of a given size)
TEXT_GENERATORS: dict[str, tuple[str, str, Callable[[int], str]]] = {
    "audit-redefine": (
        "N lines `s = 0` ... `s = N-1`: one name redefined",
        "1",
        lambda n: _lines(lambda i: f"s = {i}", n),
    ),
    "audit-chains": (
        "N lines `x_i = i.5 + 0.25 = i.75`",
        "2",
        lambda n: _lines(lambda i: f"x_{i} = {i}.5 + 0.25 = {i}.75", n),
    ),
    "audit-unclosed-display": (
        "an unclosed `\\[`, then lines of arithmetic",
        "3",
        lambda n: "\\[\n" + _lines(lambda i: f"{i} + 1 = {i + 1}", n),
    ),
    "audit-unclosed-align": (
        "an unclosed `\\begin{align}`, then aligned rows",
        "3",
        lambda n: "\\begin{align}\n" + _lines(lambda i: f"a_{i} &= {i} + 1 \\\\", n),
    ),
    "audit-fences": (
        "many code fences, one left open",
        "3",
        lambda n: _lines(lambda i: "```" if i % 3 == 0 else f"{i} + 1 = {i + 2}", n),
    ),
    "audit-parens-line": (
        "lines of `\\( \\( \\( ...` (99 KB each)",
        "4",
        lambda n: _blocks(_parens, n),
    ),
    "audit-long-sum": (
        "`$$ 1+1+...+1 = N $$` (blocks of 45k terms)",
        "5",
        lambda n: _blocks(_ones, n),
    ),
    "audit-plain": ("plain prose, no math", "6", lambda n: _lines(lambda i: PROSE, n)),
    "audit-unknown-math": (
        "zero-width space, 50 parentheses, 0e999, 5!, \\ln, \\binom, \\max, NUL, soft hyphen",
        "7",
        lambda n: _lines(lambda i: ROW7[i % len(ROW7)], n),
    ),
    "audit-code": (
        "one Python code block of N lines `x_i = [i, i.5, 0.25]`",
        "1-7",
        lambda n: "```python\n" + _lines(lambda i: f"x{i} = [{i}, {i}.5, 0.25]", n),
    ),
    "audit-table": (
        "one Markdown table of N rows of numbers",
        "1-7",
        lambda n: "| a | b | c |\n|---|---|---|\n" + _lines(lambda i: f"| {i} | {i}.5 | 1 |", n),
    ),
    "audit-latex": (
        "a .tex text: paragraphs with `$w_i = 0.5$` and `\\[ a_i = i + 1 = i+1 \\]`",
        "1-7",
        lambda n: _lines(
            lambda i: (
                f"The weight $w_{{{i}}} = 0.5$ holds.\n"
                if i % 2
                else f"\\[ a_{{{i}}} = {i} + 1 = {i + 1} \\]\n"
            ),
            n,
        ),
    ),
    "audit-latex-dollars": (
        "a .tex text of `$a$ $a$ ...` (the LaTeX walker's dearest input, no formula)",
        "1-7",
        lambda n: "$a$ " * (n // 4),
    ),
    "audit-latex-open": (
        "a .tex text: an unclosed `\\begin{align}`, then aligned rows",
        "3",
        lambda n: "\\begin{align}\n" + _lines(lambda i: f"a_{{{i}}} &= {i} + 1 \\\\", n),
    ),
    "audit-text-chains": (
        "a .txt text of N lines `x_i = i.5 + 0.25 = i.75`",
        "2",
        lambda n: _lines(lambda i: f"x_{i} = {i}.5 + 0.25 = {i}.75", n),
    ),
}

#: the file name each text generator is audited as (its format); others are Markdown
PATHS: dict[str, str] = {
    "audit-latex": "bench.tex",
    "audit-latex-dollars": "bench.tex",
    "audit-latex-open": "bench.tex",
    "audit-text-chains": "bench.txt",
}


def _spec(n: int, d: int, digits: int) -> dict[str, Any]:
    rng = random.Random(15)
    values = [f"0.{rng.randrange(10 ** (digits - 1), 10**digits)}" for _ in range(n * d)]
    rows = [values[i * d : (i + 1) * d] for i in range(n)]
    return {"tokens": [f"t{i}" for i in range(n)], "inputs": {"Q": rows, "K": rows, "V": rows}}


def _spec_json(n: int, d: int, digits: int) -> str:
    """The spec of :func:`_spec` as JSON with bare numbers (as a TOML file would hold them)."""
    data = _spec(n, d, digits)
    matrix = "[" + ",".join("[" + ",".join(row) + "]" for row in data["inputs"]["Q"]) + "]"
    tokens = json.dumps(data["tokens"])
    return f'{{"tokens": {tokens}, "inputs": {{"Q": {matrix}, "K": {matrix}, "V": {matrix}}}}}'


def _read_scores(result: Any) -> object:
    """Force the exact work of a lazy result: the scores and the output as float64."""
    return result.trace.find("scores").value.to_numpy(), result.trace.find(
        "output"
    ).value.to_numpy()


def _run_audit(text: str, path: str = "bench.md") -> Callable[[], object]:
    from symattn.read.audit import audit

    return lambda: audit(text, path=path)


def _prepare(name: str, size: int) -> Callable[[], object]:
    """The call to time for generator ``name`` at ``size`` (inputs built before timing)."""
    if name in TEXT_GENERATORS:
        return _run_audit(TEXT_GENERATORS[name][2](size), PATHS.get(name, "bench.md"))
    if name == "spec-load":  # parse and validate a spec file of `size` bytes (2-digit entries)
        from symattn.spec import loads_spec

        n = max(1, size // (3 * 64 * 7))  # about 7 bytes per entry, Q, K and V of n x 64
        text = json.dumps(_spec(n, 64, 2))
        return lambda: loads_spec(text, fmt="json")
    if name == "spec-load-toml":  # the same spec as TOML (tomllib, and the depth scan)
        from symattn.spec import loads_spec

        n = max(1, size // (3 * 64 * 7))
        data = _spec(n, 64, 2)
        rows = ",\n".join("[" + ", ".join(r) + "]" for r in data["inputs"]["Q"])
        text = f"tokens = {json.dumps(data['tokens'])}\n[inputs]\n" + "".join(
            f"{k} = [\n{rows}\n]\n" for k in "QKV"
        )
        return lambda: loads_spec(text, fmt="toml")
    if name == "spec-30-digits":  # row 20: n x 64 entries of 30 digits; size = n*n pairs
        from symattn.spec import loads_spec

        n = max(1, round(math.sqrt(size)))
        text = _spec_json(n, 64, 30)
        # run() is lazy: read the scores and the output, as every command does
        return lambda: _read_scores(loads_spec(text, fmt="json").run())
    if name == "compute-pairs":  # row 19: compute text output; size = query-key pairs L*S
        from symattn.cli.compute import render_text
        from symattn.spec import loads_spec

        n = max(1, round(math.sqrt(size)))
        spec = loads_spec(json.dumps(_spec(n, 64, 2)), fmt="json")
        return lambda: render_text(spec.run(), "bench", 10)
    if name == "round-digits":  # rows 10/11: round a value of `size` decimal digits
        from fractions import Fraction

        from symattn.numbers.rounding import round_decimals

        bits = int(size / math.log10(2))
        x = Fraction(3 ** int(bits / math.log2(3)) * 7 + 5, 7)
        return lambda: [str(round_decimals(x + k, 4)) for k in range(20)]  # 20 roundings
    if name == "exact-decimal":  # issue 24 row 16: write a value of `size` exact digits
        from fractions import Fraction

        from symattn.numbers.rounding import terminating_decimal

        x = Fraction(10**size // 3, 10**size)  # 0.333...3
        return lambda: [f"{terminating_decimal(x):f}" for _ in range(20)]  # (no Fraction gcd)
    if name == "template-steps":  # issue 24 row 9: a user template looping `size` times
        from symattn.present.render import environment

        env = environment("markdown", "en")
        body = "{% for i in range(" + str(size) + ") %}{% endfor %}"
        return lambda: env.from_string(body).render()
    raise SystemExit(f"unknown generator {name!r}")


#: name -> (what, rows, sizes, unit)
OTHER_GENERATORS: dict[str, tuple[str, str, tuple[int, ...], str]] = {
    "spec-load": ("loads_spec of a JSON spec, 2-digit entries", "20", TEXT_SIZES, "bytes"),
    "spec-load-toml": ("loads_spec of a TOML spec, 2-digit entries", "24", TEXT_SIZES, "bytes"),
    "spec-30-digits": (
        "loads_spec + run + scores and output to_numpy, n tokens, d = 64, 30-digit entries (size = n*n pairs; "
        "3000 tokens is the issue's 92 s / 2.4 GB spec, refused by max_bits)",
        "20",
        (100, 10_000, 100_000, 1_000_000, 9_000_000),
        "pairs",
    ),
    "compute-pairs": (
        "compute's text of n tokens, d = 64 (size = n*n pairs)",
        "19",
        (100, 1_000, 10_000, 40_000, 160_000),
        "pairs",
    ),
    "exact-decimal": (
        "terminating_decimal of a value of N exact digits, 20 times",
        "24 #16",
        (1_000, 10_000, 100_000, 1_000_000),
        "digits",
    ),
    "template-steps": (
        "a user template's empty loop of N iterations (the sandbox counts each)",
        "24 #9",
        (1_000, 10_000, 100_000, 900_000),
        "steps",
    ),
    "round-digits": (
        "round_decimals of a value of N digits, 20 times",
        "10, 11",
        (1_000, 4_300, 20_000, 79_000),
        "digits",
    ),
}


def one(name: str, size: int) -> dict[str, Any]:
    """CPU time of one call in this process; peak RSS growth during it (MB)."""
    call = _prepare(name, size)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.process_time()  # CPU time: the machine is shared, wall time is its load
    error = None
    try:
        call()
    except Exception as e:  # noqa: BLE001 - a refusal (LimitError) is a result too
        error = f"{type(e).__name__}: {str(e)[:80]}"
    seconds = time.process_time() - t0
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "seconds": seconds,
        "rss_mb": (after - before) / 1024,
        "peak_mb": after / 1024,  # the whole process: interpreter, imports, input, the call
        "error": error,
    }


@dataclass
class Point:
    size: int
    seconds: float | None
    rss_mb: float | None
    note: str = ""
    peak_mb: float | None = None


def measure(name: str, size: int, code: Path) -> Point:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", name, str(size)]
    env = {**os.environ, "PYTHONPATH": str(code)}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=CAP, env=env, check=False)
    except subprocess.TimeoutExpired:
        return Point(size, None, None, f"> {CAP:.0f} s (stopped)")
    if p.returncode != 0:
        return Point(size, None, None, f"crashed: {p.stderr.strip().splitlines()[-1:]}")
    data = json.loads(p.stdout)
    return Point(size, data["seconds"], data["rss_mb"], data["error"] or "", data["peak_mb"])


def exponent(points: list[Point], key: str, floor: float) -> float | None:
    """Least-squares slope of log(value) on log(size) over the three largest sizes that ran."""
    # a refused size (a LimitError) measures the refusal, not the work: left out of the fit
    pts = [(p.size, getattr(p, key)) for p in points if getattr(p, key) is not None and not p.note]
    pts = [(s, max(v, floor)) for s, v in pts][-3:]
    if len(pts) < 2 or all(v <= floor for _, v in pts):
        return None
    xs = [math.log(s) for s, _ in pts]
    ys = [math.log(v) for _, v in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var


def _size(n: int, unit: str) -> str:
    if unit != "bytes":
        return f"{n:,} {unit}"
    return f"{n // MB} MB" if n >= MB else f"{n // KB} KB"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--one", nargs=2, metavar=("GEN", "SIZE"), help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true", help="sizes up to 1 MB only")
    ap.add_argument("--only", default="", help="generators whose name starts with this")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument(
        "--code", type=Path, default=ROOT, help="the checkout whose symattn is measured"
    )
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return 0

    generators: list[tuple[str, str, str, tuple[int, ...], str]] = [
        (name, what, row, TEXT_SIZES, "bytes") for name, (what, row, _) in TEXT_GENERATORS.items()
    ]
    generators += [(n, w, r, s, u) for n, (w, r, s, u) in OTHER_GENERATORS.items()]
    rows: list[list[str]] = []
    ok = True
    for name, what, row, sizes, unit in generators:
        if not name.startswith(args.only):
            continue
        if args.quick:
            sizes = sizes[:-1] if len(sizes) > 4 else sizes
        points: list[Point] = []
        for size in sizes:
            point = measure(name, size, args.code)
            points.append(point)
            shown = "—" if point.seconds is None else f"{point.seconds:.3f}"
            mem = "—" if point.rss_mb is None else f"{point.rss_mb:.0f}"
            peak = "—" if point.peak_mb is None else f"{point.peak_mb:.0f}"
            print(
                f"  {name:24} {_size(size, unit):>16} {shown:>9} s {mem:>6} MB"
                f" (peak {peak:>5} MB)  {point.note}",
                file=sys.stderr,
                flush=True,
            )
            if point.seconds is None:
                break
        t_exp = exponent(points, "seconds", 0.01)
        m_exp = exponent(points, "rss_mb", 2.0)
        stopped = any(p.seconds is None for p in points)
        good = (
            not stopped
            and (t_exp is None or t_exp <= MAX_EXPONENT)
            and (m_exp is None or m_exp <= MAX_EXPONENT)
        )
        ok &= good
        largest = points[-1]
        rows.append(
            [
                name,
                row,
                what,
                " / ".join(
                    f"{_size(p.size, unit)}: "
                    + (
                        "stopped"
                        if p.seconds is None
                        else f"{p.seconds:.2f} s, {p.rss_mb:.0f} MB (peak {p.peak_mb:.0f})"
                        + (" (refused)" if p.note.startswith("LimitError") else "")
                    )
                    for p in points
                ),
                "—" if t_exp is None else f"{t_exp:.2f}",
                "flat" if m_exp is None else f"{m_exp:.2f}",
                ("ok" if good else "OVER") + (f" ({largest.note})" if largest.note else ""),
            ]
        )
    head = [
        "generator",
        "row",
        "input",
        "time, peak RSS growth (process peak RSS) by size",
        "time exp.",
        "memory exp.",
        "",
    ]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
    else:
        for r in rows:
            print(
                f"{r[0]} (row {r[1]}): {r[2]}\n    {r[3]}\n    time exponent {r[4]}, memory exponent {r[5]}: {r[6]}"
            )
    print(f"\nevery exponent <= {MAX_EXPONENT}: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
