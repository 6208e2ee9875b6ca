"""A progress display for long runs of ``audit``: on stderr, on a terminal only.

rich draws it (a maintained library that redraws one line, knows the terminal's width and
clears itself; a hand-made ``\\r`` line does none of that well). It appears only when the
run has taken :data:`PROGRESS_AFTER` seconds and files remain, so a short run or a
pre-commit hook prints nothing extra, and never when stderr is a pipe or a file.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from symattn.cli.output import raw_stream

#: seconds a run takes before its progress shows
PROGRESS_AFTER = 1.0


@contextlib.contextmanager
def progress_display(total: int, label: str) -> Iterator[Callable[[], None]]:
    """Within, call the yielded function once per file done."""
    stream = raw_stream(sys.stderr)
    if total < 2 or not _isatty(stream):
        yield lambda: None
        return
    start = time.monotonic()
    state: dict[str, Progress] = {}
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        bar = state.get("bar")
        if bar is None and time.monotonic() - start >= PROGRESS_AFTER and done < total:
            bar = Progress(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(file=stream),
                transient=True,
            )
            bar.start()
            bar.add_task(label, total=total, completed=done)
            state["bar"] = bar
        elif bar is not None:
            bar.update(bar.task_ids[0], completed=done)

    try:
        yield step
    finally:
        if "bar" in state:
            state["bar"].stop()


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False
