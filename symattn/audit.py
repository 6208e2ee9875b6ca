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

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from ._resources import templates_dir
from .config import DEFAULT_LIMITS, Limits
from .errors import InputError, SymattnError
from .expr import (
    Call,
    ExprError,
    Node,
    Ref,
    Scalar,
    Value,
    canonical_name,
    evaluate,
    flatten,
    lit,
    literal_numbers,
    names,
    parse,
    tokenize,
)
from .extract import ChainText, Link, chains
from .numbers import Written
from .rounding import Rounding
from .verdict import DEFAULT_ACCEPTED, SEVERITY, Const, consistent_with, judge

__all__ = ["AuditReport", "Finding", "Unparsed", "audit", "messages"]

#: values of e an author may have used instead of e itself, most common first
E_APPROXIMATIONS: Final = ("2.718", "2.7183", "2.71828", "2.72", "2.7")
#: characters after which prose may end and math begin (in a chain's first link)
#: three words in a row, or six CJK characters: prose, not a formula
_PROSE_RE: Final = re.compile(r"(?:[A-Za-z]{2,}[ ,]+){3}|[\u4e00-\u9fff]{6}")
_PROSE_END: Final = frozenset(":：;；。!！?？") | {chr(c) for c in range(0x4E00, 0xA000)}


@dataclass(frozen=True)
class Finding:
    """One wrong or doubtful number."""

    code: str
    severity: str
    line: int
    column: int
    claimed: str
    exact: str
    expected: str | None
    message: str
    cause: str

    def to_json(self) -> dict[str, object]:
        """The finding as a JSON object."""
        return {
            "code": self.code,
            "severity": self.severity,
            "line": self.line,
            "column": self.column,
            "claimed": self.claimed,
            "exact": self.exact,
            "expected": self.expected,
            "message": self.message,
            "cause": self.cause,
        }


@dataclass(frozen=True)
class Unparsed:
    """Math that was seen but not checked, and why."""

    line: int
    text: str
    reason: str

    def to_json(self) -> dict[str, object]:
        """The entry as a JSON object."""
        return {"line": self.line, "text": self.text, "reason": self.reason}


@dataclass(frozen=True)
class AuditReport:
    """What the audit of one text found."""

    path: str
    findings: tuple[Finding, ...]
    checked: int
    unparsed: tuple[Unparsed, ...]
    inputs: tuple[str, ...] = ()

    @property
    def has_errors(self) -> bool:
        """Whether a finding of severity error exists."""
        return any(f.severity == "error" for f in self.findings)

    def to_json(self) -> dict[str, object]:
        """The report as a JSON object (one entry of ``{"files": [...]}``)."""
        return {
            "path": self.path,
            "findings": [f.to_json() for f in self.findings],
            "checked": self.checked,
            "unparsed": [u.to_json() for u in self.unparsed],
            "inputs": list(self.inputs),
        }


def messages(lang: str) -> Mapping[str, str]:
    """The audit message catalog for ``lang`` (``en`` or ``zh``)."""
    path = templates_dir() / "messages" / f"audit.{lang}.toml"
    if not path.is_file():
        raise InputError(f"no audit messages for language {lang!r} (expected {path})")
    with path.open("rb") as f:
        data = tomllib.load(f)
    return data["messages"]


def _say(catalog: Mapping[str, str], key: str, **fields: object) -> str:
    template = catalog.get(key, key)
    return template.format(**{k: ("" if v is None else v) for k, v in fields.items()})


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
            return _Parsed("label", label=label, offset=off)
        try:
            return _Parsed("expr", parse(piece, limits=limits, normalized=True), offset=off)
        except SymattnError:
            continue
    return _Parsed("none")


def _read_link(text: str, last: bool, limits: Limits) -> _Parsed:
    """A later link; the last one may end in prose (``= 0.82，即…``)."""
    try:
        return _Parsed("expr", parse(text, limits=limits, normalized=True))
    except SymattnError as first_error:
        if not last:
            raise
        cut = next((i for i, ch in enumerate(text) if ch in _PROSE_END or ch == ","), None)
        piece = text[:cut].rstrip() if cut else text.rstrip(")）]")
        if piece and piece != text:
            try:
                return _Parsed("expr", parse(piece, limits=limits, normalized=True))
            except SymattnError:
                pass
        raise first_error


