"""How a text scales its scores: the ``d_k`` it states, and whether it divides at all.

``d_k`` is the first positive integer the text gives it (``d_k = 2``, ``$d_k=64$``,
``\\sqrt{d_k} = \\sqrt{3}``, a table row ``(d_k) | 4``, code ``d_k = 2``). Whether the scores
are scaled is read from what the text says (``\\sqrt{d_k}``, ``/ np.sqrt(…)``, ``** 0.5``,
"scaled", "缩放" against ``softmax(S)``, ``softmax(scores)``, "unscaled", "未缩放"); when
the text says neither, or both, both frames are tried and only what is wrong in both is
reported. A text that says it masks (causal, or some keys) is judged with and without the
mask (:func:`masks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from symattn.read.facts import Fact
from symattn.read.kinds import RoleSource
from symattn.read.notations import (
    CAUSAL_TEXT,
    DK_STATEMENT,
    MASK_TEXT,
    SCALED_TEXT,
    UNSCALED_TEXT,
)
from symattn.read.roles import RoleName

__all__ = ["Hypothesis", "Masking", "hypotheses", "masks", "stated_d_k"]


@dataclass(frozen=True)
class Hypothesis:
    """One way of reading what the text leaves open (the scale)."""

    name: str
    d_k: int | None = None
    scale: Fraction | None = None
    #: ``d_k`` is the width of K, tried beside a stated one the numbers may not use
    from_width: bool = False


def stated_d_k(text: str, facts: Sequence[Fact], start: int = 0) -> int | None:
    """The ``d_k`` the text states first, or None (``text`` starts at offset ``start`` of the
    document the offsets of ``facts`` are in)."""
    candidates: list[tuple[int, int]] = []
    for f in facts:
        if f.role is RoleName.D_K and f.dims == () and f.spots and f.spots[0] is not None:
            v = f.spots[0].written.value
            if v.denominator == 1 and 0 < v <= 1 << 20:
                candidates.append((f.at, int(v)))
    for m in DK_STATEMENT.scan(text):
        n = next(int(v) for v in m.groupdict().values() if v)
        if 0 < n <= 1 << 20:
            candidates.append((start + m.start(), n))
    return min(candidates)[1] if candidates else None


#: the facts whose stage says the text scales: scaled scores, a divisor
_SAYS_SCALED: Final = frozenset({RoleName.SCALED, RoleName.DIVISOR})


def hypotheses(text: str, facts: Sequence[Fact], start: int = 0) -> list[Hypothesis]:
    """The frames to try: the stated one when the text says it scales (or not), else both
    (``text`` starts at offset ``start``, see :func:`stated_d_k`)."""
    d_k = stated_d_k(text, facts, start)
    scaled = (
        SCALED_TEXT.first(text) is not None
        or d_k is not None
        # (a row reproduction found fed to a softmax as it is, is "scaled" by its place,
        # not because the text says it scales)
        or any(f.role in _SAYS_SCALED and f.source is not RoleSource.REPRODUCED for f in facts)
    )
    unscaled = UNSCALED_TEXT.first(text) is not None
    if scaled and not unscaled:
        return [Hypothesis("stated", d_k=d_k)]
    if unscaled and not scaled:
        return [Hypothesis("unscaled", scale=_one())]
    return [Hypothesis("stated", d_k=d_k), Hypothesis("unscaled", scale=_one())]


def _one() -> Fraction:
    return Fraction(1)


class Masking(StrEnum):
    """A mask a problem is tried with (its value is how a frame's name says it)."""

    NONE = ""  #: no mask
    CAUSAL = "causal"  #: each query sees the keys up to its own
    ZEROS = "zeros"  #: the keys whose weight the text writes as 0 are masked


def masks(text: str) -> tuple[Masking, ...]:
    """The masks to try besides none: ``causal`` when the text says its attention is causal,
    ``zeros`` (the keys whose weight the text writes as 0) when it says keys are masked.
    Only what is wrong under every mask tried is reported."""
    out = [Masking.NONE]
    if CAUSAL_TEXT.first(text) is not None:
        out.append(Masking.CAUSAL)
    if MASK_TEXT.first(text) is not None:
        out.append(Masking.ZEROS)
    return tuple(out)
