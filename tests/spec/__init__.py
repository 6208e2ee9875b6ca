"""Tests of symattn.spec, one module per source module."""
