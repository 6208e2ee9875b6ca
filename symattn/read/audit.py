"""Audit a text as it is: every arithmetic claim in it, judged with certified verdicts.

Level 1 reads each chain ``a = b ≈ c`` found by :mod:`symattn.extract`: every link that is a
written number (or vector of numbers) is a claim about the nearest expression on its left,
judged by :func:`symattn.verdict.judge`. Names the text defines (``d_k = 2``, ``sum = …``,
``总和 = …``) are remembered; a name given two values is ``conflicting-definition``, with the
later formulas that hold under only one of them. A wrong claim that is what ``e ≈ 2.718``
gives (exactly, or as double precision prints it) is ``approximate-constant``.

Level 2 rebuilds the attention problem when the text gives its inputs (Q/K/V
vectors ``q_1 = [1, 2]``, a ``token Q K V`` table, or embeddings with ``WQ``/``WK``/``WV``) and judges the stated values against the engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, SymattnError
from symattn.judge.check import check as check_spec
from symattn.judge.constants import APPROX_E
from symattn.judge.findings import Finding, Join, Message, TextLocation
from symattn.judge.verdict import (
    DEFAULT_ACCEPTED,
    SEVERITY,
    Const,
    consistent_with,
    judge,
    normalization_gap,
)
from symattn.numbers import Written, parse_number
from symattn.numbers.rounding import Rounding, terminating_decimal
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.scalar import Scalar, lit
from symattn.read.syntax import Call, Node, canonical_name, literal_numbers, names, parse
from symattn.read.tokens import ExprError, normalize, tokenize
from symattn.read.extract import ChainText, Link, chains
from symattn.spec import loads_spec
from symattn.stages import BY_CLAIM

__all__ = ["AuditReport", "Finding", "Recognised", "Unparsed", "audit"]

#: characters after which prose may end and math begin (in a chain's first link)
#: three words in a row, or six CJK characters: prose, not a formula
_PROSE_RE: Final = re.compile(r"(?:[A-Za-z]{2,}[ ,]+){3}|[\u4e00-\u9fff]{6}")
_PROSE_END: Final = frozenset(":：;；。!！?？") | {chr(c) for c in range(0x4E00, 0xA000)}
#: ``假设 d_k``, ``We assume that d_k``: prose, then the symbol the chain defines
_TAIL_SYMBOL_RE: Final = re.compile(
    r"(?:[A-Za-z\u4e00-\u9fff]{2}[^=]*?[\s,，:：\u4e00-\u9fff])(?P<sym>[A-Za-z][A-Za-z0-9]*_\{?[A-Za-z0-9]{1,8}\}?)\s*$"
)
#: subscripts (``x_{3}``, ``q_1``): indices, not numbers
_INDEX_RE: Final = re.compile(r"_\s*(?:\{[^{}]{0,24}\}|[A-Za-z0-9]+)")
#: ``= 2.`` at the end of an English sentence: the period is not part of the number
_SENTENCE_END_RE: Final = re.compile(r"^(?P<body>.*\d)\.\s*$")
#: ``2 here.``: a word after the last number ends the math
_WORD_AFTER_RE: Final = re.compile(r"\s+[A-Za-z\u4e00-\u9fff]{2,}")


@dataclass(frozen=True)
class Unparsed:
    """Math that was seen but not checked, and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Recognised:
    """The attention problem Level 2 rebuilt from the text: which inputs, for which tokens."""

    source: str  # vectors | table | embeddings
    q: tuple[str, ...]
    k: tuple[str, ...]
    v: tuple[str, ...]
    x: tuple[str, ...] = ()
    w: tuple[str, ...] = ()
    d_k: int | None = None
    d_k_stated: bool = False
    claims: int = 0


@dataclass(frozen=True)
class AuditReport:
    """What the audit of one text found."""

    path: str
    findings: tuple[Finding, ...]
    checked: int
    unparsed: tuple[Unparsed, ...]
    recognised: Recognised | None = None

    @property
    def has_errors(self) -> bool:
        """Whether a finding of severity error exists."""
        return any(f.severity == "error" for f in self.findings)


def _finding(
    code: str,
    line: int,
    column: int,
    claimed: str,
    exact: str,
    expected: str | None,
    message: Message,
    cause: str,
) -> Finding:
    return Finding(
        code, SEVERITY[code], TextLocation(line, column), claimed, exact, expected, message, cause
    )


def _say(key: str, **fields: object) -> Message:
    """A message of the ``[audit]`` catalog table (``None`` fields are shown empty)."""
    return Message("audit", key, {k: ("" if v is None else v) for k, v in fields.items()})


# --------------------------------------------------------------------------- reading links


@dataclass(frozen=True)
class _Parsed:
    kind: str  # label | expr | none
    node: Node | None = None
    label: str = ""
    offset: int = 0  # where the parsed text starts inside the link


def _label_of(text: str, limits: Limits) -> str | None:
    """``score(它,动物)``, ``output_它``, ``{Attention Output}``: a name, not math."""
    try:
        toks = tokenize(text, limits=limits)
    except SymattnError:
        return None
    if not toks or any(t.kind not in ("name", "op") for t in toks):
        return None
    if any(t.kind == "op" and t.text not in "(){}," for t in toks):
        return None
    words = [t.text for t in toks if t.kind == "name"]
    if not words:
        return None
    if all(t.kind == "name" or t.text in "{}" for t in toks):
        return canonical_name(" ".join(words))
    return canonical_name("".join(t.text for t in toks))


