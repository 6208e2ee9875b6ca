"""The worked-example document model: every number rounded, every sentence decided.

:func:`build_document` turns an :class:`~symattn.result.AttentionResult` (read through its
trace) and spec-like metadata into a frozen :class:`Document`. Templates only lay it out:
math arrives as finished LaTeX strings (the same for Markdown and LaTeX output), sentences
as :class:`Msg` (a message-catalog key plus typed parameters), numbers already rounded from
exact values. Every rounded number is also recorded in :attr:`Document.numbers` with the
exact quantity it came from, so tests can check each one.

Token names and titles never enter math: they are parameters of kind ``"token"`` or
``"text"`` that the renderer escapes for the output format.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from symattn.config import DEFAULT_LIMITS, LANGS, Limits
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.exact import Ball, ExactTensor, Surd, SurdTensor
from symattn.judge.check import check as run_check
from symattn.judge.findings import Message
from symattn.numbers.rounding import Rounding, terminating_decimal
from symattn.present.messages import catalog
from symattn.stages import ROW_STAGES, SCALING_STAGES, TOKEN_STAGES

#: rounding used for every displayed approximate number
ROUNDING = Rounding.HALF_EVEN
#: an exact decimal is shown as is when it has at most this many significant digits
SHORT_SIGNIFICANT = 8
#: a fraction or surd coefficient is "short" when numerator and denominator stay below this
SHORT_PART = 1000
_PLAIN = re.compile(r"-?[0-9]{1,60}(\.[0-9]{1,60})?")


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Seg:
    """A typed piece of a sentence: ``text`` or ``token`` (escaped), or ``math`` (LaTeX)."""

    kind: str
    content: str


Param = Seg | tuple[Seg, ...]


@dataclass(frozen=True)
class Msg:
    """A sentence: a message-catalog key and its parameters (rendered per format)."""

    key: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Note:
    """An erratum callout: a label (erratum, note, info) and its sentences."""

    code: str
    severity: str
    label: Msg
    body: tuple[Msg, ...]


@dataclass(frozen=True)
class Line:
    """A displayed equation with an optional caption sentence and erratum callouts."""

    caption: Msg | None
    math: str
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Table:
    """A table of cells (each a :class:`Seg`); the first row is the header."""

    caption: Msg
    header: tuple[Seg, ...]
    rows: tuple[tuple[Seg, ...], ...]
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Shown:
    """A rounded number the document prints: ``factor * stage[index]`` to ``decimals`` places."""

    stage: str
    index: tuple[int, ...]
    factor: Fraction
    decimals: int
    text: str


@dataclass(frozen=True)
class Projection:
    """``q``, ``k`` or ``v`` of one token written out as ``x W``."""

    caption: Msg
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class RowDoc:
    """The worked computation for one query row."""

    token: str
    heading: Msg
    dots: tuple[Line, ...]
    score_vector: str
    scaling: tuple[Line, ...]
    masking: tuple[Msg, ...]
    exps: tuple[Line, ...]
    exp_sum: Line | None
    weights: tuple[Line, ...]
    weight_vector: str
    outputs: tuple[Line, ...]
    output_vector: str
    interpretation: tuple[Msg, ...]
    fully_masked: bool
    weight_notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Document:
    """A whole worked example, ready for a template."""

    lang: str
    title: str
    source: str
    notes: str
    computable: bool
    intro: tuple[Msg, ...]
    formula: str
    tables: tuple[Table, ...]
    projections: tuple[Projection, ...]
    scaling: tuple[Msg, ...]
    scaling_math: str
    mask: tuple[Msg, ...]
    rows: tuple[RowDoc, ...]
    rounding: tuple[Msg, ...]
    missing: tuple[Msg, ...]
    unverifiable: tuple[Line, ...]
    plot: str | None
    numbers: tuple[Shown, ...]
    errata: tuple[Msg, ...] = ()  # what --check found, before the worked example
    scaling_notes: tuple[Note, ...] = ()
    other_notes: tuple[Note, ...] = ()  # findings with no step in this document


@dataclass(frozen=True)
class DocMeta:
    """What a document needs besides the result (taken from a spec, or given directly)."""

    title: str = ""
    lang: str = "en"
    source: str = ""
    notes: str = ""
    d_k_stated: int | None = None
    explain: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    claims: Any = None  # symattn.spec.Claims or None
    tokens: tuple[str, ...] = ()
    query_tokens: tuple[str, ...] = ()
    spec: Any = None  # the loaded spec (needed by ``check=True``)


@dataclass(frozen=True)
class DocOptions:
    """Choices of the reader: precision, rows, exact forms, a plot to reference."""

    digits: int = 4
    queries: tuple[str, ...] = ()
    exact: bool = False
    plot: str | None = None
    limits: Limits = DEFAULT_LIMITS


def meta_from_spec(spec: Any) -> DocMeta:
    """The :class:`DocMeta` of a loaded spec (any object with the Spec attributes)."""
    return DocMeta(
        title=spec.title,
        lang=spec.lang,
        source=spec.source,
        notes=spec.notes,
        d_k_stated=spec.d_k,
        explain=tuple(spec.explain),
        missing=tuple(n for n in spec.needed if n not in spec.inputs),
        claims=spec.claims,
        tokens=tuple(spec.tokens),
        query_tokens=tuple(spec.query_tokens),
        spec=spec,
    )


def _msg(msg_key: str, /, **params: Param) -> Msg:
    return Msg(msg_key, MappingProxyType(dict(params)))


def _tok(name: str) -> Seg:
    return Seg("token", name)


def _math(latex: str) -> Seg:
    return Seg("math", latex)


# --------------------------------------------------------------------------- exact forms


def _decimal_text(f: Fraction) -> str | None:
    """``f`` as a finite decimal string when its expansion terminates, else ``None``."""
    d = terminating_decimal(f)
    return None if d is None else f"{d:f}"


def rational_latex(f: Fraction) -> str:
    """An exact rational in LaTeX: ``5``, ``-0.35``, ``\\frac{1}{3}``."""
    text = _decimal_text(f)
    if text is not None:
        return text
    sign = "-" if f < 0 else ""
    return f"{sign}\\frac{{{abs(f.numerator)}}}{{{f.denominator}}}"


def _is_short_rational(f: Fraction) -> bool:
    text = _decimal_text(f)
    if text is not None:
        return len(text.lstrip("-0.").replace(".", "")) <= SHORT_SIGNIFICANT
    return abs(f.numerator) < SHORT_PART and f.denominator < SHORT_PART


def short_surd_latex(s: Surd) -> str | None:
    """``s`` in LaTeX when it is short (``\\sqrt{2}``, ``\\frac{5\\sqrt{2}}{2}``), else ``None``."""
    if s.q == 0:
        return rational_latex(s.p) if _is_short_rational(s.p) else None
    if s.p != 0:
        return None
    a, b = s.q.numerator, s.q.denominator
    if abs(a) >= SHORT_PART or b >= SHORT_PART:
        return None
    sign = "-" if a < 0 else ""
    coef = "" if abs(a) == 1 else str(abs(a))
    body = f"{coef}\\sqrt{{{s.r}}}"
    return f"{sign}{body}" if b == 1 else f"{sign}\\frac{{{body}}}{{{b}}}"


def _paren(text: str) -> str:
    return f"({text})" if text.startswith("-") else text


def vector_latex(items: Sequence[str]) -> str:
    """``[a, b, c]`` in LaTeX."""
    return "\\left[" + ",\\ ".join(items) + "\\right]"


# --------------------------------------------------------------------------- certified numbers


def certified_round(
    t: ExactTensor,
    requests: Sequence[tuple[tuple[int, ...], Fraction]],
    decimals: int,
    limits: Limits,
) -> list[Decimal]:
    """Correct roundings of ``factor * t[index]`` for each request, decided from enclosures."""

    def decide_for(factor: Fraction) -> Callable[[Ball], Decimal | None]:
        def decide(ball: Ball) -> Decimal | None:
            lo, hi = sorted((ball.lower * factor, ball.upper * factor))
            return Ball(lo, hi).round_decimals(decimals, ROUNDING)

        return decide

    return t.certify_entries(
        [idx for idx, _ in requests],
        [decide_for(factor) for _, factor in requests],
        start_bits=int(decimals * 3.33) + 64,
        limits=limits,
    )


def certified_sign(t: ExactTensor, idx: tuple[int, ...], x: Fraction, limits: Limits) -> int:
    """The sign of ``t[idx] - x``, decided exactly or from enclosures."""
    q = t.rational(idx)
    if q is not None:
        return (q > x) - (q < x)

    def decide(ball: Ball) -> int | None:  # an irrational entry differs from every rational x
        return 1 if ball.lower > x else -1 if ball.upper < x else None

    return int(t.certify_entries([idx], [decide], limits=limits)[0])


def _surd_sign(a: Fraction, b: Fraction, r: int) -> int:
    """The sign of ``a + b*sqrt(r)``, exactly."""
    if b == 0 or r == 1:
        v = a + b if r == 1 else a
        return (v > 0) - (v < 0)
    if a == 0:
        return (b > 0) - (b < 0)
    if (a > 0) == (b > 0):
        return 1 if a > 0 else -1
    # opposite signs: compare a^2 with b^2 r
    big = a * a - b * b * r
    return (1 if a > 0 else -1) * ((big > 0) - (big < 0))


def _fmt(d: Decimal, decimals: int) -> str:
    text = f"{d:.{decimals}f}"
    return text[1:] if text.startswith("-") and set(text[1:]) <= set("0.") else text


# --------------------------------------------------------------------------- the builder


class _Numbers:
    """Rounds entries of the result's stages and records every number shown."""

    def __init__(self, result: AttentionResult, options: DocOptions) -> None:
        self.result = result
        self.decimals = options.digits
        self.exact = options.exact
        self.limits = options.limits
        self.shown: list[Shown] = []
        self._rounded: dict[str, Any] = {}

    def tensor(self, stage: str) -> ExactTensor:
        if stage == "masked_scores":
            return self.result.masked_scores
        return self.result.stage(stage)

    def rounded(self, stage: str, idx: tuple[int, ...]) -> str:
        """The rounded text of ``stage[idx]`` (whole stage rounded once, certified)."""
        arr = self._rounded.get(stage)
        if arr is None:
            arr = self.tensor(stage).round(self.decimals, mode=ROUNDING, limits=self.limits)
            self._rounded[stage] = arr
        text = _fmt(arr[idx], self.decimals)
        self.shown.append(Shown(stage, idx, Fraction(1), self.decimals, text))
        return text

    def products(
        self, stage: str, requests: Sequence[tuple[tuple[int, ...], Fraction]]
    ) -> list[str]:
        """Rounded ``factor * stage[idx]`` for each request."""
        values = certified_round(self.tensor(stage), requests, self.decimals, self.limits)
        out = []
        for (idx, factor), v in zip(requests, values):
            text = _fmt(v, self.decimals)
            self.shown.append(Shown(stage, idx, factor, self.decimals, text))
            out.append(text)
        return out

    def value(self, stage: str, idx: tuple[int, ...], short: str | None = None) -> str:
        """The right-hand side for ``stage[idx]``: ``= 5``, ``= \\sqrt{2} \\approx 1.4142``, ``\\approx 0.09``."""
        t = self.tensor(stage)
        q = t.rational(idx)
        if q is not None and _decimal_text(q) is not None and _is_short_rational(q):
            return f"= {rational_latex(q)}"
        if short is None and q is not None and _is_short_rational(q):
            short = rational_latex(q)
        if short is None and self.exact:
            import sympy  # lazy: only documents with exact symbolic values need it

            short = sympy.latex(t.sympy(idx))
        approx = self.rounded(stage, idx)
        return f"= {short} \\approx {approx}" if short else f"\\approx {approx}"

    def plain(self, stage: str, idx: tuple[int, ...]) -> str:
        """The number alone: exact when it is a short decimal, else its rounding."""
        q = self.tensor(stage).rational(idx)
        if q is not None and _decimal_text(q) is not None and _is_short_rational(q):
            return rational_latex(q)
        return self.rounded(stage, idx)


