"""The claims of a spec, judged along the author's chain in the author's frame.

Row-level checks come first and need only the claims (``not-normalized``,
``precision-mixed``); then every claimed node of the graph is judged in computation order
(:func:`~symattn.judge.diagnose.diagnose`), so a claim carried from an earlier wrong number
can name it; then the sentences about which key a query attends to most. Claims about a
token or row the inputs do not have are ``missing-input``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from symattn.judge.chain import Chain
from symattn.judge.claims import FRAME_STEPS, row_index
from symattn.judge.diagnose import diagnose
from symattn.judge.findings import SpecLocation
from symattn.judge.formatting import frac_text
from symattn.judge.frames import Frame
from symattn.judge.graph import ORDER, Graph, Node
from symattn.judge.interpretation import judge_interpretation
from symattn.judge.programs import arithmetics_for
from symattn.judge.run import Run
from symattn.judge.vectors import normalization_gap, precision_mixed
from symattn.numbers import Written
from symattn.numbers.written import WrittenKind
from symattn.spec import RowClaims
from symattn.stages import BY_CLAIM, TOKEN_STAGES

#: the row fields checked for mixed precision (scores are often integers)
MIXED_STAGES = tuple(BY_CLAIM[f] for f in ("scaled", "exp", "weights", "output"))
#: the graph steps whose claimed vectors are checked for mixed precision: every step but the
#: raw scores (often integers) and the row sums (one number per row)
MIXED_STEPS = frozenset(ORDER) - {"scores", "exp_sums"}


def all_rows(run: Run) -> Iterator[tuple[tuple[str, ...], str, RowClaims]]:
    """Every claimed row: (the head prefix of its position, the query token, its claims)."""
    for row, rc in run.spec.claims.rows.items():
        yield (), row, rc
    for h, hc in run.spec.claims.heads.items():
        for row, rc in hc.rows.items():
            yield (f"h{h + 1}",), row, rc


def mixed(
    run: Run,
    step: str,
    positions: list[tuple[str, ...]],
    vec: list[Written | None],
    exact_of: Callable[[int], Fraction | None] | None = None,
) -> None:
    """``precision-mixed``: claims of one vector written with different decimals.

    The less precise ones are reported, unless they are the exact value (``0.22`` next to
    ``-0.175`` when the value is exactly 0.22 is not a rounding).
    """
    others = [w.text for w in vec if w is not None and w.kind is WrittenKind.DECIMAL and w.decimals]
    for m in precision_mixed(vec, exact_of):
        w = vec[m.index]
        if w is None:
            continue
        run.add(
            "precision-mixed",
            "precision-mixed",
            SpecLocation(step, positions[m.index]),
            w.text,
            "-",
            None,
            {"decimals": m.decimals, "common": m.common, "others": others},
        )


def check_rows_without_inputs(run: Run) -> None:
    """``not-normalized`` and ``precision-mixed`` need only the claims."""
    for head, row, rc in all_rows(run):
        ws = [w for w in rc.weights if w is not None]
        gap = (
            normalization_gap(ws, _printout_slack(run.spec.precision, len(ws)))
            if ws and len(ws) == len(rc.weights)
            else None
        )
        if gap is not None:
            total, lo, hi = gap
            run.add(
                "not-normalized",
                "not-normalized",
                SpecLocation("weights", (*head, row)),
                " + ".join(w.text for w in ws),
                "1",
                "1",
                {"sum": frac_text(total), "low": frac_text(lo), "high": frac_text(hi)},
            )
        if not run.spec.computable:
            for stage in MIXED_STAGES:
                vec = list(getattr(rc, stage.claim))
                cols = run.spec.tokens if stage.per_key else [str(j) for j in range(len(vec))]
                positions = [(*head, row, c) for c in cols]
                mixed(run, stage.step, positions, vec)


def _printout_slack(precision: str | None, n: int) -> Callable[[Written], Fraction]:
    """How far a float program's printed weight may be from an exact softmax weight: its
    relative error bound (the exps, their sum of ``n`` terms, the division: ``γ_(2n+8)``)
    and the printing, for the widest format the claim may come from."""

    def slack(w: Written) -> Fraction:
        formats = arithmetics_for(precision, w)
        return max(
            (a.gamma(2 * n + 8) * abs(w.value) + a.print_tolerance(w) for a in formats),
            default=Fraction(0),
        )

    return slack


def _missing(run: Run, graph: Graph) -> None:
    """``missing-input`` for claims about a token or a query row the inputs do not have."""
    res = graph.res
    groups = [("", run.spec.claims.tokens)] + [
        (f"h{h + 1}", hc.tokens) for h, hc in run.spec.claims.heads.items()
    ]
    for hl, tokens in groups:
        for token, tc in tokens.items():
            for fieldname, name in TOKEN_STAGES.items():
                labels = res.query_labels if name == "Q" else res.key_labels
                vec: tuple[Written | None, ...] | None = getattr(tc, fieldname)
                if vec is None or row_index(labels, token) is not None:
                    continue
                step = f"{name}_heads" if hl else name
                for j, w in enumerate(vec):
                    if w is not None:
                        pos = (hl, token, str(j)) if hl else (token, str(j))
                        run.add(
                            "missing-input",
                            "missing-token",
                            SpecLocation(step, pos),
                            w.text,
                            "?",
                            None,
                            {"token": token},
                        )
    for head, row, rc in all_rows(run):
        if row_index(res.query_labels, row) is not None:
            continue
        for field in ("scores", "scaled", "exp", "sum", "weights", "output", "concat"):
            val = getattr(rc, field)
            for w in val if isinstance(val, tuple) else (val,):
                if w is not None:
                    run.add(
                        "missing-input",
                        "missing-row",
                        SpecLocation(
                            BY_CLAIM[field].step if field in BY_CLAIM else field,
                            (*((head,) if head else ()), row),
                        ),
                        w.text,
                        "?",
                        None,
                        {"token": row},
                    )


def _mixed_vectors(run: Run, graph: Graph) -> None:
    """``precision-mixed`` over every claimed vector (a row of one step); not in a program's
    printout (``precision`` a float format, or numbers of 6+ significant digits), whose digits
    the printer chose."""
    if run.spec.precision not in (None, "exact"):
        return
    vectors: dict[tuple[str, tuple[int, ...]], list[Node]] = {}
    for node in graph.claimed_nodes():
        if node.step in MIXED_STEPS:
            vectors.setdefault((node.step, node.pos[:-1]), []).append(node)
    for nodes in vectors.values():
        shown = graph.where[nodes[0]][0]
        # a number that looks like a float printout (6+ digits) was not rounded by a person
        vec: list[Written | None] = [
            None if arithmetics_for(None, graph.claims[n]) else graph.claims[n] for n in nodes
        ]
        positions = [graph.where[n][1] for n in nodes]
        mixed(run, shown, positions, vec, _exact_of(graph, nodes))


def _exact_of(graph: Graph, nodes: list[Node]) -> Callable[[int], Fraction | None]:
    return lambda k: graph.exact(nodes[k]).rational()


def check_claims(run: Run, author: Frame, stated: Frame) -> None:
    """Every claim of the spec, judged in the author's frame along the author's chain."""
    graph = Graph(run.spec, author.result, author.scale)
    chain = Chain(graph, divisor_wrong=author is not stated)
    first = len(run.findings)
    _missing(run, graph)
    _mixed_vectors(run, graph)
    for node in graph.claimed_nodes():
        diagnose(run, chain, node)
    res = author.result
    heads = res.weights.ndim == 3
    for head, row, rc in all_rows(run):
        i = row_index(res.query_labels, row)
        if not rc.attends_most or i is None:
            continue
        h = (int(head[0][1:]) - 1 if head else 0) if heads else None
        found = judge_interpretation(
            res,
            i,
            rc.attends_most,
            location=SpecLocation("interpretation", (*head, row)),
            head=h,
            limits=run.limits,
        )
        if found is not None:
            run.findings.append(found)
    if author is not stated:
        run.in_frame(first, author.label, FRAME_STEPS)
