"""Spec files: the inputs of a worked example and the numbers its author claims.

A spec is TOML (read with :mod:`tomllib`) or JSON, chosen by the file extension. Floats are
read as :class:`decimal.Decimal`, so ``0.340`` keeps its written form. Specs are untrusted:
nothing in them is evaluated, every field is checked, and every error names the file, the
field and the problem in one sentence. The schema is documented in ``docs/spec.md``.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from symattn import engine
from symattn.config import DEFAULT_LIMITS, LANGS, Limits
from symattn.errors import InputError, LimitError, SpecError
from symattn.exact import inv_sqrt
from symattn.io import decode
from symattn.numbers import Written, as_written, to_exact_array, to_fraction
from symattn.stages import ROW_STAGES

if TYPE_CHECKING:
    from symattn.engine import AttentionResult

__all__ = [
    "Claims",
    "RowClaims",
    "Spec",
    "TokenClaims",
    "load_spec",
    "loads_spec",
]

SCHEMA_VERSION = 1
Q_MODE_INPUTS = ("Q", "K", "V")
X_MODE_INPUTS = ("X", "W_Q", "W_K", "W_V", "W_O")
ALL_INPUTS = Q_MODE_INPUTS + X_MODE_INPUTS
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
    "inputs",
    "claims",
)

CLAIM_FIELDS = ("d_k", "sqrt_d_k", "tokens", "rows")
TOKEN_CLAIM_FIELDS = ("q", "k", "v")
ROW_CLAIM_FIELDS = tuple(s.claim for s in ROW_STAGES)
PER_KEY_FIELDS = tuple(s.claim for s in ROW_STAGES if s.per_key)
EXTENSIONS = MappingProxyType({".toml": "toml", ".json": "json"})
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')

Claim = Written | None


@dataclass(frozen=True)
class RowClaims:
    """Claims for one query row; lists in key-token order, None = not claimed."""

    scores: tuple[Claim, ...]
    scaled: tuple[Claim, ...]
    exp: tuple[Claim, ...]
    sum: Claim
    weights: tuple[Claim, ...]
    output: tuple[Claim, ...]


@dataclass(frozen=True)
class TokenClaims:
    """The projections of one token the author printed (rows of Q, K, V); None = not claimed."""

    q: tuple[Claim, ...] | None
    k: tuple[Claim, ...] | None
    v: tuple[Claim, ...] | None


@dataclass(frozen=True)
class Claims:
    """All numbers an author claims, kept as written."""

    d_k: Claim
    sqrt_d_k: Claim
    tokens: Mapping[str, TokenClaims]
    rows: Mapping[str, RowClaims]


@dataclass(frozen=True)
class Spec:
    """A validated spec: inputs as read-only exact arrays, claims as :class:`Written` numbers."""

    path: str
    title: str
    lang: str
    source: str
    notes: str
    tokens: tuple[str, ...]
    query_tokens: tuple[str, ...]
    explain: tuple[str, ...]
    d_k: int | None
    scale: Fraction | None
    causal: bool
    mask: object | None
    num_heads: int
    missing: tuple[str, ...]
    inputs: Mapping[str, np.ndarray]
    claims: Claims

    @property
    def uses_x(self) -> bool:
        """True when the spec gives X and projection matrices rather than Q, K, V."""
        return any(n in self.inputs or n in self.missing for n in X_MODE_INPUTS)

    @property
    def needed(self) -> tuple[str, ...]:
        """The inputs the computation needs (W_O is always optional)."""
        return X_MODE_INPUTS[:4] if self.uses_x else Q_MODE_INPUTS

    @property
    def computable(self) -> bool:
        """False when an input needed for the computation is missing."""
        return all(n in self.inputs for n in self.needed)

    def effective_scale(self) -> object | None:
        """The scale handed to the engine: explicit, else exact 1/sqrt(d_k), else None."""
        if self.scale is not None:
            return self.scale
        if self.d_k is not None:
            return inv_sqrt(self.d_k)
        return None

    def run(self) -> AttentionResult:
        """Compute attention for this spec with the exact engine."""
        if not self.computable:
            absent = ", ".join(n for n in self.needed if n not in self.inputs)
            raise SpecError(
                f"{self.path}: cannot compute: the source does not give {absent}"
                " (listed under 'missing')"
            )
        scale = self.effective_scale()
        i = self.inputs
        try:
            if not self.uses_x:
                return engine.scaled_dot_product_attention(
                    i["Q"],
                    i["K"],
                    i["V"],
                    attn_mask=self.mask,
                    is_causal=self.causal,
                    scale=scale,
                    query_labels=self.query_tokens,
                    key_labels=self.tokens,
                )
            if self.num_heads == 1 and "W_O" not in i:
                return engine.self_attention(
                    i["X"],
                    i["W_Q"],
                    i["W_K"],
                    i["W_V"],
                    attn_mask=self.mask,
                    is_causal=self.causal,
                    scale=scale,
                    labels=self.tokens,
                )
            return engine.multi_head_attention(
                i["X"],
                i["W_Q"],
                i["W_K"],
                i["W_V"],
                i.get("W_O"),
                num_heads=self.num_heads,
                attn_mask=self.mask,
                is_causal=self.causal,
                scale=scale,
                labels=self.tokens,
            )
        except InputError as exc:
            if str(exc).startswith(f"{self.path}:"):
                raise
            raise type(exc)(f"{self.path}: {exc}") from exc


# ----------------------------------------------------------------------------- reading


def load_spec(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Spec:
    """Read and validate a spec file (``.toml`` or ``.json``)."""
    name = os.fspath(path)
    ext = os.path.splitext(name)[1].lower()
    fmt = EXTENSIONS.get(ext)
    if fmt is None:
        raise SpecError(
            f"{name}: unknown spec format {ext or '(no extension)'!r}, expected .toml or .json"
        )
    try:
        with open(name, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > limits.max_file_bytes:
                raise _file_too_big(name, size, limits)
            data = fh.read(limits.max_file_bytes + 1)
    except OSError as exc:
        raise SpecError(f"{name}: cannot read the file: {exc.strerror or exc}") from exc
    if len(data) > limits.max_file_bytes:
        raise _file_too_big(name, len(data), limits)
    try:  # UTF-8 with or without BOM, UTF-16 with BOM, GB18030
        text = decode(data, name)
    except InputError as exc:
        raise SpecError(str(exc)) from None
    return loads_spec(text, fmt=fmt, name=name, limits=limits)


def loads_spec(
    text: str, *, fmt: str = "toml", name: str = "<spec>", limits: Limits = DEFAULT_LIMITS
) -> Spec:
    """Parse and validate spec text; ``fmt`` is ``"toml"`` or ``"json"``."""
    if fmt not in ("toml", "json"):
        raise SpecError(f"{name}: unknown spec format {fmt!r}, expected 'toml' or 'json'")
    if len(text) > limits.max_file_bytes:
        raise _file_too_big(name, len(text.encode("utf-8", "surrogatepass")), limits)
    data = _parse_json(text, name, limits) if fmt == "json" else _parse_toml(text, name)
    _check_depth(data, name, limits)
    if not isinstance(data, dict):
        raise SpecError(f"{name}: the top level must be an object (a table of fields)")
    return _Builder(name, limits).build(data)


def _file_too_big(name: str, size: int, limits: Limits) -> LimitError:
    return LimitError(
        f"{name}: file is {size} bytes, over limits.max_file_bytes = {limits.max_file_bytes}"
        " (raise it with --limit max_file_bytes=N)"
    )


def _too_deep(name: str, limits: Limits) -> LimitError:
    return LimitError(
        f"{name}: nesting deeper than limits.max_nesting = {limits.max_nesting}"
        " (raise it with --limit max_nesting=N)"
    )


def _decimal(text: str) -> Decimal:
    """A TOML/JSON float as a Decimal; an exponent beyond Decimal's range is a LimitError."""
    try:
        return Decimal(text)
    except ArithmeticError:  # decimal.InvalidOperation: exponent beyond 10**18
        raise LimitError(
            f"number {_short(text)} has an exponent far beyond max_decimal_exponent"
        ) from None


