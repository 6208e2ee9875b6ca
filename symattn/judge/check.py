"""Check the numbers an author claims in a spec against the exact computation.

``check(spec)`` judges every claim with :func:`symattn.verdict.judge` and, for each claim
that is not a correct rounding, looks for the most specific explanation, in this order:

1. ``float-representation`` (info): the claim is how a float64/float32 of the value prints;
2. ``approximate-constant``: a rounded constant (``e ≈ 2.718``) reproduces a long claim digit
   for digit in double precision (``2.718**0.092 + ...``);
3. ``propagated-rounding`` (exact): the author's own earlier numbers, taken as written,
   reproduce the claim (``12.18 + 2.71 = 14.89``);
4. ``truncated``: the claim is the truncation of the exact value;
5. ``wrong-value`` with a named slip (transposed or dropped digit, wrong sign, swapped operand);
6. ``propagated-rounding`` (interval): the claim fits once each earlier claim stands for the
   interval of values that round to it, carried forward with Arb balls ("unrounding");
7. ``approximate-constant`` for a short claim that a rounded constant rounds to;
8. ``wrong-value``.

Scaling is checked first (``dk-mismatch``, ``conflicting-definition``): when the author's
divisor is not ``√d_k``, the later claims are judged in the author's frame and the finding
says which claims hold in which frame. Row-level checks add ``not-normalized`` and
``precision-mixed``. A spec whose inputs are missing yields ``missing-input`` (info) only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import flint

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.exact import (
    Ball,
    Evaluator,
    ExactTensor,
    Surd,
    arb_of,
    arb_to_fraction,
    inv_sqrt,
    sqrt_surd,
)
from symattn.judge.constants import APPROX_E, approximate_roots
from symattn.judge.findings import Finding, Message, SpecLocation
from symattn.judge.verdict import (
    DEFAULT_ACCEPTED,
    SEVERITY,
    Computed,
    Const,
    Quantity,
    TensorEntry,
    Verdict,
    certify_value,
    consistent_with,
    judge,
    normalization_gap,
    precision_mixed,
    rounding_interval,
)
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding, round_decimals
from symattn.spec import Spec
from symattn.stages import ROW_STAGES

__all__ = ["CheckReport", "Finding", "check"]

#: the steps a row claim belongs to, in computation order (spec field -> trace step)
ROW_STEPS: tuple[tuple[str, str], ...] = tuple((s.claim, s.step) for s in ROW_STAGES)

_STEP_OF = MappingProxyType(dict(ROW_STEPS))
_PREC = 256  # working precision of the unrounding balls (bits)
#: steps whose values depend on the divisor (judged in the author's frame under dk-mismatch)
_FRAME_STEPS = frozenset(s.step for s in ROW_STAGES if s.scaled)
#: misread inputs are searched in dot products of at most this many terms
_MISREAD_MAX_TERMS = 64


@dataclass(frozen=True)
class CheckReport:
    """The findings of one ``check`` run."""

    path: str
    findings: tuple[Finding, ...]
    checked: int

    def count(self, severity: str) -> int:
        """How many findings have ``severity``."""
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def has_errors(self) -> bool:
        """Whether any finding is of severity error."""
        return self.count("error") > 0


# --------------------------------------------------------------------------- helpers


def _arb(x: Fraction) -> flint.arb:
    return arb_of(x)


def _interval(w: Written) -> flint.arb:
    """The claim as the ball of values that round to it."""
    lo, hi = rounding_interval(w)
    mid, rad = (lo + hi) / 2, (hi - lo) / 2
    return arb_of(mid, rad)


def _point(w: Written) -> flint.arb:
    return _arb(w.value)


def _fits(claim: Written, ball: flint.arb) -> bool:
    """Whether some value in ``ball`` rounds to ``claim`` (the claim's interval meets the ball)."""
    if not ball.is_finite():
        return False
    lo, hi = rounding_interval(claim)
    with flint.ctx.workprec(_PREC):
        b_lo = _frac(ball.lower())
        b_hi = _frac(ball.upper())
    return b_lo <= hi and lo <= b_hi


def _frac(x: flint.arb) -> Fraction:
    return arb_to_fraction(x)


def _fmt_dec(x: object) -> str:
    return format(x, "f")


@dataclass(frozen=True)
class _Frame:
    """One way of computing: the attention result with one divisor."""

    result: AttentionResult
    divisor: str  # as shown, e.g. "2" or "sqrt(2)"
    scale: Surd


def _run(spec: Spec, scale: Surd | Fraction) -> AttentionResult:
    if isinstance(scale, Surd):
        if scale.is_rational:
            return replace(spec, scale=scale.p).run()
        # a Surd scale: run with the d_k whose 1/sqrt is the scale
        d = 1 / (scale.q * scale.q * scale.r)
        if d.denominator == 1:
            return replace(spec, scale=None, d_k=int(d)).run()
        raise InputError(f"cannot use the divisor 1/({scale}) as an author's frame")
    return replace(spec, scale=scale).run()


# --------------------------------------------------------------------------- the checker


class _Checker:
    """One check run: frames, claims, and the findings collected in order."""

    def __init__(self, spec: Spec, accepted: frozenset[Rounding], limits: Limits) -> None:
        self.spec = spec
        self.accepted = accepted
        self.limits = limits
        self.findings: list[Finding] = []
        self.checked = 0

    # -- recording --------------------------------------------------------

    def add(
        self,
        code: str,
        step: str,
        position: tuple[str, ...],
        claimed: str,
        exact: str,
        expected: str | None,
        key: str | None = None,
        params: Mapping[str, object] | None = None,
        cause: str | None = None,
        inexact: bool = False,
    ) -> None:
        finding = Finding(
            code,
            SEVERITY[code],
            SpecLocation(step, position),
            claimed,
            exact,
            expected,
            Message("check", key or code),
            cause,
            inexact,
        )
        # the message is self-contained: the finding's own values are parameters too
        values: dict[str, object] = dict(params or {})
        values.update(claimed=claimed, exact=finding.exact_text, expected=expected or "")
        if cause is not None:
            values["cause"] = values.get("slip", cause)
            values["cause_text"] = Message("check", "cause." + cause, dict(values))
        self.findings.append(replace(finding, message=Message("check", key or code, values)))

    def judge(self, claim: Written, value: Quantity) -> Verdict:
        return judge(claim, value, accepted=self.accepted, limits=self.limits)

    # -- claims in spec order -----------------------------------------------

    def all_claims(self) -> list[tuple[str, tuple[str, ...], Written]]:
        """Every claim as (step, position, claim)."""
        c = self.spec.claims
        out: list[tuple[str, tuple[str, ...], Written]] = []
        if c.d_k is not None:
            out.append(("d_k", (), c.d_k))
        if c.sqrt_d_k is not None:
            out.append(("sqrt_d_k", (), c.sqrt_d_k))
        for token, tc in c.tokens.items():
            for name, vec in (("Q", tc.q), ("K", tc.k), ("V", tc.v)):
                for j, w in enumerate(vec or ()):
                    if w is not None:
                        out.append((name, (token, str(j)), w))
        for row, rc in c.rows.items():
            for fieldname, step in ROW_STEPS:
                val = getattr(rc, fieldname)
                if fieldname == "sum":
                    if val is not None:
                        out.append((step, (row,), val))
                    continue
                for j, w in enumerate(val):
                    if w is not None:
                        out.append((step, (row, self.col_label(fieldname, j)), w))
        return out

    def col_label(self, fieldname: str, j: int) -> str:
        if fieldname == "output":
            return str(j)
        tokens = self.spec.tokens
        return tokens[j] if j < len(tokens) else str(j)

    # -- main ---------------------------------------------------------------

    def run(self) -> CheckReport:
        spec = self.spec
        claims = self.all_claims()
        self.check_rows_without_inputs()
        if not spec.computable:
            absent = ", ".join(n for n in spec.needed if n not in spec.inputs)
            for step, pos, w in claims:
                self.add("missing-input", step, pos, w.text, "?", None, params={"absent": absent})
            return self.report(len(claims))
        correct = _Frame(spec.run(), "", Surd(Fraction(0)))
        correct = replace(
            correct, scale=correct.result.scale, divisor=_divisor_text(correct.result)
        )
        author = self.check_scaling(correct)
        self.check_tokens(correct)
        for row in spec.claims.rows:
            self.check_row(row, author or correct, correct)
        return self.report(len(claims))

    def report(self, checked: int) -> CheckReport:
        return CheckReport(self.spec.path, tuple(self.findings), checked)

    # -- spec-level: d_k ----------------------------------------------------

    def check_scaling(self, correct: _Frame) -> _Frame | None:
        """conflicting-definition and dk-mismatch; the author's frame when it differs."""
        spec, c = self.spec, self.spec.claims
        res = correct.result
        width = res.key_width
        if c.d_k is not None and spec.d_k is not None and c.d_k.value != spec.d_k:
            self.add(
                "conflicting-definition",
                "d_k",
                (),
                c.d_k.text,
                str(spec.d_k),
                str(spec.d_k),
                params={"symbol": "d_k", "first": spec.d_k, "second": c.d_k.text},
            )
        candidates: list[tuple[str, Surd | Fraction]] = []
        if c.sqrt_d_k is not None:
            v = self.judge(c.sqrt_d_k, _SurdQuantity(sqrt_surd(spec.d_k or width)))
            if v.code is None:
                return None
            if c.sqrt_d_k.value > 0:  # a divisor of 0 or less gives no frame to recompute in
                candidates.append((c.sqrt_d_k.text, 1 / c.sqrt_d_k.value))
        else:
            if self.scaled_claims_hold(res):
                return None
            for d in _unique([c.d_k.value if c.d_k is not None else None, width, spec.d_k]):
                if d is not None and d > 0:
                    candidates.append((f"sqrt({d})", inv_sqrt(d)))
            for d in _unique([spec.d_k, width, Fraction(1)]):
                if d is not None and d > 0:
                    candidates.append((str(d), Fraction(1, 1) / Fraction(d)))
        for shown, scale in candidates:
            try:
                frame = _Frame(
                    _run(spec, scale), shown, scale if isinstance(scale, Surd) else Surd(scale)
                )
            except InputError:
                continue
            if c.sqrt_d_k is None and not self.scaled_claims_hold(frame.result):
                continue
            self.report_mismatch(correct, frame)
            return frame
        if c.sqrt_d_k is not None:  # a wrong divisor with no frame to recompute in (0, negative)
            root = sqrt_surd(spec.d_k or width)
            self.add(
                "dk-mismatch",
                "sqrt_d_k",
                (),
                c.sqrt_d_k.text,
                str(root),
                str(root),
                key="dk-mismatch-divisor",
                params={
                    "divisor": c.sqrt_d_k.text,
                    "root": root,
                    "d_k": spec.d_k or width,
                    "width": width,
                },
            )
            return None
        if spec.d_k is not None and spec.d_k != width:
            self.add(
                "dk-mismatch",
                "sqrt_d_k",
                (),
                str(spec.d_k),
                str(width),
                None,
                key="dk-mismatch-width",
                params={"stated": spec.d_k, "width": width},
            )
        return None

    def scaled_claims_hold(self, res: AttentionResult) -> bool:
        """Whether every claimed scaled score is consistent with ``res`` (vacuous: False)."""
        seen = False
        for row, rc in self.spec.claims.rows.items():
            i = _row_index(res.query_labels, row)
            if i is None:
                continue
            for j, w in enumerate(rc.scaled):
                if w is None:
                    continue
                seen = True
                if self.judge(w, TensorEntry(res.scaled_scores, (i, j))).code is not None:
                    return False
        return seen

    def report_mismatch(self, correct: _Frame, author: _Frame) -> None:
        spec, c = self.spec, self.spec.claims
        res = correct.result
        d_author = _divisor_square(author.result)
        held_author, held_correct = [], []
        for row, rc in c.rows.items():
            for fieldname, step in ROW_STEPS[1:]:
                for pos, w, q_a, q_c in self.row_entries(
                    row, fieldname, author.result, correct.result
                ):
                    label = f"{w.text}"
                    if self.judge(w, q_a).code is None:
                        held_author.append(label)
                    if self.judge(w, q_c).code is None:
                        held_correct.append(label)
        would: dict[str, str] = {}
        for row in c.rows:
            i = _row_index(res.query_labels, row)
            if i is None:
                continue
            would["weights"] = _vector(res.weights, i, 4, self.limits)
            would["output"] = _vector(res.output, i, 4, self.limits)
            break
        claimed = c.sqrt_d_k.text if c.sqrt_d_k is not None else author.divisor
        conflict = any(
            f.code == "conflicting-definition" and f.step == "d_k" for f in self.findings
        )
        from_conflict = (
            conflict and c.d_k is not None and d_author is not None and c.d_k.value == d_author
        )
        self.add(
            "dk-mismatch",
            "sqrt_d_k",
            (),
            claimed,
            correct.divisor,
            correct.divisor,
            key="dk-mismatch-conflict" if from_conflict else "dk-mismatch",
            params={
                "claimed_d_k": c.d_k.text if c.d_k is not None else "-",
                "divisor": claimed,
                "author_d_k": d_author if d_author is not None else "?",
                "stated": spec.d_k if spec.d_k is not None else "-",
                "width": res.key_width,
                "held_author": held_author,
                "held_correct": held_correct,
                "weights": would.get("weights", "-"),
                "output": would.get("output", "-"),
            },
        )

    def row_entries(
        self, row: str, fieldname: str, res_a: AttentionResult, res_c: AttentionResult
    ) -> Iterable[tuple[tuple[str, ...], Written, Quantity, Quantity]]:
        rc = self.spec.claims.rows[row]
        i = _row_index(res_a.query_labels, row)
        if i is None:
            return
        step = _STEP_OF[fieldname]
        val = getattr(rc, fieldname)
        if fieldname == "sum":
            if val is not None:
                yield (
                    (row,),
                    val,
                    TensorEntry(res_a.stage(step), (i,)),
                    TensorEntry(res_c.stage(step), (i,)),
                )
            return
        for j, w in enumerate(val):
            if w is not None:
                pos = (row, self.col_label(fieldname, j))
                yield (
                    pos,
                    w,
                    TensorEntry(res_a.stage(step), (i, j)),
                    TensorEntry(res_c.stage(step), (i, j)),
                )

    # -- tokens ---------------------------------------------------------------

    def check_tokens(self, frame: _Frame) -> None:
        res = frame.result
        for token, tc in self.spec.claims.tokens.items():
            for name, vec, labels in (
                ("Q", tc.q, res.query_labels),
                ("K", tc.k, res.key_labels),
                ("V", tc.v, res.key_labels),
            ):
                if vec is None:
                    continue
                i = _row_index(labels, token)
                tensor = res.stage(name)
                self.mixed(
                    name,
                    token,
                    vec,
                    exact_of=None if i is None else (lambda j, t=tensor, r=i: t.rational((r, j))),
                )
                for j, w in enumerate(vec):
                    if w is None:
                        continue
                    if i is None:
                        self.add(
                            "missing-input",
                            name,
                            (token, str(j)),
                            w.text,
                            "?",
                            None,
                            key="missing-token",
                            params={"token": token},
                        )
                        continue
                    tensor = res.stage(name)
                    self.judge_claim(
                        name,
                        (token, str(j)),
                        w,
                        TensorEntry(tensor, (i, j)),
                        tensor,
                        (i, j),
                        None,
                        res,
                    )

    # -- rows -------------------------------------------------------------------

    def check_rows_without_inputs(self) -> None:
        """not-normalized and precision-mixed need only the claims."""
        for row, rc in self.spec.claims.rows.items():
            ws = rc.weights
            gap = normalization_gap(ws) if ws and all(w is not None for w in ws) else None  # type: ignore[arg-type]
            if gap is not None:
                total, lo, hi = gap
                self.add(
                    "not-normalized",
                    "weights",
                    (row,),
                    " + ".join(w.text for w in ws),  # type: ignore[union-attr]
                    "1",
                    "1",
                    params={
                        "sum": _frac_text(total),
                        "low": _frac_text(lo),
                        "high": _frac_text(hi),
                    },
                )
            if not self.spec.computable:
                for fieldname in ("scaled", "exp", "weights", "output"):
                    self.mixed(_STEP_OF[fieldname], row, getattr(rc, fieldname), fieldname)

    def mixed(
        self,
        step: str,
        row: str,
        vec: tuple[Written | None, ...],
        fieldname: str = "",
        exact_of: Callable[[int], Fraction | None] | None = None,
    ) -> None:
        """precision-mixed: claims of one vector written with different decimals.

        The less precise ones are reported, unless they are the exact value (``0.22`` next to
        ``-0.175`` when the value is exactly 0.22 is not a rounding).
        """
        others = [w.text for w in vec if w is not None and w.kind == "decimal" and w.decimals]
        for m in precision_mixed(vec, exact_of):
            w = vec[m.index]
            col = self.col_label(fieldname, m.index) if fieldname else str(m.index)
            self.add(
                "precision-mixed",
                step,
                (row, col),
                w.text,
                "-",
                None,  # type: ignore[union-attr]
                params={"decimals": m.decimals, "common": m.common, "others": others},
            )

    def check_row(self, row: str, author: _Frame, correct: _Frame) -> None:
        rc = self.spec.claims.rows[row]
        res = author.result
        i = _row_index(res.query_labels, row)
        if i is None:
            for fieldname, step in ROW_STEPS:
                val = getattr(rc, fieldname)
                for j, w in enumerate([val] if fieldname == "sum" else list(val)):
                    if w is not None:
                        self.add(
                            "missing-input",
                            step,
                            (row,),
                            w.text,
                            "?",
                            None,
                            key="missing-row",
                            params={"token": row},
                        )
            return
        if res.weights.ndim != 2:
            raise InputError(f"{self.spec.path}: check supports single-head, unbatched specs")
        chain = _Chain(self.spec, row, i, res, author.scale)
        first = len(self.findings)
        for fieldname in ("scaled", "exp", "weights", "output"):
            t = res.stage(_STEP_OF[fieldname])
            self.mixed(
                _STEP_OF[fieldname],
                row,
                getattr(rc, fieldname),
                fieldname,
                exact_of=lambda j, t=t: t.rational((i, j)),
            )
        for fieldname, step in ROW_STEPS:
            tensor = res.stage(step)
            val = getattr(rc, fieldname)
            entries = (
                [((i,), val, None)]
                if fieldname == "sum"
                else [((i, j), w, j) for j, w in enumerate(val)]
            )
            for idx, w, j in entries:
                if w is None:
                    continue
                pos = (row,) if j is None else (row, self.col_label(fieldname, j))
                self.judge_claim(
                    step, pos, w, TensorEntry(tensor, idx), tensor, idx, (chain, fieldname, j), res
                )
        if author is not correct:
            frame = (
                _frac_text(Fraction(_divisor_square(res)))
                if _divisor_square(res) is not None
                else author.divisor
            )
            self.findings[first:] = [
                replace(f, frame=frame) if f.step in _FRAME_STEPS else f
                for f in self.findings[first:]
            ]

    # -- one claim --------------------------------------------------------------

    def judge_claim(
        self,
        step: str,
        pos: tuple[str, ...],
        w: Written,
        value: Quantity,
        tensor: ExactTensor,
        idx: tuple[int, ...],
        chain_at: tuple[_Chain, str, int | None] | None,
        res: AttentionResult | None = None,
    ) -> None:
        v = self.judge(w, value)
        if v.code is None:
            return
        q = value.rational()
        inexact = not (q is not None and v.exact not in ("?", "") and Fraction(v.exact) == q)

        def add(
            code: str,
            key: str | None = None,
            params: Mapping[str, object] | None = None,
            cause: str | None = None,
        ) -> None:
            self.add(
                code,
                step,
                pos,
                w.text,
                v.exact,
                v.expected,
                key=key,
                params=params,
                cause=cause,
                inexact=inexact,
            )

        if v.code in ("float-representation", "undecided"):
            add(v.code, params=dict(v.details))
            return
        base = {"distance": v.details.get("distance", "?")}
        if chain_at is not None:
            chain, fieldname, j = chain_at
            hit = self.approximate_constant(w, chain, fieldname, j, long=True)
            if hit is not None:
                add("approximate-constant", params={**base, **hit})
                return
            own = chain.point(fieldname, j)
            if own is not None and self.judge(w, own).code is None:
                add(
                    "propagated-rounding",
                    key="propagated-exact",
                    params={**base, "formula": chain.formula(fieldname, j)},
                )
                return
        if v.code == "truncated":
            add("truncated", params=base)
            return
        if chain_at is not None and chain_at[1] == "scaled":
            hit = self.approximate_root(w, chain_at[0], chain_at[2])
            if hit is not None:
                add("approximate-constant", params={**base, **hit})
                return
        slip = self.find_slip(w, v, tensor, idx)
        if slip is None and res is not None:
            slip = self.find_misread(w, step, idx, res)
        if slip is not None:
            cause, shown = slip
            add("wrong-value", key="wrong-value-slip", params={**base, "slip": shown}, cause=cause)
            return
        if chain_at is not None:
            chain, fieldname, j = chain_at
            ball_fn = chain.derive(fieldname, j, point=False)
            if ball_fn is not None:
                with flint.ctx.workprec(_PREC):
                    ball = ball_fn()
                if _fits(w, ball):
                    add(
                        "propagated-rounding",
                        key="propagated-interval",
                        params={**base, "formula": chain.formula(fieldname, j)},
                    )
                    return
        if chain_at is not None:
            chain, fieldname, j = chain_at
            hit = self.approximate_constant(w, chain, fieldname, j, long=False)
            if hit is not None:
                add("approximate-constant", params={**base, **hit})
                return
        add("wrong-value", params=base)

    def approximate_root(
        self, w: Written, chain: _Chain, j: int | None
    ) -> dict[str, object] | None:
        """A rounded ``√d`` (or ``1/√d``) that reproduces a scaled score at its written precision."""
        if j is None:
            return None
        sc = chain._claim("scores", j)
        score = sc.value if sc is not None else chain.res.scores.rational((chain.i, j))
        if score is None or score == 0:
            return None
        score_text = sc.text if sc is not None else _frac_text(score)
        c = self.spec.claims
        dims = _unique(
            [self.spec.d_k, chain.res.key_width, c.d_k.value if c.d_k is not None else None]
        )
        for d in dims:
            if not isinstance(d, (int, Fraction)) or d <= 0 or Fraction(d).denominator != 1:
                continue
            for const in approximate_roots(int(d)):
                got = score / const.value if const.divide else score * const.value
                if self.judge(w, Const(got)).code is None:
                    op = "/" if const.divide else "×"
                    return {
                        "constant": f"{const.symbol} ≈ {const.text}",
                        "computation": f"{score_text} {op} {const.text} = {_frac_text(got)}",
                        "precision": "exact",
                        "own": _quantity_text(
                            Computed(lambda s=score, d=int(d): _arb(s) / flint.arb(d).sqrt()),
                            (w.decimals or 0) + 3,
                            self.limits,
                        ),
                    }
        return None

    def find_misread(
        self, w: Written, step: str, idx: tuple[int, ...], res: AttentionResult
    ) -> tuple[str, str] | None:
        """An input misread (digit dropped/doubled, sign flipped, adjacent entries swapped, a
        neighbouring row's or column's entry) that reproduces the claim at its written precision."""
        plan = _operands(step, idx, res)
        if plan is None:
            return None
        left, right = plan
        if len(left.entries) > _MISREAD_MAX_TERMS:
            return None
        for side, other in ((right, left), (left, right)):
            for kind, k, new in _misreadings(side):
                quantity = _dot_quantity(other, new)
                if self.judge(w, quantity).code is None:
                    return kind, _misread_text(side, kind, k, new)
        return None

    def approximate_constant(
        self, w: Written, chain: _Chain, fieldname: str, j: int | None, *, long: bool
    ) -> dict[str, object] | None:
        """A rounded constant that reproduces ``w``: digit for digit in float64 (``long``,
        claims of 12+ significant digits) or as a correct rounding (short claims)."""
        if fieldname not in ("exp", "sum", "weights", "output"):
            return None
        if long != ((w.significant or 0) >= 12):
            return None
        for const in APPROX_E:
            if long:
                got = chain.float_value(fieldname, j, float(const.value))
                if got is not None and Fraction(repr(got)) == w.value:
                    own = chain.point(fieldname, j)
                    own_text = _quantity_text(own, 6, self.limits) if own is not None else "?"
                    return {
                        "constant": f"{const.symbol} ≈ {const.text}",
                        "computation": chain.float_formula(fieldname, j, const.text)
                        + f" = {repr(got)}",
                        "precision": "float64",
                        "own": own_text,
                    }
            else:
                q = chain.point(fieldname, j, base=const.value)
                if q is not None and self.judge(w, q).code is None:
                    own = chain.point(fieldname, j)
                    return {
                        "constant": f"{const.symbol} ≈ {const.text}",
                        "computation": chain.formula(fieldname, j, base=const.text),
                        "precision": "exact",
                        "own": _quantity_text(own, (w.decimals or 0) + 3, self.limits)
                        if own is not None
                        else "?",
                    }
        return None

    def find_slip(
        self, w: Written, v: Verdict, tensor: ExactTensor, idx: tuple[int, ...]
    ) -> tuple[str, str] | None:
        """A plausible slip that reproduces the claim exactly, or None."""
        expected = v.expected
        if expected is not None:
            digits_c, digits_e = _digits(w.text), _digits(expected)
            sign_c, sign_e = w.text.strip().startswith("-"), expected.startswith("-")
            if sign_c == sign_e and len(digits_c) == len(digits_e) and digits_c != digits_e:
                diffs = [k for k in range(len(digits_c)) if digits_c[k] != digits_e[k]]
                if (
                    len(diffs) == 2
                    and diffs[1] == diffs[0] + 1
                    and digits_c[diffs[0]] == digits_e[diffs[1]]
                    and digits_c[diffs[1]] == digits_e[diffs[0]]
                ):
                    return "transposed-digits", expected
            if sign_c == sign_e and len(digits_c) + 1 == len(digits_e):
                for k in range(len(digits_e)):
                    if digits_e[:k] + digits_e[k + 1 :] == digits_c:
                        return "dropped-digit", expected
        neg = replace(w, value=-w.value)
        if w.value != 0 and consistent_with(
            neg, TensorEntry(tensor, idx), self.accepted, self.limits
        ):
            return "wrong-sign", v.exact
        if len(idx) == 2 and tensor.ndim == 2:
            i, j = idx
            n, m = tensor.shape
            others = [(i, k) for k in range(m) if k != j] + [(k, j) for k in range(n) if k != i]
            if n == m and (j, i) not in others and (j, i) != (i, j):
                others.append((j, i))
            for o in others:
                if tensor.is_neg_inf(o):
                    continue
                if consistent_with(w, TensorEntry(tensor, o), self.accepted, self.limits):
                    return "swapped-operand", f"[{o[0]}, {o[1]}]"
        return None


# --------------------------------------------------------------------------- the author's chain


class _Chain:
    """One query row's computation from the author's own earlier numbers.

    ``derive(field, j, point=...)`` returns a function computing the entry (inside a flint
    working-precision context) from the previous step: the author's claim where they wrote
    one — as its exact value (``point``) or as the interval of values that round to it —
    and the exact value of the frame where they did not.
    """

    def __init__(self, spec: Spec, row: str, i: int, res: AttentionResult, scale: Surd) -> None:
        self.spec = spec
        self.rc = spec.claims.rows[row]
        self.i = i
        self.res = res
        self.scale = scale
        self.n = res.weights.shape[-1]
        self.masked = [res.masked_scores.is_neg_inf((i, j)) for j in range(self.n)]
        self.v_claims = self._v_claims()

    def _v_claims(self) -> list[tuple[Written | None, ...] | None]:
        labels = self.res.key_labels or ()
        out: list[tuple[Written | None, ...] | None] = []
        for k in range(self.n):
            tc = self.spec.claims.tokens.get(labels[k]) if k < len(labels) else None
            out.append(tc.v if tc is not None else None)
        return out

    def _exact(self, step: str, idx: tuple[int, ...]) -> flint.arb:
        return Evaluator(flint.ctx.prec).arb(self.res.stage(step))[idx]

    def _claim(self, fieldname: str, j: int | None) -> Written | None:
        val = getattr(self.rc, fieldname)
        if fieldname == "sum":
            return val
        return val[j] if j is not None and j < len(val) else None

    def value(self, fieldname: str, j: int | None, point: bool, base: Fraction | None) -> flint.arb:
        """The author's value of an earlier entry: claim (point or interval) or derived."""
        w = self._claim(fieldname, j)
        if w is not None and not (base is not None and fieldname not in ("scores", "scaled")):
            return _point(w) if point else _interval(w)
        return self.compute(fieldname, j, point, base)

    def compute(
        self, fieldname: str, j: int | None, point: bool, base: Fraction | None
    ) -> flint.arb:
        """The entry computed from the previous step's author values."""
        i = self.i
        if fieldname == "scores":
            return self._exact("scores", (i, j))  # type: ignore[arg-type]
        if fieldname == "scaled":
            return self.value("scores", j, point, base) * self.scale.arb()
        if fieldname == "exp":
            if self.masked[j]:  # type: ignore[index]
                return flint.arb(0)
            x = self.value("scaled", j, point, base)
            return x.exp() if base is None else (x * _arb(base).log()).exp()
        if fieldname == "sum":
            total = flint.arb(0)
            for k in range(self.n):
                total += self.value("exp", k, point, base)
            return total
        if fieldname == "weights":
            return self.value("exp", j, point, base) / self.value("sum", None, point, base)
        if fieldname == "output":
            total = flint.arb(0)
            for k in range(self.n):
                total += self.value("weights", k, point, base) * self._v(k, j, point)  # type: ignore[arg-type]
            return total
        raise KeyError(fieldname)

    def _v(self, k: int, c: int, point: bool) -> flint.arb:
        claims = self.v_claims[k]
        if claims is not None and c < len(claims) and claims[c] is not None:
            return _point(claims[c]) if point else _interval(claims[c])  # type: ignore[arg-type]
        return self._exact("V", (k, c))

    def derive(
        self, fieldname: str, j: int | None, *, point: bool, base: Fraction | None = None
    ) -> Callable[[], flint.arb] | None:
        """A function computing the entry from the author's earlier numbers (None: nothing to use)."""
        if fieldname == "scores":
            return None
        return lambda: self.compute(fieldname, j, point, base)

    def point(self, fieldname: str, j: int | None, base: Fraction | None = None) -> Computed | None:
        """The entry from the author's own numbers taken as written, as a :class:`Quantity`."""
        fn = self.derive(fieldname, j, point=True, base=base)
        if fn is None:
            return None
        return Computed(fn, self.rational(fieldname, j, base))

    def rational(self, fieldname: str, j: int | None, base: Fraction | None) -> Fraction | None:
        """The point value exactly, when it is rational (claims only, no exp of a non-zero)."""
        w = self._claim(fieldname, j)
        if fieldname == "scores":
            return self.res.scores.rational((self.i, j))  # type: ignore[arg-type]
        if fieldname == "exp":
            if self.masked[j]:  # type: ignore[index]
                return Fraction(0)
            x = self._point_in("scaled", j, base)
            return Fraction(1) if x == 0 else None
        if fieldname == "scaled":
            x = self._point_in("scores", j, base)
            return x * self.scale.p if x is not None and self.scale.is_rational else None
        if fieldname == "sum":
            parts = [self._point_in("exp", k, base) for k in range(self.n)]
            return None if any(p is None for p in parts) else sum(parts, Fraction(0))  # type: ignore[arg-type]
        if fieldname == "weights":
            e, t = self._point_in("exp", j, base), self._point_in("sum", None, base)
            return None if e is None or not t else e / t
        if fieldname == "output":
            total = Fraction(0)
            for k in range(self.n):
                wk = self._point_in("weights", k, base)
                claims = self.v_claims[k]
                vk = (
                    claims[j].value
                    if claims is not None
                    and j is not None
                    and j < len(claims)
                    and claims[j] is not None
                    else self.res.value.rational((k, j))
                )  # type: ignore[union-attr,arg-type]
                if wk is None or vk is None:
                    return None
                total += wk * vk
            return total
        del w
        return None

    def _point_in(self, fieldname: str, j: int | None, base: Fraction | None) -> Fraction | None:
        w = self._claim(fieldname, j)
        if w is not None and not (base is not None and fieldname not in ("scores", "scaled")):
            return w.value
        return self.rational(fieldname, j, base)

    def formula(self, fieldname: str, j: int | None, base: str = "e") -> str:
        """The computation as the author wrote it, e.g. ``12.18 + 2.71``."""

        def val(f: str, k: int | None) -> str:
            w = self._claim(f, k)
            return w.text if w is not None else f"{f}[{k}]" if k is not None else f

        if fieldname == "scaled":
            return f"{val('scores', j)} * {self.scale}"
        if fieldname == "exp":
            return f"{base}^{val('scaled', j)}"
        if fieldname == "sum":
            return " + ".join(
                val("exp", k)
                if self._claim("exp", k) is not None and base == "e"
                else f"{base}^{val('scaled', k)}"
                for k in range(self.n)
            )
        if fieldname == "weights":
            return f"{val('exp', j)} / {val('sum', None)}"
        if fieldname == "output":
            parts = []
            for k in range(self.n):
                claims = self.v_claims[k]
                vtxt = (
                    claims[j].text
                    if claims is not None
                    and j is not None
                    and j < len(claims)
                    and claims[j] is not None
                    else f"V[{k},{j}]"
                )  # type: ignore[union-attr]
                parts.append(f"{val('weights', k)}×{vtxt}")
            return " + ".join(parts)
        return fieldname

    # -- double precision, as an author's program would compute ----------------

    def _float_in(self, fieldname: str, j: int | None) -> float | None:
        w = self._claim(fieldname, j)
        if w is not None:
            return float(w.value)
        return None

    def float_value(self, fieldname: str, j: int | None, c: float) -> float | None:
        """The entry computed in float64 with ``c`` for e, from the author's numbers."""

        def scaled(k: int) -> float | None:
            x = self._float_in("scaled", k)
            if x is None:
                x = float(self.res.scaled_scores.to_numpy()[self.i, k])
            return x

        def ex(k: int) -> float:
            if self.masked[k]:
                return 0.0
            x = scaled(k)
            return c**x if x is not None else math.nan

        try:
            if fieldname == "exp":
                return ex(j)  # type: ignore[arg-type]
            exps = [ex(k) for k in range(self.n)]
            total = 0.0
            for e in exps:
                total += e
            if fieldname == "sum":
                return total
            weights = [e / total for e in exps]
            if fieldname == "weights":
                return weights[j]  # type: ignore[index]
            if fieldname == "output":
                vcol = [float(self.res.value.to_numpy()[k, j]) for k in range(self.n)]  # type: ignore[index]
                out = 0.0
                for wk, vk in zip(weights, vcol):
                    out += wk * vk
                return out
        except (OverflowError, ZeroDivisionError):
            return None
        return None

    def float_formula(self, fieldname: str, j: int | None, c: str) -> str:
        """The float64 computation shown in a finding."""

        def sc(k: int) -> str:
            w = self._claim("scaled", k)
            return (
                w.text
                if w is not None
                else repr(float(self.res.scaled_scores.to_numpy()[self.i, k]))
            )

        if fieldname == "exp":
            return f"{c}**{sc(j)}"  # type: ignore[arg-type]
        terms = " + ".join(f"{c}**{sc(k)}" for k in range(self.n) if not self.masked[k])
        if fieldname == "sum":
            return terms
        return f"({fieldname} from {terms})"


# --------------------------------------------------------------------------- misread inputs


@dataclass(frozen=True)
class _Operand:
    """One vector of a dot product: its entries (None: irrational), labels and neighbours."""

    tensor: ExactTensor
    index: tuple[tuple[int, int], ...]
    entries: tuple[Fraction | None, ...]
    labels: tuple[str, ...]
    neighbours: tuple[
        tuple[Fraction, ...], ...
    ]  # the entries at the same place one row/column over


def _operand(
    tensor: ExactTensor, name: str, fixed: int, axis: int, label: Callable[[int, int], str]
) -> _Operand:
    """Row ``fixed`` (``axis`` 1) or column ``fixed`` (``axis`` 0) of a 2-D tensor."""
    n, m = tensor.shape
    length = m if axis == 1 else n
    other = n if axis == 1 else m
    index = tuple((fixed, k) if axis == 1 else (k, fixed) for k in range(length))
    entries = tuple(tensor.rational(ix) for ix in index)
    neighbours = []
    for k in range(length):
        near = []
        for f in (fixed - 1, fixed + 1):
            if 0 <= f < other:
                q = tensor.rational((f, k) if axis == 1 else (k, f))
                if q is not None:
                    near.append(q)
        neighbours.append(tuple(near))
    labels = tuple(f"{name}[{label(*ix)}]" for ix in index)
    return _Operand(tensor, index, entries, labels, tuple(neighbours))


def _operands(
    step: str, idx: tuple[int, ...], res: AttentionResult
) -> tuple[_Operand, _Operand] | None:
    """The two vectors whose dot product is ``step[idx]``, or None for other steps."""
    if len(idx) != 2 or res.weights.ndim != 2:
        return None
    i, j = idx
    ql, kl = res.query_labels, res.key_labels

    def lab(labels: tuple[str, ...] | None) -> Callable[[int, int], str]:
        return lambda r, c: f"{labels[r] if labels is not None and r < len(labels) else r},{c}"

    def plain(r: int, c: int) -> str:
        return f"{r},{c}"

    if step == "scores":
        return (
            _operand(res.stage("Q"), "Q", i, 1, lab(ql)),
            _operand(res.stage("K"), "K", j, 1, lab(kl)),
        )
    if step == "output":
        return (
            _operand(res.weights, "w", i, 1, lab(ql)),
            _operand(res.stage("V"), "V", j, 0, lab(kl)),
        )
    x = res.trace.find("X")
    if step in ("Q", "K", "V") and x is not None:
        labels = ql if step == "Q" else kl
        w = res.trace.get(f"W_{step}").value
        return (_operand(x.value, "X", i, 1, lab(labels)), _operand(w, f"W_{step}", j, 0, plain))
    return None


def _exact_decimal(x: Fraction) -> str | None:
    """``x`` as a terminating decimal string, or None."""
    for places in range(0, 40):
        scaled = x * 10**places
        if scaled.denominator == 1:
            return format(Decimal(scaled.numerator).scaleb(-places), "f")
    return None


def _digit_misreadings(x: Fraction) -> Iterable[tuple[str, Fraction]]:
    """``x`` with one digit dropped or doubled, as written in decimal."""
    text = _exact_decimal(x)
    if text is None:
        return
    seen: set[Fraction] = {x}
    for p, ch in enumerate(text):
        if not ch.isdigit():
            continue
        for kind, t in (
            ("misread-dropped-digit", text[:p] + text[p + 1 :]),
            ("misread-doubled-digit", text[:p] + ch + text[p:]),
        ):
            if t.strip("-.") == "":
                continue
            try:
                y = Fraction(t)
            except (ValueError, ZeroDivisionError):
                continue
            if y not in seen:
                seen.add(y)
                yield kind, y


def _misreadings(side: _Operand) -> Iterable[tuple[str, int, tuple[Fraction, ...]]]:
    """Every plausible misreading of one entry of ``side`` (or of two adjacent entries)."""
    if any(e is None for e in side.entries):
        return
    vec: tuple[Fraction, ...] = side.entries  # type: ignore[assignment]

    def with_(k: int, y: Fraction) -> tuple[Fraction, ...]:
        return vec[:k] + (y,) + vec[k + 1 :]

    for k, x in enumerate(vec):
        for kind, y in _digit_misreadings(x):
            yield kind, k, with_(k, y)
        if x != 0:
            yield "misread-sign", k, with_(k, -x)
        for y in side.neighbours[k]:
            if y != x:
                yield "misread-neighbour", k, with_(k, y)
    for k in range(len(vec) - 1):
        if vec[k] != vec[k + 1]:
            yield "misread-swapped", k, vec[:k] + (vec[k + 1], vec[k]) + vec[k + 2 :]


def _dot_quantity(other: _Operand, new: tuple[Fraction, ...]) -> Quantity:
    """``other · new`` as a :class:`Quantity` (exact when ``other`` is rational)."""
    if all(e is not None for e in other.entries):
        return Const(sum((a * b for a, b in zip(other.entries, new)), Fraction(0)))  # type: ignore[operator]

    def fn() -> flint.arb:
        values = Evaluator(flint.ctx.prec).arb(other.tensor)
        total = flint.arb(0)
        for ix, b in zip(other.index, new):
            if b != 0:
                total += values[ix] * _arb(b)
        return total

    return Computed(fn)


def _misread_text(side: _Operand, kind: str, k: int, new: tuple[Fraction, ...]) -> str:
    """``K[马路,1] = 0.225 read as 0.25`` (or the two swapped entries)."""
    old = side.entries
    if kind == "misread-swapped":
        return f"{side.labels[k]} = {_frac_text(old[k])}, {side.labels[k + 1]} = {_frac_text(old[k + 1])}"  # type: ignore[arg-type]
    return f"{side.labels[k]} = {_frac_text(old[k])} → {_frac_text(new[k])}"  # type: ignore[arg-type]


class _SurdQuantity:
    """A :class:`Surd` as a :class:`Quantity`."""

    def __init__(self, s: Surd) -> None:
        self.s = s

    def rational(self) -> Fraction | None:
        return self.s.p if self.s.is_rational else None

    def arb(self, prec: int) -> flint.arb:
        with flint.ctx.workprec(prec):
            return self.s.arb()


# --------------------------------------------------------------------------- small helpers


def _row_index(labels: tuple[str, ...] | None, token: str) -> int | None:
    if labels is None:
        return None
    try:
        return labels.index(token)
    except ValueError:
        return None


def _unique(xs: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for x in xs:
        if x is not None and x not in out:
            out.append(x)
    return out


def _divisor_square(res: AttentionResult) -> Fraction | None:
    d = res.d_k
    return d


def _divisor_text(res: AttentionResult) -> str:
    d = res.d_k
    if d is None:
        return str(res.scale)
    root = sqrt_surd(d)
    return str(root.p) if root.is_rational else f"sqrt({d})"


def _vector(t: ExactTensor, i: int, decimals: int, limits: Limits) -> str:
    rounded = t.round(decimals, mode=Rounding.HALF_EVEN, limits=limits)
    return "[" + ", ".join(_fmt_dec(x) for x in rounded[i]) + "]"


def _frac_text(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return _fmt_dec(round_decimals(x, 6, Rounding.HALF_EVEN).normalize())


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit()).lstrip("0")


def _quantity_text(q: Quantity, decimals: int, limits: Limits) -> str:
    def decide(b: Ball) -> str | None:
        got = b.round_decimals(decimals)
        return _fmt_dec(got) if got is not None else None

    got = certify_value(q, decide, start_bits=64, limits=limits)
    return got if got is not None else "?"


# --------------------------------------------------------------------------- API


def check(
    spec: Spec,
    *,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> CheckReport:
    """Judge every claim of ``spec``; return the findings, most specific explanation each."""
    return _Checker(spec, accepted, limits).run()