def _labels(labels: tuple[str, ...] | None, fallback: tuple[str, ...], n: int) -> tuple[str, ...]:
    if labels is not None and len(labels) == n:
        return labels
    if len(fallback) == n:
        return fallback
    return tuple(str(i + 1) for i in range(n))


def _row_vector(values: Sequence[Fraction]) -> str:
    return vector_latex([rational_latex(v) for v in values])


def build_document(
    result: AttentionResult | None,
    meta: DocMeta = DocMeta(),
    options: DocOptions = DocOptions(),
    check: Any = None,
) -> Document:
    """The worked-example document for ``result`` (``None`` when the inputs are missing).

    ``check`` is a :class:`~symattn.check.CheckReport`, or ``True`` to check ``meta.spec``:
    each finding becomes an erratum callout next to the step it concerns.
    """
    if not 0 <= options.digits <= 50:
        raise InputError(f"--digits {options.digits}: choose between 0 and 50")
    report = _report(check, meta, options)
    rounding_note = (
        _msg("rounding", digits=_math(str(options.digits))),
        _msg("rounding_sums"),
    )
    if result is None:
        doc = _missing_document(meta, options, rounding_note)
        if report is None:
            return doc
        return replace(doc, errata=(_msg("errata_unchecked"),))
    weights = result.weights
    if weights.ndim != 2:
        raise InputError(
            f"explain writes out single-head, unbatched attention; this result has weights of shape "
            f"{weights.shape} (use symattn compute for it)"
        )
    L, S = weights.shape
    qlabels = _labels(result.query_labels, meta.query_tokens or meta.tokens, L)
    klabels = _labels(result.key_labels, meta.tokens, S)
    rows = _choose_rows(qlabels, options.queries or meta.explain)
    pairs = len(rows) * S
    if pairs > options.limits.max_explained_pairs:
        raise InputError(
            f"explaining {len(rows)} query rows x {S} keys = {pairs} pairs is more than "
            f"max_explained_pairs={options.limits.max_explained_pairs}; pick rows with --query TOKEN "
            f"(or raise the limit with --limit max_explained_pairs=N)"
        )
    nums = _Numbers(result, options)
    trace = result.trace
    uses_x = trace.find("X") is not None
    tables = _tables(result, qlabels, klabels, uses_x)
    projections = _projections(result, qlabels, klabels, rows) if uses_x else ()
    scaling, scaling_math = _scaling(result, meta, nums)
    mask = _mask_intro(result)
    row_docs = tuple(_row(result, i, qlabels, klabels, nums) for i in rows)
    intro = (_msg("intro_x") if uses_x else _msg("intro_qkv"),)
    errata: tuple[Msg, ...] = ()
    scaling_notes: tuple[Note, ...] = ()
    other_notes: tuple[Note, ...] = ()
    if report is not None:
        placed = _Placer(report, meta.lang, nums, rows, klabels)
        row_docs = tuple(placed.row(r, i) for r, i in zip(row_docs, rows))
        tables = placed.tables(tables)
        scaling_notes = placed.take(("d_k", "sqrt_d_k"))
        other_notes = placed.rest()
        errata = (placed.summary(),)
    return Document(
        lang=meta.lang,
        title=meta.title,
        source=meta.source,
        notes=meta.notes.strip(),
        computable=True,
        intro=intro,
        formula=r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{Q K^{T}}{\sqrt{d_k}}\right) V",
        tables=tables,
        projections=projections,
        scaling=scaling,
        scaling_math=scaling_math,
        mask=mask,
        rows=row_docs,
        rounding=rounding_note,
        missing=(),
        unverifiable=(),
        plot=options.plot,
        numbers=tuple(nums.shown),
        errata=errata,
        scaling_notes=scaling_notes,
        other_notes=other_notes,
    )


