"""Issue 24: peak memory is bounded by the input, for every input kind.

Each test runs one input kind in a fresh process (``python -m symattn ...``, or a two-line
driver where the command line has no command that only reads) and reads *that child's* peak
resident set (``VmHWM`` of ``/proc/self/status``, read by the child itself as it exits: the
``ru_maxrss`` that ``os.wait4`` gives counts the parent's pages the child had between fork and
exec, so a large pytest process would show as the child's peak); the bound is the one stated in ``docs/security.md`` (section 3,
"Memory"): ``peak <= N x input + C``. Inputs are the dearest per byte we know for the kind
(the shortest entries, the widest output) at the largest size that runs in about 20 s here.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from .conftest import EXAMPLES, ROOT

MB = 1_000_000
#: the constant numba costs where the optional ``fast`` extra is installed (its compiler
#: and the fused kernels, compiled in the child when no cache has them yet)
JIT_MB = 180 if importlib.util.find_spec("numba") is not None else 0


#: runs ``python ARGS`` (a module with ``-m``, or a script) and writes its own peak resident
#: set in KiB to the file named by ``SYMATTN_TEST_HWM`` as it exits
_WRAPPER = """
import atexit, os, runpy, sys

def _hwm():
    with open("/proc/self/status", encoding="ascii") as f:
        kib = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
    with open(os.environ["SYMATTN_TEST_HWM"], "w", encoding="ascii") as out:
        out.write(kib)

