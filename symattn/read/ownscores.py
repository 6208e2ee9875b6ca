"""The problem again, from the author's own scores: what the later stages are if the author
computed on from the scores they wrote.

A text whose scores are wrong computes its softmax from them; if it also leaves them
unscaled where the problem scales (or scales them otherwise), no frame of the exact scores
gives its weights, and no chain of the author's numbers in the problem's frame does either.
:func:`own_scores_frames` gives the problem started from the scores as written, in each frame
(unscaled, ``1/√n`` and ``1/n`` for the stated ``d_k`` and the width of K): an array of a later
stage right there is carried from the author's scores, in the author's frame, and is no new
error (:func:`symattn.read.rescue.another_frame` tries these results too). Nothing is taken
from the words: only the numbers the problem placed at the scores.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Final

import numpy as np

from symattn.engine import AttentionResult
from symattn.errors import SymattnError
from symattn.exact import Surd, inv_sqrt
from symattn.judge.codes import FindingCode
from symattn.judge.findings import Finding
from symattn.judge.frames import key_width, run_in_frame
from symattn.read.messages import say
from symattn.read.problem import Problem
from symattn.spec.model import Spec
from symattn.stages import StepName

__all__ = ["own_scores_finding", "own_scores_frames"]

#: the code of a number carried from the author's own scores
_CARRIED: Final = FindingCode.PROPAGATED_ERROR

#: the most entries of a score matrix recomputed this way (each frame is one more run)
_MAX_ENTRIES: Final = 4096


def own_scores_frames(
    spec: Spec, problem: Problem, result: AttentionResult
) -> list[tuple[Surd, AttentionResult]]:
    """The problem from the scores the text writes for every query and key (none, when some
    are not written or all of them are right), in each frame, with its scale."""
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    if not queries or not keys or len(queries) * len(keys) > _MAX_ENTRIES:
        return []
    written = {pos: spot for (step, pos), spot in problem.spots.items() if step == StepName.SCORES}
    try:
        rows = [[written[(q, k)].written.value for k in keys] for q in queries]
        exact = result.stage(StepName.SCORES)
        if all(exact.rational((i, j)) == v for i, r in enumerate(rows) for j, v in enumerate(r)):
            return []  # the author's scores are the problem's: nothing else to try
        values = _values(spec, result, len(keys))
    except (KeyError, SymattnError):
        return []
    if values is None:
        return []
    scores = np.empty((len(queries), len(keys)), dtype=object)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            scores[i, j] = Fraction(v)
    width = key_width(result)
    sizes = sorted({n for n in (spec.d_k, width) if n is not None and n > 1})
    scales: list[Surd | Fraction] = [Fraction(1)]
    for n in sizes:
        scales += [inv_sqrt(n), Fraction(1, n)]
    start = replace(
        spec,
        inputs={"scores": scores, "V": values},
        missing=(),
        d_k=None,
        scale=Fraction(1),
        causal=False,
        mask=spec.mask if not spec.causal else None,
        rounded_inputs=(),
        half_units={},
    )
    out: list[tuple[Surd, AttentionResult]] = []
    for sc in scales:
        try:
            out.append((sc if isinstance(sc, Surd) else Surd(sc), run_in_frame(start, sc)))
        except SymattnError:
            continue
    return out


def _values(spec: Spec, result: AttentionResult, keys: int) -> np.ndarray | None:
    """V exactly: as given, or as the problem computes it (None when it is not rational)."""
    if "V" in spec.inputs:
        return spec.inputs["V"]
    v = result.stage(StepName.V)
    shape = v.shape
    if len(shape) != 2 or shape[0] != keys:
        return None
    out = np.empty(shape, dtype=object)
    for i in range(shape[0]):
        for j in range(shape[1]):
            r = v.rational((i, j))
            if r is None:
                return None
            out[i, j] = r
    return out


def own_scores_finding(f: Finding, scale: Surd) -> Finding:
    """A finding on a number that the author's own scores of its row give in the frame of
    ``scale``: carried from those scores (a warning), no new error."""
    row = f.position[0] if f.position else ""
    if scale == Surd(Fraction(1)):
        msg = say("own-scores", row=row, exact=f.exact, expected=f.expected)
    else:
        msg = say(
            "own-scores-scaled", row=row, scale=str(scale), exact=f.exact, expected=f.expected
        )
    also = tuple(dict.fromkeys(c for c in (f.code, *f.alternatives) if c != _CARRIED))
    return replace(f, code=_CARRIED, severity="warning", message=msg, alternatives=also)
