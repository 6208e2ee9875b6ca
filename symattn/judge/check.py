"""``check(spec)``: the numbers an author claims in a spec, judged against the exact computation.

The run, in order:

1. row checks that need only the claims (``not-normalized``, ``precision-mixed``,
   :mod:`~symattn.judge.rows`); a spec whose inputs are missing yields ``missing-input``
   (info) for every claim and nothing else;
2. the frames (:mod:`~symattn.judge.frames`): ``conflicting-definition`` and, when the
   author's divisor is not ``√d_k``, ``dk-mismatch`` and the author's frame;
3. every claim in computation order (the q/k/v rows, per head too, then each query row,
   the concatenation and the ``W_O`` output) along the author's chain in the author's frame,
   each with its most specific cause (:mod:`~symattn.judge.diagnose`); findings judged in
   the author's frame say so (``Finding.frame``); then ``attends_most`` sentences.
"""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.judge.claims import all_claims
from symattn.judge.findings import Finding, SpecLocation
from symattn.judge.frames import author_frame, stated_frame
from symattn.judge.rows import check_claims, check_rows_without_inputs
from symattn.judge.run import CheckReport, Run
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers.rounding import Rounding
from symattn.spec import Spec

__all__ = ["CheckReport", "Finding", "check"]


def check(
    spec: Spec,
    *,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> CheckReport:
    """Judge every claim of ``spec``; return the findings, most specific explanation each."""
    run = Run(spec, accepted, limits)
    claims = all_claims(spec)
    check_rows_without_inputs(run)
    if not spec.computable:
        absent = ", ".join(spec.absent)
        for c in claims:
            run.add(
                "missing-input",
                "missing-input",
                SpecLocation(c.step, c.position),
                c.claim.text,
                "?",
                None,
                {"absent": absent},
            )
        return run.report(len(claims))
    stated = stated_frame(spec)
    author = author_frame(run, stated)
    check_claims(run, author or stated, stated)
    return run.report(len(claims))
