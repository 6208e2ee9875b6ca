"""The records of a worked-example document: what a template lays out.

Math arrives as finished LaTeX strings (the same for Markdown, LaTeX and HTML output; line
breaks already decided by :mod:`symattn.present.layout`), sentences as :class:`Msg` (a listed
message key plus typed parameters), numbers already rounded from exact values. Token names and
titles never enter math unless :mod:`symattn.present.labels` finds them inert: in prose they
are :class:`Seg` of kind ``"token"`` (set off as code) or ``"text"``, which the renderer escapes
for the output format.

A document is a sequence of :class:`Part` (one attention: the whole example, a head, or a
batch item), each with its data, scale, matrices and worked rows; a multi-head example adds a
:class:`Combine` (the heads concatenated and multiplied by ``W^O``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.present.keys import SENTENCES
from symattn.present.layout import Equation
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

    The key must be one of :data:`symattn.present.keys.SENTENCES`. ``count`` chooses the
    plural form when the catalog gives the sentence in several (``one``, ``other``).
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))
    count: int | None = None

    def __post_init__(self) -> None:
        if self.key not in SENTENCES:
            raise InputError(f"message key {self.key!r} is not listed in symattn.present.keys")
        if not isinstance(self.params, MappingProxyType):
            object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


def msg(key: str, /, count: int | None = None, **params: Param) -> Msg:
    """The sentence ``key`` with ``params`` (``count``: the number its plural form follows)."""
    return Msg(key, MappingProxyType(params), count)


def token_seg(name: str) -> Seg:
    """A token name (escaped for the output format and set off as code, never math)."""
    return Seg("token", name)


def math_seg(latex: str) -> Seg:
    """A piece of LaTeX math."""
    return Seg("math", latex)


def text_seg(content: str) -> Seg:
    """Plain text (escaped for the output format)."""
    return Seg("text", content)


def count_seg(n: int) -> Seg:
    """A count or an index written in a sentence (plain text: ``3 keys``, ``head 2``)."""
    return text_seg(str(n))


@dataclass(frozen=True)
class Note:
    """An erratum callout: a label (erratum, note, info) and its sentences."""

    code: str
    severity: str
    label: Msg
    body: tuple[Msg, ...]


@dataclass(frozen=True)
class Line:
    """A displayed equation with an optional caption sentence and erratum callouts.

    ``at`` says which entry of a worked row it works out: ``("key", j)``, ``("col", c)`` or
    ``("sum", 0)`` (errata are placed by it); ``None`` for any other line. ``eq`` is ``math``
    as the rows of an ``aligned`` block, when it is an equation that can share a block with
    the equations next to it (:mod:`symattn.present.blocks`); it is layout, not content, and
    is left out of the JSON model.
    """

    caption: Msg | None
    math: str
    notes: tuple[Note, ...] = ()
    at: tuple[str, int] | None = None
    eq: Equation | None = field(default=None, repr=False, metadata={"json": False})

    @classmethod
    def of(cls, caption: Msg | None, eq: Equation, at: tuple[str, int] | None = None) -> Line:
        """The line of equation ``eq``."""
        return cls(caption, eq.latex, at=at, eq=eq)


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
    """One row of a projection (``q``, ``k`` or ``v`` of a token) written out as ``x W``."""

    caption: Msg
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class StepDoc:
    """One numbered step of a worked row: heading, sentences, equations, sentences after."""

    slot: str  #: which stage it works out (``dots``, ``scaling``, ``exps``, ``weights``, ...)
    heading: Msg
    intro: tuple[Msg, ...]
    lines: tuple[Line, ...]
    after: tuple[Msg, ...] = ()
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class RowDoc:
    """The worked computation for one query row, step by step."""

    token: str
    index: int  #: the query's row, counted from 0
    heading: Msg
    steps: tuple[StepDoc, ...]
    interpretation: tuple[Msg, ...]
    fully_masked: bool

    def step(self, slot: str) -> StepDoc | None:
        """The step working out ``slot`` (``None`` when this row has none)."""
        return next((s for s in self.steps if s.slot == slot), None)


@dataclass(frozen=True)
class Heatmap:
    """The weights of one attention as a heatmap: labels, shown numbers, shades, masks."""

    query_labels: tuple[str, ...]
    key_labels: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]  #: the rounded weights as the document shows them
    shades: tuple[tuple[float, ...], ...]  #: 0..1 (the weight, in float64)
    masked: tuple[tuple[bool, ...], ...]
    rows_hidden: int = 0  #: rows left out of a large heatmap (shown: the first ones)
    cols_hidden: int = 0


@dataclass(frozen=True)
class Part:
    """One attention written out: the whole example, one head, or one batch item.

    ``depth`` is its heading level below the document's sections (0: no heading of its own).
    """

    heading: Msg | None
    depth: int
    intro: tuple[Msg, ...]
    data: tuple[Line, ...]
    projection_lines: tuple[Line, ...]  #: ``Q = X W^Q`` ... as matrices
    projections: tuple[Projection, ...]  #: rows of the projections, term by term
    projections_after: tuple[Msg, ...]  #: a sentence on the rows not written out
    scaling: tuple[Msg, ...]
    scaling_math: str
    mask: tuple[Msg, ...]
    mask_lines: tuple[Line, ...]
    matrices_intro: tuple[Msg, ...]
    matrices: tuple[Line, ...]
    rows_intro: tuple[Msg, ...]
    rows: tuple[RowDoc, ...]
    heatmap: Heatmap | None
    scaling_notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class OutputRow:
    """The output of one query after ``W^O``, component by component."""

    token: str
    heading: Msg
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Combine:
    """A multi-head example's last step: the heads side by side, then ``W^O``."""

    intro: tuple[Msg, ...]
    lines: tuple[Line, ...]
    rows: tuple[OutputRow, ...]


@dataclass(frozen=True)
class Document:
    """A whole worked example, ready for a template."""

    lang: str
    title: str
    source: str
    notes: str
    computable: bool
    formula: tuple[str, ...]
    parts: tuple[Part, ...]
    combine: Combine | None
    rounding: tuple[Msg, ...]
    missing: tuple[Msg, ...]
    unverifiable: tuple[Line, ...]
    plot: str | None
    numbers: tuple[Shown, ...]
    errata: tuple[Msg, ...] = ()  # what --check found, before the worked example
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


class Detail(Enum):
    """How much of the worked example a document writes (``explain --detail``)."""

    FULL = "full"  #: every projection row and every query's steps, key by key
    COMPACT = "compact"  #: the projections and the per-key steps in matrix form only


@dataclass(frozen=True)
class DocOptions:
    """Choices of the reader: precision, rows, exact forms, a plot to reference, batch items,
    detail.

    ``batch`` names the batch items (indices of the leading axes, from 0) to write out;
    empty: every item (within ``limits.max_explained_pairs``). ``detail``: the whole worked
    example (:attr:`Detail.FULL`), or the matrix forms only (:attr:`Detail.COMPACT`).
    """

    digits: int = 4
    queries: tuple[str, ...] = ()
    exact: bool = False
    plot: str | None = None
    limits: Limits = DEFAULT_LIMITS
    batch: tuple[tuple[int, ...], ...] = ()
    detail: Detail = Detail.FULL


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
