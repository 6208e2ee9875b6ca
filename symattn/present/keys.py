"""Every message key that ``present`` uses: one fixed list, checked against the catalogs.

No key is assembled at run time. A finding's message key, a severity, a mask kind or a claim
field is looked up in one of the tables below, and :func:`lookup` of a value a table does not
list is an error (never the raw key). ``tests/present/test_keys.py`` checks that every key
listed here is in every catalog, and that the catalogs agree with each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from symattn.errors import InputError

# --------------------------------------------------------------------------- the document

#: a check finding's message key -> the erratum sentence of its callout
ERRATA: Mapping[str, str] = MappingProxyType(
    {
        "truncated": "errata_truncated",
        "wrong-value": "errata_wrong_value",
        "wrong-value-slip": "errata_wrong_value_slip",
        "propagated-exact": "errata_propagated_exact",
        "propagated-interval": "errata_propagated_interval",
        "approximate-constant": "errata_approximate_constant",
        "dk-mismatch": "errata_dk_mismatch",
        "dk-mismatch-conflict": "errata_dk_mismatch_conflict",
        "dk-mismatch-width": "errata_dk_mismatch_width",
        "dk-mismatch-divisor": "errata_dk_mismatch_divisor",
        "conflicting-definition": "errata_conflicting_definition",
        "not-normalized": "errata_not_normalized",
        "precision-mixed": "errata_precision_mixed",
        "float-representation": "errata_float_representation",
        "undecided": "errata_undecided",
        "float-bound": "errata_float_bound",
        "rounded-inputs": "errata_rounded_inputs",
        "propagated-error": "errata_propagated_error",
        "interpretation": "errata_interpretation",
        "dk-mismatch-kind": "errata_dk_mismatch_divisor",
        "ambiguous": "errata_truncated",
        "undecided-limit": "errata_undecided",
    }
)

#: a finding's severity -> the label of its callout
LABELS: Mapping[str, str] = MappingProxyType(
    {
        "error": "errata_label_error",
        "warning": "errata_label_warning",
        "info": "errata_label_info",
    }
)

#: the ``kind`` of the trace's mask step -> the sentence introducing it
MASKS: Mapping[str, str] = MappingProxyType(
    {
        "causal": "mask_causal",
        "boolean": "mask_boolean",
        "additive": "mask_additive",
    }
)

#: a spec claim field -> the caption of the author's numbers when nothing can be computed
CLAIMS: Mapping[str, str] = MappingProxyType(
    {
        "q": "claim_q",
        "k": "claim_k",
        "v": "claim_v",
        "scores": "claim_scores",
        "scaled": "claim_scaled",
        "exp": "claim_exp",
        "sum": "claim_sum",
        "weights": "claim_weights",
        "output": "claim_output",
    }
)

#: the steps of a worked row (its ``StepDoc.slot``) -> the heading "Step {n}: ..."
STEP_HEADINGS: Mapping[str, str] = MappingProxyType(
    {
        "dots": "h_step_dot",
        "scaling": "h_step_scale",
        "masking": "h_step_mask",
        "exps": "h_step_exp",
        "weights": "h_step_weights",
        "outputs": "h_step_output",
    }
)

#: where an example starts (``AttentionResult.start``; ``cross`` for X with X_q) -> its intro
INTROS: Mapping[str, str] = MappingProxyType(
    {
        "x": "intro_x",
        "cross": "intro_cross",
        "qkv": "intro_qkv",
        "scores": "intro_scores",
        "scaled": "intro_scaled",
    }
)

#: sentences the document model chooses by name (:class:`~symattn.present.model.Msg` keys)
FIXED_SENTENCES: frozenset[str] = frozenset(
    {
        # the data
        "tokens_list",
        "tokens_queries",
        "intro_heads",
        "cap_x",
        "cap_xq",
        "table_w",
        "cap_wo",
        "cap_q",
        "cap_k",
        "cap_v",
        "cap_scores_given",
        "cap_scaled_given",
        "projection",
        "projection_rest",
        # the scale
        "dk_stated",
        "dk_stated_only",
        "dk_width",
        "dk_differs",
        "scale_given_dk",
        "scale_given_plain",
        "scale_overrides",
        "scaled_given",
        "scaled_given_dk",
        # matrices
        "cap_mask",
        "cap_scores_m",
        "cap_scaled_m",
        "cap_masked_m",
        "cap_weights_m",
        "cap_output_m",
        "matrices_summarised",
        # which rows, batch items and heads
        "rows_some",
        "rows_limited",
        "h_batch_item",
        "h_head",
        "head_columns",
        # one query row
        "row_heading",
        "dot_intro",
        "dot_caption",
        "score_vector",
        "score_meaning",
        "scale_intro",
        "scale_intro_given",
        "masked_keys",
        "keys_elided",
        "added_mask",
        "fully_masked",
        "fully_masked_output",
        "only_visible",
        "only_visible_output",
        "exp_intro",
        "sum_intro",
        "exp_masked",
        "weights_intro",
        "output_intro",
        "output_intro_exact",
        "output_result",
        # interpretation
        "interp_top",
        "interp_uniform",
        "interp_up",
        "interp_down",
        "interp_same",
        "interp_pull",
        # multi-head: the heads combined
        "combine_intro",
        "combine_no_wo",
        "cap_concat",
        "cap_multihead",
        "h_output_row",
        # rounding
        "rounding",
        "rounding_sums",
        "rounding_large",
        # cannot compute
        "missing_intro",
        "missing_inputs",
        "missing_consequence",
        # errata
        "errata_intro",
        "errata_clean",
        "errata_unchecked",
        "errata_frame",
        "errata_frame_only",
    }
)

#: every sentence a document can hold
SENTENCES: frozenset[str] = FIXED_SENTENCES.union(
    ERRATA.values(),
    LABELS.values(),
    MASKS.values(),
    CLAIMS.values(),
    STEP_HEADINGS.values(),
    INTROS.values(),
)

#: fixed texts the templates print (``t("...")`` and ``"..." | raw_message``)
TEMPLATE_TEXTS: frozenset[str] = frozenset(
    {
        "latex_class",
        "latex_class_options",
        "default_title",
        "source_label",
        "notes_label",
        "sentence_sep",
        "h_formula",
        "qkv_text",
        "h_data",
        "h_projection",
        "projection_intro",
        "h_dk",
        "h_mask",
        "h_matrices",
        "h_interp",
        "h_combine",
        "h_plot",
        "plot_caption",
        "h_errata",
        "h_rounding",
        "h_missing",
        "h_claims",
        "html_theme",
    }
)

#: texts the renderer uses itself
RENDER_TEXTS: frozenset[str] = frozenset({"list_sep", "html_masked"})

#: the plural categories a sentence may be given in (``key = { one = "...", other = "..." }``)
PLURAL_FORMS: frozenset[str] = frozenset({"zero", "one", "two", "few", "many", "other"})

#: every top-level key of a catalog
DOCUMENT_KEYS: frozenset[str] = SENTENCES | TEMPLATE_TEXTS | RENDER_TEXTS

# --------------------------------------------------------------------------- the reports

#: keys of the ``[report]`` table (present's own): the words around the findings
REPORT_TEXTS: tuple[str, ...] = (
    "claimed",
    "exact",
    "not_checked",
    "recognised",
    "lint_summary",
    "lint_not_checked",
    "lint_suppressed",
    "lint_deselected",
    "lint_total",
    "suppressed_tag",
    "exact_of_author",
    "exact_of_problem",
    "recognised_of",
    "group_unparsed",
    "group_undecided",
    "group_missing_input",
)

#: each group of what was not checked (``FileOutcome.not_checked``: a finding's code, or
#: ``unparsed``) -> the ``[report]`` key that names it in a summary
NOT_CHECKED_GROUPS: Mapping[str, str] = MappingProxyType(
    {
        "unparsed": "group_unparsed",
        "undecided": "group_undecided",
        "missing-input": "group_missing_input",
    }
)

#: keys of the ``[check]`` table that the check reports print around the findings
CHECK_REPORT_TEXTS: tuple[str, ...] = (
    "heading",
    "none",
    "col.where",
    "col.code",
    "col.claimed",
    "col.exact",
    "col.expected",
    "col.message",
)

#: how an audit rebuilt its problem (``Recognised.source``) -> its name in the ``[audit]`` table
AUDIT_SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "vectors": "source_vectors",
        "table": "source_table",
        "embeddings": "source_embeddings",
    }
)

#: keys of the ``[audit]`` table that the audit reports print around the findings
AUDIT_REPORT_TEXTS: tuple[str, ...] = (
    "report_heading",
    "report_recognised",
    "report_not_checked",
    "report_line",
    "col_line",
    "col_col",
    "col_code",
    "col_claimed",
    "col_exact",
    "col_expected",
    "col_why",
    "dk_as_stated",
    "dk_width",
    "part_sep",
    "recognised",
    *AUDIT_SOURCES.values(),
)

#: keys of each catalog table that ``present`` itself uses (the findings' keys are judge's
#: and read's)
REPORT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"check": CHECK_REPORT_TEXTS, "audit": AUDIT_REPORT_TEXTS, "report": REPORT_TEXTS}
)


def lookup(table: Mapping[str, str], value: str, what: str) -> str:
    """The key ``table`` lists for ``value``; an error naming ``what`` when it lists none."""
    try:
        return table[value]
    except KeyError:
        raise InputError(
            f"no message for {what} {value!r}: symattn.present.keys lists none"
        ) from None
