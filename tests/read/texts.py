"""Texts the tests of :mod:`symattn.read` share: fixtures, seeds, and a small problem."""

from __future__ import annotations

from ..conftest import EXAMPLES, ROOT

FIXTURES = ROOT / "tests" / "fixtures"
SEEDS = FIXTURES / "seeds"
SEED_000 = "000_089920b9c8cb4dc4.txt"
SEED_001 = "001_b0b3fceff32b9228.txt"
SEED_004 = "004_a00461eb897f5725.txt"
#: the shared seed folder next to the repository, when it is there
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"

#: q, two keys (named Thinking and Machines), two values: with d_k = 2 the weights are
#: [0.8930, 0.1070]
INPUTS = (
    "q_1 = [1, 2]\nk_1 (Thinking) = [1, 2]\nk_2 (Machines) = [0, 1]\n"
    "v_1 = [10, 20]\nv_2 = [30, 40]\n"
)

__all__ = [
    "EXAMPLES",
    "FIXTURES",
    "INPUTS",
    "SEEDS",
    "SEED_000",
    "SEED_001",
    "SEED_004",
    "SHARED_SEEDS",
]
