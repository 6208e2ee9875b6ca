"""The worked-example document: every number rounded, every sentence decided.

:func:`build_document` turns an :class:`~symattn.engine.result.AttentionResult` (read through
its trace) and spec-like metadata into a frozen :class:`~symattn.present.model.Document`.
Templates only lay it out. Every rounded number is also recorded in
:attr:`Document.numbers` with the exact quantity it came from, so tests can check each one.

A document is made of parts: one for a single attention; one per batch item asked for; for
multi-head attention, the shared inputs and projections, then one part per head and the
heads' combination (``Concat`` and ``W^O``). The pieces: :mod:`~symattn.present.data`,
:mod:`~symattn.present.scaling`, :mod:`~symattn.present.matrices`,
:mod:`~symattn.present.rows`, :mod:`~symattn.present.heads`,
:mod:`~symattn.present.errata` (``--check``) and :mod:`~symattn.present.missing`.
"""

from __future__ import annotations

from dataclasses import replace

from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.judge.check import CheckReport
from symattn.present import data, heads, matrices
from symattn.present.certified import Numbers
from symattn.present.errata import Placer, check_report
from symattn.present.keys import INTROS, lookup
from symattn.present.missing import missing_sentences, unverifiable
from symattn.present.model import (
    Combine,
    Detail,
    DocMeta,
    DocOptions,
    Document,
    Line,
    Msg,
    Note,
    Part,
    Projection,
    RowDoc,
    Seg,
    Shown,
    count_seg,
    meta_from_spec,
    msg,
    text_seg,
    token_seg,
)
from symattn.present.rows import query_row
from symattn.present.scaling import mask_intro, scaling
from symattn.present.view import View, is_multi_head, views_of

__all__ = [
    "DocMeta",
    "DocOptions",
    "Document",
    "Line",
    "Msg",
    "Note",
    "Part",
    "Projection",
    "RowDoc",
    "Seg",
    "Shown",
    "build_document",
    "meta_from_spec",
]

