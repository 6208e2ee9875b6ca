"""The worked-example document: every number rounded, every sentence decided.

:func:`build_document` turns an :class:`~symattn.engine.result.AttentionResult` (read through
its trace) and spec-like metadata into a frozen :class:`~symattn.present.model.Document`.
Templates only lay it out. Every rounded number is also recorded in
:attr:`Document.numbers` with the exact quantity it came from, so tests can check each one.

The pieces: :mod:`~symattn.present.tables` (the data), :mod:`~symattn.present.scaling`,
:mod:`~symattn.present.rows` (one query row), :mod:`~symattn.present.interpretation`,
:mod:`~symattn.present.errata` (``--check``) and :mod:`~symattn.present.missing`.
"""

from __future__ import annotations

from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.judge.check import CheckReport
from symattn.present.certified import Numbers
from symattn.present.errata import Placer, check_report
from symattn.present.missing import missing_sentences, unverifiable
from symattn.present.model import (
    DocMeta,
    DocOptions,
    Document,
    Line,
    Msg,
    Note,
    Projection,
    RowDoc,
    Seg,
    Shown,
    Table,
    math_seg,
    meta_from_spec,
    msg,
)
from symattn.present.rows import query_row
from symattn.present.scaling import mask_intro, scaling
from symattn.present.tables import data_tables, projections

__all__ = [
    "DocMeta",
    "DocOptions",
    "Document",
    "Line",
    "Msg",
    "Note",
    "Projection",
    "RowDoc",
    "Seg",
    "Shown",
    "Table",
    "build_document",
    "meta_from_spec",
]

#: the attention formula every document starts from
FORMULA = (
    r"\mathrm{Attention}(Q, K, V) = "
    r"\mathrm{softmax}\left(\frac{Q K^{T}}{\sqrt{d_k}}\right) V"
)
#: the metadata of a bare result (no title, English, labels from the result)
NO_META = DocMeta()
#: the reader's default choices
DEFAULT_OPTIONS = DocOptions()
#: the most decimal places ``--digits`` may ask for
MAX_DIGITS = 50


def build_document(
    result: AttentionResult | None,
    meta: DocMeta = NO_META,
    options: DocOptions = DEFAULT_OPTIONS,
    check: CheckReport | bool | None = None,
) -> Document:
    """The worked-example document for ``result`` (``None`` when the inputs are missing).

    ``check`` is a :class:`~symattn.judge.check.CheckReport`, or ``True`` to check
    ``meta.spec``: each finding becomes an erratum callout next to the step it concerns.
    """
    if not 0 <= options.digits <= MAX_DIGITS:
        raise InputError(f"--digits {options.digits}: choose between 0 and {MAX_DIGITS}")
    report = check_report(check, meta, options)
    if result is None:
        return _not_computable(meta, report is not None)
    weights = result.weights
    if weights.ndim != 2:
        raise InputError(
            "explain writes out single-head, unbatched attention; this result has weights of "
            f"shape {weights.shape} (use symattn compute for it)"
        )
    L, S = weights.shape
    qlabels = _labels(result.query_labels, meta.query_tokens or meta.tokens, L)
    klabels = _labels(result.key_labels, meta.tokens, S)
    rows = _choose_rows(qlabels, options.queries or meta.explain)
    pairs = len(rows) * S
    if pairs > options.limits.max_explained_pairs:
        raise InputError(
            f"explaining {len(rows)} query rows x {S} keys = {pairs} pairs is more than "
            f"max_explained_pairs={options.limits.max_explained_pairs}; pick rows with "
            "--query TOKEN (or raise the limit with --limit max_explained_pairs=N)"
        )
    nums = Numbers(result, options)
    uses_x = result.trace.find("X") is not None
    tables = data_tables(result, qlabels, klabels, uses_x)
    projected = projections(result, qlabels, klabels, rows) if uses_x else ()
    scale_sentences, scaling_math = scaling(result, meta, nums)
    mask = mask_intro(result)
    row_docs = tuple(query_row(result, i, qlabels, klabels, nums) for i in rows)
    errata: tuple[Msg, ...] = ()
    scaling_notes: tuple[Note, ...] = ()
    other_notes: tuple[Note, ...] = ()
    if report is not None:
        placed = Placer(report, meta.lang, nums, klabels)
        row_docs = tuple(placed.row(r, i) for r, i in zip(row_docs, rows, strict=True))
        tables = placed.tables(tables)
        scaling_notes = placed.scaling()
        other_notes = placed.rest()
        errata = (placed.summary(),)
    return Document(
        lang=meta.lang,
        title=meta.title,
        source=meta.source,
        notes=meta.notes.strip(),
        computable=True,
        intro=(msg("intro_x") if uses_x else msg("intro_qkv"),),
        formula=FORMULA,
        tables=tables,
        projections=projected,
        scaling=scale_sentences,
        scaling_math=scaling_math,
        mask=mask,
        rows=row_docs,
        rounding=(
            msg("rounding", digits=math_seg(str(options.digits))),
            msg("rounding_sums"),
        ),
        missing=(),
        unverifiable=(),
        plot=options.plot,
        numbers=tuple(nums.shown),
        errata=errata,
        scaling_notes=scaling_notes,
        other_notes=other_notes,
    )


def _not_computable(meta: DocMeta, checked: bool) -> Document:
    """The document of an example whose inputs are missing: what is missing, and the
    author's numbers as written (with ``--check``: a sentence that none can be checked)."""
    return Document(
        lang=meta.lang,
        title=meta.title,
        source=meta.source,
        notes=meta.notes.strip(),
        computable=False,
        intro=(),
        formula=FORMULA,
        tables=(),
        projections=(),
        scaling=(),
        scaling_math="",
        mask=(),
        rows=(),
        rounding=(),
        missing=missing_sentences(meta),
        unverifiable=unverifiable(meta.claims),
        plot=None,
        numbers=(),
        errata=(msg("errata_unchecked"),) if checked else (),
    )


def _labels(labels: tuple[str, ...] | None, fallback: tuple[str, ...], n: int) -> tuple[str, ...]:
    """The result's labels, else the metadata's, else ``1 .. n``."""
    if labels is not None and len(labels) == n:
        return labels
    if len(fallback) == n:
        return fallback
    return tuple(str(i + 1) for i in range(n))


def _choose_rows(labels: tuple[str, ...], wanted: tuple[str, ...]) -> tuple[int, ...]:
    """The query rows to explain: those named (each once, in the order named), else all."""
    if not wanted:
        return tuple(range(len(labels)))
    out: list[int] = []
    for w in wanted:
        if w not in labels:
            raise InputError(f"--query {w!r}: no such query token; choose from {', '.join(labels)}")
        i = labels.index(w)
        if i not in out:
            out.append(i)
    return tuple(out)
