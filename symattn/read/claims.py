"""Level 1 verdicts: one written number against the value of the expression it claims.

A number is judged against its expression as the text writes it, and against the same
expression with its exact ingredients: the exact values of names the text defined by
rounding (``总和 = 14.89``), and of numbers the text wrote earlier as roundings (``√2 ≈
1.41`` then ``10 / 1.41 ≈ 7.09``; the weight ``0.18`` then ``0.18 × 30 = 5.4``):

- right as written and right exactly: nothing to say;
- right exactly but not as written: the author computed more precisely than they wrote
  (``5 / 1.41 ≈ 3.54``, where 10/√2 is meant): not an error;
- right as written but wrong exactly: ``propagated-rounding`` (the author's own rounded
  numbers), or ``approximate-constant`` when the rounded number was a constant (√2, √3);
- wrong both ways: the verdict's code (``wrong-value``, ``truncated``), or
  ``approximate-constant`` when ``e ≈ 2.718`` explains it.

A number written shorter than one the text stated before may stand for it (:class:`Stood`):
``1/√2 = 0.7071`` then ``e^{0.71} = 2.0281`` is e^{0.7071}, computed with the stated value;
the claim is right when the stated value (or its exact value) gives it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Final

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.codes import FindingCode
from symattn.judge.constants import APPROX_E
from symattn.judge.findings import Finding, Message
from symattn.judge.verdict import Const, Verdict, consistent_with, judge
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding
from symattn.numbers.written import WrittenKind
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.extract import Link
from symattn.read.messages import fraction_text, not_checked, say
from symattn.read.report import text_finding
from symattn.read.scalar import Scalar, lit
from symattn.read.syntax import Node, numbers_in
from symattn.read.tokens import ExprError

__all__ = ["Judging", "Known", "Stood"]

#: a stated number is indexed by its roundings to at most this many decimals
MAX_DECIMALS: Final = 8
#: stated numbers kept per rounding (the latest), and numbers of one expression replaced
MAX_STOOD: Final = 3

#: verdict codes that are no error
_FINE: Final = frozenset({None, FindingCode.FLOAT_REPRESENTATION, FindingCode.UNDECIDED})


#: verdict codes that no rounding explains (an approximate e may)
_NOT_ROUNDED: Final = frozenset({FindingCode.WRONG_VALUE, FindingCode.TRUNCATED})


@dataclass(frozen=True)
class Known:
    """A number the text wrote as the rounding of something: its exact value, and what it
    rounds (``√2`` for ``1.41``), for messages."""

    value: Scalar
    what: str
    constant: bool  # an irrational constant (√2, √3): its rounding is an approximate constant


@dataclass
class Judging:
    """The verdicts of one Level 1 pass: findings, how many numbers were judged, where."""

    accepted: frozenset[Rounding]
    limits: Limits
    findings: list[Finding] = field(default_factory=list)
    checked: int = 0
    seen: set[int] = field(default_factory=set)
    #: numbers that could not be decided (too close to call within the precision limit):
    #: (line, claim, reason)
    undecided: list[tuple[int, str, Message]] = field(default_factory=list)
    #: the claims of exponentials judged (each with its value), and the findings that name a
    #: rounded e: (index in :attr:`findings`, the constant, the finding without it)
    exp_claims: list[tuple[Written, Scalar]] = field(default_factory=list)
    by_e: list[tuple[int, Fraction, Finding]] = field(default_factory=list)

    def step(self, left: Scalar, right: Scalar, link: Link) -> None:
        """``a = b`` between two exact rational expressions must hold exactly."""
        lq, rq = left.rational(), right.rational()
        if lq is None or rq is None:
            return
        self.checked += 1
        claim = Written(rq, link.text, WrittenKind.FRACTION, None, None)
        verdict = judge(claim, Const(lq), accepted=self.accepted, limits=self.limits)
        if verdict.code is None:
            return
        line, column = link.at(0)
        exact = fraction_text(lq)
        msg = say("wrong-step", claimed=link.text, exact=exact, expected=None, cause="")
        self.findings.append(
            text_finding(verdict.code, line, column, link.text, exact, exact, msg, "wrong-step")
        )

    def consistent(self, claim: Written, value: Scalar) -> bool:
        """Whether ``claim`` is proved a correct rounding (or float print) of ``value``."""
        return consistent_with(claim, value, self.accepted, self.limits)

    def one(
        self,
        claim: Written,
        value: Scalar,
        exact: Scalar,
        link: Link,
        offset: int,
        constant: Known | None = None,
        expression: str = "",
    ) -> None:
        """Judge one written number (the value of ``expression``, when one is written);
        add a finding when it is not consistent."""
        self.checked += 1
        self.seen.add(link.offset(offset))
        if value.uses_e:
            self.exp_claims.append((claim, value))
        as_written = judge(claim, value, accepted=self.accepted, limits=self.limits)
        differs = exact is not value
        exactly = (
            judge(claim, exact, accepted=self.accepted, limits=self.limits) if differs else None
        )
        if FindingCode.UNDECIDED in (
            as_written.code,
            exactly.code if exactly is not None else None,
        ):
            line, _ = link.at(offset)
            self.undecided.append(
                (
                    line,
                    claim.text,
                    not_checked("not-decided", limit=self.limits.max_precision_bits),
                )
            )
            return
        if as_written.code in _FINE:
            if exactly is None or exactly.code in _FINE:
                return
            verdict, source = exactly, exact
            if constant is not None:
                code, cause = "approximate-constant", f"approximate-root:{constant.what}"
            else:
                code, cause = "propagated-rounding", "propagated-rounding"
        else:
            if exactly is not None and exactly.code in _FINE:
                return  # right for the exact ingredients: computed more precisely than written
            verdict, source = as_written, value
            code, cause = as_written.code or "wrong-value", as_written.reason
            if code in _NOT_ROUNDED and value.uses_e:
                approx = self._approximate_e(claim, value)
                if approx is not None:
                    if approx.startswith("approximate-e:"):  # (a float print is its own proof)
                        plain = self._finding(claim, verdict, source, code, cause, link, offset, "")
                        e = Fraction(approx.partition(":")[2])
                        self.by_e.append((len(self.findings), e, plain))
                    code, cause = "approximate-constant", approx
        self.findings.append(
            self._finding(claim, verdict, source, code, cause, link, offset, expression)
        )

    def _finding(
        self,
        claim: Written,
        verdict: Verdict,
        source: Scalar,
        code: str,
        cause: str,
        link: Link,
        offset: int,
        expression: str,
    ) -> Finding:
        """The finding of one claim: its code and cause, with its message; its exact value
        is marked rounded (shown with "…") unless it is ``source``'s exact value itself."""
        line, column = link.at(offset)
        key = code
        if code == FindingCode.APPROXIMATE_CONSTANT:
            key = cause.split(":")[0]
        params: dict[str, object] = {}
        if code == FindingCode.PROPAGATED_ROUNDING and expression and len(expression) <= 80:
            key, params = "propagated-rounding-of", {"expression": expression}
        msg = say(
            key,
            claimed=claim.text,
            exact=verdict.exact,
            expected=verdict.expected,
            cause=cause.partition(":")[2],
            **params,
        )
        found = text_finding(
            code, line, column, claim.text, verdict.exact, verdict.expected, msg, cause
        )
        return replace(found, inexact=not _is_exactly(verdict.exact, source))

    def settle(self) -> None:
        """A rounded e is named for a claim only when it is consistent with the text's other
        claims of exponentials (2.7 gives e^{0.5} ≈ 1.64, but not the same text's
        e^{1.5} ≈ 4.48, which is e^{1.5} rounded): else the claim keeps its own verdict."""
        for index, e, plain in self.by_e:
            approx = lit(e, self.limits.max_precision_bits)
            # ruled out by a number the exact e gives and the constant does not (as
            # :func:`symattn.judge.approximations.contradicted` has it for the problem)
            if any(
                self.consistent(c, v) and not self.consistent(c, v.with_e(approx))
                for c, v in self.exp_claims
            ):
                self.findings[index] = plain

    def _approximate_e(self, claim: Written, value: Scalar) -> str | None:
        """``approximate-e:2.718`` when a rounded e explains the claim (``approximate-e-float:…``
        when it is what double precision prints with it)."""
        for const in APPROX_E:
            alt = value.with_e(lit(const.value, self.limits.max_precision_bits))
            f = alt.float64()
            if (
                f is not None
                and (claim.significant or 0) >= 12
                and Fraction(repr(f)) == claim.value
            ):
                return f"approximate-e-float:{const.text}"
            if self.consistent(claim, alt):
                return f"approximate-e:{const.text}"
        return None


