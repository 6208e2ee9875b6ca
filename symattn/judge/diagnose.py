"""One claim: its verdict and, when it is not a correct rounding, the most specific cause.

The frames and causes are tried in this order (the first that reproduces the claim names it):

1. ``float-representation`` (info): the claim is how a float64/float32 of the exact value
   prints, or — a float printout (``precision``, or 6+ significant digits) — it lies inside
   the rigorous error bound of the computation in that precision (key ``float-bound``);
2. ``rounded-inputs`` (info): some inputs inside the roundings of ``rounded_inputs`` give it;
3. a row's last weight that is exactly 1 − its other claimed weights, some of them
   truncated (``[0.6697, 0.3303]``): ``propagated-rounding``, carried from the truncation;
4. ``approximate-constant``: a rounded constant (``e ≈ 2.718``) reproduces a long claim digit
   for digit in double precision (``2.718**0.092 + ...``);
5. the author's own earlier numbers, taken as written, reproduce the claim
   (``12.18 + 2.71 = 14.89``): ``propagated-rounding`` (exact), or ``propagated-error`` when
   one of them is wrong (the message names the first wrong one);
6. ``truncated`` (and, when a rounded e consistent with the author's other numbers also
   gives it, both causes);
7. ``approximate-constant`` for a scaled score that a rounded ``√d`` gives;
8. ``wrong-value`` with a named slip (transposed or dropped digit, wrong sign, swapped operand,
   a misread input);
9. the author's earlier numbers as the intervals they round from (exact numbers stay points,
   softmax bounded by monotonicity) reproduce it: ``propagated-rounding`` (interval) or
   ``propagated-error``;
10. ``approximate-constant`` for a short claim that a rounded e gives;
11. ``wrong-value``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

from symattn.errors import LimitError, PrecisionError
from symattn.judge.approximations import (
    Approximation,
    approximate_e,
    approximate_e_consistent,
    approximate_root,
)
from symattn.judge.chain import Chain
from symattn.judge.codes import SEVERITY
from symattn.judge.findings import Message, SpecLocation
from symattn.judge.formatting import decimal_text
from symattn.judge.graph import Node
from symattn.judge.intervals import claim_places, fits
from symattn.judge.messages import SECTION, Cause, FindingKey
from symattn.judge.misreads import find_misread
from symattn.judge.programs import Arithmetic, arithmetics_for
from symattn.judge.run import Run
from symattn.judge.slips import find_slip
from symattn.judge.values import Val, lower, plus_minus, to_arb, upper
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding, round_decimals, round_significant

#: verdicts recorded as they are (info), with their catalog key
_AS_IS: Mapping[str, FindingKey] = MappingProxyType(
    {"float-representation": "float-representation", "undecided": "undecided"}
)
#: significant digits of an envelope's bounds shown in a finding, beyond the claim's own
_BOUND_EXTRA_DIGITS = 3


def bound_text(x: Fraction, claim: Written, up: bool) -> str:
    """An envelope bound written with the claim's decimals plus three, rounded outward."""
    places = claim_places(claim)
    if places is None:
        return decimal_text(round_significant(x, 12))
    places = max(places, 0) + _BOUND_EXTRA_DIGITS
    r = round_decimals(x, places, Rounding.TRUNCATE)
    unit = Decimal(1).scaleb(-places)
    if up and Fraction(r) < x:
        r += unit
    elif not up and Fraction(r) > x:
        r -= unit
    return decimal_text(r)


def meets(claim: Written, value: Val, tolerance: Fraction) -> bool:
    """Whether a value within ``tolerance`` of a rounding of ``claim`` lies in ``value``."""
    return fits(claim, to_arb(plus_minus(value, tolerance)))