def _choose_rows(labels: tuple[str, ...], wanted: tuple[str, ...]) -> tuple[int, ...]:
    if not wanted:
        return tuple(range(len(labels)))
    out = []
    for w in wanted:
        if w not in labels:
            raise InputError(f"--query {w!r}: no such query token; choose from {', '.join(labels)}")
        i = labels.index(w)
        if i not in out:
            out.append(i)
    return tuple(out)


def _tables(
    result: AttentionResult, qlabels: tuple[str, ...], klabels: tuple[str, ...], uses_x: bool
) -> tuple[Table, ...]:
    trace = result.trace
    out = []
    if uses_x:
        x = trace.get("X").value.values
        out.append(
            Table(
                _msg("table_x"),
                (Seg("text", ""), _math("x")),
                tuple((_tok(klabels[i]), _math(_row_vector(x[i]))) for i in range(x.shape[0])),
            )
        )
        for name, sym in (("W_Q", "W^{Q}"), ("W_K", "W^{K}"), ("W_V", "W^{V}")):
            w = trace.get(name).value.values
            out.append(
                Table(
                    _msg("table_w", name=_math(sym)),
                    (_math(sym),),
                    tuple((_math(_row_vector(w[i])),) for i in range(w.shape[0])),
                )
            )
    q, k, v = (result.stage(n).values for n in ("Q", "K", "V"))
    if qlabels != klabels:
        # queries given apart from the keys (a query is not a key row): two tables, as texts do
        out.append(
            Table(
                _msg("table_q"),
                (Seg("text", ""), _math("q")),
                tuple((_tok(name), _math(_row_vector(q[i]))) for i, name in enumerate(qlabels)),
            )
        )
        out.append(
            Table(
                _msg("table_kv"),
                (Seg("text", ""), _math("k"), _math("v")),
                tuple(
                    (_tok(name), _math(_row_vector(k[j])), _math(_row_vector(v[j])))
                    for j, name in enumerate(klabels)
                ),
            )
        )
        return tuple(out)
    header = (Seg("text", ""), _math("q"), _math("k"), _math("v"))
    rows = tuple(
        (_tok(name), _math(_row_vector(q[j])), _math(_row_vector(k[j])), _math(_row_vector(v[j])))
        for j, name in enumerate(klabels)
    )
    out.append(Table(_msg("table_qkv_x" if uses_x else "table_qkv"), header, rows))
    return tuple(out)


