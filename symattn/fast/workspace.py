"""Reused scratch arrays for the batched kernels.

Every block of rows needs the same few large arrays (slice products, fixed-point weights);
allocating them afresh costs page faults that exceed the arithmetic. A :class:`Workspace`
hands out one array per name and shape and keeps it for the next block.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Workspace"]


class Workspace:
    """Named float64 scratch arrays, reused while the shape stays the same."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """An uninitialised float64 array of ``shape`` kept under ``name``."""
        a = self._arrays.get(name)
        if a is None or a.shape != shape:
            a = np.empty(shape)
            self._arrays[name] = a
        return a
