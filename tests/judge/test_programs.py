"""Tests of symattn.judge.programs: float formats, and the float-printout frame end to end.

The property: whatever a numpy program computing in float32 (or float16) from the exact
inputs prints (naive or max-subtracted softmax, shortest repr or fixed decimals), ``check``
never calls an error.
"""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from symattn.judge.check import check
from symattn.judge.programs import ARITHMETICS, INFERRED, Arithmetic, arithmetics_for
from symattn.numbers import parse_number
from symattn.spec import loads_spec

#: the example database lives outside the checkout
DB = DirectoryBasedExampleDatabase(Path(tempfile.gettempdir()) / "symattn-hypothesis-judge")


def test_formats() -> None:
    f32 = ARITHMETICS["float32"]
    assert (f32.u, f32.eta) == (Fraction(1, 2**24), Fraction(1, 2**150))
    assert ARITHMETICS["bfloat16"].u == Fraction(1, 256)
    assert ARITHMETICS["float16"].eta == Fraction(1, 2**25)
    assert f32.gamma(2) == 2 * f32.u / (1 - 2 * f32.u)
    with pytest.raises(ValueError, match="no error bound"):
        Arithmetic("tiny", 2, -1).gamma(4)
    assert f32.print_tolerance(parse_number("1")) == 2 * f32.u + 2 * f32.eta


@pytest.mark.parametrize(
    ("precision", "claim", "names"),
    [
        ("float16", "0.1", ("float16",)),
        (None, "0.123456", INFERRED),
        (None, "0.12345", ()),
        ("exact", "0.1234567", ()),
        ("float32", "1/3", ()),
    ],
)
def test_arithmetics_for(precision: str | None, claim: str, names: tuple[str, ...]) -> None:
    got = arithmetics_for(precision, parse_number(claim))
    assert tuple(a.name for a in got) == names


def _text(x: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f'"{v}"' for v in row) + "]" for row in x) + "]"


def _printed(x: np.floating, style: str) -> str:
    if style == "repr":  # numpy's shortest repr of the float32
        return np.format_float_positional(x, unique=True, trim="-")
    if style == "8":  # numpy's default array printing: at most 8 decimals
        return np.format_float_positional(x, precision=8, unique=True, trim="-")
    return f"{float(x):.4f}"  # torch's default: 4 decimals


#: inputs a notebook would type: thirds of hundredths up to ±10 (not dyadic, so converted)
inputs = st.integers(-3000, 3000).map(lambda n: Fraction(n, 300))


@settings(
    max_examples=60,
    deadline=None,
    database=DB,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    data=st.data(),
    e=st.integers(1, 6),
    n=st.integers(2, 5),
    max_subtracted=st.booleans(),
    style=st.sampled_from(["repr", "8", "4"]),
    stated=st.booleans(),
    dtype=st.sampled_from(["float32", "float16"]),
)
def test_float_printouts_are_never_errors(
    data: st.DataObject,
    e: int,
    n: int,
    max_subtracted: bool,
    style: str,
    stated: bool,
    dtype: str,
) -> None:
    """What numpy computing in float32 (or float16) from the exact inputs prints is never
    called an error: naive or max-subtracted softmax, shortest repr, 8 or 4 decimals."""
    q = [data.draw(st.lists(inputs, min_size=e, max_size=e)) for _ in range(2)]
    k = [data.draw(st.lists(inputs, min_size=e, max_size=e)) for _ in range(n)]
    v = [data.draw(st.lists(inputs, min_size=2, max_size=2)) for _ in range(n)]
    f = np.dtype(dtype).type
    with np.errstate(all="ignore"):
        qf = np.array([[f(float(x)) for x in r] for r in q], dtype=f)
        kf = np.array([[f(float(x)) for x in r] for r in k], dtype=f)
        vf = np.array([[f(float(x)) for x in r] for r in v], dtype=f)
        scores = qf @ kf.T
        scaled = scores / f(np.sqrt(f(e)))
        shifted = scaled - scaled.max(axis=-1, keepdims=True) if max_subtracted else scaled
        exps = np.exp(shifted)
        weights = exps / exps.sum(axis=-1, keepdims=True)
        out = weights @ vf
        total = exps.sum(axis=-1)
    # no overflow anywhere (a sum of exps past float16's 65504 gives weights of 0)
    assume(all(np.isfinite(t).all() for t in (scores, exps, total, weights, out)))
    rows = []
    for i, name in enumerate(("a", "b")):
        fields = [
            f"scores = [{', '.join(repr(_printed(x, style)) for x in scores[i])}]",
            f"scaled = [{', '.join(repr(_printed(x, style)) for x in scaled[i])}]",
            f"weights = [{', '.join(repr(_printed(x, style)) for x in weights[i])}]",
            f"output = [{', '.join(repr(_printed(x, style)) for x in out[i])}]",
        ]
        if not max_subtracted:  # what a program prints as exp is exp(x), not exp(x - max)
            fields.append(f"exp = [{', '.join(repr(_printed(x, style)) for x in exps[i])}]")
        rows.append(f"[claims.rows.{name}]\n" + "\n".join(fields).replace("'", '"'))
    tokens = ", ".join(f'"t{j}"' for j in range(n))
    text = (
        f'tokens = [{tokens}]\nquery_tokens = ["a", "b"]\n'
        + (f'precision = "{dtype}"\n' if stated or style == "4" or dtype == "float16" else "")
        + f"[inputs]\nQ = {_text(np.array(q))}\nK = {_text(np.array(k))}\n"
        f"V = {_text(np.array(v))}\n" + "\n".join(rows) + "\n"
    )
    report = check(loads_spec(text, name="f32.toml"))
    assert [f for f in report.findings if f.severity == "error"] == [], text
