"""atheris target: ``parse_number`` on text and ``to_exact_array`` on structured data.

Crash = any exception that is not a :class:`SymattnError`, or a broken invariant:
a parsed number re-parses to the same value from its own text, from ``num/den`` and,
when it has a finite decimal expansion, from that decimal.
"""

from __future__ import annotations

import sys
from decimal import Decimal, localcontext
from fractions import Fraction

import atheris
from _common import allowed, fuzz_limits

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.numbers import parse_number, to_exact_array

FUZZ_LIMITS = fuzz_limits()


def _decimal_text(f: Fraction) -> str | None:
    """The exact decimal of ``f`` when its denominator is 2^a 5^b, else None."""
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return None
    with localcontext() as ctx:
        ctx.prec = 2000
        return format(Decimal(f.numerator) / Decimal(f.denominator), "f")


def check_text(text: str) -> None:
    """parse_number invariants on one string."""
    try:
        w = parse_number(text, limits=FUZZ_LIMITS)
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if allowed(e):
            return
        raise
    if not isinstance(w.value, Fraction):
        raise AssertionError(f"value of {text!r} is {type(w.value)}")
    again = parse_number(w.text, limits=FUZZ_LIMITS)
    if again.value != w.value:
        raise AssertionError(f"{text!r}: re-parsing {w.text!r} gives {again.value}, not {w.value}")
    frac = f"{w.value.numerator}/{w.value.denominator}"
    if (
        len(frac) <= FUZZ_LIMITS.max_literal_length
        and parse_number(frac, limits=FUZZ_LIMITS).value != w.value
    ):
        raise AssertionError(f"{text!r}: {frac} does not round-trip")
    dec = _decimal_text(w.value)
    if dec is not None and len(dec) <= FUZZ_LIMITS.max_literal_length:
        if parse_number(dec, limits=FUZZ_LIMITS).value != w.value:
            raise AssertionError(f"{text!r}: decimal {dec} does not round-trip")


def _value(fdp: atheris.FuzzedDataProvider, depth: int) -> object:
    kind = fdp.ConsumeIntInRange(0, 7)
    if kind == 0:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 40))
    if kind == 1:
        return fdp.ConsumeRegularFloat()
    if kind == 2:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 30))
    if kind == 3:
        return fdp.ConsumeBool()
    if kind == 4:
        return None
    if kind == 5:
        return fdp.ConsumeFloat()
    if depth >= 6:
        return 0
    n = fdp.ConsumeIntInRange(0, 4)
    return [_value(fdp, depth + 1) for _ in range(n)]


def check_structure(data: object, allow_neg_inf: bool) -> None:
    """to_exact_array invariants on nested data."""
    try:
        arr = to_exact_array(data, allow_neg_inf=allow_neg_inf, limits=FUZZ_LIMITS)
    except Exception as e:  # noqa: BLE001
        if allowed(e):
            return
        raise
    for x in arr.flat:
        if not (isinstance(x, Fraction) or (allow_neg_inf and str(x) == "-inf")):
            raise AssertionError(f"entry {x!r} of type {type(x).__name__}")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """One fuzz input: first byte chooses text or structure."""
    if not data:
        return
    if data[0] % 2 == 0:
        check_text(data[1:].decode("utf-8", "replace"))
    else:
        fdp = atheris.FuzzedDataProvider(data[1:])
        check_structure(_value(fdp, 0), fdp.ConsumeBool())


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
