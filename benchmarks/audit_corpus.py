"""``symattn audit`` measured on the corpus of real worked examples (tests/corpus).

The corpus has two parts: ``tests/corpus/fresh/`` holds the texts of a round of first contact
(collected before the round's changes and measured once on the code they had never been run on;
the figure of that run is in docs/audit.md with its commit), ``tests/corpus/dev/`` the texts the
reader has been developed on (fresh texts join it once their first-contact figure is recorded).

Every text is audited as it is; each number its ``.expect.toml`` lists (a line, the number
as written and its occurrence on that line) is found in the text, and the audit's findings
and coverage records are matched to it by line and column. The table:

- **recall**: the numbers the corpus marks as errors or warnings (``wrong-value``,
  ``truncated``, ``dk-mismatch``, ``approximate-constant``, ``not-normalized``,
  ``conflicting-definition``, ``propagated-rounding``, ``precision-mixed``,
  ``interpretation``) that get a finding of severity error or warning;
- **cause agreement**: of those, the ones whose finding has the expected code (or names it
  among its ``alternatives``: the other cause that explains the claim as well, which the
  finding reports with it, e.g. a scaled score carried from a wrong score *and* divided by
  the author's wrong divisor);
- **false accusations**: error findings on numbers the corpus says are right (``ok``,
  ``ok-author-frame``, ``ok-rounded-inputs``, ``float-representation``); the same count for
  inputs, ``carried-error`` and ``not-checkable`` numbers, and for numbers the corpus does
  not list, is shown next to it; **false warnings**: warning findings on numbers the corpus
  says are right (noise, not accusations);
- **coverage**: numbers the audit read (its coverage record says ``read`` or ``judged`` at
  that place) over the numbers the corpus lists; **judged**: those it judged.

Then the summary a reviewer would count (issue 19), per corpus part and language:

- **direct errors**: the author's own errors (every error verdict but ``dk-mismatch``) that
  get a finding of severity error or warning;
- **carried errors**: numbers right for the author's own earlier wrong number
  (``carried-error``) that get a finding (ideally ``propagated-error``);
- **frame errors**: a wrong divisor counted once per text (a text whose expectations hold a
  ``dk-mismatch``), found when the audit reports ``dk-mismatch`` anywhere in the text;
- **false accusations**: every error-severity finding that is not on an author's error: on a
  number the corpus says is right, on an input, on a number that cannot be checked, and on a
  number the corpus does not list at all (a number that is no claim).

    python benchmarks/audit_corpus.py            # the table, one row per text and the total
    python benchmarks/audit_corpus.py --misses   # also every missed error and every accusation
    python benchmarks/audit_corpus.py -k zh16    # only texts whose name contains zh16
    python benchmarks/audit_corpus.py --corpus fresh   # one part (dev, fresh, all, or a folder)
    python benchmarks/audit_corpus.py --round 2026-12-01   # only the texts of one round

A text of a first-contact round keeps ``round = "<date>"`` and ``first_contact = "<commit>"``
in its expect file when it joins ``dev/``; ``--round`` picks those texts out again.

    python benchmarks/audit_corpus.py --scaling  # the growth exponent on joined texts

``--scaling`` audits the first 1, 2, 4, … corpus texts (in name order) joined into one
document, and all of them, and prints the CPU time of each with the growth exponent (the
least-squares slope of log time over log characters; 1 is linear).

At the end it times a real 100 KB post (five corpus texts and prose; issue 12: "audit of a
100 KB post stays under 1 s"): CPU and wall time, medians of five runs after a warm-up, with
the load average.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symattn.read.audit import AuditReport, audit  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
#: the texts the reader is developed on
TEXTS = CORPUS / "dev"
#: the texts of the current round of first contact
FRESH = CORPUS / "fresh"

#: verdicts the corpus counts as findings a reader must see
ERRORS = frozenset(
    {
        "wrong-value",
        "truncated",
        "dk-mismatch",
        "approximate-constant",
        "not-normalized",
        "conflicting-definition",
    }
)
WARNINGS = frozenset({"propagated-rounding", "precision-mixed", "interpretation"})
#: verdicts that say the number is right
RIGHT = frozenset({"ok", "ok-author-frame", "ok-rounded-inputs", "float-representation"})

#: a number as the corpus writes it (a sentence's final period is not part of it)
_NUMBER = re.compile(r"[-−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Expected:
    """One number (or phrase) of an expect file, placed in its text."""

    line: int
    column: int
    text: str
    role: str
    verdict: str  # "input" for inputs
    phrase: bool  # an interpretation sentence rather than a number


def place(line: str, text: str, occurrence: int) -> int | None:
    """1-based column of the ``occurrence``-th number ``text`` on ``line`` (a sign may sit
    before it); a phrase is found as a substring."""
    if not _NUMBER.fullmatch(text):
        at = -1
        for _ in range(occurrence):
            at = line.find(text, at + 1)
            if at < 0:
                return None
        return at + 1
    seen = 0
    for m in _NUMBER.finditer(line):
        s = m.group()
        unsigned = s.lstrip("-−")
        for cand, start in ((s, m.start()), (unsigned, m.end() - len(unsigned))):
            if cand == text or cand.rstrip(".") == text:
                seen += 1
                if seen == occurrence:
                    return start + 1
                break
    return None


def unsigned(line: str, column: int) -> int:
    """The column of a number's first digit (a sign before it is skipped), so that claims
    written ``-0.15`` match however a reader places them."""
    while 0 < column <= len(line) and line[column - 1] in "-−+":
        column += 1
    return column


def expected_of(path: Path) -> tuple[Path, list[Expected]]:
    """The text an expect file describes and its numbers, placed."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    stem = path.name.removesuffix(".expect.toml")
    text_path = next(p for p in path.parent.glob(stem + ".*") if not p.name.endswith(".toml"))
    lines = text_path.read_text(encoding="utf-8").split("\n")
    out = []
    for n in data.get("number", []):
        line = lines[n["line"] - 1]
        column = place(line, n["text"], n.get("occurrence", 1))
        if column is None:
            raise SystemExit(f"{path.name}: line {n['line']}: {n['text']!r} not found")
        column = unsigned(line, column)
        verdict = n.get("verdict", "input") if n["role"] == "claim" else "input"
        out.append(
            Expected(
                n["line"],
                column,
                n["text"],
                n["role"],
                verdict,
                not _NUMBER.fullmatch(n["text"]),
            )
        )
    return text_path, out


