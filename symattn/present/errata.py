"""Errata from a check report: each finding as a callout next to the step it concerns.

:class:`Placer` hands out every finding of a :class:`~symattn.judge.check.CheckReport`
exactly once: at the line of its entry in a query row, under the data tables (the author's
q, k, v), at the scale (``d_k``), or at the end when the document has no place for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from symattn.config import LANGS
from symattn.errors import InputError
from symattn.judge.check import CheckReport
from symattn.judge.check import check as run_check
from symattn.judge.findings import Finding, Message
from symattn.present.certified import Numbers
from symattn.present.keys import ERRATA, LABELS, lookup
from symattn.present.messages import load_messages, say
from symattn.present.model import (
    DocMeta,
    DocOptions,
    Line,
    Msg,
    Note,
    Param,
    RowDoc,
    Seg,
    count_seg,
    math_seg,
    msg,
    text_seg,
    token_seg,
)
from symattn.present.numbers import PLAIN_DECIMAL, SQRT_TEXT, vector_latex
from symattn.present.view import View
from symattn.stages import ROW_STAGES, SCALING_STAGES, TOKEN_STAGES

#: the slot of a worked row's step -> the trace step its findings name
SLOT_STAGES: Mapping[str, str] = MappingProxyType({s.slot: s.step for s in ROW_STAGES if s.slot})
#: steps of spec-level findings shown at the scaling step
SCALING_STEPS: tuple[str, ...] = SCALING_STAGES
#: steps of token-level findings shown under the data table
TOKEN_STEPS: tuple[str, ...] = tuple(TOKEN_STAGES.values())
#: codes that get no callout (the document already says why nothing can be checked)
UNANNOTATED = frozenset({"missing-input"})
#: finding parameters that are symbols, shown as math
SYMBOL_PARAMS = frozenset({"symbol"})
#: finding parameters that are token names, set off like every token
TOKEN_PARAMS = frozenset({"query", "top", "token"})
#: findings whose claim is a token name (a sentence about which key a query attends to)
TOKEN_CLAIMS = frozenset({"interpretation"})
#: a list of numbers as a finding writes it (``[0.82, 0.18]``)
_VECTOR = re.compile(r"\[(.*)\]")


def check_report(
    check: CheckReport | bool | None, meta: DocMeta, options: DocOptions
) -> CheckReport | None:
    """The check report to annotate with: given, computed from ``meta.spec`` (True), or None."""
    if check is None or check is False:
        return None
    if check is True:
        if meta.spec is None:
            raise InputError(
                "check=True needs the spec: build the metadata with meta_from_spec(spec)"
            )
        return run_check(meta.spec, limits=options.limits)
    if not isinstance(check, CheckReport):
        raise InputError("check= takes a CheckReport or True")
    return check


def number_seg(text: str) -> Seg:
    """A number as math when it is a plain decimal or a square root, else as text."""
    text = text.strip()
    if PLAIN_DECIMAL.fullmatch(text):
        return math_seg(text)
    m = SQRT_TEXT.fullmatch(text)
    if m:
        return math_seg(f"\\sqrt{{{m.group(1)}}}")
    return text_seg(text)


def param_seg(name: str, value: object) -> Param:
    """A finding parameter as a sentence piece: numbers and vectors as math, token names set
    off, the rest as text."""
    if name in SYMBOL_PARAMS and str(value) == "d_k":
        return math_seg("d_k")
    if name in TOKEN_PARAMS and isinstance(value, str):
        return token_seg(value)
    if isinstance(value, (list, tuple)):
        return tuple(number_seg(str(v)) for v in value) or text_seg("—")
    text = str(value)
    m = _VECTOR.fullmatch(text)
    if m:
        items = [x.strip() for x in m.group(1).split(",")]
        if all(PLAIN_DECIMAL.fullmatch(x) for x in items):
            return math_seg(vector_latex(items))
    return number_seg(text)


class Placer:
    """Puts each finding of a check report next to the step it concerns (each exactly once)."""

    def __init__(self, report: CheckReport, lang: str, nums: Numbers) -> None:
        self.report = report
        self.pending = [f for f in report.findings if f.code not in UNANNOTATED]
        self.messages = load_messages(lang if lang in LANGS else "en")
        self.nums = nums

    def _take(self, match: Callable[[Finding], bool]) -> list[Finding]:
        hit = [f for f in self.pending if match(f)]
        self.pending = [f for f in self.pending if not match(f)]
        return hit

    def take(self, steps: tuple[str, ...]) -> tuple[Note, ...]:
        """Callouts of every finding at one of ``steps``."""
        return tuple(self.note(f) for f in self._take(lambda f: f.step in steps))

    def at(
        self, step: str, position: tuple[str, ...], here: tuple[str, tuple[int, ...]] | None
    ) -> tuple[Note, ...]:
        """Callouts of the findings at one entry; ``here`` locates this document's value there."""
        found = self._take(lambda f: f.step == step and tuple(f.position) == position)
        return tuple(self.note(f, here) for f in found)

    def row(self, r: RowDoc, view: View) -> RowDoc:
        """``r`` with the callouts of its findings attached to its lines."""
        steps = []
        for st in r.steps:
            stage = SLOT_STAGES.get(st.slot)
            lines = []
            for line in st.lines:
                notes: tuple[Note, ...] = ()
                if line.at is not None and stage is not None:
                    kind, n = line.at
                    if kind == "key":
                        here_stage = (
                            "masked_scores" if stage == "scaled_scores" and view.has_mask else stage
                        )
                        notes = self.at(
                            stage, (r.token, view.klabels[n]), (here_stage, view.at(r.index, n))
                        )
                    elif kind == "col":
                        notes = self.at(
                            "output",
                            (r.token, str(n)),
                            (view.output_step.name, view.at(r.index, n)),
                        )
                    else:
                        notes = self.at("exp_sums", (r.token,), ("exp_sums", view.at(r.index)))
                lines.append(replace(line, notes=line.notes + notes) if notes else line)
            extra = self.at("weights", (r.token,), None) if st.slot == "weights" else ()
            steps.append(replace(st, lines=tuple(lines), notes=st.notes + extra))
        return replace(r, steps=tuple(steps))

    def data(self, lines: tuple[Line, ...]) -> tuple[Line, ...]:
        """The data lines, the last one carrying the callouts of the token claims (q, k, v)."""
        if not lines:
            return lines  # nowhere to put them: they stay for rest()
        notes = self.take(TOKEN_STEPS)
        if not notes:
            return lines
        return lines[:-1] + (replace(lines[-1], notes=lines[-1].notes + notes),)

    def scaling(self) -> tuple[Note, ...]:
        """Callouts of the findings on ``d_k`` and its square root."""
        return self.take(SCALING_STEPS)

    def rest(self) -> tuple[Note, ...]:
        """Callouts of the findings that have no step in this document."""
        out = tuple(self.note(f) for f in self.pending)
        self.pending = []
        return out

    def summary(self) -> Msg:
        """One sentence on what the check found."""
        r = self.report
        errors, warnings = r.count("error"), r.count("warning")
        counts = {
            "checked": count_seg(r.checked),
            "errors": count_seg(errors),
            "warnings": count_seg(warnings),
        }
        if errors or warnings:
            return msg("errata_intro", count=r.checked, **counts)
        return msg("errata_clean", count=r.checked, **counts)

    def note(self, f: Finding, here_at: tuple[str, tuple[int, ...]] | None = None) -> Note:
        """The callout of one finding (its reason, and the frame it was judged in)."""
        params = self.params(f)
        body = [Msg(lookup(ERRATA, f.message_key, "finding message"), params, _count(f))]
        if f.frame is not None:
            frame = number_seg(f.frame)
            if here_at is not None:
                here = self.nums.plain(*here_at)
                body.append(msg("errata_frame", frame=frame, here=math_seg(here)))
            else:
                body.append(msg("errata_frame_only", frame=frame))
        label = msg(lookup(LABELS, f.severity, "severity"))
        return Note(f.code, f.severity, label, tuple(body))

    def params(self, f: Finding) -> Mapping[str, Param]:
        """The finding's values as sentence pieces; its slip's cause in words."""
        params: dict[str, Param] = {
            k: param_seg(k, v) for k, v in f.params.items() if not isinstance(v, Message)
        }
        params["claimed"] = (
            token_seg(f.claimed) if f.code in TOKEN_CLAIMS else number_seg(f.claimed)
        )
        params["expected"] = number_seg(f.expected or "")
        exact = f.exact
        params["exact"] = (
            math_seg(exact + ("\\ldots" if f.inexact else ""))
            if PLAIN_DECIMAL.fullmatch(exact)
            else text_seg(exact)
        )
        if f.cause is not None:
            cause = f.params.get("cause_text")
            if not isinstance(cause, Message):
                raise InputError(f"finding {f.code} names the cause {f.cause!r} without its text")
            params["cause"] = text_seg(say(cause, self.messages))
        return params


def _count(f: Finding) -> int | None:
    """The number a finding's sentence is plural in (``decimals`` of ``precision-mixed``)."""
    value = f.params.get("decimals")
    return value if isinstance(value, int) and not isinstance(value, bool) else None