def _decimals(denominator: int) -> int | None:
    """The decimals a fraction of this denominator is written with (None: not a decimal)."""
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    return max(twos, fives) if denominator == 1 else None


def _roundings(v: Fraction, decimals: int) -> list[Fraction]:
    """The numbers of ``decimals`` decimals that ``v`` rounds to (two at a tie)."""
    q = 10**decimals
    down = Fraction(math.floor(v * q), q)
    return [c for c in (down, down + Fraction(1, q)) if abs(v - c) <= Fraction(1, 2 * q)]


@dataclass
class Stood:
    """The numbers a text stated (``0.7071``), by each shorter rounding of them (``0.71``,
    ``0.7``), with where and their exact values: a number written shorter in a later
    expression may stand for the stated one (``e^{0.71}`` computed as ``e^{0.7071}``)."""

    by_rounding: dict[tuple[int, Fraction], list[tuple[int, Fraction, Scalar | None]]] = field(
        default_factory=dict
    )

    def add(self, w: Written, at: int, exact: Scalar | None) -> None:
        """The text states ``w`` at the source offset ``at`` (exactly ``exact``)."""
        if w.kind is not WrittenKind.DECIMAL or not w.decimals or w.decimals < 2:
            return
        for k in range(1, min(w.decimals, MAX_DECIMALS + 1)):
            for r in _roundings(w.value, k):
                kept = self.by_rounding.setdefault((k, r), [])
                if kept and kept[-1][:2] == (at, w.value):  # (stated, then judged)
                    kept[-1] = (at, w.value, exact or kept[-1][2])
                    continue
                kept.append((at, w.value, exact))
                del kept[:-MAX_STOOD]

    def add_all(self, stated: Iterable[tuple[Written, int]]) -> None:
        """The numbers a chain states (each as written, and where)."""
        for w, at in stated:
            self.add(w, at, None)

    def add_known(self, known: Mapping[str, tuple[tuple[int, Known], ...]]) -> None:
        """The numbers of the problem behind the text, by their keys (exact decimals)."""
        for key, places in known.items():
            value = Fraction(key)
            decimals = _decimals(value.denominator)
            if decimals is None:
                continue
            w = Written(value, key, WrittenKind.DECIMAL, decimals, None)
            for at, k in places:
                self.add(w, at, k.value)

    def alternatives(
        self, node: Node, env: Mapping[str, Value], at: int, limits: Limits
    ) -> list[tuple[Scalar, ...]]:
        """The values of ``node`` with its shorter numbers standing for the stated ones (the
        latest first; each as stated, and exactly); ``[]`` when none stands for one."""
        found: list[tuple[int, list[tuple[int, Fraction, Scalar | None]]]] = []
        for num in numbers_in(node):
            w = num.written
            if num.pos < 0 or w.kind is not WrittenKind.DECIMAL or (w.significant or 0) < 2:
                continue
            kept = [e for e in self.by_rounding.get((w.decimals or 0, w.value), ()) if e[0] < at]
            if kept:
                found.append((num.pos, kept[::-1]))
        out: list[tuple[Scalar, ...]] = []
        for k in range(max((len(kept) for _, kept in found[:MAX_STOOD]), default=0)):
            for exactly in (False, True):
                over: dict[int, Scalar] = {}
                for pos, kept in found[:MAX_STOOD]:
                    _, stated, exact = kept[min(k, len(kept) - 1)]
                    stood = exact if exactly and exact is not None else None
                    over[pos] = stood or lit(stated, limits.max_precision_bits)
                try:
                    out.append(flatten(evaluate(node, env, limits=limits, overrides=over)))
                except (ExprError, SymattnError, ZeroDivisionError):
                    continue
        return out


def _is_exactly(shown: str, value: Scalar) -> bool:
    """Whether the decimal ``shown`` is ``value`` itself (a rational value written out)."""
    q = value.rational()
    if q is None or shown in ("", "?", "-"):
        return False
    try:
        return Fraction(shown) == q
    except (ValueError, ZeroDivisionError):
        return False