@dataclass
class Row:
    """The measures of one text."""

    name: str
    lang: str = ""
    numbers: int = 0
    read: int = 0
    judged: int = 0
    errors: int = 0
    found: int = 0
    agree: int = 0
    false_ok: int = 0
    false_input: int = 0
    false_carried: int = 0
    false_unchecked: int = 0
    false_unlisted: int = 0
    false_warnings: int = 0
    direct: int = 0
    direct_found: int = 0
    carried: int = 0
    carried_found: int = 0
    frames: int = 0
    frames_found: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)

    @property
    def accusations(self) -> int:
        """Error findings not on an author's error (issue 19's false accusations)."""
        return self.false_ok + self.false_input + self.false_unchecked + self.false_unlisted

    def add(self, other: Row) -> None:
        for k in (
            "numbers",
            "read",
            "judged",
            "errors",
            "found",
            "agree",
            "false_ok",
            "false_input",
            "false_carried",
            "false_unchecked",
            "false_unlisted",
            "false_warnings",
            "direct",
            "direct_found",
            "carried",
            "carried_found",
            "frames",
            "frames_found",
        ):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.seconds += other.seconds
        self.misses += other.misses


def coverage_of(report: AuditReport) -> dict[tuple[int, int], str]:
    """(line, column) -> status of every number the audit's coverage record lists."""
    return {(n.line, n.column): n.status for n in getattr(report, "numbers", ())}