#: the attention formula every document starts from (and its variants)
FORMULA = (
    r"\mathrm{Attention}(Q, K, V) = "
    r"\mathrm{softmax}\left(\frac{Q K^{T}}{\sqrt{d_k}}\right) V"
)
FORMULA_MASK = (
    r"\mathrm{Attention}(Q, K, V) = "
    r"\mathrm{softmax}\left(\frac{Q K^{T}}{\sqrt{d_k}} + M\right) V"
)
FORMULA_HEADS = (
    r"\mathrm{MultiHead}(X) = \mathrm{Concat}(\mathrm{head}_{1}, \ldots, \mathrm{head}_{h}) W^{O}",
    r"\mathrm{head}_{i} = \mathrm{Attention}(X W^{Q}_{i},\ X W^{K}_{i},\ X W^{V}_{i})",
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
    L, S = result.weights.shape[-2:]
    qlabels = _labels(result.query_labels, meta.query_tokens or meta.tokens, L)
    klabels = _labels(result.key_labels, meta.tokens, S)
    views = views_of(result, qlabels, klabels)
    multi = is_multi_head(result)
    nums = Numbers(result, options)
    builder = _Builder(result, meta, options, nums)
    asked = options.queries or meta.explain
    if multi:
        n_heads = int(result.trace.get("Q_heads").attrs["num_heads"])
        items = _batch_items(views, n_heads, options)
        rows = builder.rows(qlabels, asked, S * n_heads * len(items)) if builder.full else ()
        parts, combine = builder.multi_head(views, items, n_heads, rows)
    else:
        chosen = _chosen_views(views, options)
        rows = builder.rows(qlabels, asked, S * len(chosen)) if builder.full else ()
        parts = tuple(builder.part(v, rows, len(views) > 1) for v in chosen)
        combine = None
    errata: tuple[Msg, ...] = ()
    other_notes: tuple[Note, ...] = ()
    if report is not None:
        placed = Placer(report, meta.lang, nums)
        if not multi and len(parts) == 1:
            p, v = parts[0], views[0]
            changes: dict[str, object] = {"rows": tuple(placed.row(r, v) for r in p.rows)}
            if p.projection_lines:
                changes["projection_lines"] = placed.data(p.projection_lines)
            else:
                changes["data"] = placed.data(p.data)
            changes["scaling_notes"] = placed.scaling()
            parts = (replace(p, **changes),)  # type: ignore[arg-type]
        other_notes = placed.rest()
        errata = (placed.summary(),)
    return Document(
        lang=meta.lang,
        title=meta.title,
        source=meta.source,
        notes=meta.notes.strip(),
        computable=True,
        formula=_formula(result, multi),
        parts=parts,
        combine=combine,
        rounding=(
            msg("rounding", count=options.digits, digits=count_seg(options.digits)),
            *(
                (msg("rounding_large", count=options.digits + 1, n=count_seg(options.digits + 1)),)
                if nums.scientific
                else ()
            ),
            msg("rounding_sums"),
        ),
        missing=(),
        unverifiable=(),
        plot=options.plot,
        numbers=tuple(nums.shown),
        errata=errata,
        other_notes=other_notes,
    )


def _formula(result: AttentionResult, multi: bool) -> tuple[str, ...]:
    main = FORMULA_MASK if result.trace.find("masked_scores") is not None else FORMULA
    return (main, *FORMULA_HEADS) if multi else (main,)


class _Builder:
    """Builds the parts of one document (shares the numbers and the choices)."""

    def __init__(
        self, result: AttentionResult, meta: DocMeta, options: DocOptions, nums: Numbers
    ) -> None:
        self.result = result
        self.meta = meta
        self.options = options
        self.nums = nums
        self.start = result.start
        self.cross = result.trace.find("X_q") is not None
        self.rows_intro: tuple[Msg, ...] = ()
        #: every row worked out (else the matrix forms only: ``--detail compact``)
        self.full = options.detail is Detail.FULL

    def rows(
        self, qlabels: tuple[str, ...], asked: tuple[str, ...], per_row: int
    ) -> tuple[int, ...]:
        """The query rows to work out: those asked for (within the limit), else all, or as many
        as the limit allows (with a sentence saying so)."""
        limit = self.options.limits.max_explained_pairs
        if asked:
            rows = _choose_rows(qlabels, asked)
            if len(rows) * per_row > limit:
                raise InputError(
                    f"explaining {len(rows)} query rows x {per_row} (query, key) pairs each is "
                    f"more than max_explained_pairs={limit}; pick fewer rows with --query TOKEN "
                    "(or raise the limit with --limit max_explained_pairs=N)"
                )
            if len(rows) < len(qlabels):
                names = tuple(token_seg(qlabels[i]) for i in rows)
                self.rows_intro = (msg("rows_some", count=len(rows), tokens=names),)
            return rows
        fit = min(len(qlabels), limit // max(per_row, 1))
        if fit < 1:
            raise InputError(
                f"one query row has {per_row} (query, key) pairs, more than "
                f"max_explained_pairs={limit}; raise the limit with --limit max_explained_pairs=N"
            )
        if fit < len(qlabels):
            names = tuple(token_seg(qlabels[i]) for i in range(fit))
            self.rows_intro = (
                msg("rows_limited", count=fit, tokens=names, n=count_seg(len(qlabels))),
            )
        return tuple(range(fit))

    def _intro(self, view: View) -> tuple[Msg, ...]:
        start = "cross" if self.cross else self.start
        intro = Msg(lookup(INTROS, start, "start"))
        return (*data.token_sentences(view.qlabels, view.klabels), intro)

    def _attention(
        self,
        view: View,
        rows: tuple[int, ...],
        heading: Msg | None,
        depth: int,
        intro: tuple[Msg, ...],
        data_lines: tuple[Line, ...],
    ) -> Part:
        """The part of one attention: scale, mask, matrices, worked rows, heatmap."""
        sentences, scaling_math = scaling(view, self.meta, self.nums)
        return Part(
            heading=heading,
            depth=depth,
            intro=intro,
            data=data_lines,
            projection_lines=(),
            projections=(),
            projections_after=(),
            scaling=sentences,
            scaling_math=scaling_math,
            mask=mask_intro(view),
            mask_lines=matrices.mask_lines(view),
            matrices_intro=matrices.hidden_sentence(view),
            matrices=matrices.stage_lines(view, self.nums),
            rows_intro=self.rows_intro,
            rows=tuple(query_row(view, i, self.nums) for i in rows),
            heatmap=matrices.heatmap(view, self.nums),
        )

    def part(self, view: View, rows: tuple[int, ...], batched: bool) -> Part:
        """A single attention (or one batch item of it)."""
        heading = (
            msg("h_batch_item", item=text_seg(", ".join(str(i + 1) for i in view.prefix)))
            if batched
            else None
        )
        part = self._attention(
            view,
            rows,
            heading,
            1 if batched else 0,
            self._intro(view),
            data.data_lines(view, self.start, self.cross),
        )
        if self.start != "x":
            return part
        projected, rest = data.projections(view, rows, self.cross) if self.full else ((), ())
        return replace(
            part,
            projection_lines=data.projection_lines(view, self.cross),
            projections=projected,
            projections_after=rest,
        )

    def multi_head(
        self,
        views: tuple[View, ...],
        items: list[tuple[int, ...]],
        n_heads: int,
        rows: tuple[int, ...],
    ) -> tuple[tuple[Part, ...], Combine | None]:
        """The shared inputs, one part per head, and the combination (of the first item)."""
        parts: list[Part] = []
        combine = None
        for lead in items:
            head_views = [v for v in views if v.prefix[:-1] == lead]
            first = head_views[0]
            inputs = View(self.result, lead, first.qlabels, first.klabels)
            projected, rest = data.projections(inputs, rows, self.cross) if self.full else ((), ())
            parts.append(
                Part(
                    heading=None,
                    depth=0,
                    intro=self._intro(first)
                    + (msg("intro_heads", count=n_heads, heads=count_seg(n_heads)),),
                    data=data.data_lines(inputs, "x", self.cross),
                    projection_lines=data.projection_lines(inputs, self.cross),
                    projections=projected,
                    projections_after=rest,
                    scaling=(),
                    scaling_math="",
                    mask=(),
                    mask_lines=(),
                    matrices_intro=(),
                    matrices=(),
                    rows_intro=(),
                    rows=(),
                    heatmap=None,
                )
            )
            for h, v in enumerate(head_views):
                heading = msg("h_head", h=count_seg(h + 1))
                parts.append(
                    self._attention(
                        v, rows, heading, 1, heads.head_intro(v, h, n_heads), heads.head_data(v, h)
                    )
                )
            combine = heads.combine(first, lead, n_heads, rows, self.nums)
        return tuple(parts), combine


def _chosen_views(views: tuple[View, ...], options: DocOptions) -> tuple[View, ...]:
    if not options.batch:
        return views
    by_prefix = {v.prefix: v for v in views}
    out = []
    for item in options.batch:
        if item not in by_prefix:
            have = ", ".join(str(p) for p in list(by_prefix)[:6])
            raise InputError(f"batch item {item}: no such item; the result has {have}, ...")
        out.append(by_prefix[item])
    return tuple(out)


def _batch_items(
    views: tuple[View, ...], n_heads: int, options: DocOptions
) -> list[tuple[int, ...]]:
    leads = list(dict.fromkeys(v.prefix[:-1] for v in views))
    if not options.batch:
        return leads
    missing = [b for b in options.batch if b not in leads]
    if missing:
        raise InputError(f"batch item {missing[0]}: no such item")
    return list(options.batch)


def _not_computable(meta: DocMeta, checked: bool) -> Document:
    """The document of an example whose inputs are missing: what is missing, and the
    author's numbers as written (with ``--check``: a sentence that none can be checked)."""
    return Document(
        lang=meta.lang,
        title=meta.title,
        source=meta.source,
        notes=meta.notes.strip(),
        computable=False,
        formula=(FORMULA,),
        parts=(),
        combine=None,
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
    """The query rows to explain: those named (each once, in the order named)."""
    out: list[int] = []
    for w in wanted:
        if w not in labels:
            raise InputError(f"--query {w!r}: no such query token; choose from {', '.join(labels)}")
        i = labels.index(w)
        if i not in out:
            out.append(i)
    return tuple(out)
