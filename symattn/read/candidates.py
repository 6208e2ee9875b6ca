"""The derivations a claim may come from, likeliest first.

A claim the code did not compute comes from some of the arrays the text gives; which ones is
decided by reproduction (:class:`~symattn.read.origin.Origins`): these are the candidates it
tries, few and ordered by what the text's order and names suggest (names only order them):

- the weights written the other way (``X Wᵀ``: the weights as PyTorch stores them), and X
  itself as Q, K and V;
- X·W for the query side and for the key/value side separately: each X the text gives (the
  nearest :data:`NEAREST`, as wide as the rows of W_Q) as the keys' and values' X, and each
  as the queries' (``X_q``: cross-attention, a decoder's states against an encoder's), the
  default's X first; beside the W's, a decoder's states read as Q may be the queries' X and
  an encoder's memory read as keys and values the keys' X;
- each Q, K (and V, for an output) the text gives before the claim, those whose names say
  the claim's head first (``Q_1``, ``K_1`` for ``Q_1 K_1^T``) or one head together.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from symattn.read.dataflow import Derivation, Start
from symattn.read.inputs import Input, transposed
from symattn.read.roles import RoleName

__all__ = ["NEAREST", "alternatives", "nearest", "projected"]

#: how many inputs of each role, given before a claim, are tried as its sources
NEAREST: Final = 4


def nearest(inputs: Mapping[int, Input], roles: tuple[RoleName, ...], at: int) -> list[int]:
    """The inputs of ``roles`` given before ``at``, nearest first (at most :data:`NEAREST`)."""
    keys = [k for k, i in inputs.items() if i.roles & set(roles) and k < at]
    return sorted(keys, reverse=True)[:NEAREST]


def projected(d: Derivation) -> tuple[int, int, int, int, int] | None:
    """The query side's X, the keys' X, and W_Q, W_K, W_V of a derivation from X."""
    if d.start is not Start.X or len(d.refs) < 4:
        return None
    x, wq, wk, wv = d.refs[:4]
    return (d.refs[4] if len(d.refs) > 4 else x), x, wq, wk, wv


def alternatives(
    inputs: Mapping[int, Input],
    heads: Mapping[int, int],
    at: int,
    head: int | None,
    d: Derivation,
    output: bool,
) -> Iterator[Derivation]:
    """The other derivations than ``d`` (its default) of a claim written at ``at`` (of
    ``head``, when its name says one), likeliest first (``output``: the claim is an output,
    whose V takes part)."""
    if d.start is Start.X:
        yield Derivation(d.start, d.refs, not d.w_t, d.scale, d.causal, d.row)
        # ``Q = K = V = X``: the embeddings themselves, without the projections
        x = d.refs[0]
        yield Derivation(Start.QKV, (x, x, x), False, d.scale, d.causal, d.row)
    yield from _from_x(inputs, at, d)
    qs = nearest(inputs, (RoleName.Q,), at)
    ks = nearest(inputs, (RoleName.K, RoleName.KV), at)
    vs = nearest(inputs, (RoleName.V, RoleName.KV), at)
    if not output:
        # (the values take no part: the default's, or one of the head of Q)
        old = d.refs[2] if d.start is Start.QKV and len(d.refs) > 2 else -1
        vs = [old] if old >= 0 or not vs else vs
    one = not output and len(vs) == 1

    def likely(qkv: tuple[int, int, int]) -> tuple[int, list[int]]:
        hs = {heads.get(r) for r in qkv if r >= 0 and not (one and r == qkv[2])}
        agree = len(hs) == 1 and None not in hs
        named = head is not None and hs == {head}
        return (-2 * named - agree, sorted(-r for r in qkv))

    for q, k, v in sorted(((q, k, v) for q in qs for k in ks for v in vs), key=likely):
        alt = Derivation(Start.QKV, (q, k, v), False, d.scale, d.causal, d.row)
        if alt != d:
            yield alt


def _from_x(inputs: Mapping[int, Input], at: int, d: Derivation) -> Iterator[Derivation]:
    """X·W with the query side's X and the keys' X each any X given before ``at`` (as wide
    as the rows of W_Q, in either orientation of the weights), the default's X first; the
    weights are the ones given last before ``at`` (or the default's)."""
    got = projected(d)
    ws: tuple[int, ...]
    if got is not None:
        ws = got[2:]
    else:
        found = [nearest(inputs, (r,), at) for r in (RoleName.W_Q, RoleName.W_K, RoleName.W_V)]
        if not all(found):
            return
        ws = tuple(w[0] for w in found)
    # (a decoder's states read as Q, an encoder's memory read as keys and values: with the
    # W's given, they may be the X of each side)
    xs = nearest(inputs, (RoleName.X,), at)
    qs = [*xs, *nearest(inputs, (RoleName.Q,), at)]
    kvs = [*xs, *nearest(inputs, (RoleName.KV,), at)]
    if got is not None:
        kvs = [got[1], *(x for x in kvs if x != got[1])]
    for w_t in (d.w_t, not d.w_t) if got is not None else (False, True):
        wq = inputs[ws[0]].rows
        height = len(transposed(wq)) if w_t else len(wq)
        for kv in (x for x in kvs if inputs[x].width == height):
            for q in (x for x in qs if inputs[x].width == height):
                refs = (kv, *ws) if q == kv else (kv, *ws, q)
                alt = Derivation(Start.X, refs, w_t, d.scale, d.causal, d.row)
                if alt != d:
                    yield alt
