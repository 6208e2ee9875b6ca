"""Tests of symattn.read.symbolic.scale: the typed scale of scores code writes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.read.symbolic.scale import BY_WIDTH, UNSCALED, Scale, ScaleKind


@pytest.mark.parametrize(
    ("scale", "kind", "n"),
    [
        (Scale.root(2), ScaleKind.ROOT, Fraction(2)),
        (Scale.divide(Fraction(3, 2)), ScaleKind.DIVIDE, Fraction(3, 2)),
        (Scale.times(Fraction(1, 8)), ScaleKind.TIMES, Fraction(1, 8)),
        (UNSCALED, ScaleKind.UNSCALED, Fraction(1)),
        (BY_WIDTH, ScaleKind.WIDTH, Fraction(1)),
    ],
)
def test_constructors(scale: Scale, kind: ScaleKind, n: Fraction) -> None:
    assert (scale.kind, scale.n) == (kind, n)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Scale.root(Fraction(1, 2)),
        lambda: Scale.root(0),
        lambda: Scale.divide(0),
        lambda: Scale.times(-1),
    ],
)
def test_impossible_scales_are_refused(make: object) -> None:
    with pytest.raises(ValueError, match="scale needs"):
        make()  # type: ignore[operator]


def test_scales_are_values_with_a_total_order() -> None:
    assert Scale.root(2) == Scale.root(Fraction(2)) and hash(Scale.root(2)) == hash(Scale.root(2))
    ordered = sorted(
        [BY_WIDTH, Scale.root(3), Scale.times(2), Scale.divide(2), UNSCALED],
        key=lambda s: s.sort_key,
    )
    assert [s.kind for s in ordered] == list(ScaleKind)
