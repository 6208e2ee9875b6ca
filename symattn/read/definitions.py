"""Names a text defines (``d_k = 2``, ``sum = …``, ``总和 = …``), and names given two values.

Each name keeps the value the text gives it (its last link, as written) and its exact value
(the first expression of its chain), so later formulas are judged both ways. A name given two
different values is ``conflicting-definition``, with notes on the formulas that hold under
only one of them, but only when both values are presented as the same quantity of the same
worked example: a name given a new value after a step of the text used it to compute another
(``m_new = max(m, x)`` then ``m = 3.0``; ``l = l·e^{m - m_new} + …``), or after a step label
(``Step 2:``, ``第 2 步``, ``block 2``), is updated, not redefined; so is a name given again in
another section or head (the scopes of :func:`symattn.read.audit.scopes`), or after the case
of an index that heads its formula (``j=2 ("love"): …``). ``d_k`` is a parameter of the whole
text: its second value is a conflict wherever it is given, unless the numbers say it starts a
new example: Q or K given again as wide as it says since its last value. A value a chain
computes, rightly, from written numbers alone (``factor = \\sqrt{64} = 8``,
``d_k = 512/8 = 64``) is the name's value for those inputs, never a second value.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.codes import FindingCode
from symattn.judge.findings import Finding, Join, Message, TextLocation
from symattn.judge.verdict import consistent_with
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding
from symattn.read.defined import (
    is_count,
    is_global,
    is_size,
    is_token_vector,
    key_of,
    width_of,
)
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.extract import ChainText
from symattn.read.messages import fraction_text, say
from symattn.read.notations.roles import INDEX_NAMES, ROW_ROLES
from symattn.read.observations import Stated
from symattn.read.report import text_finding
from symattn.read.roles import RoleName, symbol_role
from symattn.read.rows import pattern
from symattn.read.scalar import Scalar
from symattn.read.syntax import Node, literal_numbers, names

__all__ = [
    "STEP_LABEL",
    "Definition",
    "Definitions",
    "beside_examples",
    "worked_stretch",
    "computed_rightly",
    "holds",
    "same",
    "show_value",
]

#: claims of one literal link: each number as written, and its offset in the link
Claims = list[tuple[Written, int]]


def same(a: Value, b: Value) -> bool:
    """Whether two values are equal: rational entries exactly, irrational ones as one formula."""
    fa, fb = flatten(a), flatten(b)
    if len(fa) != len(fb):
        return False
    for x, y in zip(fa, fb, strict=True):
        rx, ry = x.rational(), y.rational()
        if (rx is None) != (ry is None) or (rx is not None and rx != ry):
            return False
        if rx is None and x != y:
            return False
    return True


def show_value(v: Value) -> str:
    """``0.5`` or ``[1, 2]``; an irrational entry is ``…``."""
    parts = []
    for s in flatten(v):
        r = s.rational()
        parts.append(fraction_text(r) if r is not None else "…")
    return parts[0] if isinstance(v, Scalar) else "[" + ", ".join(parts) + "]"


def holds(
    claims: Claims, scalars: tuple[Scalar, ...], accepted: frozenset[Rounding], limits: Limits
) -> bool:
    """Whether every claim is proved consistent with its value."""
    return all(
        consistent_with(c, v, accepted, limits) for (c, _), v in zip(claims, scalars, strict=False)
    )


def computed_rightly(
    first: Node | None,
    last: Node | None,
    origin: Value | None,
    accepted: frozenset[Rounding],
    limits: Limits,
) -> bool:
    """Whether a chain computes the value it gives its name from written numbers alone
    (its first value ``first``, exactly ``origin``: ``\\sqrt{64}``, ``512/8``) and its last
    link, the number ``last`` written, holds for it: the name's value for the inputs of this
    computation (``factor = \\sqrt{64} = 8``), which may be another example's."""
    if first is None or last is None or origin is None or names(first):
        return False
    if literal_numbers(first) is not None:
        return False  # (a number written, not computed)
    lits = literal_numbers(last)
    if lits is None:
        return False
    scalars = flatten(origin)
    return len(scalars) == len(lits) and holds(lits, scalars, accepted, limits)


