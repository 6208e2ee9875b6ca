"""Tests of symattn.stages: the one table of the stages of a query row, and the step names."""

from __future__ import annotations

from symattn.stages import BY_CLAIM, BY_STEP, ROW_STAGES, SCALING_STAGES, TOKEN_STAGES, StepName


def test_every_step_name_is_a_stage_a_projection_or_a_scaling_claim() -> None:
    named = [s.step for s in ROW_STAGES] + list(TOKEN_STAGES.values()) + list(SCALING_STAGES)
    assert sorted(named) == sorted(StepName)
    assert all(isinstance(s, StepName) for s in named)


def test_the_tables_look_a_stage_up_by_its_claim_field_and_by_its_step() -> None:
    for s in ROW_STAGES:
        assert BY_CLAIM[s.claim] is s and BY_STEP[s.step] is s
        assert BY_STEP[s.step.value] is s  # (a step named as text finds it too)


def test_step_names_are_the_trace_steps() -> None:
    assert [s.step.value for s in ROW_STAGES] == [
        "scores",
        "scaled_scores",
        "exp_scores",
        "exp_sums",
        "weights",
        "output",
    ]
