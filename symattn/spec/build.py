"""Building a :class:`~symattn.spec.model.Spec` from a parsed document, field by field.

The top-level fields, the inputs and their shapes, and the mask are checked here; the claims
in :mod:`symattn.spec.claims`. The first problem raises, in one sentence naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from symattn.config import LANGS, Limits
from symattn.errors import InputError
from symattn.numbers import Written, to_exact_array, to_fraction
from symattn.spec.claims import Layout, build_claims
from symattn.spec.fields import Fields, is_number, short, suggest, type_name
from symattn.spec.model import ALL_INPUTS, PRECISIONS, STARTS, Spec, Start, starts_of

SCHEMA_VERSION = 1
#: the fields of a spec's top-level table
TOP_FIELDS = (
    "schema",
    "title",
    "lang",
    "source",
    "notes",
    "tokens",
    "query_tokens",
    "explain",
    "d_k",
    "scale",
    "causal",
    "mask",
    "num_heads",
    "missing",
    "precision",
    "rounded_inputs",
    "inputs",
    "claims",
)


def build_spec(d: dict[str, Any], name: str, limits: Limits) -> Spec:
    """Validate a parsed spec document (the top-level table of ``name``) into a :class:`Spec`."""
    fields = Fields(name, limits)
    fields.unknown(d, TOP_FIELDS, "")
    if "schema" in d:
        s = d["schema"]
        if isinstance(s, bool) or s != SCHEMA_VERSION or not isinstance(s, int):
            raise fields.err("schema", f"unknown schema version {short(s)}, only 1 is known")
    lang = d.get("lang", "en")
    if lang not in LANGS:
        raise fields.err(
            "lang", f"expected one of {', '.join(map(repr, LANGS))}, got {short(lang)}"
        )
    if "tokens" not in d:
        raise fields.err("tokens", "required: the names of the key/value tokens")
    tokens = fields.names(d["tokens"], "tokens")
    query_tokens = (
        fields.names(d["query_tokens"], "query_tokens") if "query_tokens" in d else tokens
    )
    explain = fields.names(d["explain"], "explain") if "explain" in d else query_tokens
    fields.subset(explain, query_tokens, "explain", "query_tokens")
    d_k = fields.pos_int(d["d_k"], "d_k") if "d_k" in d else None
    scale = _scale(fields, d["scale"]) if "scale" in d else None
    causal = fields.boolean(d, "causal")
    num_heads = fields.pos_int(d["num_heads"], "num_heads") if "num_heads" in d else 1
    missing = _missing(fields, d.get("missing", []))
    inputs, start = _inputs(fields, d.get("inputs", {}), missing)
    uses_x = start.name == "x"
    cross = "X_q" in inputs or "X_q" in missing
    if uses_x and not cross:
        fields.subset(
            query_tokens, tokens, "query_tokens", "tokens (with X, queries are rows of X W_Q)"
        )
    elif not uses_x and num_heads != 1:
        raise fields.err("num_heads", "more than one head needs X, W_Q, W_K, W_V in inputs")
    if start.name == "scores" and d_k is None and scale is None:
        raise fields.err(
            "inputs.scores",
            "a spec that starts from the scores needs d_k or scale"
            " (scale = 1 when the text does not scale them)",
        )
    widths = _shapes(fields, inputs, tokens, query_tokens, start, num_heads)
    n_rows = len(tokens) if uses_x and not cross else len(query_tokens)
    mask = None
    if "mask" in d:
        if causal:
            raise fields.err("mask", "give either mask or causal = true, not both")
        mask = _mask(fields, d["mask"], n_rows, len(tokens))
    precision = _precision(fields, d["precision"]) if "precision" in d else None
    rounded = _rounded_inputs(fields, d.get("rounded_inputs", []), inputs)
    half_units = {n: _half_units(fields, d["inputs"][n], f"inputs.{n}") for n in rounded}
    heads = num_heads if uses_x and (num_heads > 1 or "W_O" in inputs or "W_O" in missing) else 0
    layout = Layout(
        tokens,
        query_tokens,
        uses_x and not cross,
        widths,
        heads,
        has_qk=start.name not in ("scores", "scaled"),
    )
    claims = build_claims(fields, d.get("claims", {}), layout)
    return Spec(
        path=fields.name,
        title=fields.text(d, "title"),
        lang=lang,
        source=fields.text(d, "source"),
        notes=fields.text(d, "notes"),
        tokens=tokens,
        query_tokens=query_tokens,
        explain=explain,
        d_k=d_k,
        scale=scale,
        causal=causal,
        mask=mask,
        num_heads=num_heads,
        missing=missing,
        inputs=MappingProxyType(inputs),
        claims=claims,
        precision=precision,
        rounded_inputs=rounded,
        half_units=MappingProxyType(half_units),
    )


def _precision(fields: Fields, v: object) -> str:
    """``precision``: the arithmetic the printed results were computed in."""
    if not isinstance(v, str) or v not in PRECISIONS:
        close = suggest(str(v), PRECISIONS)
        hint = f"; did you mean {close!r}?" if close else ""
        raise fields.err(
            "precision", f"expected one of {', '.join(map(repr, PRECISIONS))}, got {short(v)}{hint}"
        )
    return v


def _rounded_inputs(fields: Fields, v: object, inputs: Mapping[str, np.ndarray]) -> tuple[str, ...]:
    """``rounded_inputs``: given inputs printed as roundings of unknown values, each once."""
    if not isinstance(v, list):
        raise fields.err("rounded_inputs", f"expected a list of input names, got {short(v)}")
    out: list[str] = []
    for x in v:
        if not isinstance(x, str) or x not in ALL_INPUTS:
            close = suggest(str(x), ALL_INPUTS)
            hint = f"; did you mean {close!r}?" if close else ""
            raise fields.err(
                "rounded_inputs",
                f"{short(x)} is not an input name ({', '.join(ALL_INPUTS)}){hint}",
            )
        if x not in inputs:
            raise fields.err("rounded_inputs", f"{x!r} is not given in [inputs]")
        if x in out:
            raise fields.err("rounded_inputs", f"{x!r} is listed twice")
        out.append(x)
    return tuple(out)


def _half_units(fields: Fields, m: list[list[Any]], field: str) -> np.ndarray:
    """Half a unit in the last written place of every entry (0 for a fraction: exact); each
    distinct written number looked at once."""
    halves: dict[int, tuple[Written, Fraction]] = {}  # id -> (the Written, held; its half)
    out: list[Fraction] = []
    for i, row in enumerate(m, 1):
        for w in fields.written_entries(row, f"{field}[{i}]", 1):
            hit = halves.get(id(w))
            if hit is None:
                h = w.half_unit
                hit = halves[id(w)] = (w, Fraction(0) if h is None else h)
            out.append(hit[1])
    arr = np.fromiter(out, dtype=object, count=len(out)).reshape(len(m), len(m[0]))
    arr.setflags(write=False)
    return arr


def _scale(fields: Fields, v: object) -> Fraction:
    """``scale``: a positive rational (``0.5``, ``"1/2"``)."""
    if not is_number(v):
        raise fields.err("scale", f'expected a number such as 0.5 or "1/2", got {short(v)}')
    try:
        f = to_fraction(v, what="scale", limits=fields.limits)
    except InputError as exc:
        raise fields.wrap(exc, "scale") from exc
    if f <= 0:
        raise fields.err("scale", f"expected a positive number, got {short(v)}")
    return f


def _missing(fields: Fields, v: object) -> tuple[str, ...]:
    """``missing``: the inputs the source does not give, each named once."""
    if not isinstance(v, list):
        raise fields.err("missing", f"expected a list of input names, got {short(v)}")
    out: list[str] = []
    for x in v:
        if not isinstance(x, str) or x not in ALL_INPUTS:
            close = suggest(str(x), ALL_INPUTS)
            hint = f"; did you mean {close!r}?" if close else ""
            raise fields.err(
                "missing", f"{short(x)} is not an input name ({', '.join(ALL_INPUTS)}){hint}"
            )
        if x in out:
            raise fields.err("missing", f"{x!r} is listed twice")
        out.append(x)
    return tuple(out)


def _inputs(
    fields: Fields, v: object, missing: tuple[str, ...]
) -> tuple[dict[str, np.ndarray], Start]:
    """``[inputs]``: the inputs of one start (what is absent listed under missing)."""
    if not isinstance(v, dict):
        raise fields.err("inputs", f"expected a table of matrices, got {short(v)}")
    fields.unknown(v, ALL_INPUTS, "inputs")
    names = [*v, *missing]
    fits = starts_of(names)
    if not fits:
        ways = "; ".join(", ".join(st.required) for st in STARTS)
        raise fields.err(
            "inputs",
            f"give the inputs of one start ({ways}), not a mix (found {', '.join(sorted(names))})",
        )
    start = fits[0]
    for n in missing:
        if n in v:
            raise fields.err(f"inputs.{n}", "is given but also listed under 'missing'")
    for n in start.required:
        if n not in names:
            raise fields.err(
                f"inputs.{n}",
                f'is required; if the source does not give it, list it under missing = ["{n}"]',
            )
    arrays = {n: fields.numeric(fields.matrix(v[n], f"inputs.{n}"), f"inputs.{n}") for n in v}
    return arrays, start


def _shapes(
    fields: Fields,
    inputs: Mapping[str, np.ndarray],
    tokens: tuple[str, ...],
    query_tokens: tuple[str, ...],
    start: Start,
    num_heads: int,
) -> dict[str, int]:
    """Check the shapes that can be checked; return the known widths (E, Ev, out)."""
    widths: dict[str, int] = {}

    def rows(n: str, expected: int, what: str) -> None:
        if n in inputs and inputs[n].shape[0] != expected:
            raise fields.err(
                f"inputs.{n}", f"has {inputs[n].shape[0]} rows, expected {expected} ({what})"
            )

    def cols(n: str, key: str, what: str) -> None:
        if n not in inputs:
            return
        w = inputs[n].shape[1]
        if key in widths and widths[key] != w:
            raise fields.err(
                f"inputs.{n}", f"rows have {w} entries, expected {widths[key]} ({what})"
            )
        widths.setdefault(key, w)

    if start.name in ("scores", "scaled"):
        n = start.required[0]
        rows(n, len(query_tokens), "one per query token")
        if n in inputs and inputs[n].shape[1] != len(tokens):
            raise fields.err(
                f"inputs.{n}",
                f"rows have {inputs[n].shape[1]} entries, expected {len(tokens)} (one per token)",
            )
        rows("V", len(tokens), "one per token")
        cols("V", "Ev", "")
        return widths
    if start.name == "qkv":
        rows("Q", len(query_tokens), "one per query token")
        rows("K", len(tokens), "one per token")
        rows("V", len(tokens), "one per token")
        cols("Q", "E", "")
        cols("K", "E", "the width of Q")
        cols("V", "Ev", "")
        return widths
    rows("X", len(tokens), "one per token")
    cols("X", "D", "")
    rows("X_q", len(query_tokens), "one per query token")
    cols("X_q", "D", "the width of X")
    for n in ("W_Q", "W_K", "W_V"):
        if "D" in widths:
            rows(n, widths["D"], "the width of X")
        elif n in inputs:
            widths["D"] = inputs[n].shape[0]
    cols("W_Q", "E", "")
    cols("W_K", "E", "the width of W_Q")
    cols("W_V", "Ev", "")
    if "W_O" in inputs:
        if "Ev" in widths:
            rows("W_O", widths["Ev"], "the width of W_V")
        widths["out"] = inputs["W_O"].shape[1]
    for n, key in (("W_Q", "E"), ("W_V", "Ev")):
        if key in widths and widths[key] % num_heads:
            raise fields.err(
                f"inputs.{n}",
                f"width {widths[key]} is not divisible by num_heads = {num_heads}",
            )
    return widths


def _mask(fields: Fields, v: object, n_rows: int, n_cols: int) -> np.ndarray:
    """``mask``: all booleans (True takes part) or all numbers (``"-inf"`` allowed)."""
    m = fields.matrix(v, "mask")
    if len(m) != n_rows or len(m[0]) != n_cols:
        raise fields.err(
            "mask",
            f"has shape ({len(m)}, {len(m[0])}), expected ({n_rows}, {n_cols})"
            " (query rows, tokens)",
        )
    flat = [x for row in m for x in row]
    if all(isinstance(x, bool) for x in flat):
        arr = np.array(m, dtype=bool)
        arr.setflags(write=False)
        return arr
    for i, row in enumerate(m, 1):
        for j, x in enumerate(row, 1):
            if not is_number(x):
                raise fields.err(
                    "mask",
                    f"row {i}, column {j} is {type_name(x)}; a mask is all booleans"
                    ' or all numbers ("-inf" allowed)',
                )
    norm = [
        ["-inf" if isinstance(x, Decimal) and x.is_infinite() and x < 0 else x for x in row]
        for row in m
    ]
    try:
        arr = to_exact_array(norm, allow_neg_inf=True, what="mask", limits=fields.limits)
    except InputError as exc:
        raise fields.wrap(exc, "mask") from exc
    arr.setflags(write=False)
    return arr
