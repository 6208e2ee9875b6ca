"""Tests of symattn.judge.frames: the stated d_k, the author's divisor, dk-mismatch."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.errors import InputError
from symattn.exact import Surd, inv_sqrt
from symattn.judge.check import check
from symattn.judge.frames import distinct, divisor_text, run_in_frame, stated_frame
from symattn.present.reports import message
from symattn.spec import loads_spec
from tests.judge.common import codes, run, seed, small


def test_implied_divisor_without_sqrt_claim() -> None:
    # the author divided by d_k = 2 instead of sqrt(2)
    r = run("scaled = [2.5, 1.0]\nweights = [0.82, 0.18]", "d_k = 2")
    f = next(f for f in r.findings if f.code == "dk-mismatch")
    assert f.claimed == "2" and f.params["author_d_k"] == 4
    assert not [x for x in r.findings if x.code in ("wrong-value", "truncated")]


def test_dk_mismatch_refers_to_the_conflict() -> None:
    r = seed("thinking_machines")
    f = next(f for f in r.findings if f.code == "dk-mismatch")
    assert f.message_key == "dk-mismatch-conflict"
    assert "conflicting definition" in message(f, "en")
    assert "前后矛盾" in message(f, "zh")
    frames = {x.claimed: x.frame for x in r.findings}
    assert frames["2.71"] == "4" and frames["4"] is None


def test_conflicting_definition() -> None:
    r = run("scores = [5, 2]", "d_k = 2\n[claims]\nd_k = 3")
    assert ("conflicting-definition", "3") in codes(r)


@pytest.mark.parametrize("divisor", ["0", "-2"])
def test_divisor_without_a_frame_is_a_dk_mismatch(divisor: str) -> None:
    spec = loads_spec(
        'tokens = ["a", "b"]\nd_k = 2\n[inputs]\nQ = [[1, 2], [0, 1]]\nK = [[1, 2], [0, 1]]\n'
        "V = [[10, 20], [30, 40]]\n"
        f'[claims]\nsqrt_d_k = "{divisor}"\n'
    )
    (f,) = [f for f in check(spec).findings if f.code == "dk-mismatch"]
    assert f.claimed == divisor and "sqrt(2)" in message(f, "en")


def test_stated_frame() -> None:
    f = stated_frame(small("", "d_k = 4"))
    assert (f.divisor, f.label, f.scale) == ("2", "4", Surd(Fraction(1, 2)))
    g = stated_frame(small("", "d_k = 2"))
    assert (g.divisor, g.label) == ("sqrt(2)", "2")


def test_divisor_of_an_explicit_scale() -> None:
    res = small("", "scale = 0.25").run()
    assert divisor_text(res) == "4" and res.d_k == 16


def test_run_in_frame() -> None:
    s = small("")
    assert run_in_frame(s, inv_sqrt(4)).scale == Surd(Fraction(1, 2))
    assert run_in_frame(s, Fraction(1, 3)).scale == Surd(Fraction(1, 3))
    assert run_in_frame(s, inv_sqrt(3)).d_k == 3
    with pytest.raises(InputError, match="author's frame"):
        run_in_frame(s, Surd(Fraction(0), Fraction(1), 2))  # 1/sqrt(1/2): no integer d_k


def test_distinct() -> None:
    assert distinct([Fraction(4), None, 2, 4, 2, Fraction(1)]) == [4, 2, 1]