def _dot_terms(left: Sequence[Fraction], right: Sequence[Fraction]) -> tuple[str, str]:
    factors = " + ".join(
        f"{_paren(rational_latex(a))} \\times {_paren(rational_latex(b))}"
        for a, b in zip(left, right)
    )
    products = " + ".join(_paren(rational_latex(a * b)) for a, b in zip(left, right))
    return factors, products


def _projections(
    result: AttentionResult,
    qlabels: tuple[str, ...],
    klabels: tuple[str, ...],
    rows: tuple[int, ...],
) -> tuple[Projection, ...]:
    trace = result.trace
    x = trace.get("X").value.values
    out = []
    plan = [("Q", "q", "W^{Q}", i) for i in rows] + [
        (n, n.lower(), f"W^{{{n}}}", j) for n in "KV" for j in range(len(klabels))
    ]
    for name, sym, wsym, i in plan:
        w = trace.get(f"W_{name}").value.values
        res = result.stage(name).values
        lines = []
        for c in range(w.shape[1]):
            factors, products = _dot_terms(x[i], w[:, c])
            math = (
                f"{sym}_{{{i + 1},{c + 1}}} = {factors} = {products} = {rational_latex(res[i, c])}"
            )
            lines.append(Line(None, math))
        label = qlabels[i] if name == "Q" else klabels[i]
        caption = _msg(
            "projection",
            token=_tok(label),
            sym=_math(f"{sym}_{{{i + 1}}} = x_{{{i + 1}}} {wsym}"),
            vector=_math(f"{sym}_{{{i + 1}}} = {_row_vector(res[i])}"),
        )
        out.append(Projection(caption, tuple(lines)))
    return tuple(out)


