"""Tests of symattn.judge, one module per source module."""
