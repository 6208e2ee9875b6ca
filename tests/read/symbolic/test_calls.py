"""Tests of symattn.read.symbolic.calls: calls that compute stages of attention."""

from __future__ import annotations

from symattn.read.symbolic.scale import UNSCALED, Scale
from symattn.read.symbolic.sym import SymKind

from .helpers import given, value

ENV = {"Q": given("q", 1, "np.eye(2)"), "K": given("k", 2, "np.eye(2) * 2")}


def test_softmax_and_exp() -> None:
    r = value("torch.softmax(Q @ K.T / 2, dim=-1)", **ENV)
    assert r.kind is SymKind.WEIGHTS and r.scale == Scale.divide(2)
    assert value("np.exp(Q @ K.T)", **ENV).kind is SymKind.EXP
    assert value("np.exp(np.eye(2))").kind is SymKind.UNKNOWN  # no stage: never a float


def test_exp_of_scores_over_their_sum() -> None:
    r = value("np.exp(Q @ K.T) / np.exp(Q @ K.T).sum(axis=-1, keepdims=True)", **ENV)
    assert r.kind is SymKind.WEIGHTS and r.scale == UNSCALED


def test_the_stable_softmax() -> None:
    expr = "np.exp(S - S.max(axis=-1, keepdims=True))"
    e = value(expr, **ENV, S=value("Q @ K.T", **ENV))
    assert e.kind is SymKind.EXP_SHIFTED  # (not the exponentials of the scores themselves)


def test_a_masked_fill_of_the_future_is_causal() -> None:
    expr = "(Q @ K.T).masked_fill(np.triu(np.ones((2, 2)), 1) == 1, -1e9)"
    assert value(expr, **ENV).causal


def test_a_masked_fill_of_the_past_is_not() -> None:
    expr = "(Q @ K.T).masked_fill(np.tril(np.ones((2, 2))) == 1, float('-inf'))"
    assert value(expr, **ENV).kind is SymKind.UNKNOWN


def test_a_small_fill_masks_nothing() -> None:
    expr = "(Q @ K.T).masked_fill(np.triu(np.ones((2, 2)), 1) == 1, -1)"
    assert value(expr, **ENV).kind is SymKind.UNKNOWN


def test_copies_keep_their_values() -> None:
    assert value("Q.copy()", **ENV) == value("Q", **ENV)
    assert value("Q.clone().detach()", **ENV) == value("Q", **ENV)


def test_float_inf() -> None:
    assert value("float('-inf')").kind is SymKind.NEGINF
    assert value("-np.inf").kind is SymKind.NEGINF
