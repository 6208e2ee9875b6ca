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
from symattn.errors import InputError, LimitError
from symattn.exact import Surd, inv_sqrt, sqrt_surd
from symattn.judge.claims import FRAME_STEPS, row_index
from symattn.judge.constants import approximate_roots
from symattn.judge.findings import Message, SpecLocation
from symattn.judge.formatting import frac_text, vector_text
from symattn.judge.graph import Graph
from symattn.judge.messages import DIVISOR_KEYS, SECTION, DivisorKind, FindingKey
from symattn.judge.quantities import Const, SurdQuantity, TensorEntry
from symattn.judge.run import Run
from symattn.numbers import Written
from symattn.spec import Spec

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


def key_width(res: AttentionResult) -> int | None:
    """The width of K (None when the example starts from the scores: there is no K)."""
    return res.key_width if res.trace.find("K^T") is not None else None


def reference_divisor(spec: Spec, res: AttentionResult) -> Surd | None:
    """What the author should divide by: ``1/scale`` for an explicit scale, else ``√d_k``
    for the stated d_k, else ``√`` of the width of K (None: nothing to compare with)."""
    if spec.scale is not None:
        return Surd(1 / spec.scale)
    d = spec.d_k or key_width(res)
    return sqrt_surd(d) if d else None


def _scaled_held(run: Run, res: AttentionResult, scale: Surd) -> tuple[int, int]:
    """(held, claimed): how many claimed scaled scores are the author's own score (their
    claim) or the exact score times ``scale``."""
    held = seen = 0
    heads = res.weights.ndim == 3
    groups = [(None, run.spec.claims.rows)] + [
        (h, hc.rows) for h, hc in run.spec.claims.heads.items()
    ]
    for h, rows in groups:
        for row, rc in rows.items():
            i = row_index(res.query_labels, row)
            if i is None:
                continue
            pre: tuple[int, ...] = ((h if h is not None else 0),) if heads else ()
            for j, w in enumerate(rc.scaled):
                if w is None:
                    continue
                seen += 1
                sc = rc.scores[j] if j < len(rc.scores) else None
                exact = res.scores.rational((*pre, i, j))
                options = [sc.value if sc is not None else None, exact]
                for score in dict.fromkeys(x for x in options if x is not None):
                    got = score * scale.p if scale.is_rational else None
                    value = Const(got) if got is not None else SurdQuantity(scale * score)
                    try:
                        if run.holds(w, value):
                            held += 1
                            break
                    except LimitError:  # a value past the range written out: not held
                        continue
    return held, seen


def scaled_claims_hold(run: Run, res: AttentionResult) -> bool:
    """Whether every claimed scaled score is the author's score in the frame of ``res``
    (vacuous: False)."""
    held, seen = _scaled_held(run, res, res.scale)
    return seen > 0 and held == seen


def divisor_kind(spec: Spec, divisor: Fraction, width: int | None) -> DivisorKind | None:
    """What a wrong divisor is, when it is something authors divide by: ``unscaled`` (1),
    ``dk-itself`` (the stated d_k), ``width-itself`` (the width of K); else None."""
    if divisor == 1:
        return "unscaled"
    if spec.d_k is not None and divisor == spec.d_k:
        return "dk-itself"
    if width is not None and divisor == width:
        return "width-itself"
    return None


def author_frame(run: Run, stated: Frame) -> Frame | None:
    """``conflicting-definition`` and ``dk-mismatch``; the author's frame when it differs.

    A claimed divisor is a divisor, not a rounded number: it is right when it is the
    reference divisor exactly (``√d_k``, or ``1/scale``), or a rounded root from the table
    of :mod:`symattn.judge.constants` (``√2 ≈ 1.41``: the scaled scores it changes are
    judged one by one); any other positive divisor is the author's frame. Without a claimed
    divisor, the frame is inferred from the claimed scaled scores along the author's chain:
    a candidate (``√`` of the claimed d_k, of the width of K, of the stated d_k; the stated
    d_k, the width, 1) that explains at least three quarters of them, and more than the
    stated frame does.
    """
    spec, c = run.spec, run.spec.claims
    res = stated.result
    width = key_width(res)
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
    if res.start == "scaled":
        return None
    ref = reference_divisor(spec, res)
    if c.sqrt_d_k is not None:
        return _claimed_divisor(run, stated, c.sqrt_d_k, ref, width)
    if ref is None:
        return None
    held, seen = _scaled_held(run, res, res.scale)
    if seen == 0 or held == seen:
        if spec.d_k is not None and width is not None and spec.d_k != width:
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
    for shown, scale in _candidates(run, width):
        sc = scale if isinstance(scale, Surd) else Surd(scale)
        got, _ = _scaled_held(run, res, sc)
        if got <= held or 4 * got < 3 * seen:
            continue
        try:
            frame = Frame(run_in_frame(spec, scale), shown, sc)
        except InputError:
            continue
        _report_mismatch(run, stated, frame, ref, width)
        return frame
    return None


