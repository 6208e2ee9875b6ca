"""Start-up of the command line: median CPU time of ``symattn --version`` and
``symattn check --help`` (one fresh process each run, bytecode compiled first).

    python benchmarks/startup.py [RUNS]

A linter run once per file in pre-commit must start in well under 0.1 s; the subcommands
are imported only when they run (symattn.cli.main's command table).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (["--version"], ["check", "--help"], ["audit", "--help"])


def cpu_seconds(argv: list[str], *, module: bool = True) -> float:
    """User + system CPU of one ``python -m symattn ARGV`` process (``python ARGV`` when
    ``module`` is false)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, *(["-m", "symattn"] if module else []), *argv],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


_OWN = """
import sys, time
t = time.process_time()
from symattn.cli.main import main
try:
    main({argv!r})
except SystemExit:
    pass
sys.stderr.write(repr(time.process_time() - t))
"""


def _own_cpu(argv: list[str]) -> float:
    """CPU of importing the command line and running ``argv``, inside one fresh process."""
    run = subprocess.run(
        [sys.executable, "-c", _OWN.format(argv=argv)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return float(run.stderr.strip().splitlines()[-1])


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "symattn")], check=True)
    base = statistics.median(cpu_seconds(["-c", "pass"], module=False) for _ in range(runs))
    print(f"python -c pass           median CPU {base:.3f} s (the interpreter alone)")
    own = statistics.median(_own_cpu(argv) for argv in COMMANDS for _ in range(runs))
    print(f"symattn's own share     median CPU {own:.3f} s (import + parse + run, in-process)")
    for argv in COMMANDS:
        times = [cpu_seconds(argv) for _ in range(runs)]
        print(
            f"symattn {' '.join(argv):<16} median CPU {statistics.median(times):.3f} s ({runs} runs)"
        )


if __name__ == "__main__":
    main()
