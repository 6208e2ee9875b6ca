"""Expressions evaluated by the symbolic reader, for the tests of :mod:`symattn.read.symbolic`."""

from __future__ import annotations

import ast

from symattn.config import DEFAULT_LIMITS
from symattn.read.symbolic.functions import Runner
from symattn.read.symbolic.sym import Sym, SymKind


def value(expr: str, **env: str | Sym) -> Sym:
    """The value of ``expr`` with each name of ``env`` bound to a value, or to the value of an
    expression."""
    r = Runner(DEFAULT_LIMITS)
    for name, e in env.items():
        r.env[name] = e if isinstance(e, Sym) else r.ev(ast.parse(e, mode="eval").body)
    return r.ev(ast.parse(expr, mode="eval").body)


def given(name: str, ref: int, expr: str) -> Sym:
    """A literal array of the text named as the stage ``name``, with the value of ``expr``."""
    return Sym(SymKind.LIT, ref=ref, name=name, array=value(expr).array)


def lit(name: str, ref: int) -> Sym:
    """A literal array of the text named as the stage ``name``."""
    return Sym(SymKind.LIT, ref=ref, name=name)
