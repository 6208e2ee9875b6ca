"""How code scales its scores, as a typed record: unscaled, divided by √n, divided by a
number, multiplied by a number, or divided by √(the width of K)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Final


class ScaleKind(Enum):
    """The operation a scale applies to the scores (values order :meth:`Scale.sort_key`)."""

    UNSCALED = 0  #: fed to the softmax as they are
    DIVIDE = 1  #: divided by ``Scale.n`` (``S / 2``)
    TIMES = 2  #: multiplied by ``Scale.n`` (``S * 0.5``)
    ROOT = 3  #: divided by √``Scale.n`` (``S / np.sqrt(2)``, ``S * 2 ** -0.5``)
    WIDTH = 4  #: divided by √ of the keys' width (``K.shape[-1] ** 0.5``), not known exactly


@dataclass(frozen=True)
class Scale:
    """A scale of scores the code writes; ``n`` is the number it names (1 when none)."""

    kind: ScaleKind
    n: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if self.kind is ScaleKind.ROOT and (self.n.denominator != 1 or self.n <= 0):
            raise ValueError(f"a square-root scale needs a positive integer, not {self.n}")
        if self.kind in (ScaleKind.DIVIDE, ScaleKind.TIMES) and self.n <= 0:
            raise ValueError(f"a scale needs a positive number, not {self.n}")

    @staticmethod
    def root(n: int | Fraction) -> Scale:
        """Divided by √n."""
        return Scale(ScaleKind.ROOT, Fraction(n))

    @staticmethod
    def divide(n: int | Fraction) -> Scale:
        """Divided by n."""
        return Scale(ScaleKind.DIVIDE, Fraction(n))

    @staticmethod
    def times(n: int | Fraction) -> Scale:
        """Multiplied by n."""
        return Scale(ScaleKind.TIMES, Fraction(n))

    @property
    def sort_key(self) -> tuple[int, Fraction]:
        """A total order of scales (one problem's members that say none join the first)."""
        return (self.kind.value, self.n)


#: the scores as they are
UNSCALED: Final = Scale(ScaleKind.UNSCALED)
#: divided by √ of the keys' width
BY_WIDTH: Final = Scale(ScaleKind.WIDTH)
