"""The ``symattn`` command line: one module per command (``symattn.cli.main`` wires them)."""