def measure(expect_path: Path) -> Row:
    """Audit one text and compare with its expectations."""
    text_path, expected = expected_of(expect_path)
    text = text_path.read_text(encoding="utf-8")
    start = time.perf_counter()
    report = audit(text, path=text_path.name)
    lang = tomllib.loads(expect_path.read_text(encoding="utf-8")).get("lang", "")
    row = Row(text_path.name, lang=lang, seconds=time.perf_counter() - start)
    lines = text.split("\n")
    status = coverage_of(report)
    at: dict[tuple[int, int], list[tuple[str, str]]] = {}
    by_line: dict[int, list[tuple[str, str]]] = {}
    causes: dict[tuple[int, int], set[str]] = {}
    for f in report.findings:
        column = unsigned(lines[f.line - 1], f.column) if 0 < f.line <= len(lines) else f.column
        at.setdefault((f.line, column), []).append((f.code, f.severity))
        by_line.setdefault(f.line, []).append((f.code, f.severity))
        if f.severity in ("error", "warning"):
            causes.setdefault((f.line, column), set()).update((f.code, *f.alternatives))
    listed = set()
    for e in expected:
        listed.add((e.line, e.column))
        if e.phrase:
            got = [c for c in by_line.get(e.line, []) if c[0] == "interpretation"]
        else:
            row.numbers += 1
            s = status.get((e.line, e.column))
            row.read += s in ("read", "judged")
            row.judged += s == "judged"
            got = at.get((e.line, e.column), [])
        flagged = [c for c, sev in got if sev in ("error", "warning")]
        accused = [c for c, sev in got if sev == "error"]
        where = f"{text_path.name}:{e.line}:{e.column} {e.text}"
        if e.verdict == "dk-mismatch":
            row.frames = 1
        elif e.verdict in ERRORS:
            row.direct += 1
            row.direct_found += bool(flagged)
        elif e.verdict == "carried-error":
            row.carried += 1
            row.carried_found += bool(flagged)
            if not flagged:
                row.misses.append(f"  carry  {where}: carried error, no finding")
        if e.verdict in ERRORS or e.verdict in WARNINGS:
            row.errors += 1
            if flagged:
                row.found += 1
                agreed = e.verdict in flagged or e.verdict in causes.get((e.line, e.column), ())
                row.agree += agreed
                if not agreed:
                    row.misses.append(f"  cause  {where}: expected {e.verdict}, got {flagged}")
            else:
                row.misses.append(f"  missed {where}: expected {e.verdict}")
        elif accused:
            kind = (
                "false_ok"
                if e.verdict in RIGHT
                else "false_input"
                if e.verdict == "input"
                else "false_carried"
                if e.verdict == "carried-error"
                else "false_unchecked"
            )
            setattr(row, kind, getattr(row, kind) + 1)
            row.misses.append(f"  ACCUSE {where}: {e.verdict} but {accused}")
        elif e.verdict in RIGHT and flagged:
            row.false_warnings += 1
            row.misses.append(f"  warns  {where}: {e.verdict} but {flagged}")
    for (line, column), got in at.items():
        if (line, column) not in listed and any(sev == "error" for _, sev in got):
            row.false_unlisted += 1
            row.misses.append(f"  stray  {text_path.name}:{line}:{column}: {got}")
    if row.frames:
        row.frames_found = int(
            any("dk-mismatch" in (f.code, *f.alternatives) for f in report.findings)
        )
        if not row.frames_found:
            row.misses.append(f"  frame  {text_path.name}: the wrong divisor is not reported")
    return row


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


HEADER = (
    f"{'text':52} {'nums':>5} {'read':>6} {'judged':>6} {'errs':>4} {'recall':>6} "
    f"{'cause':>6} {'false':>5} {'f.in':>4} {'f.car':>5} {'f.unc':>5} {'f.unl':>5} {'warn':>4} "
    f"{'s':>5}"
)