# --------------------------------------------------------------------------- the audit


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
    catalog: Mapping[str, str]
    env: dict[str, Value] = field(default_factory=dict)
    exact_env: dict[str, Value] = field(default_factory=dict)
    defs: dict[str, list[_Definition]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    unparsed: list[Unparsed] = field(default_factory=list)
    checked: int = 0


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
    if r.denominator == 1:
        return str(r.numerator)
    d = r.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d == 1:
        return _dec(r, max(twos, fives))
    return f"{r.numerator}/{r.denominator}"


def _dec(r: Fraction, places: int) -> str:
    n = r.numerator * 10**places // r.denominator
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(places + 1, "0")
    return f"{sign}{s[:-places]}.{s[-places:]}"


def _define(st: _State, name: str, value: Value, exact: Value, text: str, line: int, column: int) -> None:
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
    verdict = judge(claim, value, accepted=st.accepted, limits=st.limits)
    code, cause, exact_text = verdict.code, verdict.reason, verdict.exact
    if code in ("wrong-value", "truncated") and value.uses_e:
        approx = _approximate_e(st, claim, value)
        if approx is not None:
            code, cause = "approximate-constant", approx
    if code is None and exact_value is not None and exact_value is not value:
        exact_verdict = judge(claim, exact_value, accepted=st.accepted, limits=st.limits)
        if exact_verdict.code not in (None, "float-representation", "undecided"):
            code, cause, exact_text = "propagated-rounding", "propagated-rounding", exact_verdict.exact
            verdict = exact_verdict
    if code is None:
        return
    line, column = link.at(offset)
    msg = _say(
        st.catalog, code if code != "approximate-constant" else cause.split(":")[0],
        claimed=claim.text, exact=exact_text, expected=verdict.expected, cause=cause.partition(":")[2],
    )
    st.findings.append(
        Finding(code, SEVERITY[code], line, column, claim.text, exact_text, verdict.expected, msg, cause)
    )


def _approximate_e(st: _State, claim: Written, value: Scalar) -> str | None:
    """``approximate-constant:e=2.718`` when a rounded e explains the claim (float64 or exact)."""
    for text in E_APPROXIMATIONS:
        alt = value.with_e(lit(Fraction(text), st.limits.max_precision_bits))
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
    if not any(ch.isdigit() for ln in links for ch in ln.text):
        return  # symbolic formula: nothing numeric to check
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

    if first.kind == "expr" and first.node is not None and any(n not in st.env and n != "e" for n in names(first.node)):
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
        differs = any(not _same(st.env[n], st.exact_env[n]) for n in names(p.node) if n in st.exact_env)
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
                last_expr is not None and i > 0 and links[i].relation == "="
                and isinstance(values[i], Scalar) and isinstance(values[last_expr], Scalar)
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
            st.unparsed.append(Unparsed(line, chain.text, f"{len(lits)} numbers claimed for {len(scalars)} values"))
            continue
        if conflicted:
            _conflict_notes(st, chain, parsed[last_expr].node, lits, conflicted, holds)
            if any(holds.values()) and not _holds_now(st, lits, scalars):
                continue  # explained by the conflicting definition: reported there
        others = [flatten(v) for k, v in enumerate(values[:last_expr]) if k > 0 or first.kind == "expr"]
        others += [flatten(v) for v in exact_values[: last_expr + 1] if v is not None]
        for j, ((claim, off), value, exact) in enumerate(zip(lits, scalars, exact_scalars)):
            alternatives = [o[j] for o in others if o is not None and len(o) == len(lits)]
            if not consistent_with(claim, value, st.accepted, st.limits) and any(
                consistent_with(claim, alt, st.accepted, st.limits) for alt in alternatives
            ):
                st.checked += 1  # right for an earlier, more exact form of the same quantity
                continue
            _judge_one(st, claim, value, exact, links[i], off + _offset(parsed[i]))

    # definitions
    name = label
    if not name and first.kind == "expr" and isinstance(first.node, Call) and first.node.fn == "sum":
        name = "sum"
    if name and len(parsed) > 1 and values[-1] is not None:
        origin = next((v for v, p in zip(exact_values[1:], parsed[1:]) if p.node is not None), values[-1])
        line, column = links[0].at(first.offset)
        _define(st, name, values[-1], origin or values[-1], chain.text, line, column)  # type: ignore[arg-type]


def _offset(p: _Parsed) -> int:
    return p.offset


def _holds_now(st: _State, lits: list[tuple[Written, int]], scalars: tuple[Scalar, ...]) -> bool:
    return all(consistent_with(c, v, st.accepted, st.limits) for (c, _), v in zip(lits, scalars))


def _conflict_notes(
    st: _State, chain: ChainText, node: Node | None, lits: list[tuple[Written, int]],
    conflicted: Mapping[str, list[_Definition]], holds: dict[str, set[int]],
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
                _say(st.catalog, "holds-only", formula=chain.text, line=chain.line, values=values)
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
    msg = _say(st.catalog, "wrong-step", claimed=link.text, exact=_fraction_text(lq), expected=None, cause="")
    st.findings.append(
        Finding(verdict.code, SEVERITY[verdict.code], line, column, link.text, _fraction_text(lq), _fraction_text(lq), msg, "wrong-step")
    )


def _report_conflicts(st: _State) -> None:
    for name, defs in _conflicted(st).items():
        first, later = defs[0], defs[1:]
        for d in later:
            notes = "; ".join(st.notes.get(name, []))
            msg = _say(
                st.catalog, "conflicting-definition", name=name,
                first=_show_value(first.value), first_line=first.line,
                second=_show_value(d.value), second_line=d.line, notes=(" " + notes) if notes else "",
            )
            st.findings.append(
                Finding("conflicting-definition", SEVERITY["conflicting-definition"], d.line, d.column,
                        f"{name} = {_show_value(d.value)}", f"{name} = {_show_value(first.value)}", None, msg,
                        f"{name}: line {first.line} vs line {d.line}")
            )


def audit(
    text: str,
    *,
    path: str = "<text>",
    lang: str = "en",
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> AuditReport:
    """Audit ``text``: every claim it makes, judged exactly (see the module docstring)."""
    if not isinstance(text, str):
        raise InputError("audit: expected the document as str")
    st = _State(limits, accepted, messages(lang))
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
    inputs = _level2(st, text)
    findings = sorted(st.findings, key=lambda f: (f.line, f.column, f.code))
    return AuditReport(path, tuple(findings), st.checked, tuple(st.unparsed), inputs)


def _level2(st: _State, text: str) -> tuple[str, ...]:
    """Level 2: the attention problem behind the text (inputs recognised)."""
    return ()