def _scaling(result: AttentionResult, meta: DocMeta, nums: _Numbers) -> tuple[tuple[Msg, ...], str]:
    d = result.d_k
    width = result.key_width
    if d is None:
        scale = result.scale
        import sympy  # lazy: only an irrational scale without a short form needs it

        short = short_surd_latex(scale) or sympy.latex(scale.sympy())
        return (_msg("scale_given", scale=_math(f"c = {short}")),), ""
    sqrt = nums.value("sqrt_d_k", (), short_surd_latex(result.trace.get("sqrt_d_k").value.surd(())))
    dtext = rational_latex(d)
    msgs = []
    if meta.d_k_stated is not None and Fraction(meta.d_k_stated) == d:
        msgs.append(_msg("dk_stated", dk=_math(f"d_k = {dtext}"), width=_math(str(width))))
    elif result.trace.get("sqrt_d_k").attrs.get("default"):
        msgs.append(_msg("dk_width", dk=_math(f"d_k = {dtext}")))
    else:
        msgs.append(_msg("dk_scale", dk=_math(f"d_k = {dtext}"), width=_math(str(width))))
    if d != width:
        msgs.append(_msg("dk_differs", dk=_math(f"d_k = {dtext}"), width=_math(str(width))))
    head = f"\\sqrt{{d_k}} = \\sqrt{{{dtext}}}"
    if sqrt.startswith(f"= \\sqrt{{{dtext}}} "):
        sqrt = sqrt[len(f"= \\sqrt{{{dtext}}} ") :]
    return tuple(msgs), f"{head} {sqrt}"


def _mask_intro(result: AttentionResult) -> tuple[Msg, ...]:
    step = result.trace.find("masked_scores")
    if step is None:
        return ()
    kind = step.attrs.get("kind")
    return (_msg({"causal": "mask_causal", "boolean": "mask_boolean"}.get(kind, "mask_additive")),)


