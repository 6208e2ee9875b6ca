"""What a program computing attention in floating point can print: the arithmetic's constants.

A notebook's ``0.42693272`` is the float32 result of a computation that rounded at every
step. :mod:`symattn.judge.values` bounds that result rigorously (the ``program`` policy):
every operation ``x ∘ y`` gives ``(x ∘ y)(1 + δ) + ε`` with ``|δ| ≤ u`` (the unit roundoff)
and ``|ε| ≤ η`` (half the spacing of the subnormals); a sum or dot product of ``n`` terms
in any order, fused multiply-adds or not, is within ``γ_n Σ|terms|`` of the exact sum
(``γ_n = n u / (1 - n u)``, Higham, *Accuracy and Stability of Numerical Algorithms*, §3.1);
``exp`` is assumed faithfully rounded (an error below one ulp, ``2u`` relative), as every
common libm's is; inputs are converted from their decimal text with a relative error ``u``.

Assumptions, said once: IEEE arithmetic in the stated format for every operation (no TF32
tensor cores, no fast-math); softmax computed as ``exp(x_j) / Σ exp(x_k)`` or with the row
maximum subtracted first; the scale applied after ``Q K^T``, to the scores, or (torch's
math path) as ``sqrt(scale)`` to both Q and K. Float16/bfloat16 programs that accumulate in
float32 are covered by the larger float16/bfloat16 bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from symattn.numbers import Written
from symattn.numbers.written import WrittenKind


@dataclass(frozen=True)
class Arithmetic:
    """A binary floating-point format: its precision (bits of the significand, the hidden
    bit included) and its smallest normal exponent."""

    name: str
    bits: int
    emin: int

    @property
    def u(self) -> Fraction:
        """The unit roundoff ``2**-bits``: the relative error of one rounding to nearest."""
        return Fraction(1, 2**self.bits)

    @property
    def eta(self) -> Fraction:
        """Half the spacing of the subnormals: the absolute error of one rounding near 0."""
        return Fraction(1, 2 ** (self.bits - self.emin))

    def gamma(self, n: int) -> Fraction:
        """``γ_n = n u / (1 - n u)``: the relative error bound of ``n`` roundings in a row."""
        nu = n * self.u
        if nu >= 1:
            raise ValueError(f"{n} operations in {self.name}: no error bound (n u >= 1)")
        return nu / (1 - nu)

    def print_tolerance(self, claim: Written) -> Fraction:
        """How far a printed claim may lie from the float it prints: the shortest repr of a
        float is within half an ulp of it (at most ``u |c|`` plus the subnormal spacing)."""
        return 2 * self.u * abs(claim.value) + 2 * self.eta


#: the formats a program may compute in (``spec.precision``), widest first
ARITHMETICS = MappingProxyType(
    {
        a.name: a
        for a in (
            Arithmetic("float64", 53, -1022),
            Arithmetic("float32", 24, -126),
            Arithmetic("float16", 11, -14),
            Arithmetic("bfloat16", 8, -126),
        )
    }
)

#: the formats tried for a claim that looks like a float printout when no precision is stated
INFERRED: tuple[str, ...] = ("float64", "float32")

#: a claim with at least this many significant digits looks like a float printout
PRINTOUT_DIGITS = 6
#: ... and so does one with at least this many decimals (nobody rounds to them by hand;
#: ``0.000000000000000000000000000000000000000001043``, a float32 subnormal)
PRINTOUT_DECIMALS = 7


def arithmetics_for(precision: str | None, claim: Written) -> tuple[Arithmetic, ...]:
    """The program formats a claim may have been printed from: the stated precision, else
    float64 and float32 for a claim of 6 or more significant digits or 7 or more decimals,
    else none."""
    if precision == "exact" or claim.kind is WrittenKind.FRACTION:
        return ()
    if precision is not None:
        return (ARITHMETICS[precision],)
    if (claim.significant or 0) >= PRINTOUT_DIGITS or (claim.decimals or 0) >= PRINTOUT_DECIMALS:
        return tuple(ARITHMETICS[n] for n in INFERRED)
    return ()
