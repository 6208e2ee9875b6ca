"""Subcommands of the ``symattn`` command line, one module each (see :mod:`symattn.cli`)."""
