"""The state of one Level 1 pass, and what it knows of the numbers a chain computes with.

A pass (:class:`Run`) keeps the names the text defines (:mod:`symattn.read.definitions`), the
exact values of numbers the problem behind the text gives (by :func:`value_key`), and the
numbers the text wrote as roundings (``√2 ≈ 1.41``: from then on 1.41 stands for √2 when it
is an ingredient). :func:`overrides` gives, for one expression, the exact values of the
numbers in it that the text rounded before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from symattn.config import Limits
from symattn.numbers import Written
from symattn.numbers.written import ROUNDED_KINDS
from symattn.read.claims import Judging, Known, Stood
from symattn.read.definitions import Definitions
from symattn.read.links import Parsed
from symattn.read.observations import Stated
from symattn.read.report import Unparsed
from symattn.read.scalar import Op, Scalar
from symattn.read.syntax import Node, numbers_in

__all__ = ["Run", "overrides", "remember_rounding", "value_key"]


@dataclass
class Run:
    """Mutable state of one Level 1 pass (local to one call of
    :func:`symattn.read.level1.judge_chains`)."""

    judging: Judging
    names: Definitions
    known: Mapping[str, tuple[tuple[int, Known], ...]]
    unparsed: list[Unparsed] = field(default_factory=list)
    stated: list[Stated] = field(default_factory=list)
    #: numbers the text wrote as roundings, by value: what they round (None: ambiguous)
    rounded: dict[str, list[tuple[int, Known]]] = field(default_factory=dict)
    #: the source offset of the chain being judged
    at: int = 0
    #: the numbers stated so far, by their shorter roundings (``0.7071`` by ``0.71``)
    stood: Stood = field(default_factory=Stood)
    #: the formula each label was last given (``output = softmax(q · K^T) · V``), with the
    #: section it was given in: a later chain of that label in that section that writes
    #: numbers in its place claims their values
    formulas: dict[str, tuple[int, Parsed]] = field(default_factory=dict)

    def known_at(self, key: str) -> Known | None:
        """The exact value of the number ``key`` stated last before the chain being judged
        (or the only one stated)."""
        places = self.known.get(key, ())
        before = [k for at, k in places if at < self.at]
        if before:
            return before[-1]
        return places[0][1] if len(places) == 1 else None

    @property
    def limits(self) -> Limits:
        return self.judging.limits


def value_key(w: Written) -> str:
    """The key a written number is known by (``1.41`` and ``1.410`` are one number)."""
    return str(w.value)


def overrides(run: Run, node: Node) -> tuple[dict[int, Scalar], Known | None]:
    """The numbers of an expression the text wrote earlier as roundings, with their exact
    values (by their offset in the link), and the constant among them, if any."""
    out: dict[int, Scalar] = {}
    constant: Known | None = None
    for num in numbers_in(node):
        w = num.written
        if w.kind not in ROUNDED_KINDS:
            continue
        key = value_key(w)
        # the problem's exact value first (Level 1's own may rest on a name it misread)
        k = run.known_at(key) or (_rounded_at(run, key) if _rounding_like(w) else None)
        if k is None or num.pos < 0:
            continue
        out[num.pos] = k.value
        if k.constant:
            constant = k
    return out, constant


def _rounding_like(w: Written) -> bool:
    """Whether a number may be written as the rounding of another (a decimal of two or more
    significant digits): ``1`` or ``0.5`` are taken as they are."""
    return w.kind in ROUNDED_KINDS and (w.significant or 0) >= 2


def remember_rounding(run: Run, claim: Written, exact: Scalar, what: str) -> None:
    """``√2 ≈ 1.41``: from now on 1.41 stands for √2 when it is an ingredient."""
    if not _rounding_like(claim):
        return
    key = value_key(claim)
    if exact.rational() == claim.value:
        return  # the exact value itself: nothing rounded
    known = Known(exact, f"{what} ≈ {claim.text}", exact.op is Op.SQRT)
    run.rounded.setdefault(key, []).append((run.at, known))


def _rounded_at(run: Run, key: str) -> Known | None:
    """What the number ``key`` was last written as the rounding of, before the chain being
    judged (a text may round one number from two things: the nearest one counts)."""
    before = [k for at, k in run.rounded.get(key, ()) if at <= run.at]
    return before[-1] if before else None
