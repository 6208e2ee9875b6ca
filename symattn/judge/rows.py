"""The claims of a spec's tokens and query rows, judged in the author's frame.

Row-level checks come first and need only the claims (``not-normalized``,
``precision-mixed``); then every claim is judged (:func:`~symattn.judge.diagnose.diagnose`),
a row's claims along the author's chain. Claims about a token or row the inputs do not have
are ``missing-input``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from symattn.errors import InputError
from symattn.exact import ExactTensor
from symattn.judge.chain import Chain, ChainLink
from symattn.judge.claims import FRAME_STEPS, col_label, row_claims, row_index, row_position
from symattn.judge.diagnose import Site, diagnose
from symattn.judge.findings import SpecLocation
from symattn.judge.formatting import frac_text
from symattn.judge.frames import Frame
from symattn.judge.interpretation import judge_interpretation
from symattn.judge.run import Run
from symattn.judge.vectors import normalization_gap, precision_mixed
from symattn.numbers import Written
from symattn.stages import BY_CLAIM, TOKEN_STAGES

#: the row fields checked for mixed precision (scores are often integers)
MIXED_STAGES = tuple(BY_CLAIM[f] for f in ("scaled", "exp", "weights", "output"))


def _entries(t: ExactTensor, i: int) -> Callable[[int], Fraction | None]:
    """Row ``i`` of ``t``: column -> the exact value when it is rational."""
    return lambda j: t.rational((i, j))


def mixed(
    run: Run,
    step: str,
    row: str,
    vec: tuple[Written | None, ...],
    fieldname: str = "",
    exact_of: Callable[[int], Fraction | None] | None = None,
) -> None:
    """``precision-mixed``: claims of one vector written with different decimals.

    The less precise ones are reported, unless they are the exact value (``0.22`` next to
    ``-0.175`` when the value is exactly 0.22 is not a rounding).
    """
    others = [w.text for w in vec if w is not None and w.kind == "decimal" and w.decimals]
    for m in precision_mixed(vec, exact_of):
        w = vec[m.index]
        if w is None:
            continue
        col = col_label(run.spec, fieldname, m.index) if fieldname else str(m.index)
        run.add(
            "precision-mixed",
            "precision-mixed",
            SpecLocation(step, (row, col)),
            w.text,
            "-",
            None,
            {"decimals": m.decimals, "common": m.common, "others": others},
        )


def check_rows_without_inputs(run: Run) -> None:
    """``not-normalized`` and ``precision-mixed`` need only the claims."""
    for row, rc in run.spec.claims.rows.items():
        ws = [w for w in rc.weights if w is not None]
        gap = normalization_gap(ws) if ws and len(ws) == len(rc.weights) else None
        if gap is not None:
            total, lo, hi = gap
            run.add(
                "not-normalized",
                "not-normalized",
                SpecLocation("weights", (row,)),
                " + ".join(w.text for w in ws),
                "1",
                "1",
                {"sum": frac_text(total), "low": frac_text(lo), "high": frac_text(hi)},
            )
        if not run.spec.computable:
            for stage in MIXED_STAGES:
                mixed(run, stage.step, row, getattr(rc, stage.claim), stage.claim)


def check_tokens(run: Run, frame: Frame) -> None:
    """The rows of Q, K and V the author printed for each token."""
    res = frame.result
    for token, tc in run.spec.claims.tokens.items():
        for fieldname, name in TOKEN_STAGES.items():
            vec: tuple[Written | None, ...] | None = getattr(tc, fieldname)
            if vec is None:
                continue
            labels = res.query_labels if name == "Q" else res.key_labels
            i = row_index(labels, token)
            tensor = res.stage(name)
            mixed(
                run,
                name,
                token,
                vec,
                exact_of=None if i is None else _entries(tensor, i),
            )
            for j, w in enumerate(vec):
                if w is None:
                    continue
                if i is None:
                    run.add(
                        "missing-input",
                        "missing-token",
                        SpecLocation(name, (token, str(j))),
                        w.text,
                        "?",
                        None,
                        {"token": token},
                    )
                    continue
                diagnose(run, Site(name, (token, str(j)), w, tensor, (i, j), res))


def check_row(run: Run, row: str, author: Frame, stated: Frame) -> None:
    """One query row's claims, judged in the author's frame along the author's chain."""
    spec = run.spec
    claims = spec.claims.rows[row]
    res = author.result
    i = row_index(res.query_labels, row)
    if i is None:
        for rc in row_claims(claims):
            run.add(
                "missing-input",
                "missing-row",
                SpecLocation(rc.step, (row,)),
                rc.claim.text,
                "?",
                None,
                {"token": row},
            )
        return
    if res.weights.ndim != 2:
        raise InputError(f"{spec.path}: check supports single-head, unbatched specs")
    chain = Chain(spec, row, i, res, author.scale)
    first = len(run.findings)
    for stage in MIXED_STAGES:
        t = res.stage(stage.step)
        mixed(
            run,
            stage.step,
            row,
            getattr(claims, stage.claim),
            stage.claim,
            exact_of=_entries(t, i),
        )
    for rc in row_claims(claims):
        site = Site(
            rc.step,
            row_position(spec, row, rc),
            rc.claim,
            res.stage(rc.step),
            rc.index(i),
            res,
            ChainLink(chain, rc.field, rc.column),
        )
        diagnose(run, site)
    if claims.attends_most:
        found = judge_interpretation(
            res,
            i,
            claims.attends_most,
            location=SpecLocation("interpretation", (row,)),
            limits=run.limits,
        )
        if found is not None:
            run.findings.append(found)
    if author is not stated:
        run.in_frame(first, author.label, FRAME_STEPS)
