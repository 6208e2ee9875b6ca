"""Reused scratch arrays for the batched kernels.

Every block of rows needs the same few large arrays (slice products, fixed-point weights);
allocating them afresh costs page faults that exceed the arithmetic. A :class:`Workspace`
hands out one array per name and shape and keeps it for the next block, and keeps arrays
derived from the problem that every block uses (:meth:`Workspace.kept`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

__all__ = ["Workspace"]


class Workspace:
    """Named float64 scratch arrays, reused while the shape stays the same."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}
        self._kept: dict[Hashable, tuple[object, Any]] = {}

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """An uninitialised float64 array of ``shape`` kept under ``name``."""
        a = self._arrays.get(name)
        if a is None or a.shape != shape:
            a = np.empty(shape)
            self._arrays[name] = a
        return a

    def kept(self, key: Hashable, owner: object, build: Callable[[], T]) -> T:
        """``build()``, kept under ``key`` while ``owner`` (the object it is derived from, held
        here) stays the same: what every block of rows of one problem shares, such as the
        key slices of a level side by side."""
        got = self._kept.get(key)
        if got is None or got[0] is not owner:
            got = (owner, build())
            self._kept[key] = got
        value: T = got[1]
        return value