def _read_first(text: str, limits: Limits) -> _Parsed:
    """The first link: a label, an expression (prose before it dropped), or neither."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch in _PROSE_END][:64]
    for start in starts:
        piece = text[start:].strip()
        if not piece:
            continue
        off = start + (len(text[start:]) - len(text[start:].lstrip()))
        label = _label_of(piece, limits)
        if label is not None:
            tail = _TAIL_SYMBOL_RE.search(piece)
            if tail is not None:
                return _Parsed(
                    "label", label=canonical_name(tail.group("sym")), offset=off + tail.start("sym")
                )
            return _Parsed("label", label=label, offset=off)
        try:
            return _Parsed("expr", parse(piece, limits=limits, normalized=True), offset=off)
        except SymattnError:
            continue
    return _Parsed("none")


def _read_link(text: str, last: bool, limits: Limits) -> _Parsed:
    """A later link; the last one may end in prose (``= 0.82，即…``, ``= 2 here.``, ``= 2.``)."""
    if last and (end := _SENTENCE_END_RE.match(text)) is not None:
        text = end.group("body")
    try:
        return _Parsed("expr", parse(text, limits=limits, normalized=True))
    except SymattnError as first_error:
        if not last:
            raise
        word = _WORD_AFTER_RE.search(text)
        cut = next(
            (i for i, ch in enumerate(text) if ch in _PROSE_END or ch == ","),
            word.start() if word else None,
        )
        piece = text[:cut].rstrip() if cut else text.rstrip(")）]")
        if piece and piece != text:
            try:
                return _Parsed("expr", parse(piece, limits=limits, normalized=True))
            except SymattnError:
                pass
        raise first_error


# --------------------------------------------------------------------------- the audit


@dataclass(frozen=True)
class _Spot:
    """A number as written, and where."""

    written: Written
    line: int
    column: int


@dataclass(frozen=True)
class _Stated:
    """What one chain states: its label, first link, and the numbers of its literal links."""

    label: str
    first: str
    node: Node | None
    literals: tuple[tuple[_Spot, ...], ...]
    line: int


@dataclass
class _Definition:
    value: Value
    text: str
    line: int
    column: int


@dataclass
class _State:
    """Mutable state of one audit run (local to one call of :func:`audit`)."""

    limits: Limits
    accepted: frozenset[Rounding]
    env: dict[str, Value] = field(default_factory=dict)
    exact_env: dict[str, Value] = field(default_factory=dict)
    defs: dict[str, list[_Definition]] = field(default_factory=dict)
    notes: dict[str, list[Message]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    unparsed: list[Unparsed] = field(default_factory=list)
    stated: list[_Stated] = field(default_factory=list)
    checked: int = 0
    seen: set[tuple[int, int]] = field(
        default_factory=set
    )  # (line, column) of numbers Level 1 judged


def _same(a: Value, b: Value) -> bool:
    """Whether two values are equal: rational entries exactly, irrational ones as the same formula."""
    fa, fb = flatten(a), flatten(b)
    if len(fa) != len(fb):
        return False
    for x, y in zip(fa, fb):
        rx, ry = x.rational(), y.rational()
        if (rx is None) != (ry is None) or (rx is not None and rx != ry):
            return False
        if rx is None and x != y:
            return False
    return True


def _show_value(v: Value) -> str:
    parts = []
    for s in flatten(v):
        r = s.rational()
        parts.append(_fraction_text(r) if r is not None else "…")
    return parts[0] if isinstance(v, Scalar) else "[" + ", ".join(parts) + "]"


def _fraction_text(r: Fraction) -> str:
    """``r`` as a finite decimal when it terminates (``-0.35``), else ``p/q``."""
    d = terminating_decimal(r)
    return f"{d:f}" if d is not None else f"{r.numerator}/{r.denominator}"


def _define(
    st: _State, name: str, value: Value, exact: Value, text: str, line: int, column: int
) -> None:
    previous = st.defs.setdefault(name, [])
    if previous and not _same(previous[-1].value, value) and name not in ("sum",):
        pass  # recorded below; the conflict is reported at the end
    previous.append(_Definition(value, text, line, column))
    st.env[name] = value
    st.exact_env[name] = exact


def _conflicted(st: _State) -> dict[str, list[_Definition]]:
    out = {}
    for name, defs in st.defs.items():
        distinct: list[_Definition] = []
        for d in defs:
            if not any(_same(d.value, e.value) for e in distinct):
                distinct.append(d)
        if len(distinct) > 1:
            out[name] = distinct
    return out


def _claims_of(node: Node) -> list[tuple[Written, int]] | None:
    return literal_numbers(node)


def _judge_one(
    st: _State, claim: Written, value: Scalar, exact_value: Scalar | None, link: Link, offset: int
) -> None:
    """Judge one written number; add a finding when it is not consistent."""
    st.checked += 1
    st.seen.add(link.at(offset))
    verdict = judge(claim, value, accepted=st.accepted, limits=st.limits)
    code, cause, exact_text = verdict.code, verdict.reason, verdict.exact
    if code in ("wrong-value", "truncated") and value.uses_e:
        approx = _approximate_e(st, claim, value)
        if approx is not None:
            code, cause = "approximate-constant", approx
    if code is None and exact_value is not None and exact_value is not value:
        exact_verdict = judge(claim, exact_value, accepted=st.accepted, limits=st.limits)
        if exact_verdict.code not in (None, "float-representation", "undecided"):
            code, cause, exact_text = (
                "propagated-rounding",
                "propagated-rounding",
                exact_verdict.exact,
            )
            verdict = exact_verdict
    if code is None:
        return
    line, column = link.at(offset)
    msg = _say(
        code if code != "approximate-constant" else cause.split(":")[0],
        claimed=claim.text,
        exact=exact_text,
        expected=verdict.expected,
        cause=cause.partition(":")[2],
    )
    st.findings.append(
        _finding(code, line, column, claim.text, exact_text, verdict.expected, msg, cause)
    )


def _approximate_e(st: _State, claim: Written, value: Scalar) -> str | None:
    """``approximate-constant:e=2.718`` when a rounded e explains the claim (float64 or exact)."""
    for const in APPROX_E:
        text = const.text
        alt = value.with_e(lit(const.value, st.limits.max_precision_bits))
        f = alt.float64()
        if f is not None and (claim.significant or 0) >= 12 and Fraction(repr(f)) == claim.value:
            return f"approximate-e-float:{text}"
        if consistent_with(claim, alt, st.accepted, st.limits):
            return f"approximate-e:{text}"
    return None


def _eval(st: _State, node: Node, env: Mapping[str, Value]) -> Value:
    return evaluate(node, env, limits=st.limits)


def _process(st: _State, chain: ChainText) -> None:
    links = chain.links
    if not any(ch.isdigit() for ln in links for ch in _INDEX_RE.sub("", ln.text)):
        return  # symbolic formula (``q_{3} = x_{3} W^{Q}``): nothing numeric to check
    first = _read_first(links[0].text, st.limits)
    label = first.label if first.kind == "label" else ""
    if first.kind == "none" and chain.before and not links[0].text.strip():
        lab = _label_of(chain.before, st.limits)
        label = lab or ""
    parsed: list[_Parsed] = [first]
    for i, ln in enumerate(links[1:], start=1):
        parsed.append(_read_link(ln.text, i == len(links) - 1, st.limits))
    used = frozenset().union(*(names(p.node) for p in parsed if p.node is not None))
    conflicted = {n: d for n, d in _conflicted(st).items() if n in used}

    _remember(st, chain, label, first, parsed)
    if (
        first.kind == "expr"
        and first.node is not None
        and any(n not in st.env and n != "e" for n in names(first.node))
    ):
        # `q_1 · k_1 = 1×1 + 2×2 = 5`: a first link with unknown names only names the chain
        first = _Parsed("none")
        parsed[0] = first
    values: list[Value | None] = []
    exact_values: list[Value | None] = []
    for p in parsed:
        if p.node is None:
            values.append(None)
            exact_values.append(None)
            continue
        values.append(_eval(st, p.node, st.env))
        differs = any(
            not _same(st.env[n], st.exact_env[n]) for n in names(p.node) if n in st.exact_env
        )
        exact_values.append(_eval(st, p.node, st.exact_env) if differs else values[-1])

    # claims: each literal link against the nearest expression on its left
    last_expr: int | None = None
    holds: dict[str, set[int]] = {}
    for i, p in enumerate(parsed):
        if p.node is None:
            continue
        lits = _claims_of(p.node) if i > 0 else None
        if lits is None or last_expr is None:
            if (
                last_expr is not None
                and i > 0
                and links[i].relation == "="
                and isinstance(values[i], Scalar)
                and isinstance(values[last_expr], Scalar)
            ):
                _expression_step(st, values[last_expr], values[i], links[i])  # type: ignore[arg-type]
            if i > 0 or lits is None:
                last_expr = i
            continue
        target = values[last_expr]
        scalars = flatten(target)  # type: ignore[arg-type]
        exact_scalars = flatten(exact_values[last_expr])  # type: ignore[arg-type]
        if len(scalars) != len(lits):
            line, _ = links[i].at(0)
            st.unparsed.append(
                Unparsed(line, chain.text, f"{len(lits)} numbers claimed for {len(scalars)} values")
            )
            continue
        if conflicted:
            _conflict_notes(st, chain, parsed[last_expr].node, lits, conflicted, holds)
            if any(holds.values()) and not _holds_now(st, lits, scalars):
                continue  # explained by the conflicting definition: reported there
        others = [
            flatten(v) for k, v in enumerate(values[:last_expr]) if k > 0 or first.kind == "expr"
        ]
        others += [flatten(v) for v in exact_values[: last_expr + 1] if v is not None]
        for j, ((claim, off), value, exact) in enumerate(zip(lits, scalars, exact_scalars)):
            alternatives = [o[j] for o in others if o is not None and len(o) == len(lits)]
            if not consistent_with(claim, value, st.accepted, st.limits) and any(
                consistent_with(claim, alt, st.accepted, st.limits) for alt in alternatives
            ):
                st.checked += 1  # right for an earlier, more exact form of the same quantity
                st.seen.add(links[i].at(off + _offset(parsed[i])))
                continue
            _judge_one(st, claim, value, exact, links[i], off + _offset(parsed[i]))

    # definitions
    name = label
    if (
        not name
        and first.kind == "expr"
        and isinstance(first.node, Call)
        and first.node.fn == "sum"
    ):
        name = "sum"
    if name and len(parsed) > 1 and values[-1] is not None:
        origin = next(
            (v for v, p in zip(exact_values[1:], parsed[1:]) if p.node is not None), values[-1]
        )
        line, column = links[0].at(first.offset)
        _define(st, name, values[-1], origin or values[-1], chain.text, line, column)  # type: ignore[arg-type]


def _remember(
    st: _State, chain: ChainText, label: str, first: _Parsed, parsed: list[_Parsed]
) -> None:
    """Keep what the chain states (its label, first link and literal links) for Level 2."""
    lits: list[tuple[_Spot, ...]] = []
    for i, p in enumerate(parsed[1:], start=1):
        got = literal_numbers(p.node) if p.node is not None else None
        if got is not None:
            lits.append(tuple(_Spot(w, *chain.links[i].at(off + p.offset)) for w, off in got))
    if lits:
        st.stated.append(_Stated(label, chain.links[0].text, first.node, tuple(lits), chain.line))


def _offset(p: _Parsed) -> int:
    return p.offset


def _holds_now(st: _State, lits: list[tuple[Written, int]], scalars: tuple[Scalar, ...]) -> bool:
    return all(consistent_with(c, v, st.accepted, st.limits) for (c, _), v in zip(lits, scalars))


def _conflict_notes(
    st: _State,
    chain: ChainText,
    node: Node | None,
    lits: list[tuple[Written, int]],
    conflicted: Mapping[str, list[_Definition]],
    holds: dict[str, set[int]],
) -> None:
    """For each conflicted name, the definitions under which this claim holds."""
    if node is None:
        return
    for name, defs in conflicted.items():
        ok = set()
        for k, d in enumerate(defs):
            env = dict(st.env)
            env[name] = d.value
            try:
                scalars = flatten(_eval(st, node, env))
            except SymattnError:
                continue
            if len(scalars) == len(lits) and _holds_now(st, lits, scalars):
                ok.add(k)
        if ok and len(ok) < len(defs):
            holds.setdefault(name, set()).update(ok)
            values = ", ".join(f"{name} = {_show_value(defs[k].value)}" for k in sorted(ok))
            st.notes.setdefault(name, []).append(
                _say("holds-only", formula=chain.text, line=chain.line, values=values)
            )


def _expression_step(st: _State, left: Scalar, right: Scalar, link: Link) -> None:
    """``a = b`` between two exact rational expressions must hold exactly."""
    lq, rq = left.rational(), right.rational()
    if lq is None or rq is None:
        return
    st.checked += 1
    claim = Written(rq, link.text, "fraction", None, None)
    verdict = judge(claim, Const(lq), accepted=st.accepted, limits=st.limits)
    if verdict.code is None:
        return
    line, column = link.at(0)
    msg = _say("wrong-step", claimed=link.text, exact=_fraction_text(lq), expected=None, cause="")
    st.findings.append(
        _finding(
            verdict.code,
            line,
            column,
            link.text,
            _fraction_text(lq),
            _fraction_text(lq),
            msg,
            "wrong-step",
        )
    )


def _report_conflicts(st: _State) -> None:
    for name, defs in _conflicted(st).items():
        first, later = defs[0], defs[1:]
        for d in later:
            notes = st.notes.get(name, [])
            msg = _say(
                "conflicting-definition",
                name=name,
                first=_show_value(first.value),
                first_line=first.line,
                second=_show_value(d.value),
                second_line=d.line,
                notes=Join(tuple(notes), "; ", " ") if notes else "",
            )
            st.findings.append(
                _finding(
                    "conflicting-definition",
                    d.line,
                    d.column,
                    f"{name} = {_show_value(d.value)}",
                    f"{name} = {_show_value(first.value)}",
                    None,
                    msg,
                    f"{name}: line {first.line} vs line {d.line}",
                )
            )


def audit(
    text: str,
    *,
    path: str = "<text>",
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> AuditReport:
    """Audit ``text``: every claim it makes, judged exactly (see the module docstring)."""
    if not isinstance(text, str):
        raise InputError("audit: expected the document as str")
    st = _State(limits, accepted)
    found, skipped = chains(text, limits=limits)
    for s in skipped:
        st.unparsed.append(Unparsed(s.line, s.text, s.reason))
    for chain in found:
        try:
            _process(st, chain)
        except (ExprError, SymattnError) as e:
            if chain.kind == "plain" and _PROSE_RE.search(chain.text):
                continue  # a sentence with an '=' in it, not math
            st.unparsed.append(Unparsed(chain.line, chain.text[:200], str(e)))
        except RecursionError:
            st.unparsed.append(Unparsed(chain.line, chain.text[:200], "nested too deeply"))
    _report_conflicts(st)
    recognised = _level2(st, text, path)
    findings = sorted(st.findings, key=lambda f: (f.line, f.column, f.code))
    return AuditReport(path, tuple(findings), st.checked, tuple(st.unparsed), recognised)


# --------------------------------------------------------------------------- Level 2

_NUM: Final = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_VEC: Final = rf"\[\s*{_NUM}(?:\s*,\s*{_NUM})*\s*\]"
_MAT: Final = rf"\[\s*{_VEC}(?:\s*,\s*{_VEC})*\s*\]"
_NUM_RE: Final = re.compile(_NUM)
_VEC_RE: Final = re.compile(_VEC)
#: ``q_1 = [1, 2]``, ``k_1 (Thinking) = [1, 2]``, ``v_{它} = [...]``
_VEC_DEF_RE: Final = re.compile(
    rf"(?<![A-Za-z])(?P<role>[qkv])\s*_\s*(?P<idx>[^\s=()\[\],]{{1,24}})\s*(?:\((?P<tok>[^()=\[\]]{{1,40}})\)\s*)?=\s*(?P<vec>{_VEC})"
)
#: ``WQ [[...]]``, ``W_Q = [[...]]``, ``W^Q: [[...]]``
_W_DEF_RE: Final = re.compile(
    rf"(?<![A-Za-z])W\s*[_^]?\s*(?P<role>[QKV])(?![A-Za-z])\s*[=:]?\s*(?P<mat>{_MAT})"
)
_W_HEADER_RE: Final = re.compile(r"^W\s*[_^]?\s*(?P<role>[QKV])$")
_X_HEADER_RE: Final = re.compile(
    r"(?i)^(?:x|embeddings?\b.*|.*embedding.*x.*|.*向量\s*x.*|嵌入.*)$"
)
#: LaTeX rules between table rows (after ``\\`` and braces are blanked out)
_RULES: Final = frozenset({"hline", "toprule", "midrule", "bottomrule", "cline", ""})
_QKV_HEADER: Final = MappingProxyType(
    {"q": "Q", "k": "K", "v": "V", "query": "Q", "key": "K", "value": "V"}
)
#: labels of chains, as data: (kind, pattern on the label with braces dropped)
_LABEL_RULES: Final = (
    (
        "scores",
        re.compile(
            r"(?i)^(?:score|scores|s|分数|得分|相似度)\((?P<row>[^,()]+),(?P<col>[^,()]+)\)$"
        ),
    ),
    ("scores", re.compile(r"(?i)^q_(?P<row>\w+)\s*[·*×]?\s*k_(?P<col>\w+)$")),
    ("sum", re.compile(r"(?i)^(?:sum|总和|求和|和|分母|denominator)$")),
    (
        "weights",
        re.compile(
            r"(?i)^(?:softmax|attention weights?|weights?|权重|注意力权重|α|alpha)(?:\s*归一化)?(?:_(?P<row>\S+))?$"
        ),
    ),
    (
        "output",
        re.compile(r"(?i)^(?:attention output|output|输出|注意力输出|out)(?:_(?P<row>\S+))?$"),
    ),
)
_EXP_FIRST_RE: Final = re.compile(
    rf"^(?:e\s*\^\s*\(?\s*(?P<a>{_NUM})\s*\)?|exp\s*\(\s*(?P<b>{_NUM})\s*\))$"
)
_SQRT_DK_RE: Final = re.compile(r"^(?:\\sqrt|sqrt|√)\s*\(?\s*d_k\s*\)?$")
_SCORE_FIRST_RE: Final = re.compile(r"^q_(?P<row>\w+)\s*[·*×]\s*k_(?P<col>\w+)$")
#: ``[5, 2] ÷ 2``: the scores divided by the scale, so the literal after it is the scaled scores
_SCALED_FIRST_RE: Final = re.compile(rf"^{_VEC}\s*[÷/]\s*\S.{{0,40}}$")
#: ``w_1 (对自己): 12.18 / 14.89 ≈ 0.82``, ``w_{2} = … ≈ 0.1070``: one weight, named by its key
_WEIGHT_LINE_RE: Final = re.compile(
    rf"(?<![A-Za-z])w\s*_\s*(?P<idx>[^\s=()\[\],:：]{{1,24}})\s*(?:\([^()=]{{1,40}}\)\s*)?(?:[:：]|(?=[=≈]))"
    rf"[^\n]{{0,200}}?[=≈]\s*(?P<num>{_NUM})\s*[.。]?\s*$"
)
#: prose that states weights or an output without an equation sign
_PROSE_RULES: Final = (
    (
        "weights",
        re.compile(
            rf"(?i)(?:注意力权重|权重|attention weights?|weights)[^\[\d\n]{{0,8}}(?P<vec>{_VEC})"
        ),
    ),
    ("weight", re.compile(rf"(?i)(?:权重|weight)\s*(?:是|为|of|=|:)?\s*(?P<num>{_NUM})")),
    (
        "output",
        re.compile(
            rf"(?i)(?:注意力输出|输出|新向量|attention output|output(?: vector)?)[^\[\d\n]{{0,12}}(?P<vec>{_VEC})"
        ),
    ),
)


@dataclass
class _Scan:
    """What one scan of the text found (local to one call of :func:`_level2`)."""

    vectors: dict[str, dict[str, tuple[_Spot, ...]]] = field(
        default_factory=lambda: {"Q": {}, "K": {}, "V": {}}
    )
    names: dict[str, str] = field(default_factory=dict)  # index -> token, from ``k_1 (Thinking)``
    table: dict[str, dict[str, tuple[_Spot, ...]]] = field(default_factory=dict)
    x: dict[str, tuple[_Spot, ...]] = field(default_factory=dict)
    w: dict[str, list[tuple[_Spot, ...]]] = field(default_factory=dict)
    prose: list[tuple[str, tuple[_Spot, ...]]] = field(default_factory=list)
    weights: list[tuple[str, _Spot]] = field(default_factory=list)  # (key index or token, weight)


def _clean(raw: str) -> tuple[str, tuple[int, ...]]:
    """A line in the grammar's spelling with ``$``, braces and backslashes blanked out."""
    norm, where = normalize(raw)
    return norm.translate(str.maketrans("${}\\", "    ")), where