def line_of(r: Row) -> str:
    return (
        f"{r.name[:52]:52} {r.numbers:5d} {pct(r.read, r.numbers)} {pct(r.judged, r.numbers)} "
        f"{r.errors:4d} {pct(r.found, r.errors)} {pct(r.agree, r.found)} {r.false_ok:5d} "
        f"{r.false_input:4d} {r.false_carried:5d} {r.false_unchecked:5d} {r.false_unlisted:5d} "
        f"{r.false_warnings:4d} {r.seconds:5.2f}"
    )


SUMMARY_HEADER = (
    f"{'part':8} {'lang':4} {'texts':>5} {'direct errors':>15} {'carried errors':>15} "
    f"{'frame errors':>13} {'false acc.':>10} {'coverage':>9}"
)


def summary_of(part: str, lang: str, texts: int, r: Row) -> str:
    """One line of the reviewer's summary: found/total and the share for each kind."""

    def share(a: int, b: int) -> str:
        return f"{a}/{b} {pct(a, b).strip():>6}"

    return (
        f"{part:8} {lang:4} {texts:5d} {share(r.direct_found, r.direct):>15} "
        f"{share(r.carried_found, r.carried):>15} {f'{r.frames_found}/{r.frames}':>13} "
        f"{r.accusations:10d} {pct(r.read, r.numbers):>9}"
    )


def round_of(expect_path: Path) -> str:
    """The first-contact round a text was collected in (``round`` of its expect file)."""
    return str(tomllib.loads(expect_path.read_text(encoding="utf-8")).get("round", ""))


def parts_of(choice: str) -> list[tuple[str, Path]]:
    """The corpus parts ``--corpus`` names: dev, fresh, all (both), or a folder."""
    if choice == "all":
        return [("dev", TEXTS), ("fresh", FRESH)]
    if choice in ("dev", "fresh"):
        return [(choice, TEXTS if choice == "dev" else FRESH)]
    return [(Path(choice).name, Path(choice))]


def run(paths: Iterable[Path], misses: bool, part: str = "") -> Row:
    total = Row("TOTAL")
    by_lang: dict[str, tuple[int, Row]] = {}
    print(HEADER)
    for p in paths:
        r = measure(p)
        print(line_of(r))
        if misses and r.misses:
            print("\n".join(r.misses))
        total.add(r)
        n, lang_row = by_lang.get(r.lang, (0, Row(r.lang, lang=r.lang)))
        lang_row.add(r)
        by_lang[r.lang] = (n + 1, lang_row)
    print(line_of(total))
    print("\n" + SUMMARY_HEADER)
    for lang in sorted(by_lang):
        print(summary_of(part, lang, *by_lang[lang]))
    print(summary_of(part, "all", sum(n for n, _ in by_lang.values()), total))
    codes = Counter(m.split()[0] for m in total.misses)
    print(
        f"\nrecall {pct(total.found, total.errors).strip()} ({total.found}/{total.errors}), "
        f"cause agreement {pct(total.agree, total.found).strip()}, "
        f"false accusations {total.false_ok} (on inputs {total.false_input}, carried errors "
        f"{total.false_carried}, not-checkable {total.false_unchecked}, unlisted numbers "
        f"{total.false_unlisted}), false warnings {total.false_warnings}, coverage {pct(total.read, total.numbers).strip()} "
        f"({total.read}/{total.numbers}), judged {pct(total.judged, total.numbers).strip()}"
    )
    if misses:
        print(dict(codes))
    return total


#: the texts of the 100 KB post (read whole: no reading budget is spent)
POST_TEXTS = (
    "zh07_dw-llms-scratch-simple-self-attention.md",
    "en06_blazewild-multihead-numpy.md",
    "en12_rodrigocesar-walkthrough-multihead.md",
    "zh05_dw-llms-scratch-causal-mask.md",
    "en24_blazewild-nn-multiheadattention.md",
)


