"""Output of the command line: ``-o FILE`` written atomically and safely, and what reaches a
terminal.

Files (:func:`write_bytes_atomic`): a temporary file in the target's folder, fsynced, then
renamed over the target, so a reader never sees half a file and a failure leaves the old one.

- Only regular files are replaced: a device, a FIFO, a socket or a directory is refused.
- A symbolic link is refused unless ``follow_symlinks`` asks to write to its target (the link
  stays, the file it points to is replaced).
- An existing file keeps its permission bits (and, where the OS lets us, its owner and group);
  a new file gets ``0666`` less the umask, as any program's output does.
- A temporary file never outlives the write: it is removed on any error, and on the signals
  that end a process (SIGTERM, SIGHUP, SIGQUIT, ...), which are turned into
  :class:`Terminated` while the file is written; Ctrl-C is Python's ``KeyboardInterrupt``,
  which cleans up the same way. (SIGKILL cannot be caught.)

Streams (:func:`safe_streams`): everything the commands print goes through one filter. Text
for a terminal loses its escape sequences (CSI, OSC, DCS, ...) and control characters, so a
title or a document cannot retitle, clear or recolour the user's terminal, and shows bidi
controls and invisible characters as their codes, so it cannot reverse a line either; text
for a pipe or a file is passed on as it is. Either way a character the stream cannot encode (a lone
surrogate from a command-line argument) is written as a backslash escape, never an error.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TextIO, cast

from symattn.errors import InputError
from symattn.present.labels import visible

#: signals whose default action ends the process; while a temporary file exists each of them
#: (when its handler is still the default one) raises :class:`Terminated` instead
CLEANUP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name)
    for name in (
        "SIGTERM",
        "SIGHUP",
        "SIGQUIT",
        "SIGUSR1",
        "SIGUSR2",
        "SIGALRM",
        "SIGVTALRM",
        "SIGPROF",
        "SIGXCPU",
    )
    if hasattr(signal, name)
)


class Terminated(BaseException):
    """A signal that ends the process arrived while an output file was being written.

    A ``BaseException`` (like ``KeyboardInterrupt``): nothing should swallow it. The command
    line reports it and ends the process by the same signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def write_text_atomic(
    path: str | os.PathLike[str], text: str, *, follow_symlinks: bool = False
) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`write_bytes_atomic`).

    A character UTF-8 cannot hold (a lone surrogate) is written as a backslash escape.
    """
    data = text.encode("utf-8", errors="backslashreplace")
    write_bytes_atomic(path, data, follow_symlinks=follow_symlinks)


def write_bytes_atomic(
    path: str | os.PathLike[str], data: bytes, *, follow_symlinks: bool = False
) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename (see the module doc).

    On any error, and on a signal that ends the process, the temporary file is removed and
    an existing ``path`` is untouched.
    """
    target, existing = _target(path, follow_symlinks)
    with _cleanup_on_signals():
        fd, tmp = _create_temp(target, path)
        try:
            if existing is not None:
                _keep_metadata(fd, existing)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    _sync_folder(target.parent)


def _target(
    path: str | os.PathLike[str], follow_symlinks: bool
) -> tuple[Path, os.stat_result | None]:
    """The file to replace and its status (``None`` when it does not exist yet)."""
    target = Path(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror}") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        if not follow_symlinks:
            raise InputError(
                f"{path}: cannot write: it is a symbolic link (to {os.readlink(target)}); "
                "pass --follow-symlinks to replace the file it points to"
            )
        target = Path(os.path.realpath(target))
        try:
            st = os.stat(target)
        except FileNotFoundError:
            st = None  # a dangling link: its target is created
        except OSError as e:
            raise InputError(f"{path}: cannot write: {e.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: cannot write: it is {_kind(st.st_mode)}, not a regular file")
    folder = target.parent
    if not folder.is_dir():
        raise InputError(f"{path}: cannot write: folder {folder} does not exist")
    return target, st


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((word for test, word in kinds if test(mode)), "not a regular file")


