"""Whether the elementwise work of a block runs fused and compiled (:mod:`symattn.fast.fused`,
numba: the optional extra ``fast``) or as numpy array operations; the one place that decides.

Both give the same doubles, bit for bit (the fused kernels do the numpy path's operations in
its order), so the choice changes the time only. The mode comes from the environment variable
``SYMATTN_JIT`` (read once) or :func:`use`:

- ``"auto"`` (the default): fused when numba is installed and the problem has at least
  :data:`AUTO_ENTRIES` scores (below that, importing numba and loading the compiled kernels,
  about half a second once per process, costs more than it saves);
- ``"numba"``: fused for every problem (without numba the kernels run as plain Python: slow,
  for the tests of small inputs);
- ``"numpy"``: never.

numba is imported only when a fused kernel first runs: importing :mod:`symattn.fast` does not
load it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

__all__ = [
    "AUTO_ENTRIES",
    "MODES",
    "fused_kernels",
    "limb_kernels",
    "mode",
    "numba_installed",
    "use",
]

MODES = ("auto", "numba", "numpy")

#: in ``"auto"`` mode, problems with at least this many scores (batch times L times S) fuse
AUTO_ENTRIES = 2**18

_mode = os.environ.get("SYMATTN_JIT", "auto").strip().lower() or "auto"
if _mode not in MODES:
    raise ValueError(f"SYMATTN_JIT must be one of {', '.join(MODES)}, not {_mode!r}")
_loaded: ModuleType | None = None
_sound: bool | None = None
_limbs: ModuleType | None = None


def mode() -> str:
    """The current mode: ``"auto"``, ``"numba"`` or ``"numpy"``."""
    return _mode


@contextmanager
def use(new: str) -> Iterator[None]:
    """Run the block with mode ``new`` (the tests force each path with it)."""
    global _mode
    if new not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {new!r}")
    old, _mode = _mode, new
    try:
        yield
    finally:
        _mode = old


def numba_installed() -> bool:
    """Whether numba can be imported (without importing it)."""
    return importlib.util.find_spec("numba") is not None


def fused_kernels(entries: int) -> ModuleType | None:
    """:mod:`symattn.fast.fused` when a problem of ``entries`` scores should use it, else
    ``None`` (numpy). Loaded on first use (numba is heavy to import); a build whose compiled
    error-free transformations are not exact (:func:`~symattn.fast.fused.self_check`) is
    never used."""
    global _loaded, _sound
    if _mode == "numpy" or _sound is False:
        return None
    if _mode == "auto" and (entries < AUTO_ENTRIES or not numba_installed()):
        return None
    if _loaded is None:
        module = importlib.import_module("symattn.fast.fused")
        _sound = bool(module.self_check())
        if not _sound:
            return None
        _loaded = module
    return _loaded


def limb_kernels(entries: int) -> ModuleType | None:
    """:mod:`symattn.fast.limbexp` (the certified fixed-point weights of binary-float heads)
    when a problem of ``entries`` scores should use it, else ``None`` (the Arb path). The
    same modes as :func:`fused_kernels`; loaded on first use."""
    global _limbs
    if _mode == "numpy":
        return None
    if _mode == "auto" and (entries < AUTO_ENTRIES or not numba_installed()):
        return None
    if _limbs is None:
        _limbs = importlib.import_module("symattn.fast.limbexp")
    return _limbs
