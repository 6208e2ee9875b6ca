"""Tests of symattn.present.exactforms: exact forms of one row, in token order."""

from __future__ import annotations

from symattn import scaled_dot_product_attention
from symattn.present import exactforms
from symattn.present.view import views_of


def _view():  # type: ignore[no-untyped-def]
    r = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1], [0, 0]], [[10, 20], [30, 40], [1, 0]]
    )
    return views_of(r, ("q",), ("a", "b", "c"))[0]


def test_terms_follow_the_keys() -> None:
    v = _view()
    assert exactforms.exponent(v, 0, 0) == r"\frac{5\sqrt{2}}{2}"
    assert exactforms.power(v, 0, 2) == "1"
    assert exactforms.z_terms(v, 0) == [
        r"\exp\left(\frac{5\sqrt{2}}{2}\right)",
        r"e^{\sqrt{2}}",
        "1",
    ]


def test_weight_and_output_are_one_fraction() -> None:
    v = _view()
    z = r"\exp\left(\frac{5\sqrt{2}}{2}\right) + e^{\sqrt{2}} + 1"
    assert exactforms.weight(v, 0, 1) == rf"\frac{{e^{{\sqrt{{2}}}}}}{{{z}}}"
    assert exactforms.output(v, 0, 1) == (
        rf"\frac{{20 \exp\left(\frac{{5\sqrt{{2}}}}{{2}}\right) + 40 e^{{\sqrt{{2}}}}}}{{{z}}}"
    )
    assert exactforms.output(v, 0, 0).endswith(rf"+ 1}}{{{z}}}")


def test_a_fraction_in_an_exponent_is_written_with_exp() -> None:
    """Issue 22: ``e^{23\\sqrt{2}/200}`` is set too small in print."""
    assert exactforms.e_to(r"\frac{23\sqrt{2}}{200}") == r"\exp\left(\frac{23\sqrt{2}}{200}\right)"
    assert exactforms.e_to(r"\sqrt{2}") == r"e^{\sqrt{2}}" and exactforms.e_to("0") == "1"
