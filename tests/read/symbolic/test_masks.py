"""Tests of symattn.read.symbolic.masks: causal masks told from their exact values."""

from __future__ import annotations

import pytest

from symattn.read.symbolic.masks import is_causal_ones, masks_future

from .helpers import value


@pytest.mark.parametrize(
    ("expr", "ones"),
    [
        ("np.tril(np.ones((3, 3)))", True),
        ("torch.tril(torch.ones(2, 2))", True),
        ("np.triu(np.ones((3, 3)))", False),
        ("np.ones((3, 3))", False),
        ("np.tril(np.ones((1, 1)))", False),  # one token: nothing is masked
    ],
)
def test_the_lower_triangle_of_ones(expr: str, ones: bool) -> None:
    assert is_causal_ones(value(expr)) is ones


@pytest.mark.parametrize(
    ("expr", "future"),
    [
        ("torch.triu(torch.ones(3, 3), diagonal=1).bool()", True),
        ("np.tril(np.ones((3, 3))) == 0", True),
        ("np.tril(np.ones((3, 3)))", False),
        ("np.triu(np.ones((3, 3)))", False),  # the diagonal too
    ],
)
def test_the_future_keys(expr: str, future: bool) -> None:
    assert masks_future(value(expr)) is future


def test_a_mask_not_known_exactly() -> None:
    assert masks_future(value("torch.tril(torch.ones(n, n))")) is None