def _spots(
    text: str, start: int, end: int, line: int, where: tuple[int, ...], limits: Limits
) -> tuple[_Spot, ...]:
    out = []
    for m in _NUM_RE.finditer(text, start, end):
        out.append(_Spot(parse_number(m.group(), limits=limits), line, where[m.start()] + 1))
    return tuple(out)


def _rows_of(
    text: str, start: int, end: int, line: int, where: tuple[int, ...], limits: Limits
) -> list[tuple[_Spot, ...]]:
    return [
        _spots(text, m.start(), m.end(), line, where, limits)
        for m in _VEC_RE.finditer(text, start + 1, end)
    ]


def _cells(raw: str, clean: str) -> list[str]:
    """The cells of a table row: Markdown pipes, LaTeX ``a & b \\\\``, tabs or two or more spaces."""
    body = clean.strip()
    if body.startswith("|"):
        return [c.strip() for c in body.strip("|").split("|")]
    latex = raw.rstrip()
    if "&" in latex or latex.endswith("\\\\"):
        latex = latex.removesuffix("\\\\")
        return [_clean(c)[0].strip() for c in latex.split("&")]
    return [c.strip() for c in re.split(r"\t+|\s{2,}", body)]


def _scan(text: str, limits: Limits) -> _Scan:
    """Inputs and prose claims, line by line (bounded: one pass, lines capped by the limits).

    A line whose numbers cannot be read within the limits (``1e999999999``) is left out, and
    ends the table it is in.
    """
    sc = _Scan()
    table: tuple[str, tuple[str, ...]] | None = None  # (kind, roles) of the table being read
    for li, raw in enumerate(text.splitlines()[: limits.max_elements], start=1):
        if len(raw) > limits.max_line_length:
            continue
        try:
            table = _scan_line(sc, table, raw, li, limits)
        except SymattnError:
            table = None
    return sc