@dataclass(frozen=True)
class Definition:
    """One value given to a name, and where."""

    value: Value
    text: str
    line: int
    column: int


#: how many distinct values of one name are kept (and tried in the notes): enough to tell
#: a conflict, bounded so that a name given a thousand values costs no more than ten
MAX_DISTINCT = 8
#: stages a text computes once per query row: their names are reused from row to row
PER_ROW: Final = frozenset(ROW_ROLES)

#: the inputs whose width is d_k (or whose rows are as wide as the keys)
_INPUT_ROLES: Final = frozenset({RoleName.Q, RoleName.K, RoleName.KV})

_NTH = r"(?:first|second|third|fourth|fifth|next|last|final|new)"
STEP_LABEL: Final = pattern(
    "step-label",
    r"\b(?:[Ss]tep|STEP|[Ii]teration|[Bb]lock|[Cc]hunk|[Tt]ile)(?:\s*\d+|\s+[tijk]\b|\s*=)"
    rf"|\b(?:[Aa]fter|[Ff]or|[Pp]rocess(?:ing)?)\s+(?:the\s+)?(?:{_NTH}|\d+(?:st|nd|rd|th))\s+"
    r"(?:step|iteration|block|chunk|tile|score|element|entry|token|key|value|row|column|input)"
    rf"|\b(?:{_NTH})\s+(?:step|iteration|block|chunk|tile)\b"
    r"|\b[Uu]pdat(?:e|es|ed|ing)\b"
    # a case of an index, before the formula of that case (``j=2 ("love"): (…)/1.414 = -0.22``)
    r"|\b[A-Za-z](?:_\w+)?\s*=\s*\d+\s*(?:[(（][^()（）\n]{0,40}[)）]\s*)?"
    r"(?::(?=\s|\\[,;: ]|\\q?quad)|：)"
    # a case, then the value it maps to (``相对距离 +2→$b=-1.0$，+1→$b=-0.3$``)
    r"|(?<![\w.])[-+]?\d+(?:\.\d+)?\s*(?:→|->|\\to\b|\\mapsto)\s*\$?\s*(?=[A-Za-z]\w*\s*=)"
    r"|第\s*[0-9一二三四五六七八九十]+\s*[步轮次块]|步骤\s*[0-9一二三四五六七八九十]|迭代|更新"
    # one query row after another (``For row 1: x_1 = 0.0``): the row's names are its own
    r"|\b(?:[Ff]or\s+)?(?:[Rr]ow|[Qq]uery|[Tt]oken|[Pp]osition)\s*\d{1,3}\s*[:：]"
    r"|第\s*[0-9一二三四五六七八九十]{1,3}\s*[行个]\s*(?:查询|词|token)?\s*[:：]",
    "a step of a computation that updates its variables (an online-softmax trace, a loop "
    "written out): a name given a new value after it is updated, not given a second value",
    (
        "Step 2: $x = 3.0$",
        "**Iteration 3**",
        "Block 2 of the keys",
        "After the second score, $m = 3.0$",
        "processing the next block",
        "the first step",
        "we update the running max",
        "第 2 步：",
        "步骤二",
        "迭代一次后",
        "更新 $m$",
        "step t",
        'j=2 ("love"): (-0.55 + 0.24)/1.414 = -0.22',
        "j=1:\\,1\\cdot0+0\\cdot1=0",
        "+1→$b=-0.3$",
        "0 -> b = 0",
        "i = 1：q_1 = [1, 0]",
        "For row 1: $x_1 = 0.0$",
        "Query 2: x = 0.5",
        "第 2 行：",
    ),
    (
        "the steps of attention",
        "a blocked matrix",
        "stepwise",
        "in a step",
        "round a number",
        "the second row of Q",
        "首先",
        "d_k = 2",
        "j = 2 (love) = 3",
        "x = 12:30",
        "[0.95, 1.2] → softmax",
        "x_2 → 0.5",
    ),
)


