"""Stage 3b: the attention problems behind a text, as specs for ``check``.

Every stated array (a claim) comes from inputs the text gives: what the code computed it
from (its :class:`~symattn.read.dataflow.Derivation`), or else the inputs given last before
it (X with ``W_Q``/``W_K``/``W_V``; Q, K, V as matrices or one vector per token, ``q_1``,
``k_{I}``, ``K_animal``; encoder states serving as keys and values). Claims with the same
inputs, scale and mask make one problem. A text that redefines an input (``temp_q`` set
again before each printout) gives one problem per version.

Each claim is placed on its query row (the row its code selects, its name or label names,
or the only query), its keys in order; a claim whose row or shape cannot be told is not
judged (the census says why). A text that repeats a stage (printed, then written in LaTeX)
gets one spec per repeat ("layers"), so every number gets its verdict. When neither the code
nor the text says whether the scores are scaled, both frames are tried
(:class:`Hypothesis`), and only what every frame finds wrong is reported.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from symattn.read.dataflow import Derivation, Start
from symattn.read.facts import Fact
from symattn.read.inputs import (
    INPUT_STARTS,
    SCORE_STARTS,
    Input,
    default,
    gather,
    input_mask,
    latest,
    printed_beside_inputs,
    repeats,
    restated,
    row_restated,
    signatures,
    spec_inputs,
    v_of,
)
from symattn.read.observations import Spot
from symattn.read.origin import Origins
from symattn.read.placing import (
    ROW_CLAIMS,
    Built,
    Place,
    counting_base,
    default_row,
    place,
    score_zeros,
    token_claims,
    wider_rows,
    zeros_mask,
)
from symattn.read.report import Recognised
from symattn.read.reproduce import Frame
from symattn.read.reproduce import frames as frames_of
from symattn.read.roles import RoleName
from symattn.read.scaling import Hypothesis, Masking, hypotheses, masks
from symattn.read.symbolic.scale import Scale, ScaleKind
from symattn.stages import StepName

__all__ = ["Place", "Problem", "build_problems"]


@dataclass
class Problem:
    """One spec to check: its data, where each claim is written, and what it used."""

    data: dict[str, object]
    spots: dict[Place, Spot]
    used: set[int]
    recognised: Recognised
    first: Spot | None
    hypothesis: str = ""
    #: the key of the group of problems whose findings must agree (the hypotheses of one layer)
    group: tuple[object, ...] = ()
    #: the inputs were not written by name (Q = K = V = X): judge only when confirmed
    assumed: bool = False
    #: claims written in another shape than their stage: (fact, its row or None)
    misshapen: tuple[tuple[Fact, str | None], ...] = ()
    #: which fact (index) each place holds
    owner: dict[Place, int] = field(default_factory=dict)
    #: the stretch of the text (offsets) whose words are about this problem (:class:`Scope`)
    scope: tuple[int, int] = (0, 1 << 62)
    #: one-row claims whose query row neither their words nor their numbers tell
    unplaced: tuple[Fact, ...] = ()
    #: the text scales but says by what nowhere: the frame is the one its numbers reproduce
    scale_unknown: bool = False
    #: single numbers of a row wider than this problem's (:func:`~symattn.read.placing.wider_rows`)
    wide: tuple[Fact, ...] = ()

    @property
    def extent(self) -> tuple[int, int]:
        """Where the worked example is written: from its first input to its last claim."""
        ats = [s.at for (step, _), s in self.spots.items() if step not in _SCALING_STEPS]
        lo = min([*ats, *([self.first.at] if self.first is not None else [])], default=0)
        return lo, max(ats, default=lo)


#: the frame of given scores in a text that scales but states no ``d_k``: the scores as
#: given, any array of a framed stage right in some other frame of its own numbers rescued
SCALE_UNKNOWN = "scores as given (the text states no d_k)"


#: the frame each kind of scale the code writes stands for (``n``: the scale's number)
_CODE_FRAMES: Final[dict[ScaleKind, Callable[[Fraction, int], Hypothesis]]] = {
    ScaleKind.UNSCALED: lambda n, width: Hypothesis("code: unscaled", scale=Fraction(1)),
    ScaleKind.ROOT: lambda n, width: Hypothesis(f"code: divided by sqrt({n})", d_k=int(n)),
    ScaleKind.DIVIDE: lambda n, width: Hypothesis(f"code: divided by {n}", scale=1 / n),
    ScaleKind.TIMES: lambda n, width: Hypothesis(f"code: times {n}", scale=n),
    ScaleKind.WIDTH: lambda n, width: Hypothesis("code: divided by sqrt(width of K)", d_k=width),
}


def _hypotheses(d: Derivation, stated: Sequence[Hypothesis], width: int) -> list[Hypothesis]:
    s = d.scale
    if d.start is Start.SCALED:
        return [Hypothesis("scaled scores given", scale=Fraction(1))]
    if d.start is Start.SCORES and s is None:
        # the scale must be known: a stated d_k, or no scaling at all; scores the text gives
        # may be fed to the softmax as written, whatever d_k it states (``原始分数 → softmax``
        # beside ``如果 dk = 64``): the numbers decide, so that frame is tried too
        # (a text that says it scales but states no d_k: the scores as given are the one
        # frame the text fixes; a row right in an unknown frame is rescued by its numbers)
        known = [h for h in stated if h.d_k is not None or h.scale is not None]
        if not any(h.scale == 1 and h.d_k is None for h in known):
            name = "scores as given" if known else SCALE_UNKNOWN
            known.append(Hypothesis(name, scale=Fraction(1)))
        return known
    if s is None:
        return list(stated)
    return [_CODE_FRAMES[s.kind](s.n, width)]


def _with_width(d: Derivation, stated: Sequence[Hypothesis], width: int) -> list[Hypothesis]:
    """The frames of a problem; when the ``d_k`` the text states is not the width of its K
    (``真实模型里 d_k=64`` beside a 2-wide K: an aside, or the author's mismatch), the width
    is tried too, and only what is wrong in both is reported: the numbers decide which
    ``d_k`` the worked example uses."""
    hyps = _hypotheses(d, stated, width)
    if d.start in INPUT_STARTS and width > 0:
        sizes = {h.d_k for h in hyps if h.d_k is not None}
        if sizes and width not in sizes:
            hyps.append(Hypothesis("width of K", d_k=width, from_width=True))
    return hyps


def build_problems(facts: Sequence[Fact], said: str, parts: Sequence[int] = ()) -> list[Problem]:
    """The specs to check, one per set of inputs, repeat layer, hypothesis and mask (``""``,
    ``causal``, ``zeros``: the keys whose weight the text writes as 0). ``said`` is the text
    as far as it was read: the words of each problem's :class:`Scope` say its frames."""
    inputs = gather(facts)
    known = signatures(inputs)
    heads = {f.at: f.head for f in facts if f.given and f.head is not None}
    # (where a claim comes from is tried in the frames of the whole text; each problem is
    # then checked in the frames of its own scope)
    origins = Origins(inputs, _frames(inputs, hypotheses(said, facts)), heads)
    groups: dict[Derivation, tuple[Built, list[int], bool]] = {}
    derived: dict[int, Derivation] = {}
    written: dict[int, Derivation] = {}  # (of the claims whose inputs are written, not assumed)
    for i, f in enumerate(facts):
        if f.role not in ROW_CLAIMS:
            continue
        if f.role is not RoleName.OUTPUT and repeats(f, known):
            continue
        if f.derivation is not None:
            got: tuple[Derivation, bool] | None = (f.derivation, False)
        elif (again := row_restated(facts, written, i)) is not None:
            got = (again, False)  # (a row of an array stated above, said again)
        elif f.computed and not printed_beside_inputs(facts, f):
            # the code computed it from what the text does not give, unless the text states
            # the same numbers as the same stage outside code
            got = restated(facts, inputs, f)
        else:
            got = default(facts, inputs, f)
        if got is None:
            continue
        if f.derivation is None:
            got = origins.of(f, got)  # (the inputs its numbers reproduce from)
            scores = got[0] if f.computed else origins.from_scores(f, got[0], facts)
            if scores is None:
                continue  # (scores of another row, lines away, that do not give it)
            got = (scores, got[1])
        d, assumed = got
        if d.start is Start.X and len(d.refs) == 4 and d.refs[3] < 0:
            # the weights need no W_V: the one given last stands in
            wv = latest(inputs, (RoleName.W_V,), f.at)
            if wv is not None:
                d = Derivation(d.start, (*d.refs[:3], wv), d.w_t, d.scale, d.causal, d.row)
        if any(r >= 0 and r not in inputs for r in d.refs):
            continue
        derived[i] = d
        if not assumed:
            written[i] = d
        key = Derivation(
            d.start, d.refs[:2] if d.start is Start.QKV else d.refs, d.w_t, None, d.causal
        )
        built, members, was = groups.get(key, (Built(), [], assumed))
        # (assumed only when every claim is: one that names its inputs makes them the text's)
        groups[key] = (built, [*members, i], was and assumed)
    # one scale per problem: members that say none join the one the others say
    split: dict[Derivation, tuple[Built, list[int], bool]] = {}
    for key, (_, members, assumed) in groups.items():
        named = {sc for i in members if (sc := derived[i].scale) is not None}
        scales: list[Scale | None] = [*sorted(named, key=lambda sc: sc.sort_key)] or [None]
        vs = sorted({r for i in members if (r := v_of(derived[i])) is not None})
        v = vs[0] if len(vs) == 1 else -1
        refs = (*key.refs, v) if key.start is Start.QKV else key.refs
        for sc in scales:
            these = [
                i
                for i in members
                if derived[i].scale == sc or (derived[i].scale is None and sc == scales[0])
            ]
            if len(vs) > 1:
                # claims whose values come from different V: each its own problem
                for vv in vs:
                    part = [i for i in these if v_of(derived[i]) in (vv, None)]
                    split[Derivation(key.start, (*key.refs, vv), key.w_t, sc, key.causal)] = (
                        Built(),
                        part,
                        assumed,
                    )
                continue
            split[Derivation(key.start, refs, key.w_t, sc, key.causal)] = (Built(), these, assumed)
    groups = split
    given_of = {key: spec_inputs(key, inputs) for key in groups}
    scopes = Scopes(
        facts,
        said,
        parts,
        {
            key: _extent(key, members, facts, inputs)
            for key, (_, members, _) in groups.items()
            if given_of[key] is not None
        },
    )
    out: list[Problem] = []
    for key, (built, members, assumed) in groups.items():
        given = given_of[key]
        if given is None:
            continue
        scope = scopes.of(key)
        data_inputs, keys, queries, v_width, first = given
        tokens: dict[str, dict[str, list[str]]] = {}
        if key.start is Start.X:
            data_inputs, keys, queries, tokens = token_claims(
                facts, data_inputs, keys, built, inputs[key.refs[0]]
            )
        built.zero_scores = score_zeros(data_inputs, queries)
        base = counting_base(facts, members)
        named_row = default_row(facts, members, queries, base)
        wide = wider_rows(facts, members, len(keys), base)
        built.wide = sorted(wide)
        for i in members:
            if key.start in SCORE_STARTS and facts[i].role is RoleName.OUTPUT:
                continue
            if i in wide:
                continue
            d = derived[i]
            if (
                named_row is not None
                and d.row is None
                and not facts[i].token
                and facts[i].index is None
            ):
                d = Derivation(d.start, d.refs, d.w_t, d.scale, d.causal, queries.index(named_row))
            place(built, i, facts[i], d, keys, queries, v_width, base)
        built.inherit()
        width = (
            len(data_inputs["K"][0])
            if "K" in data_inputs
            else len(data_inputs["W_K"][0])
            if "W_K" in data_inputs
            else len(keys)
        )
        frames = [(h, m) for h in _with_width(key, scope.stated, width) for m in scope.masks]
        for hyp, masking in frames:
            for k in range(max(len(built.rows), 1 if built.misshapen else 0)):
                built.layer(k)
                zeros = masking is Masking.ZEROS
                mask = zeros_mask(built.rows[k], queries, keys) if zeros else None
                if zeros and mask is None:
                    continue
                if masking is Masking.CAUSAL and (key.causal or len(queries) != len(keys)):
                    continue
                data: dict[str, object] = {
                    "schema": 1,
                    "tokens": list(keys),
                    "inputs": data_inputs,
                }
                if key.start is not Start.X:
                    data["query_tokens"] = list(queries)
                if hyp.d_k is not None:
                    data["d_k"] = hyp.d_k
                if hyp.scale is not None:
                    data["scale"] = str(hyp.scale)
                given_mask = input_mask(key, inputs)
                if key.causal or masking is Masking.CAUSAL:
                    data["causal"] = True
                elif mask is not None:
                    data["mask"] = mask
                elif given_mask is not None:
                    data["mask"] = given_mask
                claims: dict[str, object] = {"rows": built.rows[k]}
                if k == 0 and tokens:
                    claims["tokens"] = tokens
                spots = dict(built.spots[k])
                if k == 0 and hyp.scale is None and key.start in INPUT_STARTS:
                    claims.update(
                        _scaling(
                            scope.facts, hyp, spots, inputs, frozenset(key.refs), scopes.extent(key)
                        )
                    )
                data["claims"] = claims
                rec = Recognised(
                    "embeddings" if key.start is Start.X else "vectors",
                    queries,
                    keys,
                    keys,
                    keys if key.start is Start.X else (),
                    ("W_Q", "W_K", "W_V") if key.start is Start.X else (),
                    hyp.d_k if hyp.d_k is not None else width,
                    hyp.d_k is not None and not hyp.from_width,
                    len(built.spots[k]),
                )
                out.append(
                    Problem(
                        data,
                        spots,
                        built.used[k],
                        rec,
                        first,
                        hyp.name + (f", mask {masking}" if masking else ""),
                        (key, k),
                        assumed,
                        tuple((facts[i], row) for i, row in built.misshapen) if k == 0 else (),
                        dict(built.owners[k]),
                        (scope.start, scope.end),
                        tuple(facts[i] for i in built.unplaced) if k == 0 else (),
                        hyp.name == SCALE_UNKNOWN,
                        tuple(facts[i] for i in built.wide) if k == 0 else (),
                    )
                )
    return out


#: the steps of the scaling claims (``d_k``, ``\\sqrt{d_k}``), which may be written beside
#: the worked example
_SCALING_STEPS: Final = frozenset({StepName.D_K, StepName.SQRT_D_K})

#: the inputs whose width is the keys' width (K, or W_K)
_KEY_ROLES: Final = frozenset({RoleName.K, RoleName.KV, RoleName.W_K})


def _frames(inputs: dict[int, Input], stated: Sequence[Hypothesis]) -> tuple[Frame, ...]:
    """The frames a claim's inputs are confirmed in: unscaled, ``1/√n`` and ``1/n`` for the
    stated ``d_k`` and the width of each K (or W_K) given, and each stated scale."""
    widths = {h.d_k for h in stated if h.d_k is not None}
    widths |= {i.width for i in inputs.values() if i.roles & _KEY_ROLES}
    scales = [1 / h.scale for h in stated if h.scale is not None and h.scale > 0]
    return frames_of(sorted(widths), scales)


def _extent(
    key: Derivation, members: Sequence[int], facts: Sequence[Fact], inputs: dict[int, Input]
) -> tuple[int, int]:
    """Where a problem is written: from its first input to its last claim's last number."""
    claims = [facts[i] for i in members]
    lo = min([r for r in key.refs if r in inputs] + [f.at for f in claims])
    hi = max(max((s.at for s in f.spots if s is not None), default=f.at) for f in claims)
    return lo, hi


@dataclass(frozen=True)
class Scope:
    """The stretch of the text whose words and numbers say a problem's frames (its ``d_k``,
    whether it scales, its mask) and its scaling claims (``d_k``, ``\\sqrt{d_k} = 2``): from
    the last number of the problem written before it to the first input of the problem
    written after it; problems written over one another share their text. What a text says
    about one worked example (another's ``d_k``, a causal mask, two texts joined into one
    document) is not said of the next: each problem gets the frames of its own part, and
    the work of auditing a text grows with its length, not with its length squared."""

    start: int
    end: int
    stated: tuple[Hypothesis, ...]
    masks: tuple[Masking, ...]
    #: the facts written in the scope
    facts: tuple[Fact, ...]


class Scopes:
    """The :class:`Scope` of each problem, from where every problem is written (each scope
    read once, the facts found by bisection)."""

    def __init__(
        self,
        facts: Sequence[Fact],
        said: str,
        parts: Sequence[int],
        extents: dict[Derivation, tuple[int, int]],
    ) -> None:
        self._facts = sorted(facts, key=lambda f: f.at)
        self._parts = sorted(parts)
        self._ats = [f.at for f in self._facts]
        self._said = said
        self._extents = extents
        self._ends = sorted(hi for _, hi in extents.values())
        self._starts = sorted(lo for lo, _ in extents.values())
        self._read: dict[tuple[int, int], Scope] = {}

    def extent(self, key: Derivation) -> tuple[int, int]:
        """Where the problem ``key`` is written: from its first input to its last claim."""
        return self._extents[key]

    def of(self, key: Derivation) -> Scope:
        lo, hi = self._extents[key]
        k = bisect.bisect_left(self._ends, lo)
        j = bisect.bisect_right(self._starts, hi)
        a = self._ends[k - 1] if k else 0
        b = self._starts[j] if j < len(self._starts) else len(self._said)
        # (nor past the parts the problem is written in)
        p = bisect.bisect_right(self._parts, lo)
        a = max(a, self._parts[p - 1] if p else 0)
        q = bisect.bisect_right(self._parts, hi)
        b = min(b, self._parts[q] if q < len(self._parts) else b)
        if (a, b) not in self._read:
            near = tuple(
                self._facts[bisect.bisect_left(self._ats, a) : bisect.bisect_left(self._ats, b)]
            )
            words = self._said[a:b]
            stated = tuple(hypotheses(words, near, a))
            self._read[a, b] = Scope(a, b, stated, masks(words), near)
        return self._read[a, b]


def _scaling(
    facts: Sequence[Fact],
    hyp: Hypothesis,
    spots: dict[Place, Spot],
    inputs: dict[int, Input],
    own: frozenset[int],
    extent: tuple[int, int],
) -> dict[str, str]:
    """The scaling claims of the text: a later ``d_k`` other than the stated one, and the
    divisor it says it uses (``\\sqrt{d_k} = 2``). A ``d_k`` of other inputs is not this
    problem's: one its chain computes from other numbers (``d_k = 512/8 = 64``), or one
    stated after another K (or W_K) than this problem's, as wide as it says (a new
    example's); nor one written beside the worked example, before its first input or after
    its last claim (``In modern Transformers, d_k = 64``; an exercise's ``If d_k = 64``):
    no claim of the problem uses it (:func:`symattn.read.definitions.beside_examples`)."""
    out: dict[str, str] = {}
    for f in facts:
        if not f.spots or f.spots[0] is None or f.dims != ():
            continue
        s = f.spots[0]
        beside = not extent[0] <= s.at <= extent[1]
        if f.role is RoleName.D_K and (f.derived or beside or _of_other_keys(f, s, inputs, own)):
            continue
        if f.role is RoleName.D_K and StepName.D_K not in out and hyp.d_k is not None:
            v = s.written.value
            if v.denominator == 1 and v > 0 and v != hyp.d_k:
                out[StepName.D_K] = s.written.text
                spots[(StepName.D_K, ())] = s
        elif f.role is RoleName.DIVISOR and StepName.SQRT_D_K not in out and s.written.value > 0:
            out[StepName.SQRT_D_K] = s.written.text
            spots[(StepName.SQRT_D_K, ())] = s
        elif (
            f.role is RoleName.DIVISOR
            and StepName.SQRT_D_K in out
            and s.written.value == spots[(StepName.SQRT_D_K, ())].written.value
        ):
            # the same divisor said again (in words, then as a formula): the same verdict
            spots[(StepName.SQRT_D_K, (str(s.at),))] = s
    return out


def _of_other_keys(f: Fact, s: Spot, inputs: dict[int, Input], own: frozenset[int]) -> bool:
    """Whether the K (or W_K) given last before ``f`` is not one of ``own`` and is as wide
    as the number ``s`` says."""
    k = latest(inputs, (RoleName.K, RoleName.KV, RoleName.W_K), f.at)
    return k is not None and k not in own and inputs[k].width == s.written.value