def _row(
    result: AttentionResult,
    i: int,
    qlabels: tuple[str, ...],
    klabels: tuple[str, ...],
    nums: _Numbers,
) -> RowDoc:
    S = len(klabels)
    q = result.stage("Q").values
    k = result.stage("K").values
    v = result.stage("V").values
    scores = result.scores.values
    token = qlabels[i]
    dots = []
    for j in range(S):
        factors, products = _dot_terms(q[i], k[j])
        math = f"q_{{{i + 1}}} \\cdot k_{{{j + 1}}} = {factors} = {products} = {rational_latex(scores[i, j])}"
        dots.append(Line(_msg("dot_caption", query=_tok(token), key=_tok(klabels[j])), math))
    score_vector = f"\\left[q_{{{i + 1}}} \\cdot k_{{j}}\\right]_{{j}} = {_row_vector(scores[i])}"

    scaled: SurdTensor = result.scaled_scores  # type: ignore[assignment]
    masked: SurdTensor = result.masked_scores  # type: ignore[assignment]
    d = result.d_k
    scaling = []
    short_exponents: list[str | None] = []
    for j in range(S):
        s = scaled.surd((i, j))
        short = short_surd_latex(s) if s is not None else None
        score = rational_latex(scores[i, j])
        if d is not None:
            root = (
                short_surd_latex(result.trace.get("sqrt_d_k").value.surd(()))
                or f"\\sqrt{{{rational_latex(d)}}}"
            )
            lhs = f"s_{{{j + 1}}} = \\frac{{{score}}}{{{root}}}"
        else:
            c = short_surd_latex(result.scale) or "c"
            lhs = f"s_{{{j + 1}}} = {_paren(score)} \\times {_paren(c)}"
        rhs = nums.value(
            "scaled_scores", (i, j), short if short and not _is_plain_decimal(s) else None
        )
        scaling.append(Line(None, f"{lhs} {rhs}"))
    masking = []
    mask_step = result.trace.find("masked_scores")
    for j in range(S):
        m = masked.surd((i, j))
        s = scaled.surd((i, j))
        if m is None:
            short_exponents.append(None)
            if mask_step is not None:
                masking.append(
                    _msg(
                        "masked_key", key=_tok(klabels[j]), s=_math(f"s_{{{j + 1}}} \\to -\\infty")
                    )
                )
        else:
            if s is not None and (m.p != s.p or m.q != s.q):
                masking.append(
                    _msg(
                        "added_mask",
                        key=_tok(klabels[j]),
                        value=_math(f"s_{{{j + 1}}} + {_paren(rational_latex(m.p - s.p))}"),
                    )
                )
                short_exponents.append(short_surd_latex(m))
            else:
                short_exponents.append(short_surd_latex(m))
    fully = bool(masked.masked[i].all())
    exps = []
    for j in range(S):
        if masked.masked[i, j]:
            exps.append(Line(None, f"e^{{s_{{{j + 1}}}}} = e^{{-\\infty}} = 0"))
            continue
        ex = short_exponents[j]
        base = f"e^{{s_{{{j + 1}}}}}" if ex is None else f"e^{{s_{{{j + 1}}}}} = e^{{{ex}}}"
        exps.append(Line(None, f"{base} {nums.value('exp_scores', (i, j))}"))
    active = [j for j in range(S) if not masked.masked[i, j]]
    if fully:
        return RowDoc(
            token,
            _msg("row_heading", token=_tok(token)),
            tuple(dots),
            score_vector,
            tuple(scaling),
            tuple(masking) + (_msg("fully_masked"),),
            tuple(exps),
            None,
            (),
            "",
            (),
            f"o_{{{i + 1}}} = " + vector_latex(["0"] * v.shape[1]),
            (_msg("fully_masked_output"),),
            True,
        )
    terms = " + ".join(f"e^{{s_{{{j + 1}}}}}" for j in active)
    shown_terms = " + ".join(nums.plain("exp_scores", (i, j)) for j in active)
    exp_sum = Line(None, f"Z = {terms} \\approx {shown_terms} {nums.value('exp_sums', (i,))}")
    wlines = []
    wshown = []
    for j in range(S):
        if masked.masked[i, j]:
            wlines.append(Line(None, f"w_{{{j + 1}}} = 0"))
            wshown.append("0")
            continue
        num = nums.plain("exp_scores", (i, j))
        den = nums.plain("exp_sums", (i,))
        rhs = nums.value("weights", (i, j))
        wlines.append(
            Line(
                None,
                f"w_{{{j + 1}}} = \\frac{{e^{{s_{{{j + 1}}}}}}}{{Z}} \\approx \\frac{{{num}}}{{{den}}} {rhs}",
            )
        )
        wshown.append(nums.plain("weights", (i, j)))
    weight_vector = f"w = {vector_latex(wshown)}"
    outputs = []
    oshown = []
    for c in range(v.shape[1]):
        used = [j for j in active if v[j, c] != 0]
        shown_w = " + ".join(
            f"{nums.plain('weights', (i, j))} \\times {_paren(rational_latex(v[j, c]))}"
            for j in used
        )
        prods = nums.products("weights", [((i, j), v[j, c]) for j in used])
        formula = (
            " + ".join(f"w_{{{j + 1}}} \\times {_paren(rational_latex(v[j, c]))}" for j in used)
            or "0"
        )
        rhs = nums.value("output", (i, c))
        middle = (
            f" \\approx {shown_w} \\approx {' + '.join(_paren(p) for p in prods)}" if used else ""
        )
        outputs.append(Line(None, f"o_{{{i + 1},{c + 1}}} = {formula}{middle} {rhs}"))
        oshown.append(nums.plain("output", (i, c)))
    output_vector = f"o_{{{i + 1}}} = {vector_latex(oshown)}"
    interpretation = _interpret(result, i, klabels, masked, nums)
    return RowDoc(
        token,
        _msg("row_heading", token=_tok(token)),
        tuple(dots),
        score_vector,
        tuple(scaling),
        tuple(masking),
        tuple(exps),
        exp_sum,
        tuple(wlines),
        weight_vector,
        tuple(outputs),
        output_vector,
        interpretation,
        False,
    )


def _is_plain_decimal(s: Surd | None) -> bool:
    return s is not None and s.q == 0 and _decimal_text(s.p) is not None and _is_short_rational(s.p)


def _interpret(
    result: AttentionResult, i: int, klabels: tuple[str, ...], masked: SurdTensor, nums: _Numbers
) -> tuple[Msg, ...]:
    S = len(klabels)
    active = [j for j in range(S) if not masked.masked[i, j]]
    surds = {j: masked.surd((i, j)) for j in active}

    def cmp(a: int, b: int) -> int:
        sa, sb = surds[a], surds[b]
        if sa.r == sb.r or sa.q == 0 or sb.q == 0:  # type: ignore[union-attr]
            r = sa.r if sa.q else sb.r  # type: ignore[union-attr]
            return _surd_sign(sa.p - sb.p, sa.q - sb.q, r)  # type: ignore[union-attr]
        raise InputError(
            "cannot compare scores with different radicals"
        )  # not produced by the engine

    top = [active[0]]
    for j in active[1:]:
        c = cmp(j, top[0])
        if c > 0:
            top = [j]
        elif c == 0:
            top.append(j)
    out: list[Msg] = []
    if len(top) == len(active):
        out.append(_msg("interp_uniform", n=_math(str(len(active)))))
    else:
        names = tuple(_tok(klabels[j]) for j in top)
        share = nums.plain("weights", (i, top[0]))
        out.append(_msg("interp_top", keys=names, weight=_math(share)))
    # the output relative to the value vector of the (first) top token
    v = result.stage("V").values
    ref = top[0]
    up, down, same = [], [], []
    for c in range(v.shape[1]):
        sign = certified_sign(result.output, (i, c), v[ref, c], nums.limits)
        (up if sign > 0 else down if sign < 0 else same).append(_math(str(c + 1)))
    if len(top) == len(active):
        return tuple(out)
    ref_vec = _math(f"v_{{{ref + 1}}} = {_row_vector(v[ref])}")
    if up:
        out.append(_msg("interp_up", key=_tok(klabels[ref]), ref=ref_vec, dims=tuple(up)))
    if down:
        out.append(_msg("interp_down", key=_tok(klabels[ref]), ref=ref_vec, dims=tuple(down)))
    if same:
        out.append(_msg("interp_same", key=_tok(klabels[ref]), dims=tuple(same)))
    others = tuple(_tok(klabels[j]) for j in active if j not in top)
    if (up or down) and others:
        out.append(_msg("interp_pull", others=others))
    return tuple(out)