def beside_examples(
    findings: Iterable[Finding],
    examples: Sequence[tuple[int, int]],
    offset_of: Callable[[int, int], int],
) -> list[Finding]:
    """``findings`` without the ``conflicting-definition`` of a parameter of the whole text
    (``d_k``) whose second value is written beside every worked example, not in one:
    before the first input of every problem or after its last claim (``In modern
    Transformers, d_k = 64`` above a 2-wide example; ``**Question**: If d_k = 64, what
    scaling factor …`` in the exercises after it). No computation the text checks uses that
    value, so the reader cannot tell an aside from a second value: not an error. A second
    value written between a problem's first input and its last claim (``d_k = 2`` stated,
    then ``d_k = 4`` so that ``[5, 2] ÷ 2``) is one. ``examples``: (first input, last
    claim) offsets of each problem (none: the text has no worked example to be beside, and
    keeps its findings); ``offset_of``: the offset of a (line, column)."""
    out = []
    for f in findings:
        if f.code == FindingCode.CONFLICTING_DEFINITION and isinstance(f.location, TextLocation):
            name = f.claimed.split(" = ", 1)[0]
            at = offset_of(f.location.line, f.location.column)
            if examples and is_global(name) and not any(lo <= at <= hi for lo, hi in examples):
                continue
        out.append(f)
    return out


def worked_stretch(stated: Iterable[Stated]) -> tuple[int, int] | None:
    """Where a text works an example out, when the reader built no problem of it: from the
    first array it gives to the last array it computes (``Output = A · V = […]``: a link
    that is no number between its name and its value); None when it computes none."""
    given: list[int] = []
    computed: list[int] = []
    for st in stated:
        if not any(shape for shape in st.shapes) or st.at < 0:
            continue
        given.append(st.at)
        if len(st.links) > len(st.literals) + (1 if st.label else 0):
            computed.append(max(s.at for lit in st.literals for s in lit))
    if not computed:
        return None
    return min(given), max(computed)


