"""Tests of symattn.read.scaling: the stated d_k and the frames to try."""

from __future__ import annotations

import pytest

from symattn.read.scaling import Masking, hypotheses, masks, stated_d_k

from .texts import understood


@pytest.mark.parametrize(
    ("text", "d_k"),
    [
        ("We take d_k = 2.\n", 2),
        ("设维度为 3。\n", 3),
        ("```python\nd_k = 4\n```\n", 4),
        ("no d_k here\n", None),
    ],
)
def test_stated_d_k(text: str, d_k: int | None) -> None:
    u = understood(text)
    assert stated_d_k(u.src.text, u.facts) == d_k


def test_stated_d_k_is_the_first() -> None:
    u = understood("d_k = 2\n\nlater d_k = 4\n", "text")
    assert stated_d_k(u.src.text, u.facts) == 2


@pytest.mark.parametrize(
    ("text", "frames"),
    [
        ("scaled by \\sqrt{d_k}, d_k = 2\n", [("stated", 2)]),
        ("we use softmax(QK^T) without scaling\n", [("unscaled", None)]),
        ("attention\n", [("stated", None), ("unscaled", None)]),
    ],
)
def test_hypotheses(text: str, frames: list[tuple[str, int | None]]) -> None:
    u = understood(text)
    assert [(h.name, h.d_k) for h in hypotheses(u.src.text, u.facts)] == frames


def test_a_row_reproduced_as_fed_to_the_softmax_says_nothing_of_scaling() -> None:
    """A row whose softmax reproduces the weights after it is "scaled" by its place; the text
    does not say it scales, so both frames stay."""
    u = understood("[3, 1, 0.5]\n\n→ [0.82, 0.11, 0.07]\n")
    assert any(f.role == "scaled" and f.source == "reproduced" for f in u.facts)
    assert [h.name for h in hypotheses(u.src.text, u.facts)] == ["stated", "unscaled"]


def test_the_masks_tried_are_what_the_text_says() -> None:
    assert masks("plain attention") == (Masking.NONE,)
    assert masks("The attention is causal: key love is masked.") == (
        Masking.NONE,
        Masking.CAUSAL,
        Masking.ZEROS,
    )
    assert f"mask {Masking.CAUSAL}" == "mask causal"  # (how a frame's name says it)
