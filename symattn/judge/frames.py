"""Frames: which divisor the author used, and the attention result under it.

A text that says ``d_k = 2`` but divides by 2 computes in another frame (``d_k = 4``). The
stated frame gives the exact values; when the author's scaled scores (or their ``sqrt_d_k``)
fit another divisor — ``sqrt`` of the claimed ``d_k``, of the width of K, of the stated
``d_k``, or ``d_k`` itself — that frame is the author's: ``dk-mismatch`` says so, and the
later claims are judged in it. ``conflicting-definition`` is found here too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from symattn.engine import AttentionResult
from symattn.errors import InputError
from symattn.exact import Surd, inv_sqrt, sqrt_surd
from symattn.judge.claims import row_claims, row_index
from symattn.judge.findings import SpecLocation
from symattn.judge.formatting import frac_text, vector_text
from symattn.judge.quantities import SurdQuantity, TensorEntry
from symattn.judge.run import Run
from symattn.spec import Spec
from symattn.stages import ROW_STAGES

#: decimals of the weights and outputs a ``dk-mismatch`` shows for the stated frame
WOULD_DECIMALS = 4
#: where a scaling finding is shown
_SQRT_D_K = SpecLocation("sqrt_d_k")


@dataclass(frozen=True)
class Frame:
    """One way of computing: the attention result with one divisor."""

    result: AttentionResult
    divisor: str  # as shown, e.g. "2" or "sqrt(2)"
    scale: Surd

    @property
    def label(self) -> str:
        """The frame as a finding names it: its ``d_k``, else its divisor."""
        d = self.result.d_k
        return frac_text(Fraction(d)) if d is not None else self.divisor


def distinct(ds: Iterable[int | Fraction | None]) -> list[int | Fraction]:
    """The ``d``'s given (stated, claimed, the width of K), without ``None`` and repeats."""
    out: list[int | Fraction] = []
    for d in ds:
        if d is not None and d not in out:
            out.append(d)
    return out


def divisor_text(res: AttentionResult) -> str:
    """The divisor ``res`` used: ``2`` for ``sqrt(4)``, ``sqrt(2)``, or the scale itself."""
    d = res.d_k
    if d is None:
        return str(res.scale)
    root = sqrt_surd(d)
    return str(root.p) if root.is_rational else f"sqrt({d})"


def stated_frame(spec: Spec) -> Frame:
    """The frame of the spec as stated: its exact values."""
    res = spec.run()
    return Frame(res, divisor_text(res), res.scale)


def run_in_frame(spec: Spec, scale: Surd | Fraction) -> AttentionResult:
    """``spec`` computed with the scores multiplied by ``scale``."""
    if isinstance(scale, Surd):
        if scale.is_rational:
            return replace(spec, scale=scale.p).run()
        # a Surd scale: run with the d_k whose 1/sqrt is the scale
        d = 1 / (scale.q * scale.q * scale.r)
        if d.denominator == 1:
            return replace(spec, scale=None, d_k=int(d)).run()
        raise InputError(f"cannot use the divisor 1/({scale}) as an author's frame")
    return replace(spec, scale=scale).run()


def scaled_claims_hold(run: Run, res: AttentionResult) -> bool:
    """Whether every claimed scaled score is consistent with ``res`` (vacuous: False)."""
    seen = False
    for row, rc in run.spec.claims.rows.items():
        i = row_index(res.query_labels, row)
        if i is None:
            continue
        for j, w in enumerate(rc.scaled):
            if w is None:
                continue
            seen = True
            if not run.holds(w, TensorEntry(res.scaled_scores, (i, j))):
                return False
    return seen