def _scan_line(
    sc: _Scan, table: tuple[str, tuple[str, ...]] | None, raw: str, li: int, limits: Limits
) -> tuple[str, tuple[str, ...]] | None:
    """Read one line into ``sc``; the table being read after it."""
    clean, where = _clean(raw)
    cells = _cells(raw, clean)
    vecs = list(_VEC_RE.finditer(clean))
    if table is not None:
        kind, roles = table
        if all(set(c) <= set("-: ") or c in _RULES for c in cells):
            return table  # a Markdown separator row, or a LaTeX rule (``\\hline``)
        if any("…" in c or c == "..." for c in cells):
            return table
        width = len(roles) if kind != "w" else 1
        if (
            len(cells) == width + (kind != "w")
            and len(vecs) == width
            and (kind == "w" or not _VEC_RE.search(cells[0]))
        ):
            rows = [_spots(clean, m.start(), m.end(), li, where, limits) for m in vecs]
            if kind == "w":
                sc.w.setdefault(roles[0], []).append(rows[0])
            elif kind == "x":
                sc.x.setdefault(cells[0], rows[0])
            else:
                entry = sc.table.setdefault(cells[0], {})
                for role, row in zip(roles, rows):
                    entry.setdefault(role, row)
            return table
        table = None
    if not vecs and len(cells) >= 1:
        heads = [c.strip().lower() for c in cells[1:]]
        w_head = _W_HEADER_RE.match(cells[0].strip()) if len(cells) == 1 else None
        if heads and all(h in _QKV_HEADER for h in heads):
            table = ("qkv", tuple(_QKV_HEADER[h] for h in heads))
        elif len(cells) == 2 and _X_HEADER_RE.match(cells[1].strip()):
            table = ("x", ("X",))
        elif w_head is not None and not sc.w.get("W_" + w_head.group("role")):
            table = ("w", ("W_" + w_head.group("role"),))
        if table is not None:
            return table
    for m in _VEC_DEF_RE.finditer(clean):
        role, idx = m.group("role").upper(), m.group("idx").strip()
        sc.vectors[role].setdefault(
            idx, _spots(clean, m.start("vec"), m.end("vec"), li, where, limits)
        )
        if m.group("tok"):
            sc.names.setdefault(idx, m.group("tok").strip())
    for m in _W_DEF_RE.finditer(clean):
        sc.w.setdefault(
            "W_" + m.group("role"), _rows_of(clean, m.start("mat"), m.end("mat"), li, where, limits)
        )
    if (wm := _WEIGHT_LINE_RE.search(clean)) is not None:
        sc.weights.append(
            (
                wm.group("idx").strip(),
                _spots(clean, wm.start("num"), wm.end("num"), li, where, limits)[0],
            )
        )
    for kind, rx in _PROSE_RULES:
        for m in rx.finditer(clean):
            if m.groupdict().get("vec"):
                sc.prose.append(
                    (kind, _spots(clean, m.start("vec"), m.end("vec"), li, where, limits))
                )
            elif m.groupdict().get("num"):
                sc.prose.append(
                    (kind, _spots(clean, m.start("num"), m.end("num"), li, where, limits))
                )
    return table


