"""Tests of symattn.read.reproduce: relations between arrays, confirmed by their numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.numbers import parse_number
from symattn.read.reproduce import (
    NEAREST,
    Candidate,
    Frame,
    FrameKind,
    Relation,
    Tally,
    attention_stage,
    frames,
    of_scores,
    points,
    product,
    relate,
    search,
)
from symattn.stages import BY_CLAIM


def _c(key: int, rows: list[list[str | None]], at: int | None = None) -> Candidate:
    cells = tuple(tuple(None if x is None else parse_number(x) for x in r) for r in rows)
    return Candidate(key, cells, key if at is None else at)


def _best(target: Candidate, sources: list[Candidate], fs: tuple[Frame, ...]) -> Relation:
    ms = [m for m in relate(target, sources, fs) if m.tally.confirmed]
    assert ms, "nothing confirmed"
    return max(ms, key=lambda m: m.tally.reproduced).relation


def test_relations_are_named_by_the_stages() -> None:
    for r in (Relation.SCORES, Relation.SCALED, Relation.EXP, Relation.WEIGHTS, Relation.OUTPUT):
        assert r in BY_CLAIM and r == BY_CLAIM[r].claim


@pytest.mark.parametrize(
    ("tally", "confirmed", "contradicted"),
    [
        (Tally(3, 3), True, False),
        (Tally(3, 5), True, False),
        (Tally(3, 6), False, True),  # (not most)
        (Tally(2, 2), False, False),  # (not more than a couple)
        (Tally(0, 1), False, False),
        (Tally(1, 4), False, True),
    ],
)
def test_confirmation_needs_most_entries_and_more_than_a_couple(
    tally: Tally, confirmed: bool, contradicted: bool
) -> None:
    assert (tally.confirmed, tally.contradicted) == (confirmed, contradicted)


def test_scores_are_a_product_in_either_orientation() -> None:
    q = _c(0, [["1", "0"], ["0", "1"]])
    k = _c(1, [["1", "2"], ["3", "4"]])
    assert _best(_c(2, [["1", "3"], ["2", "4"]]), [q, k], frames()) is Relation.SCORES  # Q Kᵀ
    assert _best(_c(2, [["1", "2"], ["3", "4"]]), [q, k], frames()) is Relation.SAME  # K again
    x = _c(0, [["1", "2"]])
    w = _c(1, [["1", "0", "1"], ["0", "1", "1"]])
    assert _best(_c(2, [["1", "2", "3"]]), [x, w], frames()) is Relation.OUTPUT  # X W


def test_scaled_scores_in_each_frame() -> None:
    s = _c(0, [["2", "4", "6"]])
    by = {str(fr): fr for fr in frames([4], [Fraction(173, 100)])}
    assert set(by) >= {"unscaled", "divided by sqrt(4)", "divided by 4", "divided by 173/100"}
    for target, frame in (
        (["1.0", "2.0", "3.0"], "divided by sqrt(4)"),
        (["0.5", "1", "1.5"], "divided by 4"),
        (["1.16", "2.31", "3.47"], "divided by 173/100"),  # (√3 rounded as 1.73)
    ):
        ms = relate(_c(1, [target]), [s], tuple(by.values()))
        hit = [m for m in ms if m.relation is Relation.SCALED and m.tally.confirmed]
        assert [str(m.frame) for m in hit] == [frame]


def test_exponentials_sums_and_weights() -> None:
    s = _c(0, [["2.0", "1.0", "0.1"]])
    assert _best(_c(1, [["7.389", "2.718", "1.105"]]), [s], frames()) is Relation.EXP
    assert _best(_c(1, [["0.659", "0.242", "0.099"]]), [s], frames()) is Relation.WEIGHTS
    total = relate(_c(1, [["11.212"]]), [s], frames())
    assert any(m.relation is Relation.SUM and m.tally.reproduced == 1 for m in total)


def test_the_stable_softmax_is_exp_of_the_distance_to_the_largest() -> None:
    s = _c(0, [["2.0", "1.0", "0.1"]])
    assert _best(_c(1, [["1", "0.368", "0.150"]]), [s], frames()) is Relation.SHIFTED


def test_a_masked_key_has_weight_zero() -> None:
    s = _c(0, [["3.1", "0.4", None]])
    found = search([s, _c(1, [["0.937", "0.063", "0"]])], frames()).found
    assert found[1].relation is Relation.WEIGHTS and found[1].tally == Tally(3, 3)


def test_output_is_weights_times_values() -> None:
    p = _c(0, [["0.25", "0.75"], ["0.50", "0.50"]])
    v = _c(1, [["1", "2"], ["3", "4"]])
    out = _c(2, [["2.50", "3.50"], ["2.00", "3.00"]])
    assert _best(out, [p, v], frames()) is Relation.OUTPUT


def test_a_one_digit_integer_near_a_real_value_is_no_evidence() -> None:
    s = _c(0, [["2.0", "1.0", "0.1"]])
    got = relate(_c(1, [["1", "0", "0"]]), [s], frames())
    weights = next(m for m in got if m.relation is Relation.WEIGHTS)
    assert weights.tally == Tally(0, 0)  # (0.659 rounds to 1, 0.242 to 0: no coincidence told)


def test_a_wrong_entry_does_not_reproduce_but_its_neighbours_confirm() -> None:
    s = _c(0, [["2.0", "1.0", "0.1"], ["0", "0", "0"]])
    found = search([s, _c(1, [["0.659", "0.242", "0.099"], ["0.333", "0.333", "0.343"]])], frames())
    assert found.found[1].tally == Tally(5, 6)  # (0.343 is no rounding of 1/3)


def test_numbers_that_reproduce_nothing_are_not_confirmed() -> None:
    s = _c(0, [["2.0", "1.0", "0.1"]])
    got = search([s, _c(1, [["0.5", "0.9", "0.2"]])], frames())
    assert 1 not in got.found and 1 in got.closest


def test_the_budget_stops_the_search_and_says_so() -> None:
    cands = [_c(i, [["1", "2"]], i) for i in range(10)]
    got = search(cands, frames(), budget=30)
    assert got.stopped
    assert not search(cands[:2], frames()).stopped


def test_frames_are_unique_and_start_unscaled() -> None:
    fs = frames([2, 2, 1], [Fraction(1), Fraction(2)])
    assert fs[0] == Frame(FrameKind.NONE) and len(fs) == len(set(fs))


def test_a_stage_computed_from_q_and_k_in_a_frame() -> None:
    q = points([[parse_number("1"), parse_number("0")], [parse_number("0"), parse_number("2")]])
    k = points([[parse_number("1"), parse_number("1")], [parse_number("0"), parse_number("1")]])
    v = points([[parse_number("10")], [parse_number("20")]])
    root2 = Frame(FrameKind.SQRT, Fraction(2))
    scores = attention_stage(Relation.SCORES, q, k, v, root2)
    assert scores is not None
    assert [[float(x.mid()) for x in r] for r in scores] == [[1.0, 0.0], [2.0, 2.0]]
    scaled = attention_stage(Relation.SCALED, q, k, v, root2)
    assert scaled is not None and abs(float(scaled[0][0].mid()) - 2**-0.5) < 1e-12
    weights = attention_stage(Relation.WEIGHTS, q, k, v, root2)
    assert weights is not None and abs(sum(float(x.mid()) for x in weights[0]) - 1) < 1e-12
    out = attention_stage(Relation.OUTPUT, q, k, v, root2)
    assert out is not None and abs(float(out[1][0].mid()) - 15) < 1e-12  # (equal scores)
    assert attention_stage(Relation.OUTPUT, q, k, None, root2) is None
    assert attention_stage(Relation.SCORES, q, v, v, root2) is None  # (widths differ)


def test_a_stage_computed_from_given_scores_a_masked_key_gets_no_weight() -> None:
    s = points([[parse_number("2"), parse_number("2"), None]])
    half = Frame(FrameKind.INVERSE, Fraction(2))
    weights = of_scores(Relation.WEIGHTS, s, None, half)
    assert weights is not None and weights[0][2] is None
    assert [abs(float(x.mid()) - 0.5) < 1e-12 for x in weights[0][:2] if x is not None] == [
        True,
        True,
    ]
    scaled = of_scores(Relation.SCALED, s, None, half)
    assert scaled is not None and scaled[0][0] is not None and float(scaled[0][0].mid()) == 1.0


def test_points_are_the_numbers_as_written_balls_every_value_that_rounds_to_them() -> None:
    one = parse_number("1.0")
    (p,), (b,) = points([[one]])[0], _c(0, [["1.0"]]).balls[0]
    assert p.is_exact() and not b.is_exact() and b.contains(p)
    x = points([[one, one]])
    got = product(x, x, transpose=True)
    assert got is not None and got[0][0].is_exact()


def test_plain_normalisation_is_a_relation_of_its_own() -> None:
    s = _c(0, [["1", "2", "5"]])
    plain = _c(1, [["0.125", "0.250", "0.625"]])  # s / 8
    assert _best(plain, [s], frames([3])) is Relation.NORMALIZED
    soft = _c(2, [["0.0171", "0.0466", "0.9362"]])  # softmax(s)
    assert _best(soft, [s], frames([3])) is Relation.WEIGHTS
    # (a row whose sum may be 0 cannot be normalised: the relation is not tried)
    zero = _c(3, [["1", "-1"]])
    assert not [
        m
        for m in relate(_c(4, [["0.5", "0.5"]]), [zero], frames())
        if m.relation is Relation.NORMALIZED
    ]


def test_entries_written_as_the_largest_shift_to_exactly_zero() -> None:
    # exp(s − max) of [0.7071, 0, 0.7071]: both 0.7071 give exactly 1 (e^0), which tells
    target = Candidate(1, ((parse_number("1"), parse_number("0.4931"), parse_number("1")),), 10)
    row = Candidate(0, ((parse_number("0.7071"), parse_number("0"), parse_number("0.7071")),), 0)
    (m,) = [
        m
        for m in relate(target, [row], frames([2], []), frozenset({Relation.SHIFTED}))
        if m.frame is not None and m.frame.kind is FrameKind.NONE
    ]
    assert m.tally.reproduced == m.tally.compared == 3


def test_a_row_is_related_to_each_row_of_a_matrix_as_wide() -> None:
    target = Candidate(1, ((parse_number("1"), parse_number("0.4931"), parse_number("1")),), 10)
    matrix = Candidate(
        0,
        tuple(
            tuple(parse_number(x) for x in r)
            for r in (("0", "0.7071", "0.7071"), ("0.7071", "0", "0.7071"))
        ),
        0,
    )
    found = relate(target, [matrix], frames([2], []), frozenset({Relation.SHIFTED}))
    assert max(m.tally.reproduced for m in found) == 3  # (row 2 of the matrix)


def test_an_anchor_is_a_source_however_far_before_the_target() -> None:
    # (a product of two arrays written long before it, past NEAREST others: found only when
    # they are anchors)
    a = _c(0, [["1", "0"], ["3", "1"]])
    b = _c(1, [["1", "2"], ["3", "0"]])
    between = [_c(2 + i, [[str(i), str(i + 1)]]) for i in range(NEAREST)]
    target = _c(99, [["1", "2"], ["6", "6"]], at=100)
    every = [a, b, *between, target]
    wanted = frozenset({Relation.OUTPUT})
    assert 99 not in search(every, frames()[:1], wanted=wanted).found
    found = search(every, frames()[:1], wanted=wanted, anchors=frozenset({0, 1})).found
    assert found[99].relation is Relation.OUTPUT and found[99].sources == (0, 1)
