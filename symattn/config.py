"""Limits and defaults, as one frozen configuration object (no global mutable state)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from symattn.errors import LimitError


@dataclass(frozen=True)
class Limits:
    """Safety bounds on untrusted input. Each error that hits one names the field to raise.

    Pass ``Limits(max_decimal_exponent=...)`` (or the command line's ``--limit NAME=VALUE``)
    to raise a bound on purpose.
    """

    #: longest number literal (characters) the parser reads
    max_literal_length: int = 400
    #: largest |exponent| in scientific notation (``1e-3``) or of a power of ten
    max_decimal_exponent: int = 400
    #: largest number of entries in one array (inputs, and the L x S score matrix: 2**25 lets
    #: n = 4096 with 2 batch entries through; scores cost one machine word per entry)
    max_elements: int = 2**25
    #: largest precision, in bits, that certified refinement may reach before giving up
    max_precision_bits: int = 20_000
    #: deepest nesting of arrays in a spec
    max_nesting: int = 8
    #: largest spec or document file, in bytes
    max_file_bytes: int = 20_000_000
    #: longest line audit reads in a document
    max_line_length: int = 100_000
    #: formulas, arrays and tables audit reads in one text (the rest is said to be not read);
    #: a real post of 100 KB holds ~500, each costs up to a millisecond to judge
    max_formulas: int = 2_000
    #: characters of formulas audit reads in one text (the rest is said to be not read)
    max_math_length: int = 100_000
    #: longest formula audit judges, in characters (a longer one is listed as not checked)
    max_formula_length: int = 20_000
    #: characters of one text audit reads (parses into blocks, then formulas): the rest is
    #: counted by the census of numbers and said to be not read. A budget: a real post of
    #: 100 KB is read whole in under a second; LaTeX dense with math costs ~10 us a character
    max_read_length: int = 300_000
    #: largest total size, in bits, of the numbers of one array given as text or as Python
    #: numbers (each entry's numerator plus denominator; one number counts as an array of
    #: one): 30-digit decimals cost ~200 bits each, and the exact products grow with them.
    #: Binary floats (numpy arrays, tensors) are bounded by their format and not counted.
    max_bits: int = 2**24
    #: largest number of (query, key) pairs a document writes out in full
    max_explained_pairs: int = 400
    #: largest number of terms ``compute`` writes in the exact forms of one stage (an entry of
    #: the weights or the output holds a whole row sum); beyond it, certified decimals only
    max_exact_terms: int = 20_000

    def exceeded(self, name: str, what: str) -> LimitError:
        """The error for ``what`` going beyond the limit ``name`` (it says how to raise it)."""
        return LimitError(
            f"{what}, more than {name}={getattr(self, name)} (raise it with Limits({name}=...))"
        )

    def check_elements(
        self, shape: tuple[int, ...] | int, what: str, unit: str = "entries"
    ) -> None:
        """Refuse ``what`` (an array of ``shape``, or ``shape`` items) beyond ``max_elements``."""
        n = shape if isinstance(shape, int) else math.prod(shape)
        if n > self.max_elements:
            raise self.exceeded("max_elements", f"{what} has {n} {unit}")

    def check_bits(self, bits: int, what: str) -> None:
        """Refuse ``what`` (numbers holding ``bits`` bits in all) beyond ``max_bits``."""
        if bits > self.max_bits:
            raise self.exceeded("max_bits", f"{what} holds {bits} bits of numbers")


DEFAULT_LIMITS = Limits()

#: the languages symattn writes (one message catalog each, ``templates/messages/<lang>.toml``)
LANGS: tuple[str, ...] = ("en", "zh")
