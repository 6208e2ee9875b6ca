"""Tests of symattn.judge.approximations: rounded constants as causes."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.judge.approximations import Approximation, approximate_e, approximate_root
from symattn.judge.chain import Chain
from symattn.judge.frames import stated_frame
from symattn.judge.run import Run
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers import parse_number
from tests.judge.common import run, seed, small


def setup(rows: str, top: str = "d_k = 2") -> tuple[Run, Chain]:
    s = small(rows, top)
    f = stated_frame(s)
    return Run(s, DEFAULT_ACCEPTED, DEFAULT_LIMITS), Chain(s, "q", 0, f.result, f.scale)


@pytest.mark.parametrize(
    ("scaled", "constant"),
    [("[3.546, 1.418]", "√2 ≈ 1.41"), ("[3.5361, 1.4144]", "√2 ≈ 1.414"), ("[3.5, 1.4]", None)],
)
def test_rounded_root_is_named(scaled: str, constant: str | None) -> None:
    r = run(f"scaled = {scaled}", "d_k = 2")
    found = [f.params["constant"] for f in r.findings if f.code == "approximate-constant"]
    assert found == ([constant] * 2 if constant else []), r.findings


def test_seed_001_float64_sum() -> None:
    ac = next(f for f in seed("animal_street").findings if f.code == "approximate-constant")
    assert ac.params["precision"] == "float64"


def test_approximate_root() -> None:
    r, c = setup("scaled = [3.546, 1.418]")
    hit = approximate_root(r, parse_number("1.418"), c, 1)
    assert hit == Approximation("√2 ≈ 1.41", "2 / 1.41 = 1.41844", "exact", "1.414214")
    assert approximate_root(r, parse_number("1.418"), c, None) is None


def test_approximate_e_short_claim() -> None:
    # e^(5/sqrt(2)) = 34.313...; 2.7^(5/sqrt(2)) = 33.504...
    r, c = setup("scores = [5, 2]")
    hit = approximate_e(r, parse_number("33.5"), c, "exp", 0, long=False)
    assert hit is not None and hit.constant == "e ≈ 2.7" and hit.precision == "exact"
    assert hit.computation == "2.7^scaled[0]" and hit.own == "34.3133"
    assert approximate_e(r, parse_number("33.5"), c, "exp", 0, long=True) is None
    assert approximate_e(r, parse_number("3.5"), c, "scaled", 0, long=False) is None


@pytest.mark.parametrize("long", [True, False])
def test_params(long: bool) -> None:
    a = Approximation("e ≈ 2.718", "2.718**1", "float64" if long else "exact", "2.718282")
    assert list(a.params()) == ["constant", "computation", "precision", "own"]
