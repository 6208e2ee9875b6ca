"""Numbers as people write them: parsing (exact values that remember their written form),
exact rounding, and reading arrays of them.

The bottom layer: it imports nothing of symattn but :mod:`symattn.config` and
:mod:`symattn.errors`.
"""

from symattn.numbers.written import (
    NEG_INF,
    NegInf,
    Written,
    as_written,
    from_torch,
    is_neg_inf_text,
    is_torch,
    parse_number,
    to_exact_array,
    to_fraction,
)

__all__ = [
    "NEG_INF",
    "NegInf",
    "Written",
    "as_written",
    "from_torch",
    "is_neg_inf_text",
    "is_torch",
    "parse_number",
    "to_exact_array",
    "to_fraction",
]
