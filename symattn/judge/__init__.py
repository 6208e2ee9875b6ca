"""Verdicts on claimed numbers, decided with certified bounds, and ``check`` of a spec.

The verdict core, shared with ``audit``: :mod:`~symattn.judge.verdict` (``judge``,
``consistent_with``; the stable names), :mod:`~symattn.judge.quantities` (exact values),
:mod:`~symattn.judge.intervals` (what a claim promises), :mod:`~symattn.judge.floats`
(printed floats), :mod:`~symattn.judge.vectors` (claims of one quantity together),
:mod:`~symattn.judge.codes` (the finding codes), :mod:`~symattn.judge.constants` (rounded
constants), :mod:`~symattn.judge.findings` (the one finding model).

``check``: :mod:`~symattn.judge.check` (the driver), :mod:`~symattn.judge.run` (a run and its
report), :mod:`~symattn.judge.claims` (where each claim is), :mod:`~symattn.judge.frames`
(the d_k frames), :mod:`~symattn.judge.rows` (token and row claims),
:mod:`~symattn.judge.diagnose` (one claim's cause), :mod:`~symattn.judge.graph` (the
expression graph: which earlier number a claim was computed from), :mod:`~symattn.judge.values`
(its values: the author's numbers as written or unrounded, a float program's bounds),
:mod:`~symattn.judge.programs` (float formats), :mod:`~symattn.judge.chain` (the author's
own numbers), :mod:`~symattn.judge.approximations`, :mod:`~symattn.judge.slips`,
:mod:`~symattn.judge.misreads` (the causes), :mod:`~symattn.judge.messages` (the catalog keys),
:mod:`~symattn.judge.interpretation` ("attends most to X", also for ``audit``).
"""

from symattn.judge.check import CheckReport, Finding, check

__all__ = ["CheckReport", "Finding", "check"]
