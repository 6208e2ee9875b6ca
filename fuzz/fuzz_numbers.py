"""atheris target: ``parse_number`` on text, ``to_exact_array`` on structured data, and
exact rounding of huge values.

Crash = any exception that is not a :class:`SymattnError`, or a broken invariant:
a parsed number re-parses to the same value from its own text, from ``num/den`` and,
when it has a finite decimal expansion, from that decimal; ``int_to_decimal`` of an integer
of up to ~30 000 bits (past Python's 4300-digit ``str(int)`` limit) equals ``Decimal(str(n))``
computed without that limit, and ``round_decimals`` of ``n / d`` agrees with it.
"""

from __future__ import annotations

import sys
from decimal import Decimal, localcontext
from fractions import Fraction

import atheris
from _common import allowed, fuzz_limits

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.numbers import parse_number, to_exact_array
    from symattn.numbers.rounding import Rounding, int_to_decimal, round_decimals, round_to_int

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


def check_rounding(fdp: atheris.FuzzedDataProvider) -> None:
    """Exact rounding of a big rational: no str(int) limit, the same digits as Python's."""
    n = fdp.ConsumeInt(fdp.ConsumeIntInRange(0, 4096))  # up to 32 768 bits: ~9900 digits
    d = max(1, fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 64)) & (2**512 - 1))
    decimals = fdp.ConsumeIntInRange(-40, 40)
    mode = list(Rounding)[fdp.ConsumeIntInRange(0, len(Rounding) - 1)]
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        expected_int = Decimal(str(n))
        rounded = round_to_int(Fraction(n, d) * Fraction(10) ** decimals, mode)
        expected = Decimal(f"{rounded}e{-decimals}")
    finally:
        sys.set_int_max_str_digits(old)
    got_int = int_to_decimal(n)
    if got_int != expected_int or got_int.as_tuple() != expected_int.as_tuple():
        raise AssertionError(f"int_to_decimal differs for a {n.bit_length()}-bit integer")
    got = round_decimals(Fraction(n, d), decimals, mode)
    if got.as_tuple() != expected.as_tuple():
        raise AssertionError(f"round_decimals({n.bit_length()} bits / {d}, {decimals}, {mode})")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """One fuzz input: first byte chooses text, structure or rounding."""
    if not data:
        return
    choice = data[0] % 3
    if choice == 0:
        check_text(data[1:].decode("utf-8", "replace"))
    elif choice == 1:
        fdp = atheris.FuzzedDataProvider(data[1:])
        check_structure(_value(fdp, 0), fdp.ConsumeBool())
    else:
        check_rounding(atheris.FuzzedDataProvider(data[1:]))


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
