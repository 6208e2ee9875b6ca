"""The hand-written alternatives ``bench_attention.py`` measures symattn against.

- :func:`plain_flint`: the anchor for certified digits, a ~40-line python-flint pipeline:
  the inputs as exact ``arb_mat``, the scores as one ``arb_mat`` product, one ``arb.exp`` per
  score, ``P V`` and the row sums as ``arb_mat`` products;
- :func:`mpmath_attention`: the same in mpmath at a number of digits (not certified: mpmath
  carries no error bound), timed at a small n only;
- :func:`longdouble_attention`: numpy in ``np.longdouble`` (80-bit x87 on x86-64);
- :func:`accuracy` and :func:`wrong_balls`: max ulp and wrong entries against a reference.
"""

from __future__ import annotations

import math
from typing import Any

import flint
import numpy as np


def plain_flint(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    digits: int = 50,
    is_causal: bool = False,
    attn_mask: np.ndarray | None = None,
    decimal: bool = False,
) -> list[list[Any]]:
    """Certified balls of the output by plain python-flint (2-D inputs; binary floats, or
    their shortest decimals with ``decimal``)."""
    prec = int(digits * 3.33) + 30
    with flint.ctx.workprec(prec):

        def mat(a: np.ndarray) -> Any:
            if decimal:
                return flint.arb_mat([[flint.arb(str(x)) for x in r] for r in a.tolist()])
            return flint.arb_mat(np.asarray(a, dtype=np.float64).tolist())

        qm, km, vm = mat(q), mat(k), mat(v)
        with flint.ctx.workprec(prec + 300):  # the scores exactly (for these exponent ranges)
            s = qm * km.transpose()
        scale = 1 / flint.arb(q.shape[1]).sqrt()
        L, S = s.nrows(), s.ncols()
        add = None if attn_mask is None else np.asarray(attn_mask, dtype=np.float64).tolist()
        rows = []
        for i in range(L):
            e = []
            for j in range(S):
                if (is_causal and j > i) or (add is not None and add[i][j] == -math.inf):
                    e.append(flint.arb(0))
                    continue
                x = s[i, j] * scale
                if add is not None:
                    x += add[i][j]
                e.append(x.exp())
            rows.append(e)
        em = flint.arb_mat(rows)
        num = em * vm
        den = em * flint.arb_mat(S, 1, [1] * S)
        return [[num[i, c] / den[i, 0] for c in range(num.ncols())] for i in range(L)]


def mpmath_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    digits: int = 50,
    is_causal: bool = False,
    attn_mask: np.ndarray | None = None,
    decimal: bool = False,
) -> list[list[Any]]:
    """The output by mpmath at ``digits`` digits (2-D inputs; exact binary floats, or their
    shortest decimals with ``decimal``)."""
    import mpmath

    with mpmath.workdps(digits + 10):

        def mat(a: np.ndarray) -> Any:
            rows = a.tolist()
            return mpmath.matrix(
                [[mpmath.mpf(str(x)) for x in r] for r in rows] if decimal else rows
            )

        qm, km, vm = (mat(np.asarray(a, dtype=np.float64)) for a in (q, k, v))
        s = qm * km.T
        scale = 1 / mpmath.sqrt(q.shape[1])
        L, S, Ev = q.shape[0], k.shape[0], v.shape[1]
        out = []
        for i in range(L):
            logits = []
            for j in range(S):
                if is_causal and j > i:
                    continue
                x = s[i, j] * scale
                if attn_mask is not None:
                    a = float(attn_mask[i, j])
                    if a == -math.inf:
                        continue
                    x += a
                logits.append((j, x))
            top = max(x for _, x in logits)
            e = [(j, mpmath.exp(x - top)) for j, x in logits]
            tot = mpmath.fsum(x for _, x in e)
            out.append([mpmath.fsum(x * vm[j, c] for j, x in e) / tot for c in range(Ev)])
        return out


def longdouble_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, **kw: Any) -> np.ndarray:
    """numpy's attention in ``np.longdouble``, rounded to float64 at the end."""
    q, k, v = (np.asarray(x, dtype=np.longdouble) for x in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(np.longdouble(q.shape[-1]))
    if kw.get("is_causal"):
        s = np.where(np.tril(np.ones(s.shape[-2:], dtype=bool)), s, -np.inf)
    elif kw.get("attn_mask") is not None:
        s = s + np.asarray(kw["attn_mask"], dtype=np.longdouble)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return np.asarray((e / e.sum(axis=-1, keepdims=True)) @ v, dtype=np.float64)


def accuracy(values: Any, cells: list[tuple[int, ...]], refs: list[Any]) -> tuple[float, int]:
    """``(max ulp, wrong)``: the largest ``|value - exact| / ulp(exact)`` over the sampled
    cells (``values`` indexed by cell, as floats or anything ``float()`` takes) and how many
    are not correctly rounded (more than half an ulp off)."""
    worst, wrong = 0.0, 0
    with flint.ctx.workprec(300):
        for cell, ref in zip(cells, refs, strict=True):
            got = float(_at(values, cell))
            if ref.is_zero():
                err = 0.0 if got == 0 else math.inf
            else:
                near = float(ref.mid())
                unit = math.ulp(near) if near != 0 else 5e-324
                err = float((abs(flint.arb(got) - ref) / unit).upper())
            worst = max(worst, err)
            wrong += err > 0.5
    return worst, wrong


def wrong_balls(balls: Any, cells: list[tuple[int, ...]], refs: list[Any]) -> int:
    """How many certified balls at the sampled cells do not hold the reference value."""
    with flint.ctx.workprec(300):
        return sum(
            not _ball(_at(balls, cell)).overlaps(ref) for cell, ref in zip(cells, refs, strict=True)
        )


def _at(values: Any, cell: tuple[int, ...]) -> Any:
    if isinstance(values, np.ndarray):
        return values[cell]
    x = values
    for i in cell:
        x = x[i]
    return x


def _ball(x: Any) -> Any:
    if isinstance(x, flint.arb):
        return x
    return flint.arb(float(x))
