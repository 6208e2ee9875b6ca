"""The version of symattn (one place; the package and ``symattn --version`` read it)."""

__version__ = "0.1.0"