@dataclass(frozen=True)
class _Problem:
    """The rebuilt problem: spec data, token lists, and where each claim was written."""

    data: dict[str, object]
    recognised: Recognised
    spots: Mapping[tuple[str, tuple[str, ...]], _Spot]
    first: _Spot | None


def _texts(spots: tuple[_Spot, ...]) -> list[str]:
    return [s.written.text for s in spots]


def _inputs_of(
    sc: _Scan,
) -> tuple[str, dict[str, object], tuple[str, ...], tuple[str, ...], list[_Spot]] | None:
    """(source, inputs, key tokens, query tokens, input spots), or None when the inputs are not all there."""
    ws = {r: sc.w.get(r) for r in ("W_Q", "W_K", "W_V")}
    table_tokens = tuple(t for t, e in sc.table.items() if set(e) >= {"Q", "K", "V"})
    if sc.x and all(ws.values()):
        tokens = (
            table_tokens if table_tokens and all(t in sc.x for t in table_tokens) else tuple(sc.x)
        )
        inputs: dict[str, object] = {"X": [_texts(sc.x[t]) for t in tokens]}
        for r, rows in ws.items():
            inputs[r] = [_texts(row) for row in rows or []]
        spots = [s for t in tokens for s in sc.x[t]]
        return "embeddings", inputs, tokens, tokens, spots
    # one `token Q K V` table, or the two tables `explain` writes: queries, then keys and values
    keys = tuple(t for t, e in sc.table.items() if set(e) >= {"K", "V"})
    queries = tuple(t for t, e in sc.table.items() if "Q" in e)
    if keys and queries:
        inputs = {
            "Q": [_texts(sc.table[t]["Q"]) for t in queries],
            "K": [_texts(sc.table[t]["K"]) for t in keys],
            "V": [_texts(sc.table[t]["V"]) for t in keys],
        }
        spots = [s for t in queries for s in sc.table[t]["Q"]]
        spots += [s for t in keys for r in "KV" for s in sc.table[t][r]]
        return "table", inputs, keys, queries, spots
    q, k, v = (sc.vectors[r] for r in "QKV")
    if q and k and v and set(k) == set(v):

        def name(idx: str) -> str:
            return sc.names.get(idx, idx)

        keys = tuple(name(i) for i in k)
        queries = tuple(name(i) for i in q)
        if len(set(keys)) != len(keys) or len(set(queries)) != len(queries):
            return None
        inputs = {
            "Q": [_texts(q[i]) for i in q],
            "K": [_texts(k[i]) for i in k],
            "V": [_texts(v[i]) for i in k],
        }
        spots = [s for d in (q, k, v) for vec in d.values() for s in vec]
        return "vectors", inputs, keys, queries, spots
    return None