def post_100kb() -> str:
    """A real 100 KB post: five corpus texts as its parts, then prose up to 100 000 characters."""
    body = "\n\n".join(
        f"# Part {i}\n\n" + (TEXTS / n).read_text(encoding="utf-8")
        for i, n in enumerate(POST_TEXTS)
    )
    prose = (
        "Attention weighs every key by how well it matches the query; the weights sum to one.\n\n"
    )
    return body + "\n\n" + prose * ((100_000 - len(body)) // len(prose))


def dense_100kb() -> str:
    """100 KB of nothing but worked examples: corpus texts one after another (in name order)
    up to 100 000 characters, far denser in numbers than a real post."""
    parts, size = [], 0
    for path in sorted(TEXTS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if size + len(text) > 100_000:
            break
        parts.append(f"# {path.stem}\n\n{text}")
        size += len(parts[-1]) + 2
    return "\n\n".join(parts)


def time_post(post: str, what: str, runs: int = 5) -> str:
    """The audit time of ``post``: CPU and wall medians of ``runs`` after a warm-up."""
    audit(post, path="post.md")
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        audit(post, path="post.md")
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{what} ({len(post)} characters): CPU {statistics.median(cpu):.2f} s, wall "
        f"{statistics.median(wall):.2f} s (medians of {runs}; load average {load})"
    )


def joined(count: int) -> str:
    """The first ``count`` corpus texts (in name order) as one document, each under a heading."""
    paths = sorted(TEXTS.glob("*.md"))[:count]
    return "\n\n".join(f"# {p.stem}\n\n" + p.read_text(encoding="utf-8") for p in paths)


def growth_exponent(sizes: list[int], times: list[float]) -> float:
    """The least-squares slope of ``log time`` over ``log size``."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-6)) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def audit_cpu(text: str, runs: int = 1) -> float:
    """The median CPU time of auditing ``text`` (seconds)."""
    times = []
    for _ in range(runs):
        c = time.process_time()
        audit(text, path="joined.md")
        times.append(time.process_time() - c)
    return statistics.median(times)


def scaling(start: int = 1, runs: int = 1) -> float:
    """Audit ``start``, ``2 start``, … corpus texts joined, and all; print each time and the
    growth exponent (returned)."""
    total = len(list(TEXTS.glob("*.md")))
    counts, n = [], start
    while n < total:
        counts.append(n)
        n *= 2
    counts.append(total)
    sizes, times = [], []
    audit(joined(1), path="joined.md")  # warm-up: imports and caches
    print("| texts | characters | audit CPU |\n|---:|---:|---:|")
    for count in counts:
        text = joined(count)
        sizes.append(len(text))
        times.append(audit_cpu(text, runs))
        print(f"| {count} | {len(text)} | {times[-1]:.2f} s |")
    one_by_one = sum(
        audit_cpu(f"# {p.stem}\n\n" + p.read_text(encoding="utf-8"))
        for p in sorted(TEXTS.glob("*.md"))
    )
    exponent = growth_exponent(sizes, times)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"\ngrowth exponent {exponent:.2f} (1 is linear); all {total} texts one by one: "
        f"{one_by_one:.2f} s CPU; load average {load}"
    )
    return exponent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--misses", action="store_true", help="list missed errors and accusations")
    ap.add_argument("-k", default="", help="only texts whose name contains this")
    ap.add_argument(
        "--corpus", default="all", help="dev, fresh, all (default) or a folder of texts"
    )
    ap.add_argument("--round", default="", help="only the texts of this first-contact round")
    ap.add_argument(
        "--scaling", action="store_true", help="the growth exponent of audit on joined texts"
    )
    args = ap.parse_args(argv)
    if args.scaling:
        scaling()
        return 0
    for part, folder in parts_of(args.corpus):
        paths = sorted(
            p
            for p in folder.glob("*.expect.toml")
            if args.k in p.name and (not args.round or round_of(p) == args.round)
        )
        if paths:
            print(
                f"\n== {part}: {folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}"
            )
            run(paths, args.misses, part)
    if not args.k and args.corpus in ("all", "dev"):
        print("\n" + time_post(post_100kb(), "100 KB post (5 corpus texts and prose)"))
        print(time_post(dense_100kb(), "100 KB of worked examples only (corpus texts end to end)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