class _Recorder:
    """Records the findings of one claim with its values."""

    def __init__(self, run: Run, chain: Chain, node: Node, exact: str, expected: str | None):
        self.run, self.chain, self.node = run, chain, node
        self.w = chain.graph.claims[node]
        step, position = chain.graph.where[node]
        self.where = SpecLocation(step, position)
        self.exact, self.expected = exact, expected
        self.inexact = False

    def add(
        self,
        code: str,
        key: FindingKey,
        params: Mapping[str, object],
        cause: Cause | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        self.run.add(
            code,
            key,
            self.where,
            self.w.text,
            self.exact,
            self.expected,
            params,
            cause=cause,
            inexact=self.inexact,
            alternatives=alternatives,
        )
        # a truncation is a rounding habit: numbers computed from it carry rounding
        status = "carried" if code == "propagated-error" else "ok"
        if SEVERITY[code] == "error" and code != "truncated":
            status = "error"
        self.chain.status[self.node] = status


def diagnose(run: Run, chain: Chain, node: Node) -> None:
    """Judge the claim at ``node``; record a finding with the most specific cause, if any.

    A value beyond the range symattn writes out exactly (``e^261121``) is not checked: the
    claim gets ``undecided`` (info) with the reason, and the other claims are judged."""
    try:
        _diagnose(run, chain, node)
    except LimitError as exc:
        if chain.status.get(node) is None:
            g = chain.graph
            step, position = g.where[node]
            run.add(
                "undecided",
                "undecided-limit",
                SpecLocation(step, position),
                g.claims[node].text,
                "?",
                None,
                {"reason": str(exc)},
            )
            chain.status[node] = "ok"


def _diagnose(run: Run, chain: Chain, node: Node) -> None:
    g = chain.graph
    w = g.claims[node]
    value = g.exact(node)
    v = run.judge(w, value)
    if v.code is None:
        chain.status[node] = "ok"
        return
    rec = _Recorder(run, chain, node, v.exact, v.expected)
    q = value.rational()
    rec.inexact = not (q is not None and v.exact not in ("?", "") and Fraction(v.exact) == q)
    as_is = _AS_IS.get(v.code)
    if as_is is not None:
        rec.add(v.code, as_is, dict(v.details))
        return
    base = {"distance": v.details.get("distance", "?")}
    if _printout(rec):
        return

    def approximate(hit: Approximation) -> None:
        rec.add("approximate-constant", "approximate-constant", {**base, **hit.params()})

    # (a truncation of its own value is that, not a complement of the row's others)
    rest = _complement_of(run, chain, node) if v.code != "truncated" else None
    if rest is not None:
        formula = "1 − " + " − ".join(g.claims[r].text for r in rest)
        _propagated(rec, base, "propagated-exact", formula=formula, sources=rest)
        return
    hit = approximate_e(run, w, chain, node, long=True)
    if hit is not None:
        approximate(hit)
        return
    own = chain.point(node)
    if own is not None and run.holds(w, own):
        _propagated(rec, base, "propagated-exact")
        return
    if v.code == "truncated":
        params: dict[str, object] = dict(base)
        alt = approximate_e_consistent(run, w, chain, node)
        if alt is not None and alt[1]:
            truncated = Message(SECTION, "truncated", {**base, **_values(rec)})
            constant = Message(
                SECTION, "approximate-constant", {**base, **alt[0].params(), **_values(rec)}
            )
            rec.add(
                "truncated",
                "ambiguous",
                {**params, "first": truncated, "second": constant},
                alternatives=("approximate-constant",),
            )
            return
        rec.add("truncated", "truncated", params)
        return
    hit = approximate_root(run, w, chain, node)
    if hit is not None:
        approximate(hit)
        return
    slip = find_slip(run, w, v, g.tensor(node.step), node.pos)
    if slip is None:
        slip = find_misread(run, w, node.step, node.pos, g.res)
    if slip is not None:
        rec.add("wrong-value", "wrong-value-slip", {**base, "slip": slip.shown}, cause=slip.cause)
        return
    ball = chain.interval(node)
    if ball is not None and meets(w, ball, Fraction(0)):
        _propagated(rec, base, "propagated-interval")
        return
    got = approximate_e_consistent(run, w, chain, node)
    if got is not None:
        approximate(got[0])
        return
    rec.add("wrong-value", "wrong-value", base)


def _complement_of(run: Run, chain: Chain, node: Node) -> list[Node] | None:
    """The other weights of its row when the author's last weight at ``node`` is exactly 1 −
    their claimed values and those that are no correct rounding are truncations
    (``[0.6697, 0.3303]``, 0.6697 truncated): the row completed from a rounding habit, which
    it carries; else None."""
    if node.step != "weights" or run.spec.precision not in (None, "exact"):
        return None  # (a program prints every weight: it completes no row)
    g = chain.graph
    rest = [
        n for n in g.claims if n.step == node.step and n.pos[:-1] == node.pos[:-1] and n != node
    ]
    # (the last of the row: authors complete a row from the weights before it)
    if not rest or max(rest) > node:
        return None
    if sum((g.claims[n].value for n in rest), g.claims[node].value) != 1:
        return None
    codes = {run.judge(g.claims[n], g.exact(n)).code for n in rest}
    if codes - {None} != {"truncated"}:
        # (completed from right numbers it is the author's rounding; from wrong ones, no
        # telling the completion from a row made up to sum to 1: judged as it stands)
        return None
    return sorted(rest)


def _values(rec: _Recorder) -> dict[str, object]:
    return {"claimed": rec.w.text, "exact": rec.exact, "expected": rec.expected or ""}


def _propagated(
    rec: _Recorder,
    base: Mapping[str, object],
    key: FindingKey,
    *,
    formula: str | None = None,
    sources: list[Node] | None = None,
) -> None:
    """The claim follows from the author's numbers: carried rounding, or a carried error."""
    g = rec.chain.graph
    formula = g.formula(rec.node) if formula is None else formula
    origin = rec.chain.origin(rec.node, sources)
    if origin is None:
        rec.add("propagated-rounding", key, {**base, "formula": formula})
        return
    step, position = g.where[origin]
    origin_w = g.claims[origin]
    # a scaled score from a wrong score divided by the author's wrong divisor: both causes
    also = ("dk-mismatch",) if rec.chain.divisor_wrong and rec.node.step == "scaled_scores" else ()
    origin_v = rec.run.judge(origin_w, g.exact(origin))
    q = g.exact(origin).rational()
    origin_exact = origin_v.exact
    if not (q is not None and origin_exact not in ("?", "") and Fraction(origin_exact) == q):
        origin_exact += "…"
    rec.add(
        "propagated-error",
        "propagated-error",
        {
            **base,
            "formula": formula,
            "origin": origin_w.text,
            "origin_at": f"{step}[{','.join(position)}]",
            "origin_exact": origin_exact,
        },
        alternatives=also,
    )


def _printout(rec: _Recorder) -> bool:
    """A float program's printout (``float-bound``), or a value some unrounded inputs give
    (``rounded-inputs``): recorded (info) and True, else False."""
    run, chain, node, w = rec.run, rec.chain, rec.node, rec.w
    spec = run.spec
    formats = arithmetics_for(spec.precision, w)
    for a in formats:
        env = _envelope(chain, node, a, boxes=False)
        if env is not None and meets(w, env, a.print_tolerance(w)):
            rec.add("float-representation", "float-bound", _bounds(rec, env, a.name))
            return True
    if not spec.rounded_inputs:
        return False
    options: list[Arithmetic | None] = [None, *formats]
    for b in options:
        env = _envelope(chain, node, b, boxes=True)
        if env is not None and meets(
            w, env, b.print_tolerance(w) if b is not None else Fraction(0)
        ):
            params = _bounds(rec, env, b.name if b is not None else "exact")
            params["inputs"] = ", ".join(spec.rounded_inputs)
            rec.add("rounded-inputs", "rounded-inputs", params)
            return True
    return False


def _envelope(chain: Chain, node: Node, a: Arithmetic | None, *, boxes: bool) -> Val | None:
    """The envelope, or None when no finite enclosure exists (nothing is then explained)."""
    try:
        return chain.envelope(node, a, boxes=boxes)
    except PrecisionError:
        return None


def _bounds(rec: _Recorder, env: Val, precision: str) -> dict[str, object]:
    return {
        "precision": precision,
        "float": f"{precision} program",
        "low": bound_text(lower(env), rec.w, up=False),
        "high": bound_text(upper(env), rec.w, up=True),
        "formula": f"[{bound_text(lower(env), rec.w, up=False)}, "
        f"{bound_text(upper(env), rec.w, up=True)}]",
    }