def _label_kind(label: str) -> tuple[str, re.Match[str]] | None:
    plain = label.replace("{", "").replace("}", "").strip()
    for kind, rx in _LABEL_RULES:
        m = rx.match(plain)
        if m is not None:
            return kind, m
    return None


def _build(st: _State, sc: _Scan) -> _Problem | None:
    """The spec data of the problem behind the text, with the claims it states; None without inputs."""
    got = _inputs_of(sc)
    if got is None:
        return None
    source, inputs, keys, queries, input_spots = got

    def resolve(ident: str, among: tuple[str, ...]) -> str | None:
        ident = ident.strip()
        ident = sc.names.get(ident, ident)
        if ident in among:
            return ident
        return among[int(ident) - 1] if ident.isdigit() and 1 <= int(ident) <= len(among) else None

    # row claims: (kind, row or None, col or None, spots)
    raw: list[tuple[str, str | None, str | None, tuple[_Spot, ...]]] = []
    dk_claims: list[_Spot] = []
    sqrt_claim: _Spot | None = None
    for s in st.stated:
        last = s.literals[-1]
        kind_m = _label_kind(s.label) if s.label else None
        first = s.first.replace("{", "").replace("}", "").strip()
        if s.label == "d_k" and len(last) == 1:
            dk_claims.append(last[0])
        elif _SQRT_DK_RE.match(first) and len(last) == 1 and last[0].written.value > 0:
            sqrt_claim = sqrt_claim or last[0]
        elif kind_m is not None:
            kind, m = kind_m
            gd = m.groupdict()
            raw.append((kind, gd.get("row"), gd.get("col"), last))
        elif (sm := _SCORE_FIRST_RE.match(first)) is not None:
            raw.append(("scores", sm.group("row"), sm.group("col"), last))
        elif isinstance(s.node, Call) and s.node.fn == "sum":
            raw.append(("sum", None, None, last))
        elif _SCALED_FIRST_RE.match(first):
            raw.append(("scaled", None, None, last))
        elif _EXP_FIRST_RE.match(first):
            raw.append(("exp", None, None, last))
    raw += [(kind, None, None, spots) for kind, spots in sc.prose if kind in ("weights", "output")]
    raw += [("weight", None, idx, (spot,)) for idx, spot in sc.weights]

    named_rows = {resolve(r, queries) for _, r, _, _ in raw if r is not None} - {None}
    default = (
        next(iter(named_rows))
        if len(named_rows) == 1
        else queries[0]
        if len(queries) == 1
        else None
    )
    rows: dict[str, dict[str, object]] = {}
    spots: dict[tuple[str, tuple[str, ...]], _Spot] = {}
    step = {claim: stage.step for claim, stage in BY_CLAIM.items()}
    exp_next: dict[str, int] = {}
    for kind, r, c, vals in raw:
        row = resolve(r, queries) if r is not None else default
        if row is None:
            continue
        rc = rows.setdefault(row, {})
        if kind in ("scores", "exp") and len(vals) == 1:
            col = resolve(c, keys) if c is not None else None
            if kind == "exp" and c is None:
                j = exp_next.get(row, 0)
                exp_next[row] = j + 1
                col = keys[j] if j < len(keys) else None
            if col is None:
                continue
            table = rc.setdefault(kind, {})
            if isinstance(table, dict) and col not in table:
                table[col] = vals[0].written.text
                spots[(step[kind], (row, col))] = vals[0]
        elif kind == "scaled" and len(vals) == len(keys) and "scaled" not in rc:
            rc["scaled"] = _texts(vals)
            for t, v in zip(keys, vals):
                spots[(step["scaled"], (row, t))] = v
        elif kind == "weight" and c is not None and (col := resolve(c, keys)) is not None:
            single = rc.setdefault("weights", {})
            if isinstance(single, dict) and col not in single:
                single[col] = vals[0].written.text
                spots[(step["weights"], (row, col))] = vals[0]
                spots.setdefault((step["weights"], (row,)), vals[0])
        elif kind == "sum" and len(vals) == 1 and "sum" not in rc:
            rc["sum"] = vals[0].written.text
            spots[(step["sum"], (row,))] = vals[0]
        elif kind == "weights" and len(vals) == len(keys) and "weights" not in rc:
            rc["weights"] = _texts(vals)
            for t, v in zip(keys, vals):
                spots[(step["weights"], (row, t))] = v
            spots[(step["weights"], (row,))] = vals[0]
        elif (
            kind == "output"
            and "output" not in rc
            and len(vals) == len(inputs["V"][0] if source != "embeddings" else inputs["W_V"][0])
        ):  # type: ignore[index]
            rc["output"] = _texts(vals)
            for j, v in enumerate(vals):
                spots[(step["output"], (row, str(j)))] = v

    data: dict[str, object] = {"schema": 1, "tokens": list(keys), "inputs": inputs}
    if source != "embeddings":
        data["query_tokens"] = list(queries)
    claims: dict[str, object] = {}
    stated = next(
        (s for s in dk_claims if s.written.value.denominator == 1 and s.written.value > 0), None
    )
    if stated is not None:
        data["d_k"] = int(stated.written.value)
        later = next(
            (s for s in dk_claims if s.written.value not in (stated.written.value, 0)), None
        )
        if later is not None:
            claims["d_k"] = later.written.text
            spots[("d_k", ())] = later
    if sqrt_claim is not None:
        claims["sqrt_d_k"] = sqrt_claim.written.text
        spots[("sqrt_d_k", ())] = sqrt_claim
    if source != "vectors":
        toks: dict[str, dict[str, list[str]]] = {}
        for t in keys if source == "embeddings" else ():
            for r in "QKV":
                vec = sc.table.get(t, {}).get(r)
                if vec:
                    toks.setdefault(t, {})[r.lower()] = _texts(vec)
                    for j, v in enumerate(vec):
                        spots[(r, (t, str(j)))] = v
        if toks:
            claims["tokens"] = toks
    if rows:
        claims["rows"] = rows
    data["claims"] = claims
    x = keys if source == "embeddings" else ()
    w = ("W_Q", "W_K", "W_V") if source == "embeddings" else ()
    k_width = len(inputs["K"][0]) if "K" in inputs else len(inputs["W_K"][0])  # type: ignore[index]
    rec = Recognised(
        source,
        queries,
        keys,
        keys,
        x,
        w,
        data.get("d_k", k_width),
        stated is not None,  # type: ignore[arg-type]
        sum(1 for k in spots if len(k[1]) != 1 or k[0] != step["weights"]),
    )
    stated_spot = stated or (input_spots[0] if input_spots else None)
    if stated_spot is not None:
        spots.setdefault(("sqrt_d_k", ()), stated_spot)
    return _Problem(data, rec, MappingProxyType(spots), input_spots[0] if input_spots else None)


