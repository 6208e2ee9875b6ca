"""The author's chain: the expression graph evaluated with the author's own numbers.

:class:`Chain` is what ``check`` (and ``audit``) ask about a claimed node:

- :meth:`Chain.point`: the node computed from the author's earlier numbers as written
  (``12.18 + 2.71 = 14.89`` exactly), as a :class:`~symattn.judge.quantities.Quantity`;
- :meth:`Chain.interval`: the same with every earlier number standing for the interval it
  rounds from (exact numbers stay points), bounded by monotonicity;
- :meth:`Chain.envelope`: what a float program could print for the node (a precision from
  :mod:`symattn.judge.programs`), from the given inputs or from any inputs inside their
  printed roundings (``rounded_inputs``);
- :meth:`Chain.origin`: the first wrong number of the author a claim comes from, given the
  verdicts so far (``status``).

The graph (:mod:`symattn.judge.graph`) is the one place that says which earlier number a
claim was computed from; the policies are in :mod:`symattn.judge.values`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import flint

from symattn.judge.graph import Graph, Node
from symattn.judge.intervals import UNROUNDING_BITS
from symattn.judge.programs import Arithmetic
from symattn.judge.quantities import Computed
from symattn.judge.values import INTERVAL, POINT, Policy, Val, Values, to_arb
from symattn.numbers.written import WrittenKind

#: working precision of the program envelopes (bits): far below their widths
ENVELOPE_BITS = 160
#: the precision at which a point value is first tried for being rational
_PROBE_BITS = 64


class Chain:
    """The author's numbers on one graph, with cached evaluations and the verdicts so far."""

    def __init__(self, graph: Graph, *, divisor_wrong: bool = False) -> None:
        self.graph = graph
        #: the graph's frame is the author's divisor, reported as ``dk-mismatch``
        self.divisor_wrong = divisor_wrong
        #: claimed node -> "ok", "error" (an error finding) or "carried" (propagated-error)
        self.status: dict[Node, str] = {}
        self._values: dict[tuple[Policy, int], Values] = {}
        self._exact_claims: dict[Node, bool] = {}
        #: per-spec memos of the causes (e.g. which rounded constants are contradicted)
        self.cache: dict[str, dict[Fraction, Node | None]] = {}

    def values(self, policy: Policy, prec: int) -> Values:
        """The evaluation under ``policy`` at ``prec`` bits (cached)."""
        key = (policy, prec)
        got = self._values.get(key)
        if got is None:
            exact = self.exact_claim if policy.claims == "interval" else None
            got = Values(self.graph, policy, exact)
            self._values[key] = got
        return got

    def _derive(self, node: Node, policy: Policy, prec: int) -> Val:
        with flint.ctx.workprec(prec):
            return self.values(policy, prec).derive(node)

    # -- the author's chain ------------------------------------------------------------

    def computed_from_claims(self, node: Node, base: Fraction | None = None) -> bool:
        """Whether the author wrote any number ``node`` is computed from."""
        policy = POINT if base is None else replace(POINT, base=base)
        probe = self.values(policy, _PROBE_BITS)
        return bool(self.graph.sources(node, probe.uses_claim))

    def point(self, node: Node, base: Fraction | None = None) -> Computed | None:
        """``node`` from the author's earlier numbers as written (None when the author wrote
        none of them, or the node is an input); with ``base``, computed with that e."""
        if self.graph.is_input(node.step):
            return None
        if base is None and not self.computed_from_claims(node):
            return None
        policy = POINT if base is None else replace(POINT, base=base)
        probe = self._derive(node, policy, _PROBE_BITS)
        exact = probe if isinstance(probe, Fraction) else None

        def fn() -> flint.arb:
            return to_arb(self.values(policy, flint.ctx.prec).derive(node))

        return Computed(fn, exact)

    def interval(self, node: Node) -> Val | None:
        """``node`` with the author's earlier numbers as the intervals they round from."""
        if self.graph.is_input(node.step) or not self.computed_from_claims(node):
            return None
        return self._derive(node, INTERVAL, UNROUNDING_BITS)

    def exact_claim(self, node: Node) -> bool:
        """Whether the author's number at ``node`` is exact, not a rounding: it equals the
        exact value, or exactly what the author's own earlier numbers give (an integer
        score, ``2/2 = 1.0``). Such a number stays a point when unrounding."""
        got = self._exact_claims.get(node)
        if got is None:
            w = self.graph.claims[node]
            got = w.kind is WrittenKind.FRACTION or self.graph.exact(node).rational() == w.value
            if not got and not self.graph.is_input(node.step):
                own = self._derive(node, POINT, _PROBE_BITS)
                got = isinstance(own, Fraction) and own == w.value
            self._exact_claims[node] = got
        return got

    def origin(self, node: Node, sources: list[Node] | None = None) -> Node | None:
        """The first wrong number of the author that ``node`` comes from (computed from
        ``sources`` when given, else from the graph's parents)."""
        return self.graph.first_wrong(node, self.status, sources)

    # -- what a program prints ---------------------------------------------------------

    def envelope(self, node: Node, arithmetic: Arithmetic | None, boxes: bool) -> Val:
        """Every value a program computing in ``arithmetic`` (None: exactly) could produce
        for ``node`` from the inputs (``boxes``: from any inputs inside their roundings)."""
        return self._derive(node, Policy("none", arithmetic, boxes), ENVELOPE_BITS)