atexit.register(_hwm)
args = sys.argv[1:]
if args[0] == "-m":
    sys.argv = [args[1], *args[2:]]
    runpy.run_module(args[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = args
    runpy.run_path(args[0], run_name="__main__")
"""


def _peak_mb(args: list[str], expect: tuple[int, ...] = (0,)) -> float:
    """Run ``python ARGS`` in a child; its own peak RSS in MB (VmHWM is in KiB)."""
    with tempfile.TemporaryDirectory() as tmp:
        hwm = Path(tmp) / "hwm"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "SYMATTN_TEST_HWM": str(hwm)}
        child = subprocess.Popen(
            [sys.executable, "-c", _WRAPPER, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
        _, status, usage = os.wait4(child.pid, 0)
        assert child.stderr is not None
        err = child.stderr.read().decode("utf-8", "replace")
        child.stderr.close()
        child.returncode = os.waitstatus_to_exitcode(status)
        assert child.returncode in expect, err[-2000:]
        peak = int(hwm.read_text(encoding="ascii")) * 1024 / MB
    cpu = usage.ru_utime + usage.ru_stime
    print(f"{' '.join(args[-4:])}: peak {peak:.0f} MB, CPU {cpu:.1f} s")
    return peak


def _spec_text(size: int, fmt: str, entry: str = "0.5") -> str:
    """A spec of about ``size`` bytes: Q, K, V of n x 64 entries ``entry`` (the shortest
    decimal: the most numbers per byte)."""
    n = max(1, size // (3 * 64 * (len(entry) + 2)))
    row = "[" + ", ".join([entry] * 64) + "]"
    matrix = "[" + ",\n".join([row] * n) + "]"
    tokens = "[" + ", ".join(f'"t{i}"' for i in range(n)) + "]"
    if fmt == "json":
        return f'{{"tokens": {tokens}, "inputs": {{"Q": {matrix}, "K": {matrix}, "V": {matrix}}}}}'
    return f"tokens = {tokens}\n[inputs]\nQ = {matrix}\nK = {matrix}\nV = {matrix}\n"


def _distinct_spec_text(size: int, fmt: str) -> str:
    """A spec of about ``size`` bytes whose entries are all different 7-digit decimals
    (``0.1000000``, ``0.1000001``, ...): nothing to share, an exact Fraction per entry."""
    n = max(1, size // (3 * 64 * 11))
    first = 10**6
    matrices = [
        "["
        + ",\n".join(
            "[" + ", ".join(f"0.{first + (m * n + i) * 64 + j}" for j in range(64)) + "]"
            for i in range(n)
        )
        + "]"
        for m in range(3)
    ]
    tokens = "[" + ", ".join(f'"t{i}"' for i in range(n)) + "]"
    q, k, v = matrices
    if fmt == "json":
        return f'{{"tokens": {tokens}, "inputs": {{"Q": {q}, "K": {k}, "V": {v}}}}}'
    return f"tokens = {tokens}\n[inputs]\nQ = {q}\nK = {k}\nV = {v}\n"


LOAD = "import sys\nfrom symattn.spec import load_spec\nload_spec(sys.argv[1])\n"


def _load_peak(tmp_path: Path, fmt: str, text: str) -> tuple[float, float]:
    spec = tmp_path / f"big.{fmt}"
    spec.write_text(text, "utf-8")
    driver = tmp_path / "load.py"
    driver.write_text(LOAD, "utf-8")
    return _peak_mb([str(driver), str(spec)]), spec.stat().st_size / MB


def test_a_json_spec_is_read_within_its_memory_bound(tmp_path: Path) -> None:
    """JSON spec: peak <= 30 x input + 60 MB, for the largest file (19.5 MB, max_file_bytes
    is 20 MB) of one-digit decimals (the most entries per byte: they share one Fraction per
    value) and 10 MB of all-different 7-digit decimals (the most memory per byte; max_bits
    refuses about 11 MB of them)."""
    for text in (_spec_text(19_500_000, "json"), _distinct_spec_text(10 * MB, "json")):
        peak, size = _load_peak(tmp_path, "json", text)
        assert peak <= 30 * size + 60, (peak, size)


def test_a_toml_spec_is_read_within_its_memory_bound(tmp_path: Path) -> None:
    """TOML spec: peak <= 30 x input + 60 MB, for 6 MB of all-different 7-digit decimals (the
    dearest per byte; tomllib is pure Python, about 1.5 s per MB: 10 MB runs past 20 s on a
    busy machine)."""
    peak, size = _load_peak(tmp_path, "toml", _distinct_spec_text(6 * MB, "toml"))
    assert peak <= 30 * size + 60, (peak, size)


def test_reference_on_npy_files_is_within_its_memory_bound(tmp_path: Path) -> None:
    """``.npy`` (``reference``): peak <= 10 x input + 8 bytes per (query, key) pair + 60 MB:
    Q, K, V of 4096 x 64 (half of what max_elements lets a score matrix hold) and of
    4096 x 1 (the most pairs per byte)."""
    rng = np.random.default_rng(24)
    for e in (64, 1):
        paths = []
        for name in "QKV":
            path = tmp_path / f"{name}{e}.npy"
            np.save(path, rng.standard_normal((4096, e)))
            paths.append(str(path))
        out = tmp_path / "out.npy"
        peak = _peak_mb(["-m", "symattn", "reference", *paths, "-o", str(out)])
        size = sum(Path(p).stat().st_size for p in paths) / MB
        pairs = 4096 * 4096
        assert peak <= 10 * size + 8 * pairs / MB + 60 + JIT_MB, (e, peak, size)


def test_a_template_writing_the_largest_output_is_within_its_memory_bound(
    tmp_path: Path,
) -> None:
    """Templates: peak <= 3 bytes per output character + 60 MB, for a template writing
    19 000 000 characters (MAX_OUTPUT is 20 000 000)."""
    (tmp_path / "markdown").mkdir()
    body = "{% for i in range(19) %}{{ 'a' * 1000000 }}{% endfor %}"
    (tmp_path / "markdown" / "document.md.j2").write_text(f"x\n{body}\n", "utf-8")
    out = tmp_path / "out.md"
    spec = EXAMPLES / "thinking_machines.toml"
    peak = _peak_mb(
        ["-m", "symattn", "explain", str(spec), "--templates", str(tmp_path), "-o", str(out)]
    )
    chars = out.stat().st_size
    assert chars >= 19_000_000
    assert peak <= 3 * chars / MB + 60, (peak, chars)


def test_explain_and_compute_of_the_largest_allowed_spec_are_within_their_bound(
    tmp_path: Path,
) -> None:
    """``explain`` of 20 tokens, d = 64 (400 pairs, max_explained_pairs) and ``compute`` of
    100 tokens, d = 64: peak <= 120 MB each (the input is a few KB: the bound is the
    constant)."""
    for n, command in ((20, "explain"), (100, "compute")):
        spec = tmp_path / f"s{n}.toml"
        spec.write_text(_spec_text(n * 64 * 3 * 5, "toml", "0.25"), "utf-8")
        out = tmp_path / f"out{n}.txt"
        peak = _peak_mb(["-m", "symattn", command, str(spec), "-o", str(out)])
        assert peak <= 120, (command, peak)


def test_audit_of_the_largest_allowed_text_is_within_its_bound(tmp_path: Path) -> None:
    """``audit`` (measured only, the reader is not changed here): peak <= 12 x input +
    60 MB for a Markdown table of 19 MB (max_file_bytes is 20 MB)."""
    lines = [f"| {i} | {i}.5 | 1 |\n" for i in range(1_000_000)]
    text = "| a | b | c |\n|---|---|---|\n" + "".join(lines)
    doc = tmp_path / "table.md"
    doc.write_text(text[: 19 * MB], "utf-8")
    peak = _peak_mb(["-m", "symattn", "audit", str(doc)], expect=(0, 1))
    size = doc.stat().st_size / MB
    assert peak <= 12 * size + 60, (peak, size)