def _level2(st: _State, text: str, path: str) -> Recognised | None:
    """Level 2: rebuild the attention problem behind the text and judge what it states (via check)."""
    sc = _scan(text, st.limits)
    try:
        problem = _build(st, sc)
    except (SymattnError, ValueError) as e:
        st.unparsed.append(Unparsed(1, "attention problem", f"not rebuilt: {e}"))
        return None
    if problem is None:
        _absent(st, sc)
        return None
    try:
        spec = loads_spec(
            json.dumps(problem.data, ensure_ascii=False), fmt="json", name=path, limits=st.limits
        )
        report = check_spec(spec, accepted=st.accepted, limits=st.limits)
    except SymattnError as e:
        line = problem.first.line if problem.first is not None else 1
        st.unparsed.append(Unparsed(line, "attention problem", f"not rebuilt: {e}"))
        return None
    taken = {(f.line, f.column) for f in st.findings}
    has_conflict = any(f.code == "conflicting-definition" for f in st.findings)
    # one count per number: those Level 1 already judged are not counted twice
    again = {(s.line, s.column) for s in problem.spots.values()} & st.seen
    st.checked += max(report.checked - len(again), 0)
    for f in report.findings:
        if f.code == "conflicting-definition" and has_conflict:
            continue  # Level 1 already says it, with the lines
        spot = problem.spots.get((f.step, f.position)) or problem.first
        line, column = (spot.line, spot.column) if spot is not None else (1, 1)
        if f.code != "not-normalized":  # about the sum of the weights, not one number
            if (line, column) in taken:
                continue  # one finding per number: Level 1's is the more specific
            taken.add((line, column))
        st.findings.append(
            Finding(
                f.code,
                f.severity,
                TextLocation(line, column),
                f.claimed,
                "" if f.exact == "-" else f.exact,
                f.expected,
                f.message,
                f"level2:{f.message_key}",
            )
        )
    return problem.recognised


