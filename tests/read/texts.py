"""Texts the tests of :mod:`symattn.read` share: fixtures, seeds, and a small problem."""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.audit import Understanding, understand
from symattn.read.census import Census
from symattn.read.reading import Reading, read
from symattn.read.source import Source

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


def read_text(text: str, fmt: str = "markdown", limits: Limits = DEFAULT_LIMITS) -> Reading:
    """The reading of ``text`` in format ``fmt`` (``markdown``, ``latex``, ``text``)."""
    src = Source.of(text)
    return read(src, fmt, Census.of(src), limits)


def understood(text: str, fmt: str = "markdown", limits: Limits = DEFAULT_LIMITS) -> Understanding:
    """What the reader made of ``text``: reading, Level 1, facts and problems."""
    return understand(text, fmt=fmt, limits=limits)


def chain_texts(text: str, fmt: str = "markdown") -> list[str]:
    """The chains of ``text``, each as one respelled string."""
    return [c.text for c in read_text(text, fmt).chains]


__all__ = [
    "chain_texts",
    "read_text",
    "understood",
    "EXAMPLES",
    "FIXTURES",
    "INPUTS",
    "ROOT",
    "SEEDS",
    "SEED_000",
    "SEED_001",
    "SEED_004",
    "SHARED_SEEDS",
]