# --------------------------------------------------------------------------- errata (--check)

#: row steps of a finding -> the RowDoc field with one Line per key (per column for output)
ROW_SLOTS: tuple[tuple[str, str], ...] = tuple((s.step, s.slot) for s in ROW_STAGES if s.slot)
#: steps of spec-level findings shown at the scaling step
SCALING_STEPS: tuple[str, ...] = SCALING_STAGES
#: steps of token-level findings shown under the data table
TOKEN_STEPS: tuple[str, ...] = tuple(TOKEN_STAGES.values())
#: codes that get no callout (the document already says why nothing can be checked)
UNANNOTATED = frozenset({"missing-input"})
#: finding parameters that are symbols, shown as math
_SYMBOL_PARAMS = frozenset({"symbol"})
_VECTOR = re.compile(r"\[(.*)\]")
_SQRT = re.compile(r"sqrt\(([0-9]{1,12})\)")


def _report(check: Any, meta: DocMeta, options: DocOptions) -> Any:
    """The check report to annotate with: given, computed from ``meta.spec`` (True), or None."""
    if check is None or check is False:
        return None
    if check is True:
        if meta.spec is None:
            raise InputError(
                "check=True needs the spec: build the metadata with meta_from_spec(spec)"
            )
        return run_check(meta.spec, limits=options.limits)
    if not hasattr(check, "findings"):
        raise InputError("check= takes a CheckReport or True")
    return check


def _num_seg(text: str) -> Seg:
    """A number as math when it is a plain decimal, else as text."""
    text = text.strip()
    if _PLAIN.fullmatch(text):
        return _math(text)
    m = _SQRT.fullmatch(text)
    if m:
        return _math(f"\\sqrt{{{m.group(1)}}}")
    return Seg("text", text)


def _param_seg(name: str, value: object) -> Param:
    """A finding parameter as a sentence piece: numbers and vectors as math, the rest as text."""
    if name in _SYMBOL_PARAMS and str(value) == "d_k":
        return _math("d_k")
    if isinstance(value, (list, tuple)):
        return tuple(_num_seg(str(v)) for v in value) or Seg("text", "—")
    text = str(value)
    m = _VECTOR.fullmatch(text)
    if m:
        items = [x.strip() for x in m.group(1).split(",")]
        if all(_PLAIN.fullmatch(x) for x in items):
            return _math(vector_latex(items))
    return _num_seg(text)