def _absent(st: _State, sc: _Scan) -> None:
    """No inputs: say which stated attention numbers could not be checked (info), and check their sum."""
    stated: list[tuple[str, tuple[_Spot, ...]]] = []
    for s in st.stated:
        kind_m = _label_kind(s.label) if s.label else None
        if kind_m is not None and kind_m[0] in ("weights", "output"):
            stated.append((kind_m[0], s.literals[-1]))
    stated += [(k if k != "weight" else "weights", v) for k, v in sc.prose]
    if not stated:
        return
    weights = [s for k, v in stated if k == "weights" for s in v]
    outputs = [v for k, v in stated if k == "output"]
    what = []
    if weights:
        what.append(
            _say("what-weights", values=Join(tuple(dict.fromkeys(s.written.text for s in weights))))
        )
    for v in outputs:
        what.append(_say("what-output", values="[" + ", ".join(_texts(v)) + "]"))
    first = min((s for _, v in stated for s in v), key=lambda s: (s.line, s.column))
    msg = _say("missing-input", what=Join(tuple(what), _say("and")))
    st.findings.append(
        _finding(
            "missing-input",
            first.line,
            first.column,
            first.written.text,
            "?",
            None,
            msg,
            "missing-input",
        )
    )
    for k, v in stated:
        gap = normalization_gap([s.written for s in v]) if k == "weights" and len(v) > 1 else None
        if gap is not None:
            total, lo, hi = gap
            st.findings.append(
                _finding(
                    "not-normalized",
                    v[0].line,
                    v[0].column,
                    " + ".join(_texts(v)),
                    "1",
                    "1",
                    _say(
                        "not-normalized",
                        sum=_fraction_text(total),
                        low=_fraction_text(lo),
                        high=_fraction_text(hi),
                    ),
                    "not-normalized",
                )
            )