def _parse_toml(text: str, name: str) -> Any:
    try:
        return tomllib.loads(text, parse_float=_decimal)
    except RecursionError as exc:
        raise LimitError(f"{name}: nesting too deep for the TOML parser") from exc
    except ValueError as exc:  # TOMLDecodeError, and int() digit limits
        raise SpecError(f"{name}: TOML syntax error: {exc}") from exc


def _parse_json(text: str, name: str, limits: Limits) -> Any:
    if _json_too_deep(text, limits.max_nesting + 1):  # +1: the top-level object
        raise _too_deep(name, limits)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise SpecError(f"{name}: duplicate key {key!r} in a JSON object")
            out[key] = value
        return out

    try:
        return json.loads(
            text, parse_float=_decimal, parse_constant=Decimal, object_pairs_hook=pairs
        )
    except RecursionError as exc:
        raise _too_deep(name, limits) from exc
    except SpecError:
        raise
    except ValueError as exc:  # JSONDecodeError, and int() digit limits
        raise SpecError(f"{name}: JSON syntax error: {exc}") from exc


def _json_too_deep(text: str, cap: int) -> bool:
    """True when brackets in JSON text nest deeper than ``cap`` (strings skipped; linear time)."""
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > cap:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _check_depth(data: Any, name: str, limits: Limits) -> None:
    """Raise LimitError when containers nest deeper than ``limits.max_nesting`` below the top."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        if depth > limits.max_nesting:
            raise _too_deep(name, limits)
        children = node.values() if isinstance(node, dict) else node
        stack.extend((v, depth + 1) for v in children)


# ----------------------------------------------------------------------------- validation


def _key(k: str) -> str:
    """A key as TOML would write it in a dotted path (quoted unless it is a bare key)."""
    bare = k and all(c.isascii() and (c.isalnum() or c in "_-") for c in k)
    return k if bare else json.dumps(k, ensure_ascii=False)


def _type_name(x: object) -> str:
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, (int, Decimal)):
        return "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "a table"
    return type(x).__name__


def _is_number(x: object) -> bool:
    return isinstance(x, (int, Decimal, str)) and not isinstance(x, bool)


class _Builder:
    """Validates one parsed spec document; raises on the first problem."""

    def __init__(self, name: str, limits: Limits) -> None:
        self.name = name
        self.limits = limits

    def err(self, field: str, problem: str) -> SpecError:
        return SpecError(f"{self.name}: {field}: {problem}")

    def unknown(self, table: Mapping[str, Any], known: Iterable[str], where: str) -> None:
        known = tuple(known)
        for k in table:
            if k not in known:
                close = _suggest(k, known)
                hint = f"; did you mean {close!r}?" if close else f"; known: {', '.join(known)}"
                field = f"{where}.{_key(k)}" if where else _key(k)
                raise self.err(field, f"unknown field{hint}")

    def wrap(self, exc: InputError, field: str) -> InputError:
        """The same error class, its message prefixed with the file (and the field if absent)."""
        msg = str(exc)
        return type(exc)(f"{self.name}: {msg}" if field in msg else f"{self.name}: {field}: {msg}")

    # -- scalars

    def text(self, d: Mapping[str, Any], field: str) -> str:
        v = d.get(field, "")
        if not isinstance(v, str):
            raise self.err(field, f"expected a string, got {_type_name(v)}")
        return v

    def boolean(self, d: Mapping[str, Any], field: str) -> bool:
        v = d.get(field, False)
        if not isinstance(v, bool):
            raise self.err(field, f"expected true or false, got {_type_name(v)}")
        return v

    def pos_int(self, v: object, field: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(field, f"expected a positive integer, got {_short(v)}")
        if v <= 0:
            raise self.err(field, f"expected a positive integer, got {v}")
        return v

    def written(self, v: object, field: str) -> Written:
        if not _is_number(v) or (isinstance(v, str) and not v.strip()):
            raise self.err(field, f"expected a number (or a number in a string), got {_short(v)}")
        try:
            return as_written(v, limits=self.limits, what=field)
        except InputError as exc:
            raise self.wrap(exc, field) from exc

    # -- names

    def names(self, v: object, field: str) -> tuple[str, ...]:
        if not isinstance(v, list) or not v:
            raise self.err(field, f"expected a non-empty list of names, got {_short(v)}")
        self.limits.check_elements(len(v), f"{self.name}: {field}", "names")
        seen: set[str] = set()
        for i, t in enumerate(v, 1):
            if not isinstance(t, str) or not t.strip():
                raise self.err(field, f"entry {i} must be a non-empty string, got {_short(t)}")
            if any(ord(c) < 32 or ord(c) == 127 for c in t):
                raise self.err(field, f"entry {i} {t!r} contains a control character")
            if t in seen:
                raise self.err(field, f"duplicate name {t!r}")
            seen.add(t)
        return tuple(v)

    def subset(
        self, names: tuple[str, ...], of: tuple[str, ...], field: str, of_field: str
    ) -> None:
        for t in names:
            if t not in of:
                close = _suggest(t, of)
                hint = f"; did you mean {close!r}?" if close else ""
                raise self.err(field, f"{t!r} is not one of {of_field}{hint}")

    # -- matrices

    def matrix(self, v: object, field: str) -> list[list[Any]]:
        """Check that ``v`` is a non-empty rectangular list of rows of numbers."""
        if not isinstance(v, list) or not v:
            raise self.err(field, f"expected a matrix (a non-empty list of rows), got {_short(v)}")
        width = len(v[0]) if isinstance(v[0], list) else 0
        for i, row in enumerate(v, 1):
            if not isinstance(row, list):
                raise self.err(
                    field,
                    f"row {i} is {_type_name(row)}, expected a list of numbers"
                    " (write a single row as [[...]])",
                )
            if not row:
                raise self.err(field, f"row {i} is empty")
            if len(row) != width:
                raise self.err(field, f"row {i} has {len(row)} entries, expected {width}")
        self.limits.check_elements(len(v) * width, f"{self.name}: {field}")
        return v

    def numeric(self, v: list[list[Any]], field: str) -> np.ndarray:
        for i, row in enumerate(v, 1):
            for j, x in enumerate(row, 1):
                if not _is_number(x):
                    raise self.err(
                        field, f"row {i}, column {j} is {_type_name(x)}, expected a number"
                    )
        try:
            arr = to_exact_array(v, what=field, limits=self.limits)
        except InputError as exc:
            raise self.wrap(exc, field) from exc
        arr.setflags(write=False)
        return arr

    # -- the document

    def build(self, d: dict[str, Any]) -> Spec:
        self.unknown(d, TOP_FIELDS, "")
        if "schema" in d:
            s = d["schema"]
            if isinstance(s, bool) or s != SCHEMA_VERSION or not isinstance(s, int):
                raise self.err("schema", f"unknown schema version {_short(s)}, only 1 is known")
        lang = d.get("lang", "en")
        if lang not in LANGS:
            raise self.err(
                "lang", f"expected one of {', '.join(map(repr, LANGS))}, got {_short(lang)}"
            )
        if "tokens" not in d:
            raise self.err("tokens", "required: the names of the key/value tokens")
        tokens = self.names(d["tokens"], "tokens")
        query_tokens = (
            self.names(d["query_tokens"], "query_tokens") if "query_tokens" in d else tokens
        )
        explain = self.names(d["explain"], "explain") if "explain" in d else query_tokens
        self.subset(explain, query_tokens, "explain", "query_tokens")
        d_k = self.pos_int(d["d_k"], "d_k") if "d_k" in d else None
        scale = self.scale(d["scale"]) if "scale" in d else None
        causal = self.boolean(d, "causal")
        num_heads = self.pos_int(d["num_heads"], "num_heads") if "num_heads" in d else 1
        missing = self.missing(d.get("missing", []))
        inputs = self.inputs(d.get("inputs", {}), missing)
        uses_x = any(n in inputs or n in missing for n in X_MODE_INPUTS)
        if uses_x:
            self.subset(
                query_tokens, tokens, "query_tokens", "tokens (with X, queries are rows of X W_Q)"
            )
        elif num_heads != 1:
            raise self.err("num_heads", "more than one head needs X, W_Q, W_K, W_V in inputs")
        widths = self.shapes(inputs, tokens, query_tokens, uses_x, num_heads)
        n_rows = len(tokens) if uses_x else len(query_tokens)
        mask = None
        if "mask" in d:
            if causal:
                raise self.err("mask", "give either mask or causal = true, not both")
            mask = self.mask(d["mask"], n_rows, len(tokens))
        claims = self.claims(d.get("claims", {}), tokens, query_tokens, uses_x, widths)
        return Spec(
            path=self.name,
            title=self.text(d, "title"),
            lang=lang,
            source=self.text(d, "source"),
            notes=self.text(d, "notes"),
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
        )

    def scale(self, v: object) -> Fraction:
        if not _is_number(v):
            raise self.err("scale", f'expected a number such as 0.5 or "1/2", got {_short(v)}')
        try:
            f = to_fraction(v, what="scale", limits=self.limits)
        except InputError as exc:
            raise self.wrap(exc, "scale") from exc
        if f <= 0:
            raise self.err("scale", f"expected a positive number, got {_short(v)}")
        return f

    def missing(self, v: object) -> tuple[str, ...]:
        if not isinstance(v, list):
            raise self.err("missing", f"expected a list of input names, got {_short(v)}")
        out: list[str] = []
        for x in v:
            if not isinstance(x, str) or x not in ALL_INPUTS:
                close = _suggest(str(x), ALL_INPUTS)
                hint = f"; did you mean {close!r}?" if close else ""
                raise self.err(
                    "missing", f"{_short(x)} is not an input name ({', '.join(ALL_INPUTS)}){hint}"
                )
            if x in out:
                raise self.err("missing", f"{x!r} is listed twice")
            out.append(x)
        return tuple(out)

    def inputs(self, v: object, missing: tuple[str, ...]) -> dict[str, np.ndarray]:
        if not isinstance(v, dict):
            raise self.err("inputs", f"expected a table of matrices, got {_short(v)}")
        self.unknown(v, ALL_INPUTS, "inputs")
        names = set(v) | set(missing)
        if names & set(Q_MODE_INPUTS) and names & set(X_MODE_INPUTS):
            raise self.err(
                "inputs",
                "give either Q, K, V or X, W_Q, W_K, W_V (and W_O), not a mix"
                f" (found {', '.join(sorted(names))})",
            )
        for n in missing:
            if n in v:
                raise self.err(f"inputs.{n}", "is given but also listed under 'missing'")
        needed = X_MODE_INPUTS[:4] if names & set(X_MODE_INPUTS) else Q_MODE_INPUTS
        for n in needed:
            if n not in names:
                raise self.err(
                    f"inputs.{n}",
                    f'is required; if the source does not give it, list it under missing = ["{n}"]',
                )
        return {n: self.numeric(self.matrix(v[n], f"inputs.{n}"), f"inputs.{n}") for n in v}

    def shapes(
        self,
        inputs: Mapping[str, np.ndarray],
        tokens: tuple[str, ...],
        query_tokens: tuple[str, ...],
        uses_x: bool,
        num_heads: int,
    ) -> dict[str, int]:
        """Check the shapes that can be checked; return the known widths (E, Ev, out)."""
        widths: dict[str, int] = {}

        def rows(n: str, expected: int, what: str) -> None:
            if n in inputs and inputs[n].shape[0] != expected:
                raise self.err(
                    f"inputs.{n}", f"has {inputs[n].shape[0]} rows, expected {expected} ({what})"
                )

        def cols(n: str, key: str, what: str) -> None:
            if n not in inputs:
                return
            w = inputs[n].shape[1]
            if key in widths and widths[key] != w:
                raise self.err(
                    f"inputs.{n}", f"rows have {w} entries, expected {widths[key]} ({what})"
                )
            widths.setdefault(key, w)

        if not uses_x:
            rows("Q", len(query_tokens), "one per query token")
            rows("K", len(tokens), "one per token")
            rows("V", len(tokens), "one per token")
            cols("Q", "E", "")
            cols("K", "E", "the width of Q")
            cols("V", "Ev", "")
            return widths
        rows("X", len(tokens), "one per token")
        cols("X", "D", "")
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
                raise self.err(
                    f"inputs.{n}",
                    f"width {widths[key]} is not divisible by num_heads = {num_heads}",
                )
        return widths

    def mask(self, v: object, n_rows: int, n_cols: int) -> np.ndarray:
        m = self.matrix(v, "mask")
        if len(m) != n_rows or len(m[0]) != n_cols:
            raise self.err(
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
                if not _is_number(x):
                    raise self.err(
                        "mask",
                        f"row {i}, column {j} is {_type_name(x)}; a mask is all booleans"
                        ' or all numbers ("-inf" allowed)',
                    )
        norm = [
            ["-inf" if isinstance(x, Decimal) and x.is_infinite() and x < 0 else x for x in row]
            for row in m
        ]
        try:
            arr = to_exact_array(norm, allow_neg_inf=True, what="mask", limits=self.limits)
        except InputError as exc:
            raise self.wrap(exc, "mask") from exc
        arr.setflags(write=False)
        return arr

    # -- claims

    def claims(
        self,
        v: object,
        tokens: tuple[str, ...],
        query_tokens: tuple[str, ...],
        uses_x: bool,
        widths: Mapping[str, int],
    ) -> Claims:
        if not isinstance(v, dict):
            raise self.err("claims", f"expected a table, got {_short(v)}")
        self.unknown(v, CLAIM_FIELDS, "claims")
        d_k = self.written(v["d_k"], "claims.d_k") if "d_k" in v else None
        sqrt_d_k = self.written(v["sqrt_d_k"], "claims.sqrt_d_k") if "sqrt_d_k" in v else None
        tok = v.get("tokens", {})
        if not isinstance(tok, dict):
            raise self.err("claims.tokens", f"expected a table keyed by token, got {_short(tok)}")
        all_names = tokens + tuple(t for t in query_tokens if t not in tokens)
        token_claims: dict[str, TokenClaims] = {}
        for t, tc in tok.items():
            where = f"claims.tokens.{_key(t)}"
            self.subset((t,), all_names, "claims.tokens", "tokens or query_tokens")
            token_claims[t] = self.token_claims(tc, t, where, tokens, query_tokens, uses_x, widths)
        rows = v.get("rows", {})
        if not isinstance(rows, dict):
            raise self.err(
                "claims.rows", f"expected a table keyed by query token, got {_short(rows)}"
            )
        row_claims: dict[str, RowClaims] = {}
        for t, rc in rows.items():
            self.subset((t,), query_tokens, "claims.rows", "query_tokens")
            row_claims[t] = self.row_claims(rc, f"claims.rows.{_key(t)}", tokens, widths)
        return Claims(
            d_k=d_k,
            sqrt_d_k=sqrt_d_k,
            tokens=MappingProxyType(token_claims),
            rows=MappingProxyType(row_claims),
        )

    def vector(self, v: object, field: str, width: int | None) -> tuple[Written, ...]:
        if not isinstance(v, list) or not v:
            raise self.err(field, f"expected a non-empty list of numbers, got {_short(v)}")
        if width is not None and len(v) != width:
            raise self.err(field, f"has {len(v)} entries, expected {width}")
        self.limits.check_elements(len(v), f"{self.name}: {field}")
        return tuple(self.written(x, f"{field}[{i}]") for i, x in enumerate(v, 1))

    def per_key(self, v: object, field: str, tokens: tuple[str, ...]) -> tuple[Claim, ...]:
        """A list with one entry per key token, or a table keyed by some of the tokens."""
        if isinstance(v, dict):
            if not v:
                raise self.err(field, "is an empty table")
            for t in v:
                self.subset((t,), tokens, field, "tokens")
            return tuple(
                self.written(v[t], f"{field}.{_key(t)}") if t in v else None for t in tokens
            )
        if isinstance(v, list):
            return self.vector(v, field, len(tokens))
        raise self.err(
            field,
            f"expected a list with one number per token or a table keyed by token, got {_short(v)}",
        )

    def token_claims(
        self,
        v: object,
        token: str,
        where: str,
        tokens: tuple[str, ...],
        query_tokens: tuple[str, ...],
        uses_x: bool,
        widths: Mapping[str, int],
    ) -> TokenClaims:
        if not isinstance(v, dict):
            raise self.err(where, f"expected a table with q, k, v, got {_short(v)}")
        self.unknown(v, TOKEN_CLAIM_FIELDS, where)
        is_query = token in (tokens if uses_x else query_tokens)
        out: dict[str, tuple[Written, ...] | None] = {}
        for f, width_key, ok, role in (
            ("q", "E", is_query, "query"),
            ("k", "E", token in tokens, "key"),
            ("v", "Ev", token in tokens, "key"),
        ):
            if f not in v:
                out[f] = None
                continue
            if not ok:
                raise self.err(f"{where}.{f}", f"{token!r} is not a {role} token")
            out[f] = self.vector(v[f], f"{where}.{f}", widths.get(width_key))
        return TokenClaims(q=out["q"], k=out["k"], v=out["v"])

    def row_claims(
        self, v: object, where: str, tokens: tuple[str, ...], widths: Mapping[str, int]
    ) -> RowClaims:
        if not isinstance(v, dict):
            raise self.err(where, f"expected a table of claims, got {_short(v)}")
        self.unknown(v, ROW_CLAIM_FIELDS, where)
        unclaimed: tuple[Claim, ...] = (None,) * len(tokens)
        per: dict[str, tuple[Claim, ...]] = {
            f: self.per_key(v[f], f"{where}.{f}", tokens) if f in v else unclaimed
            for f in PER_KEY_FIELDS
        }
        total = self.written(v["sum"], f"{where}.sum") if "sum" in v else None
        out_width = widths.get("out", widths.get("Ev"))
        output: tuple[Claim, ...] = (
            self.vector(v["output"], f"{where}.output", out_width)
            if "output" in v
            else (None,) * (out_width or 0)
        )
        return RowClaims(
            scores=per["scores"],
            scaled=per["scaled"],
            exp=per["exp"],
            sum=total,
            weights=per["weights"],
            output=output,
        )


def _suggest(word: str, options: Iterable[str]) -> str | None:
    """The option closest to ``word`` (same letters in another case first), or None."""
    options = tuple(options)
    for o in options:
        if o.casefold() == word.casefold():
            return o
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.5)
    return close[0] if close else None


def _short(v: object, limit: int = 40) -> str:
    """A short printable form of a value for an error message."""
    if isinstance(v, (list, dict)):
        return _type_name(v)
    if isinstance(v, bool):
        text = "true" if v else "false"
    elif isinstance(v, Decimal):
        text = str(v)
    else:
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."