class Definitions:
    """The names of one text, in the order it defines them (local to one audit).

    Conflicts are tracked as definitions come (each new value is compared with the few
    distinct values already kept), so a text that gives one name many values stays linear.
    Names of per-row quantities (``sum``, ``总和``, ``softmax``, ``output``) are redefined
    for each query row, and are not conflicts.
    """

    def __init__(
        self, accepted: frozenset[Rounding], limits: Limits, steps: Sequence[int] = ()
    ) -> None:
        self.accepted = accepted
        self.limits = limits
        #: source offsets of the step labels of the text (:data:`STEP_LABEL`), in order
        self.steps = steps
        #: each name's value as the text gives it
        self.env: dict[str, Value] = {}
        #: each name's exact value (the first expression of its chain)
        self.exact_env: dict[str, Value] = {}
        self._distinct: dict[str, list[Definition]] = {}
        self._keys: dict[str, set[tuple[object, ...]]] = {}
        self._later: dict[str, list[Definition]] = {}
        self._notes: dict[str, list[Message]] = {}
        #: the section (heading) of the chains being read, and where each name was defined
        self.section = 0
        self._section_of: dict[str, int] = {}
        #: where each name was last given a value (a source offset), and the names used in
        #: computing another step since then
        self._at: dict[str, int] = {}
        self._consumed: set[str] = set()
        #: definitions so far; when each name was last given a value; and when an array
        #: was last given a new value of each width (its inputs restated for a new example)
        self._count = 0
        self._when: dict[str, int] = {}
        self._widened: dict[int, int] = {}
        #: the second value of a parameter of the whole text (``d_k``) awaiting the next Q or K
        #: (:meth:`_confirm`)
        self._pending: dict[str, Definition] = {}
        #: the names given again on the line being read (the line, its names and where the
        #: first of them was given; :meth:`_regiven`), and where the last new example starts
        self._line: tuple[int, list[tuple[str, Definition | None]], int] = (0, [], -1)
        self._example = -1

    @staticmethod
    def steps_of(text: str) -> list[int]:
        """The source offsets of the step labels of ``text`` (one linear scan)."""
        return [m.start() for m in STEP_LABEL.scan(text)]

    def given_elsewhere(self, used: Iterable[str]) -> tuple[str, ...]:
        """The names of ``used`` whose value was given in another section than the one being
        read (a later section may work another example with the same names)."""
        return tuple(
            n
            for n in sorted(used)
            if n in self.env and self._section_of.get(n, self.section) != self.section
        )

    def use(self, used: Iterable[str]) -> None:
        """A step of the text computes a value from the names ``used``."""
        self._consumed.update(n for n in used if n in self.env)

    def _updated(self, name: str, at: int) -> bool:
        """Whether a value given to ``name`` at ``at`` updates it: the name was used in a step
        since its last value, or a step label stands between the two, or a new example
        (:meth:`_regiven`) starts between them."""
        if name in self._consumed:
            return True
        last = self._at.get(name)
        if last is None or at < 0:
            return False
        if last < self._example <= at:
            return True
        k = bisect_right(self.steps, last)
        return k < len(self.steps) and self.steps[k] < at

    def _renewed(self, name: str, value: Value) -> bool:
        """Whether, since ``name`` (a parameter of the whole text, ``d_k``) was last given a
        value, an array was given a new value whose width is this one's (``d_k = 4``, or
        ``\\sqrt{d_k} = 2``, after Q and K were given again 4 wide): the inputs of a new
        example, whose d_k this is."""
        if not isinstance(value, Scalar) or (r := value.rational()) is None or r <= 0:
            return False
        since = self._when.get(name, self._count)
        return any(w.denominator == 1 and self._widened.get(int(w), -1) > since for w in {r, r * r})

    def _confirm(self, width: int) -> None:
        """A Q or K ``width`` wide is given: a second ``d_k`` given just before, whose value
        (or root) this width is, starts a new example (``d_k = 64`` in an aside, then ``d_k =
        2`` and a 2-wide Q): its inputs follow it as wide as it says; no conflict."""
        for name, d in list(self._pending.items()):
            r = d.value.rational() if isinstance(d.value, Scalar) else None
            if r is not None and width in (r, r * r):
                later = self._later.get(name, [])
                if d in later:
                    later.remove(d)
                    if not later:
                        self._later.pop(name)
                self._distinct[name] = [d]
                key = key_of(d.value)
                self._keys[name] = {key} if key is not None else set()
        self._pending.clear()

    def define(
        self,
        name: str,
        value: Value,
        exact: Value,
        text: str,
        line: int,
        column: int,
        at: int = -1,
        derived: bool = False,
    ) -> None:
        """``name`` is given ``value`` (exactly ``exact``) by the chain ``text`` (at the
        source offset ``at``); ``derived``: the chain computes it, rightly, from written
        numbers alone (``\\sqrt{64} = 8``, ``512/8 = 64``): the name's value for other
        inputs, a new example's, not a second value of the same quantity."""
        old = self.env.get(name)
        self.env[name] = value
        self.exact_env[name] = exact
        role = symbol_role(name)
        if role is not None and role.role in PER_ROW:
            return
        self._count += 1
        width = width_of(value)
        if width is not None and role is not None and role.role in _INPUT_ROLES:
            self._confirm(width)
        if old is not None and width is not None and width != width_of(old):
            self._widened[width] = self._count
        renewed = is_global(name) and self._renewed(name, value)
        self._when[name] = self._count
        updated = self._updated(name, at)
        self._consumed.discard(name)
        if at >= 0:
            self._at[name] = at
        moved = self._section_of.setdefault(name, self.section) != self.section
        index = name in INDEX_NAMES and is_count(value)
        if derived or renewed or index or ((moved or updated) and not is_global(name)):
            # ``w`` in section "Query love" after ``w`` in "Query I": that section's own;
            # ``m = 3.0`` after ``m_new = max(m, x)``: the running maximum, updated;
            # ``factor = \sqrt{64} = 8`` after ``factor = \sqrt{4} = 2``: another d_k's;
            # ``d_k = 4`` after Q and K were given again, 4 wide: a new example's d_k;
            # ``i = 1`` after ``i = 6``: a running index at its next case
            self._section_of[name] = self.section
            self._distinct.pop(name, None)
            self._keys.pop(name, None)
        d = Definition(value, text, line, column)
        if (
            old is not None
            and not is_global(name)
            and (is_size(value) or is_token_vector(name, value))
            and self._regiven(name, d, at)
        ):
            return
        distinct = self._distinct.setdefault(name, [])
        keys = self._keys.setdefault(name, set())
        key = key_of(value)
        if key is not None:
            if key in keys:
                return
            keys.add(key)
        elif any(same(value, e.value) for e in distinct):
            return
        if len(distinct) < MAX_DISTINCT:
            distinct.append(d)
        if len(keys) + sum(1 for e in distinct if key_of(e.value) is None) > 1:
            self._later.setdefault(name, []).append(d)
            if is_global(name):
                self._pending[name] = d

    def _regiven(self, name: str, d: Definition, at: int) -> bool:
        """Whether ``name``, a size given a value before, is given one again beside another
        such name on one line (``B=1, T=2, d=4`` after ``B=2, T=5, d=8``): the parameters of a
        new worked example, which starts there. Its names and those given on that line before
        are then that example's own (their earlier conflicts on the line withdrawn), and so is
        every name given again after it; True when ``name`` is."""
        line, names, first = self._line
        if line != d.line:
            line, names, first = d.line, [], at
        names.append((name, None))
        self._line = (line, names, first)
        if len(names) < 2:
            names[-1] = (name, d)
            return False
        if self._example != first:
            self._example = first
            for other, od in names[:-1]:
                later = self._later.get(other, [])
                if od is not None and od in later:
                    later.remove(od)
                    if not later:
                        self._later.pop(other)
                if od is not None:
                    self._only(other, od)
        self._only(name, d)
        names[-1] = (name, d)
        return True

    def _only(self, name: str, d: Definition) -> None:
        """``d`` is the one value ``name`` has been given (a new example's own)."""
        self._distinct[name] = [d]
        key = key_of(d.value)
        self._keys[name] = {key} if key is not None else set()

    def conflicted(self, used: frozenset[str] | None = None) -> dict[str, list[Definition]]:
        """Each name (of ``used``) given more than one value, with its first distinct
        definitions."""
        names = self._later if used is None else (n for n in used if n in self._later)
        return {n: self._distinct[n] for n in names if len(self._distinct[n]) > 1}

    def note_conflicts(
        self,
        chain: ChainText,
        node: Node | None,
        claims: Claims,
        conflicted: Mapping[str, list[Definition]],
        holding: dict[str, set[int]],
    ) -> None:
        """For each conflicted name, the definitions under which this claim holds."""
        if node is None:
            return
        for name, defs in conflicted.items():
            ok = set()
            for k, d in enumerate(defs):
                env = dict(self.env)
                env[name] = d.value
                try:
                    scalars = flatten(evaluate(node, env, limits=self.limits))
                except SymattnError:
                    continue
                if len(scalars) == len(claims) and holds(
                    claims, scalars, self.accepted, self.limits
                ):
                    ok.add(k)
            if ok and len(ok) < len(defs):
                holding.setdefault(name, set()).update(ok)
                values = ", ".join(f"{name} = {show_value(defs[k].value)}" for k in sorted(ok))
                self._notes.setdefault(name, []).append(
                    say("holds-only", formula=chain.text, line=chain.line, values=values)
                )

    def findings(self) -> list[Finding]:
        """``conflicting-definition`` for each later value of a name, with its notes."""
        out = []
        for name, later in self._later.items():
            first = self._distinct[name][0]
            for d in later:
                notes = self._notes.get(name, [])
                msg = say(
                    "conflicting-definition",
                    name=name,
                    first=show_value(first.value),
                    first_line=first.line,
                    second=show_value(d.value),
                    second_line=d.line,
                    notes=Join(tuple(notes), "; ", " ") if notes else "",
                )
                out.append(
                    text_finding(
                        "conflicting-definition",
                        d.line,
                        d.column,
                        f"{name} = {show_value(d.value)}",
                        f"{name} = {show_value(first.value)}",
                        None,
                        msg,
                        f"{name}: line {first.line} vs line {d.line}",
                    )
                )
        return out