def _claimed_divisor(
    run: Run, stated: Frame, claim: Written, ref: Surd | None, width: int | None
) -> Frame | None:
    """The verdict on a claimed divisor, and the frame it implies."""
    spec = run.spec
    d = claim.value
    if ref is not None:
        if ref.is_rational and d == ref.p:
            return None
        square = ref.q * ref.q * ref.r if not ref.is_rational else None
        if square is not None and square.denominator == 1:
            roots = approximate_roots(int(square))
            if any(r.divide and r.value == d for r in roots):
                return None
    if d > 0:
        try:
            frame = Frame(run_in_frame(spec, 1 / d), claim.text, Surd(1 / d))
        except InputError:
            frame = None
        if frame is not None:
            _report_mismatch(run, stated, frame, ref, width)
            return frame
    root = ref if ref is not None else "?"
    run.add(
        "dk-mismatch",
        "dk-mismatch-divisor",
        _SQRT_D_K,
        claim.text,
        str(root),
        str(root),
        {
            "divisor": claim.text,
            "root": root,
            "d_k": spec.d_k or width or "?",
            "width": width or "-",
        },
    )
    return None


def _candidates(run: Run, width: int | None) -> list[tuple[str, Surd | Fraction]]:
    """The divisors the author may have used (shown, scale), most likely first."""
    spec, c = run.spec, run.spec.claims
    out: list[tuple[str, Surd | Fraction]] = []
    claimed = c.d_k.value if c.d_k is not None else None
    for d in distinct([claimed, width, spec.d_k]):
        if d > 0:
            out.append((f"sqrt({d})", inv_sqrt(d)))
    for d in distinct([spec.d_k, width, Fraction(1)]):
        if d > 0:
            out.append((str(d), Fraction(1, 1) / Fraction(d)))
    return out


def _report_mismatch(
    run: Run, stated: Frame, author: Frame, ref: Surd | None, width: int | None
) -> None:
    """``dk-mismatch``: what the divisor is, which claims hold in which frame, and the
    stated frame's results."""
    spec, c = run.spec, run.spec.claims
    res = stated.result
    d_author = author.result.d_k
    held_author, held_correct = [], []
    graph = Graph(spec, author.result, author.scale)
    for node, w in graph.iter_claims():
        if node.step not in FRAME_STEPS:
            continue
        if run.holds(w, graph.exact(node)):
            held_author.append(w.text)
        if run.holds(w, TensorEntry(res.stage(node.step), node.pos)):
            held_correct.append(w.text)
    would: dict[str, str] = {}
    for row in (*c.rows, *(r for hc in c.heads.values() for r in hc.rows)):
        i = row_index(res.query_labels, row)
        if i is None:
            continue
        if res.weights.ndim == 2:
            would["weights"] = vector_text(res.weights, i, WOULD_DECIMALS, run.limits)
        would["output"] = vector_text(res.output, i, WOULD_DECIMALS, run.limits)
        break
    claimed = c.sqrt_d_k.text if c.sqrt_d_k is not None else author.divisor
    conflict = any(f.code == "conflicting-definition" and f.step == "d_k" for f in run.findings)
    from_conflict = (
        conflict and c.d_k is not None and d_author is not None and c.d_k.value == d_author
    )
    divisor = 1 / author.scale.p if author.scale.is_rational and author.scale.p else None
    kind = None if divisor is None or from_conflict else divisor_kind(spec, divisor, width)
    params: dict[str, object] = {
        "claimed_d_k": c.d_k.text if c.d_k is not None else "-",
        "divisor": claimed,
        "author_d_k": d_author if d_author is not None else "?",
        "stated": spec.d_k if spec.d_k is not None else "-",
        "width": width if width is not None else "-",
        "held_author": held_author,
        "held_correct": held_correct,
        "weights": would.get("weights", "-"),
        "output": would.get("output", "-"),
        "root": str(ref) if ref is not None else "?",
        "d_k": spec.d_k or width or "?",
    }
    key: FindingKey = "dk-mismatch-conflict" if from_conflict else "dk-mismatch"
    if kind is not None:
        key = "dk-mismatch-kind"
        params["kind"] = Message(SECTION, DIVISOR_KEYS[kind], {})
    run.add("dk-mismatch", key, _SQRT_D_K, claimed, stated.divisor, stated.divisor, params)
