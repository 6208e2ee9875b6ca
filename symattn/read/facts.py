"""Stage 3a: every array and number the text states, with what it is (its role).

A :class:`Fact` is an array (or one number) the text gives or states: its entries where they are
written, its shape, its role (a stage of attention,
:data:`~symattn.read.notations.roles.ROLES`), whether the text gives it (an input it defines) or
states it (a result it claims), and what its name says about its row, token or head. Roles come,
most trusted first, from the name the text gives the array (an assignment, a chain's label, a
printed label), from the phrase in front of it (``Attention weights:``), and from the prose
before it (``Step 5: Apply Softmax``): :mod:`symattn.read.naming`. An array whose role cannot
be told is kept as a fact without a role: it is read, and reported as not judged with that
reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from symattn.errors import SymattnError
from symattn.numbers import parse_number
from symattn.read.arrays import Grid
from symattn.read.blocks import BlockKind
from symattn.read.dataflow import Derivation, Flows, derive
from symattn.read.kinds import Placement, RoleSource, WrittenIn
from symattn.read.naming import (
    array_role,
    call_argument,
    row_named,
    softmax_argument,
    softmax_value,
    token_labeled,
)
from symattn.read.notations import (
    EXP_FIRST,
    EXP_OVER_ROOT,
    EXPRESSION_LINE,
    NEG_INFINITY,
    PROJECTION_LINK,
    SCALED_FIRST,
    SCALED_ITEMS,
    SQRT_DK,
    SQRT_DK_TEXT,
    SUBSCRIPT_INDEX,
)
from symattn.read.notations.roles import INPUT_ARRAYS, ROW_ROLES
from symattn.read.observations import Spot, Stated
from symattn.read.products import Array, product_row
from symattn.read.python import expr_text
from symattn.read.reading import Placed, Reading
from symattn.read.roles import Role, RoleName, phrase_role, stage_rank, symbol_role
from symattn.read.symbolic.sym import STAGES
from symattn.read.tables import Table

__all__ = ["Fact", "facts_of_reading"]

#: roles a text gives (inputs); the others it states (results)
INPUT_ROLES: Final = INPUT_ARRAYS | frozenset(
    {
        RoleName.MASK,
    }
)


@dataclass(frozen=True)
class Fact:
    """An array or a number the text gives or states."""

    role: RoleName | None  # a stage, or None when unknown
    spots: tuple[Spot | None, ...]  # row-major; None for -inf or an elided entry
    dims: tuple[int, ...]
    given: bool
    name: str
    at: int
    block: int
    how: WrittenIn
    index: int | None = None  # the row (query) the name numbers, as the text counts (from 0 or 1)
    token: str = ""  # the token the name names
    head: int | None = None
    row_names: tuple[str, ...] = ()
    col_names: tuple[str, ...] = ()
    col: str = ""  # score(row, col): the key
    masked: tuple[bool, ...] = ()  # -inf entries
    exponent: str = ""  # e^{x}: the x written
    elided: bool = False
    #: for a printed array, what the code computed it from
    derivation: Derivation | None = None
    #: where the role was read: name, label, context, code
    source: RoleSource = RoleSource.NONE
    #: a value the code computed (printed): its inputs are what the code says, or unknown
    computed: bool = False
    #: a number its chain computes from written numbers alone (``d_k = 512/8 = 64``)
    derived: bool = False

    @property
    def size(self) -> int:
        """How many entries."""
        return len(self.spots)


def _spots_of(grid: Grid, src_position: object) -> tuple[tuple[Spot | None, ...], tuple[bool, ...]]:
    from_position = src_position
    assert callable(from_position)
    spots: list[Spot | None] = []
    masked: list[bool] = []
    for e in grid.entries:
        if e.written is None:
            spots.append(None)
            masked.append(e.text.lower() in NEG_INFINITY.words)
        else:
            line, col = from_position(e.at)
            spots.append(Spot(e.written, line, col, e.at))
            masked.append(False)
    return tuple(spots), tuple(masked)


def _from_role(r: Role | None) -> dict[str, object]:
    if r is None:
        return {"role": None}
    return {"role": r.role, "index": r.index, "token": r.token, "head": r.head, "col": r.col}


def facts_of_reading(reading: Reading, stated: tuple[Stated, ...], computed: Flows) -> list[Fact]:
    """The facts of a text: its arrays (outside LaTeX), its tables and its chains.

    ``computed`` maps the offset of each expression the code shows to what it computes
    (:func:`symattn.read.dataflow.flows`).
    """
    out: list[Fact] = []
    in_chains = {sp.at for s in stated for lit in s.literals for sp in lit}
    in_tables = {e.at for _, t in reading.tables for e in t.entries()}
    for placed in reading.grids:
        entries = [e for e in placed.grid.entries if e.written is not None]
        if entries and all(e.at in in_chains or e.at in in_tables for e in entries):
            continue  # the same array, read in a formula or a table: that says what it is
        fact = _grid_fact(reading, placed, computed)
        out.append(fact)
        out.extend(_also(fact, placed.names))
    for block, table in reading.tables:
        out.extend(_table_facts(reading, block, table))
    written_out: list[tuple[int, Stated]] = []
    for s in stated:
        f = _stated_fact(reading, s)
        if f is not None:
            if not f.role and len(f.dims) == 1:
                written_out.append((len(out), s))
            out.append(f)
            out.extend(_also(f, (s.label, *s.links[:-1])))
    _products(out, written_out)
    out.extend(_divisors_in_prose(reading))
    out.sort(key=lambda f: f.at)
    return [_index_of_rows(f) for f in out]


def counting_base(facts: Sequence[Fact], members: Sequence[int]) -> int:
    """How the text counts its rows and keys: from 0 when one of its names or labels is
    numbered 0 (``第0行``, ``w_0``), else from 1."""
    zero = any(facts[i].index == 0 or facts[i].col == "0" for i in members)
    return 0 if zero else 1


#: the stages whose rows or columns a row written out as products may be made of
_FACTOR_ROLES: Final = frozenset({RoleName.WEIGHTS, RoleName.V, RoleName.Q, RoleName.K})


def _products(out: list[Fact], written_out: Sequence[tuple[int, Stated]]) -> None:
    """The rows without a role whose first link writes them out as the products of a row
    of the text's weights and its V (or of Q and K): that query's output (or scores), by
    their numbers (:func:`symattn.read.products.product_row`)."""
    if not written_out:
        return
    arrays: dict[RoleName, list[Array]] = {}
    for f in out:
        if f.role in _FACTOR_ROLES and len(f.dims) == 2:
            values = tuple(None if sp is None else sp.written.value for sp in f.spots)
            arrays.setdefault(f.role, []).append((f.dims, values))
    if not arrays:
        return
    base = counting_base(out, range(len(out)))
    for i, s in written_out:
        found = product_row(s.node, arrays)
        if found is not None:
            stage, row = found
            out[i] = replace(out[i], role=stage, index=row + base, source=RoleSource.REPRODUCED)


def _index_of_rows(f: Fact) -> Fact:
    """A row number on an array of several rows names no row of it (``Q_1``, a 3×2
    matrix, is no query row; nor is a matrix printed after ``query = inputs[1]``), as a
    single number's index names its key: the shape decides, not the name. It is kept as
    the head (or version) the array may belong to: words that order the readings of the
    inputs, which the numbers decide (:mod:`~symattn.read.origin`)."""
    if f.index is None or len(f.dims) != 2 or f.dims[0] < 2:
        return f
    return replace(f, index=None, head=f.head if f.head is not None else f.index)


def _divisors_in_prose(reading: Reading) -> list[Fact]:
    """``此处假设根号后为2``: the divisor stated in words, a claim like ``\\sqrt{d_k} = 2``."""
    out = []
    text = reading.src.text
    for i, b in enumerate(reading.blocks):
        if b.kind is not BlockKind.PROSE:
            continue
        for m in SQRT_DK_TEXT.scan(text[b.start : b.end]):
            group = "n" if m.group("n") is not None else "n2"
            at = b.start + m.start(group)
            try:
                written = parse_number(m.group(group))
            except SymattnError:
                continue
            line, column = reading.src.position(at)
            spot = Spot(written, line, column, at)
            fact = Fact(RoleName.DIVISOR, (spot,), (), False, "sqrt(d_k)", at, i, WrittenIn.TEXT)
            out.append(fact)
    return out


def _also(f: Fact, names: Sequence[str]) -> list[Fact]:
    """``Q = K = V = [...]``: the same array under each other input name it is given."""
    if not f.given:
        return []
    out = []
    seen = {f.role}
    for n in names:
        r = symbol_role(n) if n else None
        if r is not None and r.role in INPUT_ROLES and r.role not in seen and r.index is None:
            seen.add(r.role)
            out.append(replace(f, role=r.role, name=n, at=f.at))
    return out


#: where a fact is written, by how its array was found (else: in running text)
_WRITTEN_IN: Final = {
    Placement.CODE: WrittenIn.CODE,
    Placement.COMMENT: WrittenIn.COMMENT,
    Placement.OUTPUT: WrittenIn.PRINTOUT,
}


def _grid_fact(reading: Reading, placed: Placed, computed: Flows) -> Fact:
    g = placed.grid
    spots, masked = _spots_of(g, reading.src.position)
    names = [n for n in (placed.names or ()) if n]
    sh = reading.shown.get(g.start)
    flow = computed.shown.get(sh.at) if sh is not None else None
    if sh is not None:
        names.append(expr_text(sh.expr))
    context = reading.context(placed.block, g.start)
    role, name = (
        array_role(names, g.label, context) if placed.how is not Placement.OPERAND else (None, "")
    )
    call = call_argument(reading.src.text, g.start)
    if call is not None:
        role, name = Role(call), name or g.label
    elif (role is None or role.role is RoleName.WEIGHTS) and softmax_argument(
        reading.src.text, g.start
    ):
        role = Role(RoleName.SCALED, role.index if role else None, role.token if role else "")
    elif (role is None or role.role is RoleName.WEIGHTS) and (
        claimed := softmax_value(reading.src.text, g.start)
    ):
        # ``softmax([2.0, 1.0, 1.0]) → [0.50, 0.25, 0.25]``: the author's claim of a softmax
        role = Role(RoleName.WEIGHTS, role.index if role else None, role.token if role else "")
        name = claimed
    source = (
        RoleSource.NAME
        if role is not None and name in names
        else RoleSource.LABEL
        if name
        else RoleSource.CONTEXT
    )
    derivation = None
    code_row = computed.query_row.get(sh.at) if sh is not None else None
    if (
        role is not None
        and code_row is not None
        and (flow is None or flow.kind not in STAGES)
        and role.index is None
        and not role.token
    ):
        # what the code shows after `query = inputs[1]`, and cannot be followed: for that row
        role = Role(role.role, code_row + 1)
    if flow is not None and flow.kind in STAGES:
        role = Role(RoleName(flow.kind), flow.row + 1 if flow.row is not None else None)
        derivation = derive(flow)
        source = RoleSource.CODE
    if (
        role is not None
        and role.role in _ROW_ROLES
        and role.index is None
        and not role.token
        and g.label
        and (g.dims is None or len(_squeezed(g.dims)) == 1)
        and (row := row_named(g.label + ":")) is not None  # (a label ends with its colon)
    ):
        role = replace(role, index=row)  # ``Position 0: [1.00, 0.00, 0.00]``
    how = _WRITTEN_IN.get(placed.how, WrittenIn.TEXT)
    given = how is WrittenIn.CODE or (
        role is not None and role.role in INPUT_ROLES and how is not WrittenIn.COMMENT
    )
    dims = _squeezed(g.dims) if g.dims is not None else (len(g.entries),)
    return Fact(
        derivation=derivation,
        computed=sh is not None
        or placed.block in reading.printed
        or (placed.block in reading.outputs and bool(g.wrapper)),
        source=source if role is not None else RoleSource.NONE,
        spots=spots,
        dims=dims,
        given=given,
        name=name,
        at=g.start,
        block=placed.block,
        how=how,
        row_names=_row_names(g.notes),
        masked=masked,
        elided=g.elided,
        **_from_role(role),  # type: ignore[arg-type]
    )


_TOKEN_HEAD: Final = re.compile(r"(?i)^(?:token|word|词|詞|tokens?\s*index|query|key)$")


def _table_facts(reading: Reading, block: int, table: Table) -> list[Fact]:
    """One fact per column of a table whose heading names a stage; rows named by the first
    column when it holds words."""
    out: list[Fact] = []
    if not table.rows:
        return out
    first = table.column(0)
    words_first = all(c is not None and c.grid is None for c in first)
    row_names = (
        tuple(c.text.strip(" \"'“”「」") if c is not None else "" for c in first)
        if words_first
        else ()
    )
    for j, head in enumerate(table.header):
        if j == 0 and words_first:
            continue
        role = symbol_role(head) or phrase_role(head)
        cells = table.column(j)
        grids = [c.grid for c in cells if c is not None]
        if len(grids) != len(cells) or not grids or any(g is None for g in grids):
            continue
        spots: list[Spot | None] = []
        for g in grids:
            assert g is not None
            s, _ = _spots_of(g, reading.src.position)
            spots.extend(s)
        widths = {len(g.entries) for g in grids if g is not None}
        if len(widths) != 1:
            continue
        width = widths.pop()
        dims = (len(grids), width) if width > 1 else (len(grids),)
        at = grids[0].start if grids[0] is not None else table.start
        out.append(
            Fact(
                spots=tuple(spots),
                dims=dims,
                given=role is not None and role.role in INPUT_ROLES,
                name=head,
                at=at,
                block=block,
                how=WrittenIn.TABLE,
                row_names=row_names,
                # (the column's heading is the author's own name for it)
                source=RoleSource.NAME if role is not None else RoleSource.NONE,
                **_from_role(role),  # type: ignore[arg-type]
            )
        )
    return out


#: stages stated one query row at a time
_ROW_ROLES: Final = frozenset(ROW_ROLES)


def _row_names(notes: tuple[str, ...]) -> tuple[str, ...]:
    """The notes after the rows of an array as the names of its rows, when each row has one
    and they differ (runs of blanks as one: ``# Your     (x^1)`` names ``Your (x^1)``)."""
    names = tuple(" ".join(n.split()) for n in notes)
    return names if names and all(names) and len(set(names)) == len(names) else ()


def _symbolic(text: str) -> bool:
    """Whether a link is a name, not arithmetic (``0.39 * v1`` is arithmetic; ``K2`` and
    ``v_1`` are names: their digits number them)."""
    if _NUMBERED.fullmatch(text.strip()):
        return True
    text = _ROOT_OF.sub("", SUBSCRIPT_INDEX.regex.sub("", text))
    return not any(ch.isdigit() for ch in text)


def _unlabelled(text: str) -> str:
    """A link without the words that head it (``Keys:  K1``: ``K1``)."""
    m = _HEADED.fullmatch(text)
    return m["name"] if m is not None else text


#: a name after a label or words: ``Keys:  K1``, ``值：V1``, ``Keys are k1`` (a numbered
#: name: ``scaled scores`` is no label and a name)
_HEADED: Final = re.compile(
    r"(?:[^=:：]{1,40}[:：]|(?:[A-Za-z]{2,20}\s+){1,4})\s*"
    r"(?P<name>[A-Za-z]{1,3}(?:\d{1,3}|_\{?\d{1,3}\}?))"
)
#: a layer's parameter matrix: ``W``, ``W_a``, ``W^{(1)}`` (the projections are named apart)
_PARAMETER: Final = re.compile(r"W(?:_\{?[\w()]{1,8}\}?|\^\{?[\w()]{1,8}\}?)?")
#: one term of a weighted sum: a number times one named vector (``0.39 * v1``)
_ONE_TERM: Final = re.compile(r"[-+]?\d*\.?\d+\s*[*×·]\s*[A-Za-z]{1,12}(?:_?\{?\w{1,12}\}?)?")
#: a name numbered by its digits (``K2``, ``v1``, ``q12``): a name, not arithmetic
_NUMBERED: Final = re.compile(r"[A-Za-z]{1,12}\d{1,3}")


#: a root written with its number (``\\sqrt{3}``, ``√3``): part of a name like ``QK^T/√3``
_ROOT_OF: Final = re.compile(r"\\sqrt\s*\{?\s*\d+\s*\}?|√\s*\d+")


def _squeezed(dims: tuple[int, ...]) -> tuple[int, ...]:
    """A matrix of one row or one column is a vector (``\\begin{bmatrix} a \\\\ b
    \\end{bmatrix}`` written for a row of weights)."""
    if len(dims) == 2 and 1 in dims and dims != (1, 1):
        return (max(dims),)
    return dims


def _stated_fact(reading: Reading, s: Stated) -> Fact | None:
    """The fact a chain states: its last literal link, named by the chain's label or its
    symbolic links."""
    if not s.literals:
        return None
    last = s.literals[-1]
    dims = _squeezed(s.shapes[-1] if s.shapes else (len(last),))
    role: Role | None = None
    name = s.label or s.first
    exponent_text = ""
    own = True  # the role comes from the chain itself, not from the step before
    heard = False  # the role comes from the prose above the chain
    scaled_items = (
        bool(SCALED_ITEMS.regex.match(s.first[s.first.find("[") :].replace(" ", "")[:400]))
        if "[" in s.first
        else False
    )
    first_plain = s.first.replace("{", "").replace("}", "")
    tail = first_plain[max(first_plain.rfind("e^"), first_plain.rfind("exp"), 0) :]
    if (m := EXP_FIRST.regex.match(tail.strip())) is not None:
        role = Role(RoleName.EXP)
        exponent_text = m.group("a") or m.group("b") or ""
    elif (
        m := EXP_OVER_ROOT.regex.match(s.first[max(s.first.rfind("e^"), 0) :].strip())
    ) is not None:
        role = Role(RoleName.EXP)  # e^{1/\sqrt{2}}: its exponent is placed by value (read.placing)
        exponent_text = m.group("a")
    elif SQRT_DK.regex.match(s.first.replace("{", "").replace("}", "")):
        # (``√d_k ≈ 1.41 → [0.47, 0.75, 0.27]``: the step after the divisor is the scores
        # divided by it; a divisor is one number)
        role = Role(RoleName.SCALED if s.stepped and dims else RoleName.DIVISOR)
    elif SCALED_FIRST.regex.match(s.first):
        role = Role(RoleName.SCALED)
    if role is None:
        found = [
            (r, text)
            for text in map(_unlabelled, (s.label, *s.links[:-1]))
            if text and _symbolic(text) and (r := symbol_role(text)) is not None
        ]
        if found:
            role, name = max(found, key=lambda rt: stage_rank(rt[0].role))
            own = name != s.label
    # (a number times one named vector, ``0.39 * v1``, is one term of a weighted sum, no
    # stage: arithmetic too)
    # (so is a layer's parameter, ``W_a = [0.1, 0.2, 0.3]``: no stage, whatever the words
    # say, ``注意力权重矩阵``)
    arithmetic = bool(
        EXPRESSION_LINE.regex.fullmatch(s.first)
        or _ONE_TERM.fullmatch(s.first.strip())
        or _PARAMETER.fullmatch(name.strip())
    )
    if role is None and s.before and not arithmetic:
        role = symbol_role(s.before) or phrase_role(s.before)
    if role is None:
        # words: in the formula (`Softmax = […]`, `Scores become […]`), on the line above
        # (`Probabilities:`), and a vector of scores over one divisor: the latest stage named.
        # A value of other arithmetic on written numbers (``[0.55, …]*[[1, 0], …] = […]``)
        # is what its chain says it is, not what the words around it name.
        above = reading.context(reading.block_of(s.at), s.at).rsplit("\n", 2)
        candidates = [
            (None if arithmetic else phrase_role(s.first), True),
            (None if arithmetic or len(above) < 2 else phrase_role(above[-2]), False),
            (Role(RoleName.SCALED) if scaled_items else None, True),
        ]
        found_roles = [(r, mine) for r, mine in candidates if r is not None]
        if found_roles:
            role, own = max(found_roles, key=lambda rm: stage_rank(rm[0].role))
            # (a stage the line above names is the prose's word for it: "context", which
            # the numbers may overrule and no accusation rests on alone)
            heard = not own
    spots = tuple(last)
    # (``Q = XW_Q = [...]``: a projection written before the array makes it computed)
    projected = any(PROJECTION_LINK.regex.match(t) for t in s.links[:-1])
    given = role is not None and role.role in INPUT_ROLES and not projected
    fact = Fact(
        spots=spots,
        dims=dims,
        given=given,
        name=name,
        at=s.at,
        block=reading.block_of(s.at),
        how=WrittenIn.MATH,
        row_names=s.row_names
        if s.row_names and len(dims) == 2 and dims[0] == len(s.row_names)
        else (),
        exponent=exponent_text,
        derived=s.derived,
        source=RoleSource.NONE
        if role is None
        else RoleSource.CONTEXT
        if heard
        else RoleSource.INHERITED
        if s.stepped and not own
        else RoleSource.NAME,
        **_from_role(role),  # type: ignore[arg-type]
    )
    if role is not None and fact.dims == () and fact.index is not None and not role.col:
        # w_1 = 0.82: the weight of key 1 (a single number names its key, not its row)
        fact = replace(fact, col=str(fact.index), index=None)
    if role is not None and fact.index is None and not fact.token and len(fact.dims) <= 1:
        row = row_named(s.first)
        if row is None:
            row = row_named(reading.context(fact.block, s.at))
        if row is None:
            row = row_named(reading.lead_in(fact.block))  # ``Row 1:`` above the list
        if row is not None:
            fact = replace(fact, index=row)
        elif role.role in _ROW_ROLES and (token := reading.section_query(fact.block)):
            fact = replace(fact, token=token)  # under ``## Query love``: love's row
        elif role.role in INPUT_ARRAYS and (token := token_labeled(reading.src.text, s.at)):
            fact = replace(fact, token=token)  # ``Word "cat" → Q = […]``: cat's vector
    if role is not None and role.col:
        named = role.row
        fact = replace(
            fact,
            index=int(named) if named.isdigit() else None,
            token="" if named.isdigit() else named,
            col=role.col,
        )
    return fact
