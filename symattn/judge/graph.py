"""The author's chain: one expression graph over every entry of the computation.

A :class:`Node` is one entry of one trace step (``("weights", (0, 1))``, or with a head
``("weights", (1, 0, 1))``). :class:`Graph` knows, for every node, the operation that
computes it and the nodes it is computed from (:meth:`Graph.parents`), and which nodes the
author wrote a number for (:meth:`Graph.claim`): the q/k/v rows (per head too), scores,
scaled scores, exps, sums, weights, outputs, the concatenation and the ``W_O`` output.
Evaluated with the author's numbers as its leaves (:mod:`symattn.judge.values`), the graph is
the author's chain; :meth:`Graph.sources` says which earlier numbers of the author a claim
was computed from, and :meth:`Graph.first_wrong` which of them first went wrong. ``check``
and ``audit`` read it from here, the one place that says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import NamedTuple

from symattn.engine import AttentionResult
from symattn.exact import ExactTensor, Surd
from symattn.exact.logits import broadcast_index
from symattn.judge.formatting import frac_text
from symattn.judge.quantities import TensorEntry
from symattn.numbers import Written
from symattn.spec import RowClaims, Spec, TokenClaims
from symattn.stages import ROW_STAGES


class Node(NamedTuple):
    """One entry of one step of the computation."""

    step: str
    pos: tuple[int, ...]


#: the steps in computation order (a node's rank orders "the first wrong number")
ORDER: tuple[str, ...] = (
    "Q",
    "K",
    "V",
    "Q_heads",
    "K_heads",
    "V_heads",
    "scores",
    "scaled_scores",
    "exp_scores",
    "exp_sums",
    "weights",
    "head_outputs",
    "concat",
    "output",
)
#: steps computed with e (a rounded ``e`` changes them; their claims are what it explains)
E_STEPS = frozenset(ORDER[ORDER.index("exp_scores") :])
#: what a row claim field is, as a step of one head's computation
_ROW_STEP = {s.claim: s.step for s in ROW_STAGES}
#: steps with a head axis first when the computation has heads
_HEAD_STEPS = frozenset(
    {"scores", "scaled_scores", "exp_scores", "exp_sums", "weights", "head_outputs"}
)
#: steps with one entry per key
_PER_KEY = frozenset({"scores", "scaled_scores", "exp_scores", "weights"})
#: the symbol of a step in a formula
_SYMBOL = {
    "scores": "s",
    "scaled_scores": "x",
    "exp_scores": "exp",
    "exp_sums": "sum",
    "weights": "w",
    "Q": "q",
    "K": "k",
    "V": "v",
}


class Graph:
    """The computation of one spec in one frame (``res``, divided as ``scale`` says), with
    the author's claims attached to its nodes."""

    def __init__(self, spec: Spec, res: AttentionResult, scale: Surd) -> None:
        self.spec = spec
        self.res = res
        self.scale = scale
        trace = res.trace
        self.inputs = frozenset(s.name for s in trace if s.op == "input")
        self.heads = res.weights.ndim == 3
        self.has_wo = trace.find("W_O") is not None
        self.att = "head_outputs" if self.heads else "output"
        self.cat = ("concat" if self.has_wo else "output") if self.heads else None
        self.cross = trace.find("X_q") is not None
        self.n_keys: int = res.weights.shape[-1]
        logits = res.masked_scores
        self._logits = logits
        self._add = getattr(logits, "add", None)
        self.claims: dict[Node, Written] = {}
        self.where: dict[Node, tuple[str, tuple[str, ...]]] = {}
        self._attach()

    # -- structure -------------------------------------------------------------------

    def is_input(self, step: str) -> bool:
        """Whether ``step`` is given data (a leaf of the graph)."""
        return step in self.inputs

    def tensor(self, step: str) -> ExactTensor:
        """The exact values of ``step`` in this frame."""
        return self.res.stage(step)

    def exact(self, node: Node) -> TensorEntry:
        """The exact value of ``node`` in this frame."""
        return TensorEntry(self.tensor(node.step), node.pos)

    def shape(self, step: str) -> tuple[int, ...]:
        """The shape of ``step``."""
        return tuple(self.res.trace.get(step).shape)

    def masked(self, index: tuple[int, ...]) -> bool:
        """Whether the score at ``index`` is masked out (``-inf``)."""
        return self._logits.is_neg_inf(index)

    def mask_add(self, index: tuple[int, ...]) -> Fraction:
        """The additive mask entry at ``index`` (0 when there is none or it is masked)."""
        if self._add is None or self.masked(index):
            return Fraction(0)
        got = self._add.rational(broadcast_index(index, tuple(self._add.shape)))
        return got if got is not None else Fraction(0)

    def q_step(self, which: str) -> str:
        """The step a head's rows of Q, K or V come from."""
        return f"{which}_heads" if self.heads else which

    def rank(self, node: Node) -> tuple[int, tuple[int, ...]]:
        """The computation order of a node."""
        return (ORDER.index(node.step) if node.step in ORDER else -1, node.pos)

    def parents(self, node: Node) -> list[Node]:
        """The nodes ``node`` is computed from (none for an input)."""
        step, idx = node
        if self.is_input(step):
            return []
        if step in ("Q", "K", "V"):
            x = "X_q" if step == "Q" and self.cross else "X"
            i, c = idx
            d = self.shape(x)[-1]
            return [Node(x, (i, k)) for k in range(d)] + [
                Node(f"W_{step}", (k, c)) for k in range(d)
            ]
        if step in ("Q_heads", "K_heads", "V_heads"):
            h, i, c = idx
            return [Node(step[0], (i, h * self.shape(step)[-1] + c))]
        if step == "scores":
            *p, i, j = idx
            e = self.shape(self.q_step("Q"))[-1]
            return [Node(self.q_step("Q"), (*p, i, c)) for c in range(e)] + [
                Node(self.q_step("K"), (*p, j, c)) for c in range(e)
            ]
        if step == "scaled_scores":
            return [Node("scores", idx)]
        if step == "exp_scores":
            return [] if self.masked(idx) else [Node("scaled_scores", idx)]
        if step == "exp_sums":
            return [Node("exp_scores", (*idx, j)) for j in range(self.n_keys)]
        if step == "weights":
            *p, i, _ = idx
            row = (*p, i)
            return [Node("exp_scores", (*row, j)) for j in range(self.n_keys)] + [
                Node("exp_sums", row)
            ]
        if step == self.att:
            *p, i, c = idx
            return [Node("weights", (*p, i, j)) for j in range(self.n_keys)] + [
                Node(self.q_step("V"), (*p, j, c)) for j in range(self.n_keys)
            ]
        if step == self.cat:
            i, m = idx
            dv = self.shape("head_outputs")[-1]
            return [Node("head_outputs", (m // dv, i, m % dv))]
        if step == "output" and self.has_wo:
            i, c = idx
            width = self.shape("concat")[-1]
            return [Node("concat", (i, m)) for m in range(width)] + [
                Node("W_O", (m, c)) for m in range(width)
            ]
        raise KeyError(f"no operation computes the step {step!r}")

    # -- the author's numbers ----------------------------------------------------------

    def claim(self, node: Node) -> Written | None:
        """The number the author wrote for ``node``, if any."""
        return self.claims.get(node)

    def claimed_nodes(self) -> list[Node]:
        """Every claimed node, in computation order."""
        return sorted(self.claims, key=self.rank)

    def sources(self, node: Node, usable: Callable[[Node], bool] | None = None) -> list[Node]:
        """The author's numbers ``node`` is computed from: the nearest claimed ancestors
        (``usable`` filters which claims count, e.g. none after exp for a rounded e)."""
        out: list[Node] = []
        seen: set[Node] = set()
        stack = list(reversed(self.parents(node)))
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            if p in self.claims and (usable is None or usable(p)):
                out.append(p)
            elif not self.is_input(p.step):
                stack.extend(reversed(self.parents(p)))
        return sorted(out, key=self.rank)

    def first_wrong(
        self, node: Node, status: Mapping[Node, str], sources: list[Node] | None = None
    ) -> Node | None:
        """The first (in computation order) wrong number of the author that ``node`` comes
        from (by default from :meth:`sources`): a source judged an error, or the first wrong
        number of a source that was itself carried (``status``: ``"error"`` or
        ``"carried"``)."""
        found: list[Node] = []
        for s in self.sources(node) if sources is None else sources:
            st = status.get(s)
            if st == "error":
                found.append(s)
            elif st == "carried":
                origin = self.first_wrong(s, status)
                if origin is not None:
                    found.append(origin)
        return min(found, key=self.rank) if found else None

    def label(self, node: Node) -> str:
        """A node as a formula names it: the author's number, or ``w[a,b]``."""
        w = self.claims.get(node)
        if w is not None:
            return w.text
        step, idx = node
        q = self.exact(node).rational() if self.is_input(step) or step == "scores" else None
        if q is not None:
            return frac_text(q)
        sym = _SYMBOL.get(step, step)
        return f"{sym}[{','.join(self._axis_labels(step, idx))}]"

    def formula(self, node: Node, base: str = "e") -> str:
        """The computation of ``node`` from the author's numbers, e.g. ``12.18 + 2.71``."""
        step, idx = node
        ps = self.parents(node)
        if step == "scaled_scores":
            return f"{self.label(ps[0])} × {self.scale}"
        if step == "exp_scores":
            return f"{base}^{self.label(ps[0])}" if ps else "0"
        if step == "exp_sums":
            return " + ".join(
                self.label(p)
                if base == "e"
                else f"{base}^{self.label(Node('scaled_scores', p.pos))}"
                for p in ps
                if not self.masked(p.pos)
            )
        if step == "weights":
            return f"{self.label(Node('exp_scores', idx))} / {self.label(ps[-1])}"
        if step in ("scores", self.att, "Q", "K", "V") or (step == "output" and self.has_wo):
            half = len(ps) // 2
            return " + ".join(
                f"{_factor(self.label(a))}×{_factor(self.label(b))}"
                for a, b in zip(ps[:half], ps[half:], strict=True)
            )
        return " ".join(self.label(p) for p in ps)

    def _axis_labels(self, step: str, idx: tuple[int, ...]) -> list[str]:
        """``idx`` as labels: ``h2`` for a head, tokens for rows and keys, numbers else."""
        ql, kl = self.res.query_labels or (), self.res.key_labels or ()
        out = [str(k) for k in idx]
        if step.endswith("_heads") or (self.heads and step in _HEAD_STEPS):
            out[0] = f"h{idx[0] + 1}"
        rows = kl if step in ("K", "V", "K_heads", "V_heads") else ql
        if step != "exp_sums" and len(idx) >= 2 and idx[-2] < len(rows):
            out[-2] = rows[idx[-2]]
        if step in _PER_KEY and idx[-1] < len(kl):
            out[-1] = kl[idx[-1]]
        if step == "exp_sums" and idx[-1] < len(ql):
            out[-1] = ql[idx[-1]]
        return out

    # -- attaching the spec's claims ---------------------------------------------------

    def _attach(self) -> None:
        c = self.spec.claims
        for token, tc in c.tokens.items():
            self._tokens(token, tc, None)
        for h, hc in c.heads.items():
            for token, tc in hc.tokens.items():
                self._tokens(token, tc, h)
            for row, rc in hc.rows.items():
                self._row(row, rc, h)
        for row, rc in c.rows.items():
            self._row(row, rc, None)

    def _put(self, node: Node, w: Written | None, step: str, position: tuple[str, ...]) -> None:
        if w is None:
            return
        self.claims[node] = w
        self.where[node] = (step, position)

    def _tokens(self, token: str, tc: TokenClaims, head: int | None) -> None:
        ql, kl = self.res.query_labels or (), self.res.key_labels or ()
        for field, base in (("q", "Q"), ("k", "K"), ("v", "V")):
            vec = getattr(tc, field)
            labels = ql if base == "Q" else kl
            if vec is None or token not in labels:
                continue
            i = labels.index(token)
            step = base if head is None else f"{base}_heads"
            pre: tuple[int, ...] = () if head is None else (head,)
            hpos: tuple[str, ...] = () if head is None else (f"h{head + 1}",)
            for c, w in enumerate(vec):
                self._put(Node(step, (*pre, i, c)), w, step, (*hpos, token, str(c)))

    def _row(self, row: str, rc: RowClaims, head: int | None) -> None:
        """A row's claims: of one head (``head``), or the spec's own row (``None``: the
        computation without heads, or what follows the heads)."""
        ql, kl = self.res.query_labels or (), self.res.key_labels or ()
        if row not in ql:
            return
        i = ql.index(row)
        h = head if head is not None else (0 if self.heads else None)
        pre: tuple[int, ...] = () if h is None else (h,)
        hpos: tuple[str, ...] = () if head is None else (f"h{head + 1}",)
        for field, step in _ROW_STEP.items():
            if field == "sum":
                self._put(Node(step, (*pre, i)), rc.sum, step, (*hpos, row))
            elif field != "output":
                vec: tuple[Written | None, ...] = getattr(rc, field)
                for j, w in enumerate(vec):
                    col = kl[j] if j < len(kl) else str(j)
                    self._put(Node(step, (*pre, i, j)), w, step, (*hpos, row, col))
        out = "head_outputs" if head is not None else "output"
        for c, w in enumerate(rc.output):
            self._put(
                Node(out, (*pre, i, c) if head is not None else (i, c)),
                w,
                out,
                (*hpos, row, str(c)),
            )
        for c, w in enumerate(rc.concat):
            if self.cat is not None:
                self._put(Node(self.cat, (i, c)), w, "concat", (row, str(c)))

    def iter_claims(self) -> Iterator[tuple[Node, Written]]:
        """The claimed nodes and their claims, in computation order."""
        for n in self.claimed_nodes():
            yield n, self.claims[n]


def _factor(text: str) -> str:
    """A factor of a product: ``(-2)`` in parentheses when negative (``0.58×(-2)``)."""
    return f"({text})" if text.startswith(("-", "\u2212")) else text
