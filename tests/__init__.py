"""symattn test suite."""
