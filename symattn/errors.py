"""The exceptions symattn raises.

Every error a user can cause is a :class:`SymattnError`; the command line turns one into a
single readable line on stderr and a non-zero exit code. Nothing else should escape.
"""

from __future__ import annotations


class SymattnError(Exception):
    """Base class of all errors symattn raises on purpose."""


class InputError(SymattnError, ValueError):
    """Input that cannot be used: a malformed number, a bad shape, a bad spec field."""


class NumberError(InputError):
    """Text or an object that is not an exact finite number symattn can read."""


class ShapeError(InputError):
    """Arrays whose shapes do not fit together."""


class SpecError(InputError):
    """A spec file that is malformed; the message names the file and the field."""


class LimitError(InputError):
    """Input beyond a safety limit; the message names the limit and how to raise it."""


class PrecisionError(SymattnError):
    """Refinement reached the precision ceiling without deciding (reported as undecided)."""
