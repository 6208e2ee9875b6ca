"""The one finding model of ``check`` and ``audit``: typed values and a typed message.

A finding says where (a position in a spec, or a span of a text), what was claimed, the
exact value, the code and its severity, and *why* as a :class:`Message`: a catalog key
with typed parameters. Words are chosen only when a report is rendered
(:mod:`symattn.present.messages`), so judging never needs a language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Union

#: a message parameter: a plain value, a nested message, or a joined list of either
Param = Union[str, int, "Message", "Join", tuple[object, ...], object]


@dataclass(frozen=True)
class Message:
    """A sentence: the key of a catalog table (``section``) and its parameters."""

    section: str
    key: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.params, MappingProxyType):
            object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __reduce__(self) -> tuple[type[Message], tuple[str, str, dict[str, object]]]:
        # a read-only mapping does not pickle; --jobs sends reports between processes
        return (Message, (self.section, self.key, dict(self.params)))


@dataclass(frozen=True)
class Join:
    """Parts (values or messages) joined by ``sep`` (literal text, or a :class:`Message`)."""

    parts: tuple[object, ...]
    sep: str | Message = ", "
    prefix: str = ""


@dataclass(frozen=True)
class SpecLocation:
    """A claim's place in a spec: the step and its position (``("Thinking", "Machines")``)."""

    step: str
    position: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextLocation:
    """A claim's place in a text: 1-based line and column."""

    line: int
    column: int


Location = SpecLocation | TextLocation


@dataclass(frozen=True)
class Finding:
    """One wrong or doubtful number (or a spec-level problem)."""

    code: str
    severity: str
    location: Location
    claimed: str
    exact: str  # "" when the finding is not about a value (``precision-mixed`` in a text)
    expected: str | None
    message: Message
    cause: str | None = None
    inexact: bool = False  # ``exact`` is a rounding of the exact value (shown with a trailing …)
    frame: str | None = None  # the author's d_k when the claim was judged in the author's frame
    #: which of a text's attention problems the claim was judged in (audit, when a text holds
    #: more than one: the number of its emitted spec, ``post.2.toml``)
    problem: int | None = None
    #: other codes that explain the claim as well (two causes stay possible: both reported)
    alternatives: tuple[str, ...] = ()

    @property
    def exact_text(self) -> str:
        """``exact`` with a trailing ``…`` when it is not the exact value itself."""
        return self.exact + "…" if self.inexact and self.exact not in ("?", "-") else self.exact

    @property
    def message_key(self) -> str:
        """The catalog key of the reason."""
        return self.message.key

    @property
    def params(self) -> Mapping[str, object]:
        """The parameters of the reason."""
        return self.message.params

    @property
    def step(self) -> str:
        """The spec step (``""`` for a text finding)."""
        return self.location.step if isinstance(self.location, SpecLocation) else ""

    @property
    def position(self) -> tuple[str, ...]:
        """The position in the spec step (``()`` for a text finding)."""
        return self.location.position if isinstance(self.location, SpecLocation) else ()

    @property
    def line(self) -> int:
        """The 1-based line in the text (0 for a spec finding)."""
        return self.location.line if isinstance(self.location, TextLocation) else 0

    @property
    def column(self) -> int:
        """The 1-based column in the text (0 for a spec finding)."""
        return self.location.column if isinstance(self.location, TextLocation) else 0
