"""The sentences of an audit: the fixed list of ``[audit]`` catalog keys it uses.

A finding's reason is a :class:`~symattn.judge.findings.Message` of the ``audit`` section;
:func:`say` builds one and refuses a key that is not in :data:`AUDIT_KEYS`, so the list is
exactly the keys audit can use (the catalogs are tested against it). Level 2 findings carry
the messages of ``check`` (section ``check``) unchanged.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from symattn.judge.findings import Message
from symattn.numbers.rounding import terminating_decimal

__all__ = [
    "AUDIT_KEYS",
    "UNCHECKED_KEYS",
    "fraction_text",
    "limit_exceeded",
    "not_checked",
    "plain",
    "reason_of",
    "say",
]

#: every ``[audit]`` key a finding of audit may name
AUDIT_KEYS: Final[tuple[str, ...]] = (
    # a claim judged against the value of its formula (the verdict codes)
    "wrong-value",
    "truncated",
    "float-representation",
    "undecided",
    # the claim is what a rounded e gives (exactly, or as double precision prints it)
    "approximate-e",
    "approximate-e-float",
    # the claim is what a rounded root (√2 ≈ 1.41) gives
    "approximate-root",
    # right for the author's own rounded earlier numbers
    "propagated-rounding",
    "propagated-rounding-of",
    # ``a = b`` between two exact expressions that are not equal
    "wrong-step",
    # one name, two values; a formula that holds with only one of them
    "conflicting-definition",
    "holds-only",
    # stated attention numbers without the inputs to compute them
    "missing-input",
    "missing-placed",
    "what-weights",
    "what-output",
    "and",
    "not-normalized",
    # a number found wrong, used again
    "repeat",
    # what a causal mask alone decides of a weight: 0 for a later key, 1 for the first query
    "causal-masked",
    "causal-first",
    # what the author's own written scores of the row give (unscaled, or scaled by a factor)
    "own-scores",
    "own-scores-scaled",
    # a matrix or row written in another shape than the stage it states
    "wrong-shape",
    "wrong-shape-extra",
    "stage-scores",
    "stage-scaled",
    "stage-exp",
    "stage-weights",
    "stage-output",
)

_KEYS: Final = frozenset(AUDIT_KEYS)


def say(key: str, **fields: object) -> Message:
    """A message of the ``[audit]`` catalog table (``None`` fields are shown empty)."""
    return _message("audit", _KEYS, "AUDIT_KEYS", key, fields)


def _message(
    section: str, keys: frozenset[str], listed: str, key: str, params: dict[str, object]
) -> Message:
    """A message of the catalog table ``section``, its key one of ``keys`` (the list named
    ``listed``); ``None`` parameters are shown empty."""
    if key not in keys:
        raise KeyError(f"{section} message key {key!r} is not in {listed}")
    return Message(section, key, {k: ("" if v is None else v) for k, v in params.items()})


def fraction_text(r: Fraction) -> str:
    """``r`` as a finite decimal when it terminates (``-0.35``), else ``p/q``."""
    d = terminating_decimal(r)
    return f"{d:f}" if d is not None else f"{r.numerator}/{r.denominator}"


#: every ``[unchecked]`` key: why math was seen but not checked (``Unparsed.reason``), why a
#: formula or a stretch of text was not read (``Skipped.reason``, the census's reasons), and
#: the words those sentences nest (a stage's name, a relation, "an array")
UNCHECKED_KEYS: Final[tuple[str, ...]] = (
    # the safe grammar (read/tokens.py, read/syntax.py): text that is no expression of it
    "unexpected-character",
    "ends-early",
    "expected",
    "unexpected",
    "matrix-without-end",
    "matrix-elided",
    "matrix-empty",
    "ellipsis",
    "label-call",
    "square-roots-only",
    "index-sum",
    "unsupported-command",
    "empty-expression",
    # ... or breaks one of its bounds
    "expression-too-long",
    "literal-too-long",
    "nested-deeper",
    "matrix-row-too-long",
    "vector-too-long",
    # exact arithmetic (read/scalar.py, read/evaluate.py)
    "bits-exceeded",
    "division-by-zero",
    "zero-power",
    "power-too-large",
    "negative-fractional-power",
    "log-not-positive",
    "sqrt-negative",
    "exp-too-large",
    "fractional-power-unclear",
    "log-unclear",
    "outside-quantity",
    "too-much-work",
    "empty-list",
    "ragged-list",
    "lengths-differ",
    "dot-non-vectors",
    "softmax-of-lists",
    "softmax-of-matrix",
    "exponent-of-matrix",
    "sum-of-matrix",
    "multiply-lengths",
    "multiply-shapes",
    "transpose-shape",
    "softmax-shape",
    "function-of-list",
    "unknown-name",
    "softmax-single",
    "unsupported-function",
    "too-many-items",
    # a limit of config.Limits: what went beyond it, and how to raise it
    "limit",
    "raise-api",
    "raise-cli",
    "formula-too-long",
    "rest-formulas",
    "rest-math",
    "rest-text",
    "line-too-long",
    "math-too-long",
    # Level 1 (read/level1.py, read/linkclaims.py, read/claims.py)
    "nested-too-deeply",
    "numbers-for-values",
    # a step whose names were given in another section (an exercise reusing them)
    "names-elsewhere",
    "not-decided",
    # code (read/codeblocks.py)
    "not-followed-deep",
    # the census: why the numbers of a block were not read (read/audit.py)
    "prose",
    "code-no-stage",
    "math-no-number",
    "table-no-number",
    # Level 2 (read/level2.py): a problem, or a row, not checked
    "problem-not-checked",
    "assumed-qk",
    "assumed-x",
    "unplaced-row",
    "wide-row",
    # an array not accused (read/accuse.py), and the closest relation it has
    "own-formula",
    "place-not-reproduced",
    "no-weight",
    "words-only",
    "too-few",
    "carried-unchecked",
    "foreign-exponent",
    "closest-none",
    "closest-unrelated",
    "closest",
    "closest-framed",
    # a claim placed elsewhere (read/locate.py)
    "located",
    "located-moved",
    # an array's role changed by its numbers (read/confirm.py)
    "budget-stopped",
    "reproduced",
    "reproduced-framed",
    "said-same",
    "said-exp_shifted",
    "said-sum",
    "said-normalized",
    "said-output",
    # weights that are no weights by their numbers (read/missing.py)
    "not-weights",
    "keys-mismatch",
    "rows-off",
    "row-over",
    # an error of a layer below read/ (judge, spec, engine, numbers): its own text
    "error",
    # the words the sentences above nest
    "an-array",
    "the-array",
    "and",
    "or",
    "step-scores",
    "step-scaled_scores",
    "step-exp_scores",
    "step-exp_sums",
    "step-weights",
    "step-output",
    "place-weight_sum",
    "place-scores",
    "place-scaled_scores",
    "place-exp_scores",
    "place-exp_sums",
    "place-weights",
    "place-output",
)

_UNCHECKED: Final = frozenset(UNCHECKED_KEYS)


def not_checked(key: str, **params: object) -> Message:
    """A message of the ``[unchecked]`` catalog table: why something was not checked or not
    read (``None`` parameters are shown empty); a key not in :data:`UNCHECKED_KEYS` is refused."""
    return _message("unchecked", _UNCHECKED, "UNCHECKED_KEYS", key, params)


def limit_exceeded(name: str, value: int, what: Message) -> Message:
    """``what`` went beyond the limit ``name`` (whose value is ``value``): the sentence says how
    to raise it, the API's way (``Limits(NAME=...)``; the command line says ``--limit``)."""
    return not_checked(
        "limit", what=what, limit=name, value=value, how=not_checked("raise-api", limit=name)
    )


def plain(message: Message) -> str:
    """``message`` as a key and its parameters (``unchecked.unexpected(token='W_V')``): the
    text of an exception that carries it, for a traceback; a report says it through the
    catalogs (present/ renders it)."""
    inner = ", ".join(
        f"{k}={plain(v) if isinstance(v, Message) else repr(v)}" for k, v in message.params.items()
    )
    return f"{message.section}.{message.key}({inner})"


def reason_of(error: BaseException) -> Message:
    """Why ``error`` stopped a reading: the reason it carries (an
    :class:`~symattn.read.tokens.ExprError` or a :class:`~symattn.read.tokens.ReadLimitError`
    does), else the text of an error of a layer below read/ (``[unchecked] error``)."""
    reason = getattr(error, "reason", None)
    if isinstance(reason, Message):
        return reason
    return not_checked("error", detail=str(error))
