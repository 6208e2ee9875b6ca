"""Run the fuzz campaign: every target ``fuzz/fuzz_*.py`` for a fixed time, a few at a time.

    python fuzz/campaign.py                          # every target, 610 s each, 2 at a time
    python fuzz/campaign.py --seconds 60 --jobs 1    # a short try
    python fuzz/campaign.py --targets audit spec     # some targets (names without fuzz_)
    python fuzz/campaign.py --seeds OLD_CAMPAIGN_DIR # also start from an earlier run's corpora

Each target gets a folder ``OUT/<name>/`` with ``corpus/`` (the inputs it found, seeded from
``fuzz/corpus/<name>/`` when that exists), ``artifacts/`` (a crashing, hanging or
memory-hungry input, with the libFuzzer prefix ``crash-``, ``timeout-`` or ``oom-``) and
``log.txt``. One input running longer than ``--input-timeout`` seconds is a hang, one using
more than ``--rss-mb`` a memory finding: both count as findings, like a crash. libFuzzer
stops a target at its first finding; fix it, add it to tests/test_hostile_regressions.py,
and run the target again.

At the end the campaign prints (and writes to ``OUT/summary.md``) a Markdown table for
docs/security.md: the commit it ran on (and whether the work tree had changes), and per
target the seconds, inputs run, inputs per second, corpus size and what was found.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

_DONE = re.compile(r"Done (\d+) runs in (\d+) second")
_STAT = re.compile(r"#(\d+)\s+(?:pulse|NEW|REDUCE|DONE|INITED)\b.*?exec/s: (\d+)")
_FINDING = re.compile(
    r"(Uncaught Python exception|==\d+== ERROR|ALARM: working on the last Unit|out-of-memory"
    r"|AssertionError|Traceback)"
)


@dataclass
class Result:
    name: str
    seconds: float
    runs: int | None
    exec_per_s: int | None
    corpus: int
    finding: str | None
    artifacts: list[str]
    returncode: int


def targets(names: list[str] | None) -> list[str]:
    """Target names (``fuzz_X.py`` -> ``X``), every one in the folder unless named."""
    found = sorted(p.stem.removeprefix("fuzz_") for p in HERE.glob("fuzz_*.py"))
    if not names:
        return found
    unknown = sorted(set(names) - set(found))
    if unknown:
        raise SystemExit(f"unknown targets {unknown}; known: {found}")
    return names


def run_target(
    name: str, out: Path, seconds: int, input_timeout: int, rss_mb: int, seeds: Path | None
) -> Result:
    folder = out / name
    corpus, artifacts = folder / "corpus", folder / "artifacts"
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts.mkdir(exist_ok=True)
    seed_dirs = [d for d in (HERE / "corpus" / name,) if d.is_dir()]
    if seeds is not None and (seeds / name / "corpus").is_dir():
        seed_dirs.append(seeds / name / "corpus")
    cmd = [
        sys.executable,
        str(HERE / f"fuzz_{name}.py"),
        f"-max_total_time={seconds}",
        f"-timeout={input_timeout}",
        f"-rss_limit_mb={rss_mb}",
        f"-artifact_prefix={artifacts}/",
        "-print_final_stats=1",
        str(corpus),
        *map(str, seed_dirs),
    ]
    t0 = time.monotonic()
    with (folder / "log.txt").open("w", encoding="utf-8") as log:
        log.write(" ".join(cmd) + "\n")
        log.flush()
        try:
            p = subprocess.run(
                cmd, stdout=log, stderr=subprocess.STDOUT, cwd=HERE, timeout=seconds + 300
            )
            code = p.returncode
        except subprocess.TimeoutExpired:
            code = -1
    elapsed = time.monotonic() - t0
    text = (folder / "log.txt").read_text(encoding="utf-8", errors="replace")
    done = _DONE.findall(text)
    stats = _STAT.findall(text)
    found = [p.name for p in sorted(artifacts.iterdir())]
    finding = None
    if found or code not in (0,):
        m = _FINDING.search(text)
        finding = (m.group(1) if m else f"exit code {code}") + (
            f": {', '.join(found)}" if found else ""
        )
    return Result(
        name=name,
        seconds=elapsed,
        runs=int(done[-1][0]) if done else (int(stats[-1][0]) if stats else None),
        exec_per_s=int(stats[-1][1]) if stats else None,
        corpus=sum(1 for _ in corpus.iterdir()),
        finding=finding,
        artifacts=found,
        returncode=code,
    )


def commit() -> str:
    """The commit the campaign runs on, and whether the work tree differs from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "symattn", "fuzz"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout.strip()
    except OSError:
        return "unknown (no git)"
    return head + (" (with uncommitted changes)" if dirty else "")


def summary(results: list[Result], seconds: int, jobs: int, on: str) -> str:
    lines = [
        f"Campaign on commit {on}: each target `-max_total_time={seconds}`, {jobs} at a time, "
        f"atheris on CPython {sys.version.split()[0]}.",
        "",
        "| target | seconds | inputs run | inputs/s | corpus | found |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        runs = "—" if r.runs is None else f"{r.runs:,}"
        rate = "—" if r.exec_per_s is None else f"{r.exec_per_s:,}"
        lines.append(
            f"| `fuzz_{r.name}` | {r.seconds:.0f} | {runs} | {rate} | {r.corpus} "
            f"| {r.finding or 'nothing'} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=int, default=610, help="per target (default 610)")
    ap.add_argument("--jobs", type=int, default=2, help="targets at a time (default 2)")
    ap.add_argument("--targets", nargs="*", help="target names (default: every fuzz_*.py)")
    ap.add_argument("--out", type=Path, help="campaign folder (default /tmp/symattn-fuzz-TIME)")
    ap.add_argument("--seeds", type=Path, help="an earlier campaign folder to seed from")
    ap.add_argument("--input-timeout", type=int, default=60, help="seconds for one input")
    ap.add_argument("--rss-mb", type=int, default=3072, help="memory for one target")
    args = ap.parse_args()
    if shutil.which("git") is None:
        print("note: git not found; the summary cannot name the commit", file=sys.stderr)
    out = args.out or Path(f"/tmp/symattn-fuzz-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    names = targets(args.targets)
    on = commit()
    print(f"fuzz campaign in {out} on {on}: {', '.join(names)}", file=sys.stderr)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(
                run_target, n, out, args.seconds, args.input_timeout, args.rss_mb, args.seeds
            )
            for n in names
        ]
        results = []
        for f in futures:
            r = f.result()
            results.append(r)
            print(
                f"  fuzz_{r.name}: {r.seconds:.0f} s, {r.runs} runs, {r.finding or 'nothing'}",
                file=sys.stderr,
            )
    text = summary(results, args.seconds, args.jobs, on)
    (out / "summary.md").write_text(text, encoding="utf-8")
    print(text)
    return 1 if any(r.finding for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