def author_frame(run: Run, stated: Frame) -> Frame | None:
    """``conflicting-definition`` and ``dk-mismatch``; the author's frame when it differs."""
    spec, c = run.spec, run.spec.claims
    width = stated.result.key_width
    if c.d_k is not None and spec.d_k is not None and c.d_k.value != spec.d_k:
        run.add(
            "conflicting-definition",
            "conflicting-definition",
            SpecLocation("d_k"),
            c.d_k.text,
            str(spec.d_k),
            str(spec.d_k),
            {"symbol": "d_k", "first": spec.d_k, "second": c.d_k.text},
        )
    candidates = _candidates(run, stated.result)
    if candidates is None:
        return None
    for shown, scale in candidates:
        try:
            frame = Frame(
                run_in_frame(spec, scale), shown, scale if isinstance(scale, Surd) else Surd(scale)
            )
        except InputError:
            continue
        if c.sqrt_d_k is None and not scaled_claims_hold(run, frame.result):
            continue
        _report_mismatch(run, stated, frame)
        return frame
    if c.sqrt_d_k is not None:  # a wrong divisor with no frame to recompute in (0, negative)
        root = sqrt_surd(spec.d_k or width)
        run.add(
            "dk-mismatch",
            "dk-mismatch-divisor",
            _SQRT_D_K,
            c.sqrt_d_k.text,
            str(root),
            str(root),
            {"divisor": c.sqrt_d_k.text, "root": root, "d_k": spec.d_k or width, "width": width},
        )
        return None
    if spec.d_k is not None and spec.d_k != width:
        run.add(
            "dk-mismatch",
            "dk-mismatch-width",
            _SQRT_D_K,
            str(spec.d_k),
            str(width),
            None,
            {"stated": spec.d_k, "width": width},
        )
    return None


def _candidates(run: Run, res: AttentionResult) -> list[tuple[str, Surd | Fraction]] | None:
    """The divisors the author may have used (shown, scale), most likely first; None when the
    claims hold in the stated frame."""
    spec, c = run.spec, run.spec.claims
    width = res.key_width
    out: list[tuple[str, Surd | Fraction]] = []
    if c.sqrt_d_k is not None:
        if run.holds(c.sqrt_d_k, SurdQuantity(sqrt_surd(spec.d_k or width))):
            return None
        if c.sqrt_d_k.value > 0:  # a divisor of 0 or less gives no frame to recompute in
            out.append((c.sqrt_d_k.text, 1 / c.sqrt_d_k.value))
        return out
    if scaled_claims_hold(run, res):
        return None
    claimed = c.d_k.value if c.d_k is not None else None
    for d in distinct([claimed, width, spec.d_k]):
        if d > 0:
            out.append((f"sqrt({d})", inv_sqrt(d)))
    for d in distinct([spec.d_k, width, Fraction(1)]):
        if d > 0:
            out.append((str(d), Fraction(1, 1) / Fraction(d)))
    return out


def _report_mismatch(run: Run, stated: Frame, author: Frame) -> None:
    """``dk-mismatch``: which claims hold in which frame, and the stated frame's results."""
    spec, c = run.spec, run.spec.claims
    res = stated.result
    d_author = author.result.d_k
    held_author, held_correct = [], []
    for row, claims in c.rows.items():
        i = row_index(author.result.query_labels, row)
        if i is None:
            continue
        for rc in row_claims(claims, ROW_STAGES[1:]):
            idx = rc.index(i)
            if run.holds(rc.claim, TensorEntry(author.result.stage(rc.step), idx)):
                held_author.append(rc.claim.text)
            if run.holds(rc.claim, TensorEntry(res.stage(rc.step), idx)):
                held_correct.append(rc.claim.text)
    would: dict[str, str] = {}
    for row in c.rows:
        i = row_index(res.query_labels, row)
        if i is None:
            continue
        would["weights"] = vector_text(res.weights, i, WOULD_DECIMALS, run.limits)
        would["output"] = vector_text(res.output, i, WOULD_DECIMALS, run.limits)
        break
    claimed = c.sqrt_d_k.text if c.sqrt_d_k is not None else author.divisor
    conflict = any(f.code == "conflicting-definition" and f.step == "d_k" for f in run.findings)
    from_conflict = (
        conflict and c.d_k is not None and d_author is not None and c.d_k.value == d_author
    )
    run.add(
        "dk-mismatch",
        "dk-mismatch-conflict" if from_conflict else "dk-mismatch",
        _SQRT_D_K,
        claimed,
        stated.divisor,
        stated.divisor,
        {
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