class _Placer:
    """Puts each finding of a check report next to the step it concerns (each exactly once)."""

    def __init__(
        self,
        report: Any,
        lang: str,
        nums: _Numbers,
        rows: tuple[int, ...],
        klabels: tuple[str, ...],
    ) -> None:
        self.report = report
        self.pending = [f for f in report.findings if f.code not in UNANNOTATED]
        self.causes = catalog(lang if lang in LANGS else "en", "check")
        self.nums = nums
        self.klabels = klabels

    def _take(self, match: Any) -> list[Any]:
        hit = [f for f in self.pending if match(f)]
        self.pending = [f for f in self.pending if not match(f)]
        return hit

    def take(self, steps: tuple[str, ...]) -> tuple[Note, ...]:
        """Callouts of every finding at one of ``steps``."""
        return tuple(self.note(f) for f in self._take(lambda f: f.step in steps))

    def at(self, step: str, position: tuple[str, ...], idx: tuple[int, ...]) -> tuple[Note, ...]:
        """Callouts of the findings at one entry; ``idx`` locates this document's value there."""
        found = self._take(lambda f: f.step == step and tuple(f.position) == position)
        return tuple(self.note(f, (step, idx)) for f in found)

    def row(self, r: RowDoc, i: int) -> RowDoc:
        """``r`` with the callouts of its findings attached to its lines."""
        changes: dict[str, Any] = {}
        for step, attr in ROW_SLOTS:
            lines = getattr(r, attr)
            out = []
            for j, line in enumerate(lines):
                col = str(j) if step == "output" else self.klabels[j]
                out.append(replace(line, notes=line.notes + self.at(step, (r.token, col), (i, j))))
            changes[attr] = tuple(out)
        if r.exp_sum is not None:
            notes = self.at("exp_sums", (r.token,), (i,))
            changes["exp_sum"] = replace(r.exp_sum, notes=r.exp_sum.notes + notes)
        changes["weight_notes"] = r.weight_notes + self.at("weights", (r.token,), (i,))
        return replace(r, **changes)

    def tables(self, tables: tuple[Table, ...]) -> tuple[Table, ...]:
        """The data tables, the last one carrying the callouts of the token claims (q, k, v)."""
        notes = self.take(TOKEN_STEPS)
        if not tables or not notes:
            return tables
        return tables[:-1] + (replace(tables[-1], notes=tables[-1].notes + notes),)

    def rest(self) -> tuple[Note, ...]:
        """Callouts of the findings that have no step in this document."""
        out = tuple(self.note(f) for f in self.pending)
        self.pending = []
        return out

    def summary(self) -> Msg:
        """One sentence on what the check found."""
        r = self.report
        counts = {
            "checked": _math(str(r.checked)),
            "errors": _math(str(r.count("error"))),
            "warnings": _math(str(r.count("warning"))),
        }
        key = "errata_intro" if r.count("error") or r.count("warning") else "errata_clean"
        return _msg(key, **counts)

    def note(self, f: Any, here_at: tuple[str, tuple[int, ...]] | None = None) -> Note:
        """The callout of one finding (its reason, and the frame it was judged in)."""
        params: dict[str, Param] = {
            k: _param_seg(k, v) for k, v in f.params.items() if not isinstance(v, Message)
        }
        params["claimed"] = _num_seg(f.claimed)
        params["expected"] = _num_seg(f.expected or "")
        exact = f.exact
        params["exact"] = (
            _math(exact + ("\\ldots" if f.inexact else ""))
            if _PLAIN.fullmatch(exact)
            else Seg("text", exact)
        )
        if f.cause is not None:
            text = self.causes.get("cause." + f.cause, f.cause)
            params["cause"] = Seg("text", text.replace("{cause}", str(f.params.get("slip", ""))))
        body = [Msg("errata_" + f.message_key.replace("-", "_"), MappingProxyType(params))]
        if f.frame is not None:
            frame = _num_seg(f.frame)
            if here_at is not None:
                here = self.nums.plain(*here_at)
                body.append(_msg("errata_frame", frame=frame, here=_math(here)))
            else:
                body.append(_msg("errata_frame_only", frame=frame))
        return Note(f.code, f.severity, _msg("errata_label_" + f.severity), tuple(body))


# --------------------------------------------------------------------------- not computable


def _claim_number(w: Any) -> str:
    """A claimed number as the author wrote it when it is a plain decimal, else its exact value."""
    if w is None:
        return "?"
    text = str(w.text)
    return text if _PLAIN.fullmatch(text) else rational_latex(w.value)


def _claim_vector(values: Sequence[Any]) -> str:
    return vector_latex([_claim_number(w) for w in values])


def _missing_document(meta: DocMeta, options: DocOptions, rounding: tuple[Msg, ...]) -> Document:
    missing = (
        _msg("missing_intro"),
        _msg("missing_inputs", names=tuple(_math(_input_symbol(n)) for n in meta.missing)),
        _msg("missing_consequence"),
    )
    lines: list[Line] = []
    claims = meta.claims
    if claims is not None:
        for token, tc in claims.tokens.items():
            for field_name in ("q", "k", "v"):
                vals = getattr(tc, field_name)
                if vals is not None:
                    lines.append(
                        Line(
                            _msg(f"claim_{field_name}", token=_tok(token)),
                            f"{field_name} = {_claim_vector(vals)}",
                        )
                    )
        for token, rc in claims.rows.items():
            for field_name, sym in (
                ("scores", "q \\cdot k"),
                ("scaled", "s"),
                ("exp", "e^{s}"),
                ("weights", "w"),
                ("output", "o"),
            ):
                vals = getattr(rc, field_name)
                if any(w is not None for w in vals):
                    lines.append(
                        Line(
                            _msg(f"claim_{field_name}", token=_tok(token)),
                            f"{sym} = {_claim_vector(vals)}",
                        )
                    )
            if rc.sum is not None:
                lines.append(
                    Line(_msg("claim_sum", token=_tok(token)), f"Z = {_claim_number(rc.sum)}")
                )
    return Document(
        lang=meta.lang,
        title=meta.title,
        source=meta.source,
        notes=meta.notes.strip(),
        computable=False,
        intro=(),
        formula=r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{Q K^{T}}{\sqrt{d_k}}\right) V",
        tables=(),
        projections=(),
        scaling=(),
        scaling_math="",
        mask=(),
        rows=(),
        rounding=(),
        missing=missing,
        unverifiable=tuple(lines),
        plot=None,
        numbers=(),
    )


def _input_symbol(name: str) -> str:
    return {"W_Q": "W^{Q}", "W_K": "W^{K}", "W_V": "W^{V}", "W_O": "W^{O}"}.get(name, name)