def _create_temp(target: Path, shown: str | os.PathLike[str]) -> tuple[int, str]:
    """A new temporary file next to ``target``, mode ``0666`` less the umask (``O_EXCL``)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = str(target.parent / f".{target.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as e:
            raise InputError(f"{shown}: cannot write: {e.strerror}") from None
    raise InputError(f"{shown}: cannot write: no free temporary file name")  # pragma: no cover


def _keep_metadata(fd: int, st: os.stat_result) -> None:
    """Give the new file the old one's permission bits, and its owner and group if allowed."""
    if hasattr(os, "fchown") and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # only root may give a file away
            os.fchown(fd, st.st_uid, st.st_gid)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (best effort: not every file system lets a folder be fsynced)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def _cleanup_on_signals() -> Iterator[None]:
    """While inside, the :data:`CLEANUP_SIGNALS` still at their default raise :class:`Terminated`.

    Handlers can only be set from the main thread; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved: dict[signal.Signals, Any] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Terminated(signum)

    for s in CLEANUP_SIGNALS:
        if signal.getsignal(s) is signal.SIG_DFL:
            saved[s] = signal.SIG_DFL
            signal.signal(s, handler)
    try:
        yield
    finally:
        for s, previous in saved.items():
            signal.signal(s, previous)


def end_by_signal(signum: int) -> None:
    """End the process by ``signum`` with its default action (so the parent sees the signal)."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


# -- streams -----------------------------------------------------------------------------

#: ESC sequences (ECMA-48): CSI, OSC/DCS/SOS/PM/APC strings (to BEL, ST or the end of the
#: line), and the two- and three-character escapes; then the 8-bit forms of CSI and of the
#: strings; then any other C0 control but tab and newline, DEL and the C1 controls
_TERMINAL_CONTROL = re.compile(
    r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|\x1b[\]PX^_][^\n]*?(?:\x07|\x1b\\|\x9c|(?=\n)|\Z)"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
    r"|\x9b[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|[\x90\x98\x9d\x9e\x9f][^\n]*?(?:\x07|\x1b\\|\x9c|(?=\n)|\Z)"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]",
)


def terminal_text(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and newline stay), and
    with every character that is invisible or reorders text (a bidi control such as U+202E,
    a zero-width space) shown as its code, ``\\u202e``.

    A carriage return stays only as the first character (a progress line redrawing itself).
    """
    lead = "\r" if text.startswith("\r") else ""
    return lead + visible(_TERMINAL_CONTROL.sub("", text[len(lead) :]))


class SafeStream:
    """A text stream that filters what it is given before passing it on (see the module doc)."""

    def __init__(self, stream: TextIO, filter_text: Callable[[str], str] | None) -> None:
        self._stream = stream
        self._filter = filter_text

    def write(self, text: str) -> int:
        """Write ``text`` (filtered; unencodable characters as backslash escapes)."""
        if self._filter is not None:
            text = self._filter(text)
        encoding = getattr(self._stream, "encoding", None) or "utf-8"
        try:
            text.encode(encoding)
        except UnicodeEncodeError:
            text = text.encode(encoding, errors="backslashreplace").decode(encoding)
        except LookupError:  # pragma: no cover - an unknown codec name
            pass
        self._stream.write(text)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def raw_stream(stream: TextIO) -> TextIO:
    """The stream a :class:`SafeStream` passes text on to (for text made safe beforehand,
    such as a report coloured after :func:`terminal_text`), or ``stream`` itself."""
    inner = stream._stream if isinstance(stream, SafeStream) else stream
    return inner


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def safe_streams() -> Iterator[None]:
    """Within, ``sys.stdout`` and ``sys.stderr`` are :class:`SafeStream` s (see the module doc)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = cast(TextIO, SafeStream(out, terminal_text if _is_terminal(out) else None))
    sys.stderr = cast(TextIO, SafeStream(err, terminal_text if _is_terminal(err) else None))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
