"""The records of a worked-example document: what a template lays out.

Math arrives as finished LaTeX strings (the same for Markdown and LaTeX output), sentences as
:class:`Msg` (a listed message key plus typed parameters), numbers already rounded from exact
values. Token names and titles never enter math: they are :class:`Seg` of kind ``"token"``
or ``"text"``, which the renderer escapes for the output format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.present.keys import SENTENCES
from symattn.spec import Claims, Spec


@dataclass(frozen=True)
class Seg:
    """A typed piece of a sentence: ``text`` or ``token`` (escaped), or ``math`` (LaTeX)."""

    kind: str
    content: str


Param = Seg | tuple[Seg, ...]


@dataclass(frozen=True)
class Msg:
    """A sentence: a message-catalog key and its parameters (rendered per format).

    The key must be one of :data:`symattn.present.keys.SENTENCES`.
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.key not in SENTENCES:
            raise InputError(f"message key {self.key!r} is not listed in symattn.present.keys")
        if not isinstance(self.params, MappingProxyType):
            object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


def msg(key: str, /, **params: Param) -> Msg:
    """The sentence ``key`` with ``params``."""
    return Msg(key, MappingProxyType(params))


def token_seg(name: str) -> Seg:
    """A token name (escaped for the output format, never math)."""
    return Seg("token", name)


def math_seg(latex: str) -> Seg:
    """A piece of LaTeX math."""
    return Seg("math", latex)


def text_seg(content: str) -> Seg:
    """Plain text (escaped for the output format)."""
    return Seg("text", content)


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
    claims: Claims | None = None
    tokens: tuple[str, ...] = ()
    query_tokens: tuple[str, ...] = ()
    spec: Spec | None = None  # the loaded spec (needed by ``check=True``)


@dataclass(frozen=True)
class DocOptions:
    """Choices of the reader: precision, rows, exact forms, a plot to reference."""

    digits: int = 4
    queries: tuple[str, ...] = ()
    exact: bool = False
    plot: str | None = None
    limits: Limits = DEFAULT_LIMITS


def meta_from_spec(spec: Spec) -> DocMeta:
    """The :class:`DocMeta` of a loaded spec."""
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
