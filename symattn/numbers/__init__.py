"""Numbers as people write them: parsing (exact values that remember their written form),
reading scalars and arrays of them, exact rounding, and one vocabulary for writing them.

The bottom layer: it imports nothing of symattn but :mod:`symattn.config` and
:mod:`symattn.errors`.

=============  =============================================================================
module         what it holds
=============  =============================================================================
``written``    the scanner of written numbers: :class:`Written`, :func:`parse_number`, -inf
``scalars``    one number of any kind as an exact value: :func:`to_fraction`, :func:`as_written`
``arrays``     nested lists, numpy arrays, torch tensors: :func:`to_exact_array`
``interop``    torch tensors, sympy numbers, numpy array subclasses; :class:`FloatReading`
``rounding``   exact decimal rounding of a ``Fraction`` (:class:`Rounding`)
``format``     how an exact value is written as text (:func:`plain`, :func:`fraction_text`, ...)
=============  =============================================================================
"""

from symattn.numbers.arrays import to_exact_array
from symattn.numbers.format import (
    compact_text,
    fixed,
    fraction_text,
    int_text,
    plain,
    ratio_text,
    rounded_text,
    terminating_text,
)
from symattn.numbers.interop import FloatReading, float_reading, from_torch, is_torch
from symattn.numbers.scalars import as_written, to_fraction
from symattn.numbers.written import (
    NEG_INF,
    NegInf,
    Written,
    WrittenKind,
    is_neg_inf_text,
    parse_number,
    percent,
)

__all__ = [
    "NEG_INF",
    "FloatReading",
    "NegInf",
    "Written",
    "WrittenKind",
    "as_written",
    "compact_text",
    "fixed",
    "float_reading",
    "fraction_text",
    "from_torch",
    "is_neg_inf_text",
    "int_text",
    "is_torch",
    "parse_number",
    "percent",
    "plain",
    "ratio_text",
    "rounded_text",
    "terminating_text",
    "to_exact_array",
    "to_fraction",
]
