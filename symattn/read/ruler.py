"""Ordered lists of reading rules, in the manner of markdown-it's block rules.

A :class:`Ruler` is a list of named :class:`Rule` s that share one signature: each takes the
one state of what is being read and returns ``True`` when it has read the whole of it (the
rules after it are then not run). Each rule says which kinds of block it reads. Rulers are
values: :meth:`Ruler.before`, :meth:`Ruler.after`, :meth:`Ruler.push` and
:meth:`Ruler.replace` give a new list, so a new notation or format adds its rule where it
belongs, by name, without editing a dispatcher and without a list changed behind a reader's
back (``tests/read/test_ruler.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Rule", "Ruler"]

S = TypeVar("S")


@dataclass(frozen=True)
class Rule(Generic[S]):
    """One reading rule: its name, the kinds of block it reads (empty: every kind), and the
    function that reads them (``True``: the block is read, stop)."""

    name: str
    run: Callable[[S], bool]
    kinds: frozenset[str] = frozenset()

    def reads(self, kind: str) -> bool:
        """Whether this rule reads a block of ``kind``."""
        return not self.kinds or kind in self.kinds


@dataclass(frozen=True)
class Ruler(Generic[S]):
    """An ordered list of rules over one state type."""

    rules: tuple[Rule[S], ...] = ()

    @classmethod
    def of(cls, rules: Iterable[Rule[S]]) -> Ruler[S]:
        """The ruler of ``rules`` in order (their names must differ)."""
        out: Ruler[S] = cls()
        for r in rules:
            out = out.push(r)
        return out

    def names(self) -> tuple[str, ...]:
        """The names of the rules, in the order they run."""
        return tuple(r.name for r in self.rules)

    def _index(self, name: str) -> int:
        for k, r in enumerate(self.rules):
            if r.name == name:
                return k
        raise KeyError(f"no reading rule named {name!r}")

    def _insert(self, k: int, rule: Rule[S]) -> Ruler[S]:
        if rule.name in self.names():
            raise ValueError(f"a reading rule named {rule.name!r} is already in the list")
        return Ruler((*self.rules[:k], rule, *self.rules[k:]))

    def push(self, rule: Rule[S]) -> Ruler[S]:
        """This list with ``rule`` added at the end."""
        return self._insert(len(self.rules), rule)

    def before(self, name: str, rule: Rule[S]) -> Ruler[S]:
        """This list with ``rule`` right before the rule ``name``."""
        return self._insert(self._index(name), rule)

    def after(self, name: str, rule: Rule[S]) -> Ruler[S]:
        """This list with ``rule`` right after the rule ``name``."""
        return self._insert(self._index(name) + 1, rule)

    def replace(self, name: str, rule: Rule[S]) -> Ruler[S]:
        """This list with the rule ``name`` replaced by ``rule``."""
        k = self._index(name)
        return Ruler((*self.rules[:k], rule, *self.rules[k + 1 :]))

    def without(self, name: str) -> Ruler[S]:
        """This list without the rule ``name``."""
        k = self._index(name)
        return Ruler((*self.rules[:k], *self.rules[k + 1 :]))

    def run(self, state: S, kind: str) -> None:
        """Run the rules that read ``kind`` on ``state`` in order, until one has read it all."""
        for r in self.rules:
            if r.reads(kind) and r.run(state):
                return
