"""Words are claims: "the query attends most to X", judged against the exact weights.

Softmax is increasing in its own score, so within one query row the order of the weights is
the order of the (masked, scaled) scores; those are exact (rationals, or ``p + q√r`` with one
``r`` per row), so the comparison is exact and never needs a tolerance. A sentence is
contradicted only when some key the sentence does not name weighs strictly more than every
key it names; equal weights never contradict it.

``audit`` (``read/``) calls :func:`judge_interpretation` with the text's location;
``check`` calls it for a spec row's ``attends_most``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine import AttentionResult
from symattn.errors import InputError
from symattn.exact import Surd
from symattn.judge.codes import SEVERITY
from symattn.judge.findings import Finding, Location, SpecLocation
from symattn.judge.formatting import decimal_text
from symattn.judge.messages import finding_message
from symattn.judge.quantities import TensorEntry, certified_decimals

#: decimals of the weights a finding shows
WEIGHT_DECIMALS = 4


@dataclass(frozen=True)
class Ranked:
    """A key of one query row: its index, label and exact logit (None where masked)."""

    index: int
    label: str
    logit: Surd | None


def compare(a: Surd | None, b: Surd | None) -> int:
    """The sign of ``a - b`` for two logits of one row (``None`` is a masked ``-inf``)."""
    if a is None or b is None:
        return (a is not None) - (b is not None)
    return a.compare(b)


def _logit(res: AttentionResult, index: tuple[int, ...]) -> Surd | None:
    t = res.masked_scores
    if t.is_neg_inf(index):
        return None
    surd = getattr(t, "surd", None)
    if surd is not None:
        value: Surd | None = surd(index)
        return value
    q = t.rational(index)
    if q is None:
        raise InputError("the scaled scores of this result are not exact surds")
    return Surd(q)


def _key_index(labels: tuple[str, ...] | None, key: int | str, n: int) -> int:
    if isinstance(key, int):
        if not 0 <= key < n:
            raise InputError(f"key index {key} is out of range (0..{n - 1})")
        return key
    if labels is None or key not in labels:
        raise InputError(f"{key!r} is not one of the key tokens")
    return labels.index(key)


def judge_interpretation(
    result: AttentionResult,
    query: int | str,
    claimed: int | str | Sequence[int | str],
    *,
    location: Location | None = None,
    head: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Finding | None:
    """``interpretation`` (warning) when a key not in ``claimed`` weighs strictly more than
    every claimed key in the row of ``query`` (a label or index; ``head`` 0-based for
    multi-head results); None when the sentence holds (ties included).

    ``location`` is where the sentence is (a text span for ``audit``; default the spec
    step ``interpretation``). A fully masked row (all weights 0) never contradicts.
    """
    weights = result.weights
    n = weights.shape[-1]
    labels = result.key_labels
    if isinstance(query, int):
        i = query
    else:
        if result.query_labels is None or query not in result.query_labels:
            raise InputError(f"{query!r} is not one of the query tokens")
        i = result.query_labels.index(query)
    if weights.ndim == 3 and head is None:
        raise InputError("a multi-head result needs the head of the sentence")
    prefix: tuple[int, ...] = () if head is None else (head,)
    names = [claimed] if isinstance(claimed, (int, str)) else list(claimed)
    if not names:
        raise InputError("an interpretation names at least one key")
    chosen = {_key_index(labels, c, n) for c in names}

    def label(j: int) -> str:
        return labels[j] if labels is not None and j < len(labels) else str(j)

    row = [Ranked(j, label(j), _logit(result, (*prefix, i, j))) for j in range(n)]
    best_claimed = row[min(chosen)]
    for r in row:
        if r.index in chosen and compare(r.logit, best_claimed.logit) > 0:
            best_claimed = r
    top = best_claimed
    for r in row:
        if r.index not in chosen and compare(r.logit, top.logit) > 0:
            top = r
    if top is best_claimed:
        return None

    def weight(j: int) -> str:
        return certified_decimals(TensorEntry(weights, (*prefix, i, j)), WEIGHT_DECIMALS, limits)

    qlabel = (
        result.query_labels[i]
        if result.query_labels is not None and i < len(result.query_labels)
        else str(i)
    )
    claimed_text = ", ".join(label(j) for j in sorted(chosen))
    claimed_weight, top_weight = weight(best_claimed.index), weight(top.index)
    gap = (
        decimal_text(Decimal(top_weight) - Decimal(claimed_weight))
        if "?" not in (claimed_weight, top_weight)
        else "?"
    )
    params: dict[str, object] = {
        "query": qlabel,
        "claimed": claimed_text,
        "claimed_weight": claimed_weight,
        "top": top.label,
        "top_weight": top_weight,
        "distance": gap,
        "head": "" if head is None else str(head + 1),
        "exact": top.label,
        "expected": top.label,
    }
    return Finding(
        "interpretation",
        SEVERITY["interpretation"],
        location if location is not None else SpecLocation("interpretation", (qlabel,)),
        claimed_text,
        top.label,
        top.label,
        finding_message("interpretation", params),
    )


def weight_order(result: AttentionResult, query: int, head: int | None = None) -> list[int]:
    """The key indices of one row from the largest weight to the smallest (stable on ties)."""
    prefix: tuple[int, ...] = () if head is None else (head,)
    n = result.weights.shape[-1]
    logits = [_logit(result, (*prefix, query, j)) for j in range(n)]
    order = list(range(n))
    # insertion sort with the exact comparison (rows are short)
    for a in range(1, n):
        b = a
        while b > 0 and compare(logits[order[b]], logits[order[b - 1]]) > 0:
            order[b - 1], order[b] = order[b], order[b - 1]
            b -= 1
    return order
