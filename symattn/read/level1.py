"""Level 1: every chain ``a = b ≈ c`` of a text, judged link by link.

Every link that is a written number (or array of numbers) is a claim about the nearest
expression on its left; a sum of written numbers after a sum of terms claims each term
(``0.82 × 10 + 0.18 × 30 = 8.2 + 5.4``). Each claim is judged as written and with the
exact values of what the text rounded before (:mod:`symattn.read.claims`). Names the text
defines are remembered (:mod:`symattn.read.definitions`); a step ``→`` starts a new chain
that keeps the name of the one before. What each chain states is kept for the problem
behind the text (:class:`~symattn.read.observations.Stated`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.findings import Finding
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding
from symattn.read.claims import Judging, Known, Stood
from symattn.read.definitions import Definition, Definitions, computed_rightly, holds
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.extract import ChainText, Link
from symattn.read.intervals import in_root_frame, overlaps, right_within_printed, rounded_interval
from symattn.read.links import NOTHING, Parsed, label_of, read_first, read_link, unknown_math
from symattn.read.notations import PROSE_SENTENCE, SUBSCRIPT_INDEX
from symattn.read.observations import Spot, Stated
from symattn.read.report import Unparsed
from symattn.read.scalar import Scalar
from symattn.read.sums import pairs, terms
from symattn.read.syntax import (
    Call,
    Node,
    Ref,
    literal_numbers,
    literal_shape,
    names,
    numbers_in,
    parse,
)
from symattn.read.tokens import ExprError

__all__ = ["Level1", "judge_chains", "value_key"]


@dataclass(frozen=True)
class Level1:
    """What Level 1 found, and what it leaves to the problem behind the text."""

    findings: tuple[Finding, ...]
    unparsed: tuple[Unparsed, ...]
    checked: int
    stated: tuple[Stated, ...]
    seen: frozenset[int]  # source offsets of the numbers Level 1 judged


@dataclass
class _Run:
    """Mutable state of one Level 1 pass (local to one call of :func:`judge_chains`)."""

    judging: Judging
    names: Definitions
    known: Mapping[str, tuple[tuple[int, Known], ...]]
    unparsed: list[Unparsed] = field(default_factory=list)
    stated: list[Stated] = field(default_factory=list)
    #: numbers the text wrote as roundings, by value: what they round (None: ambiguous)
    rounded: dict[str, list[tuple[int, Known]]] = field(default_factory=dict)
    #: the source offset of the chain being judged
    at: int = 0
    #: the numbers stated so far, by their shorter roundings (``0.7071`` by ``0.71``)
    stood: Stood = field(default_factory=Stood)

    def known_at(self, key: str) -> Known | None:
        """The exact value of the number ``key`` stated last before the chain being judged
        (or the only one stated)."""
        places = self.known.get(key, ())
        before = [k for at, k in places if at < self.at]
        if before:
            return before[-1]
        return places[0][1] if len(places) == 1 else None

    @property
    def limits(self) -> Limits:
        return self.judging.limits


def value_key(w: Written) -> str:
    """The key a written number is known by (``1.41`` and ``1.410`` are one number)."""
    return str(w.value)


def judge_chains(
    found: list[ChainText],
    *,
    accepted: frozenset[Rounding],
    limits: Limits,
    known: Mapping[str, tuple[tuple[int, Known], ...]] | None = None,
    sections: Sequence[int] = (),
) -> Level1:
    """Judge every chain; math that cannot be read is listed as unparsed, with the reason.

    ``known`` gives the exact values of numbers the text states elsewhere (the weights of
    the problem behind it), by :func:`value_key`; ``sections`` the section (heading) each
    chain is in (a name given again in another section is that section's own).
    """
    steps = Definitions.steps_of(found[0].links[0].src.text) if found else []
    run = _Run(Judging(accepted, limits), Definitions(accepted, limits, steps), known or {})
    run.stood.add_known(run.known)
    for k, whole in enumerate(found):
        run.names.section = sections[k] if k < len(sections) else 0
        name = ""
        for chain in _steps(whole):
            try:
                name = _step(run, chain, name)
            except (ExprError, SymattnError) as e:
                if chain.kind == "text" and PROSE_SENTENCE.regex.search(chain.text):
                    continue  # a sentence with an '=' in it, not math
                run.unparsed.append(Unparsed(chain.line, chain.text[:200], str(e)))
            except RecursionError:
                run.unparsed.append(Unparsed(chain.line, chain.text[:200], "nested too deeply"))
    j = run.judging
    j.settle()
    undecided = [Unparsed(line, claim, why) for line, claim, why in j.undecided]
    return Level1(
        (*j.findings, *run.names.findings()),
        (*run.unparsed, *undecided),
        j.checked,
        tuple(run.stated),
        frozenset(j.seen),
    )


def _steps(chain: ChainText) -> list[ChainText]:
    """A chain cut at its ``→`` steps (``[0.95, …] → softmax(x_i) → [0.14, …]``): each step is
    a chain of its own, since a step is no equality."""
    if not any(ln.relation == "→" for ln in chain.links):
        return [chain]
    out: list[list[Link]] = [[]]
    for ln in chain.links:
        if ln.relation == "→":
            out.append([replace(ln, relation="")])
        else:
            out[-1].append(ln)
    return [
        ChainText(tuple(links), chain.kind, chain.before if k == 0 else "", chain.row_names)
        for k, links in enumerate(out)
        if links
    ]


def _step(run: _Run, chain: ChainText, name: str) -> str:
    """Judge one step of a chain; the name the next step inherits (the name of this one, or
    of the one before when this one starts with a value)."""
    first = chain.links[0]
    try:
        node = parse(first.text, limits=run.limits, normalized=True) if first.text else None
    except SymattnError:
        node = None
    got = literal_numbers(node) if node is not None else None
    if got is not None and node is not None:
        # `→ [0.9544, 1.4950, …]`: a value the step before names
        run.stated.append(
            Stated(
                name,
                name,
                None,
                (tuple(Spot(w, *first.at(off), first.offset(off)) for w, off in got),),
                chain.line,
                (literal_shape(node),),
                (name, *(ln.text for ln in chain.links[1:]), first.text),
                chain.start,
                chain.before,
                stepped=True,
            )
        )
        if len(chain.links) > 1:
            _process(run, chain)
        return name
    if len(chain.links) > 1:
        _process(run, chain)
    return first.text or name


def _process(run: _Run, chain: ChainText) -> None:
    links = chain.links
    run.at = chain.start
    # the longest formula judged: no worked example writes one of 20 000 characters, and a
    # sum of tens of thousands of terms takes seconds
    if (n := sum(len(ln.text) for ln in links)) > run.limits.max_formula_length:
        what = f"a formula of {n} characters is not judged"
        raise ExprError(str(run.limits.exceeded("max_formula_length", what)))
    if not any(ch.isdigit() for ln in links for ch in SUBSCRIPT_INDEX.regex.sub("", ln.text)):
        return  # symbolic formula (``q_{3} = x_{3} W^{Q}``): nothing numeric to check
    first = read_first(links[0].text, run.limits)
    if first.kind == "none" and (why := unknown_math(links[0].text, run.limits)) is not None:
        # math the grammar does not know: said, not dropped (the other links still say)
        run.unparsed.append(Unparsed(chain.line, chain.text[:200], why))
    label = first.label if first.kind == "label" else ""
    if first.kind == "none" and chain.before and not links[0].text.strip():
        label = label_of(chain.before, run.limits) or ""
    parsed: list[Parsed] = [first]
    errors: list[str] = []
    for i, ln in enumerate(links[1:], start=1):
        try:
            parsed.append(read_link(ln.text, i == len(links) - 1, run.limits))
        except (ExprError, SymattnError) as e:
            if i == len(links) - 1:
                raise
            errors.append(str(e))  # a link that is not arithmetic: the others still say
            parsed.append(NOTHING)
    used = frozenset().union(*(names(p.node) for p in parsed if p.node is not None))
    conflicted = run.names.conflicted(used)
    _remember(run, chain, label, first, parsed)
    env = run.names.env
    if first.node is not None and any(n not in env and n != "e" for n in names(first.node)):
        # `q_1 · k_1 = 1×1 + 2×2 = 5`: a first link with unknown names only names the chain
        parsed[0] = NOTHING
    values, exact_values, constants = _evaluate(run, parsed, errors)
    before = run.judging.checked
    _judge_claims(run, chain, parsed, values, exact_values, constants, conflicted)
    _define(run, chain, label, parsed, values, exact_values, used)
    if (
        run.judging.checked == before
        and errors
        and any(literal_numbers(p.node) is not None for p in parsed[1:] if p.node is not None)
    ):
        raise ExprError(errors[0])


def _overrides(run: _Run, node: Node) -> tuple[dict[int, Scalar], Known | None]:
    """The numbers of an expression the text wrote earlier as roundings, with their exact
    values (by their offset in the link), and the constant among them, if any."""
    out: dict[int, Scalar] = {}
    constant: Known | None = None
    for num in numbers_in(node):
        w = num.written
        if w.kind not in ("decimal", "scientific"):
            continue
        key = value_key(w)
        # the problem's exact value first (Level 1's own may rest on a name it misread)
        k = run.known_at(key) or (_rounded_at(run, key) if _rounding_like(w) else None)
        if k is None or num.pos < 0:
            continue
        out[num.pos] = k.value
        if k.constant:
            constant = k
    return out, constant


def _evaluate(
    run: _Run, parsed: list[Parsed], errors: list[str]
) -> tuple[list[Value | None], list[Value | None], list[Known | None]]:
    """The value of each link as the text writes it, and exactly (names with their exact
    values, numbers written as roundings with theirs); None for a link that is not an
    expression, or names what the text does not define (``QK^T``)."""
    env, exact_env = run.names.env, run.names.exact_env
    values: list[Value | None] = []
    exact_values: list[Value | None] = []
    constants: list[Known | None] = []
    last_node: Node | None = None
    for i, p in enumerate(parsed):
        if p.node is None:
            values.append(None)
            exact_values.append(None)
            constants.append(None)
            continue
        literal = i > 0 and literal_numbers(p.node) is not None
        # a sum of numbers after a sum of terms claims those terms (`= 0.04 + 0.10 + 0.18`):
        # its numbers are claims, not ingredients written as roundings
        claims_terms = last_node is not None and pairs(last_node, p.node) is not None
        over, constant = ({}, None) if literal or claims_terms else _overrides(run, p.node)
        last_node = p.node
        try:
            as_written = evaluate(p.node, env, limits=run.limits)
            differs = over or any(
                env[n] is not exact_env.get(n, env[n]) for n in names(p.node) if n in env
            )
            exact = (
                evaluate(p.node, exact_env, limits=run.limits, overrides=over)
                if differs
                else as_written
            )
        except ExprError as e:
            if not isinstance(p.node, Ref):  # a name alone (``Q = K = [...]``) is no error
                errors.append(str(e))
            values.append(None)
            exact_values.append(None)
            constants.append(None)
            continue
        values.append(as_written)
        exact_values.append(exact)
        constants.append(constant)
    return values, exact_values, constants


def _judge_claims(
    run: _Run,
    chain: ChainText,
    parsed: list[Parsed],
    values: list[Value | None],
    exact_values: list[Value | None],
    constants: list[Known | None],
    conflicted: Mapping[str, list[Definition]],
) -> None:
    """Each literal link judged against the nearest expression on its left; a sum of
    numbers against the terms of a sum."""
    links = chain.links
    last_expr: int | None = None
    holding: dict[str, set[int]] = {}
    for i, p in enumerate(parsed):
        value = values[i]
        if i > 0 and p.node is None:
            # ``e^{s_2} = e^{-\infty} = 0``: a link not read stands between; what follows
            # claims its value, which is not known (the names before it may have changed)
            last_expr = None
            continue
        if p.node is None or value is None:
            continue
        lits = literal_numbers(p.node) if i > 0 else None
        if lits is None or last_expr is None:
            left = values[last_expr] if last_expr is not None else None
            if (
                last_expr is not None
                and i > 0
                and _termwise(run, parsed[last_expr], p, links[i], parsed[:last_expr])
            ):
                pass
            elif (
                left is not None
                and i > 0
                and links[i].relation == "="
                and isinstance(value, Scalar)
                and isinstance(left, Scalar)
            ):
                run.judging.step(left, value, links[i])
            last_expr = i
            continue
        target, exact_target = values[last_expr], exact_values[last_expr]
        assert target is not None and exact_target is not None  # set with a syntax tree
        scalars = flatten(target)
        if len(scalars) != len(lits):
            line, _ = links[i].at(0)
            run.unparsed.append(
                Unparsed(line, chain.text, f"{len(lits)} numbers claimed for {len(scalars)} values")
            )
            continue
        if conflicted:
            run.names.note_conflicts(chain, parsed[last_expr].node, lits, conflicted, holding)
            if any(holding.values()) and not holds(lits, scalars, run.judging.accepted, run.limits):
                continue  # explained by the conflicting definition: reported there
        target_node = parsed[last_expr].node
        if (
            len(lits) == 1
            and links[i].relation == "≈"
            and links[last_expr].relation == "≈"
            and target_node is not None
            and (iv := rounded_interval(target_node)) is not None
            and iv[0] != iv[1]
            and overlaps(lits[0][0], iv)
        ):
            # ``≈ 0.4965 + 0.9930 + 3.0209 ≈ 4.5105``: a rounding of the sum of the exact
            # terms, which the rounded terms give only within their half-units
            run.judging.checked += 1
            run.judging.seen.add(links[i].offset(lits[0][1] + p.offset))
            continue
        others = [
            flatten(v)
            for k, v in enumerate(values[:last_expr])
            if v is not None and (k > 0 or parsed[0].kind == "expr")
        ]
        others += [flatten(v) for v in exact_values[: last_expr + 1] if v is not None]
        exact_scalars = flatten(exact_target)
        if target_node is not None:  # (the author's frame: a rounded root stands for the root)
            others += in_root_frame(target_node, run.names.env, run.limits)
            at = links[last_expr].offset(0)
            others += run.stood.alternatives(target_node, run.names.env, at, run.limits)
        for j, ((claim, off), v, x) in enumerate(zip(lits, scalars, exact_scalars, strict=False)):
            alternatives = [o[j] for o in others if len(o) == len(lits)]
            link = links[i]
            if not run.judging.consistent(claim, v) and (
                any(run.judging.consistent(claim, alt) for alt in alternatives)
                or (
                    target_node is not None
                    and right_within_printed(target_node, claim, j, run.names.env, run.limits)
                )
            ):
                # right for an earlier, more exact form of it, or for the unrounded value of a
                # number printed rounded (``e^{2.828427} = 16.918829``: e^{2√2})
                run.judging.checked += 1
                run.judging.seen.add(link.offset(off + p.offset))
            else:
                run.judging.one(
                    claim,
                    v,
                    x,
                    link,
                    off + p.offset,
                    constants[last_expr],
                    links[last_expr].text if len(lits) == 1 else "",
                )
            _remember_rounding(run, claim, x, links[last_expr].text)
            run.stood.add(claim, link.offset(off + p.offset), x)


def _rounding_like(w: Written) -> bool:
    """Whether a number may be written as the rounding of another (a decimal of two or more
    significant digits): ``1`` or ``0.5`` are taken as they are."""
    return w.kind in ("decimal", "scientific") and (w.significant or 0) >= 2


def _remember_rounding(run: _Run, claim: Written, exact: Scalar, what: str) -> None:
    """``√2 ≈ 1.41``: from now on 1.41 stands for √2 when it is an ingredient."""
    if not _rounding_like(claim):
        return
    key = value_key(claim)
    if exact.rational() == claim.value:
        return  # the exact value itself: nothing rounded
    known = Known(exact, f"{what} ≈ {claim.text}", exact.op == "sqrt")
    run.rounded.setdefault(key, []).append((run.at, known))


def _rounded_at(run: _Run, key: str) -> Known | None:
    """What the number ``key`` was last written as the rounding of, before the chain being
    judged (a text may round one number from two things: the nearest one counts)."""
    before = [k for at, k in run.rounded.get(key, ()) if at <= run.at]
    return before[-1] if before else None


def _termwise(
    run: _Run, left: Parsed, right: Parsed, link: Link, earlier: Sequence[Parsed] = ()
) -> bool:
    """``0.82 × 10 + 0.18 × 30 = 8.2 + 5.4``: each number of a sum of numbers claims the
    term of the sum on the left at its place (also component by component, for vectors).
    When an earlier link writes the same sum with names (``w_1 × 10 + w_2 × 30``), each
    term's exact value is that of its named term."""
    if left.node is None or right.node is None:
        return False
    claimed = pairs(left.node, right.node)
    if claimed is None:
        return False
    env, exact_env = run.names.env, run.names.exact_env
    named = [t for e in earlier if e.node is not None and (t := terms(e.node)) is not None]
    named = [t for t in named if len(t) == len(terms(left.node) or ())]
    for k, (num, sign, term, comp) in enumerate(claimed):
        try:
            over, constant = _overrides(run, term)
            v = evaluate(term, env, limits=run.limits)
            x = evaluate(term, exact_env, limits=run.limits, overrides=over)
        except (ExprError, SymattnError):
            continue
        if named and comp is None:
            try:
                x = evaluate(named[-1][k][1], exact_env, limits=run.limits)
            except (ExprError, SymattnError):
                pass  # (a name the text does not define: the rounded term stands)
        vs, xs = flatten(v), flatten(x)
        k = comp if comp is not None else 0
        if k >= len(vs) or (comp is None and len(vs) != 1):
            continue
        w = num.written
        claim = w if sign > 0 else replace(w, value=-w.value, text="-" + w.text)
        run.judging.one(claim, vs[k], xs[k], link, num.pos + right.offset, constant)
    return bool(claimed)


def _define(
    run: _Run,
    chain: ChainText,
    label: str,
    parsed: list[Parsed],
    values: list[Value | None],
    exact_values: list[Value | None],
    used: frozenset[str],
) -> None:
    """A chain with a label (or ``sum(…) = …``) defines that name: its last value as written,
    and its first expression exactly. The names it computes from are used by a step (a name
    given a new value after that is updated, not given a second value)."""
    first = parsed[0]
    name = label
    if (
        not name
        and first.kind == "expr"
        and isinstance(first.node, Call)
        and first.node.fn == "sum"
    ):
        name = "sum"
    last = values[-1]
    if name and len(parsed) > 1 and last is not None:
        origin = next(
            (v for v, p in zip(exact_values[1:], parsed[1:], strict=True) if p.node is not None),
            last,
        )
        run.names.use(used)
        line, column = chain.links[-1].at(0)  # the value the name is given
        at = chain.links[-1].offset(0)
        first_value = next((p.node for p in parsed[1:] if p.node is not None), None)
        derived = computed_rightly(
            first_value, parsed[-1].node, origin, run.judging.accepted, run.limits
        )
        run.names.define(name, last, origin or last, chain.text, line, column, at, derived)
        if derived and run.stated and run.stated[-1].at == chain.start:
            run.stated[-1] = replace(run.stated[-1], derived=True)


def _remember(run: _Run, chain: ChainText, label: str, first: Parsed, parsed: list[Parsed]) -> None:
    """Keep what the chain states (its label, first link and literal links) for the problem."""
    lits: list[tuple[Spot, ...]] = []
    shapes: list[tuple[int, ...]] = []
    for i, p in enumerate(parsed[1:], start=1):
        got = literal_numbers(p.node) if p.node is not None else None
        if got is not None and p.node is not None:
            link = chain.links[i]
            lits.append(
                tuple(
                    Spot(w, *link.at(off + p.offset), link.offset(off + p.offset)) for w, off in got
                )
            )
            shapes.append(literal_shape(p.node))
            run.stood.add_all((spot.written, spot.at) for spot in lits[-1])
    if lits:
        run.stated.append(
            Stated(
                label,
                chain.links[0].text,
                first.node,
                tuple(lits),
                chain.line,
                tuple(shapes),
                tuple(ln.text for ln in chain.links),
                chain.start,
                chain.before,
                row_names=chain.row_names,
            )
        )
