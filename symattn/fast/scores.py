"""The scores ``Q K^T`` of a block of query rows as double-doubles with a proved error per row.

Slice products are exact (:mod:`symattn.fast.sliced`); products of the same weight
``2**(width*(s+t))`` are summed exactly in float64 (the width leaves room for four per
level), and the levels are added from the top in double-double (``DWPlusFP`` of Joldes,
Muller and Popescu: relative error ``<= 2u^2`` per addition, bounded here by ``4u^2`` of the
sum of the absolute values, which bounds every partial sum). Per-line exponents (binary
floats) scale rows and columns by powers of two, exact unless the result underflows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from symattn.fast.doubles import U2, fast_two_sum, two_sum
from symattn.fast.sliced import Sliced
from symattn.fast.workspace import Workspace

__all__ = [
    "PER_LEVEL",
    "Levels",
    "chunk_scores",
    "compact_lines",
    "line_factors",
    "score_levels",
    "score_width",
]

#: products of equal weight summed exactly in float64 (the score width leaves room for them)
PER_LEVEL = 4

#: the lowest score levels are left out (with a bound) when they add less than this share of
#: ``sum |q| max |k|`` (the other errors are of the order of ``2**-96``)
SCORE_DROP = 2.0**-100

#: absolute error of a power-of-two scaling that underflows, generously (in the scaled units)
_UNDERFLOW = 2.0**-1060


def score_width(terms: int) -> int:
    """Slice width so that :data:`PER_LEVEL` slice products summed over ``terms`` stay below
    ``2**53`` (so a level of the score product is an exact float64 sum)."""
    return max(4, (53 - PER_LEVEL.bit_length() - (max(terms, 1) - 1).bit_length()) // 2)


@dataclass(frozen=True)
class Levels:
    """The exact score products of a block of rows, by weight: level ``L`` holds the exact
    float64 sum of the slice products of weight ``2**(width*(L + base))``. Rows and keys are
    scaled by ``2**row_exp`` and ``2**col_exp`` (relative line exponents, ``None``: 0); the
    scores are then in units of ``unit_Q * unit_K * 2**(top_Q + top_K)``, and ``err`` bounds,
    per row, the error of :func:`chunk_scores` there. ``integer``: one level without line
    exponents (exact integers below ``2**51``).

    The levels are held as exact integer products ``terms`` (``(T, rows, keys)``) and, per
    level, the ``(term, +1 or -1)`` that add up to it (``recipe``): every partial sum is an
    integer below ``2**53``, so any order of adding them gives the level exactly."""

    terms: np.ndarray
    recipe: tuple[tuple[tuple[int, float], ...], ...]
    width: int
    row_exp: np.ndarray | None
    col_exp: np.ndarray | None
    err: np.ndarray
    integer: bool
    base: int = 0

    @cached_property
    def levels(self) -> list[np.ndarray]:
        """The levels themselves (a term when a level is one term, else their exact sum)."""
        out = []
        for parts in self.recipe:
            (t0, c0), rest = parts[0], parts[1:]
            if not rest and c0 == 1:
                out.append(self.terms[t0])
                continue
            level = self.terms[t0] * c0
            for t, c in rest:
                level += self.terms[t] * c if c != 1 else self.terms[t]
            out.append(level)
        return out


def _line_scale(exps: np.ndarray | None, top: int) -> np.ndarray | None:
    return None if exps is None else (exps[..., 0] - top).astype(np.int32)


def _abs_int(parts: list[np.ndarray], width: int) -> np.ndarray:
    """``|sum_s parts[s] * 2**(width*s)|`` bounded above (float64, the sum of magnitudes)."""
    total: np.ndarray = np.abs(parts[0])
    for s, a in enumerate(parts[1:], 1):
        total = total + np.abs(a) * 2.0 ** (width * s)
    return total


def compact_lines(a: np.ndarray, axis: int) -> np.ndarray | None:
    """The indices of the lines (rows for ``axis=1``, columns for ``axis=0``) where a slice is
    not zero, when they are few enough for a compact product; ``None``: use it whole (always
    for a small slice, where finding the lines costs more than it saves)."""
    if a.shape[1 - axis] < 64:
        return None
    nz = np.flatnonzero(a.any(axis=axis))
    return nz if 4 * nz.size < a.shape[1 - axis] else None


def score_levels(
    q: Sliced, k: Sliced, b: tuple[int, ...], rows: slice, work: Workspace | None = None
) -> Levels:
    """The exact slice products (BLAS) of query rows ``rows`` of batch entry ``b``."""
    work = work or Workspace()
    qsl = [a[rows] for a in q.at_batch(b)]
    ksl = k.at_batch(b)
    n_rows, E = qsl[0].shape
    width = q.width
    q_exps = q.exps_at(b)
    row_exp = _line_scale(None if q_exps is None else q_exps[rows], q.top_exp)
    col_exp = _line_scale(k.exps_at(b), k.top_exp)
    # per slice: sum_k |Q_s[i, k]| (rows scaled) and max |K_t| (keys scaled)
    qn_s = [np.abs(x).sum(axis=1) * (1 + (E + 8) * 2.0**-52) for x in qsl]
    kmax_t = work.kept(("kmax", b), k, lambda: [np.abs(y).max(axis=1, initial=0.0) for y in ksl])
    if row_exp is not None:
        qn_s = [np.ldexp(x, row_exp) for x in qn_s]
    if col_exp is not None:
        kmax_t = [np.ldexp(y, col_exp) for y in kmax_t]
    kmax_s = [float(y.max(initial=0.0)) for y in kmax_t]
    # every partial sum of the levels is at most sum_k |Q_int[i, k]| * max |K_int[j, :]|
    qn = sum(np.ldexp(x, width * i) for i, x in enumerate(qn_s)) * (1 + 2.0**-40)
    kmax = sum(y * 2.0 ** (width * j) for j, y in enumerate(kmax_s)) * (1 + 2.0**-40)
    # the lowest levels, when they add less than SCORE_DROP of that in every row, are left out
    n_levels = len(qsl) + len(ksl) - 1
    dropped = np.zeros(n_rows)
    base = 0
    while base < n_levels - 1:
        part = sum(
            np.ldexp(qn_s[i] * kmax_s[base - i], width * base)
            for i in range(len(qsl))
            if 0 <= base - i < len(ksl)
        )
        if not np.all(dropped + part <= qn * kmax * SCORE_DROP):
            break
        dropped = dropped + part
        base += 1
    terms, recipe = _products(qsl, ksl, base, n_levels, b, k, work)
    top = len(recipe) - 1
    err = (top * 4 * U2 * (1 + 2.0**-40)) * qn * kmax + dropped * (1 + 2.0**-40)
    if row_exp is not None or col_exp is not None:
        err = err + _UNDERFLOW
    err = err + _truncation(q, k, b, rows, qsl, ksl, row_exp, col_exp)
    integer = n_levels == 1 and row_exp is None and col_exp is None
    return Levels(terms, recipe, width, row_exp, col_exp, err, integer, base)


def _products(
    qsl: list[np.ndarray],
    ksl: list[np.ndarray],
    base: int,
    n_levels: int,
    b: tuple[int, ...],
    k: Sliced,
    work: Workspace,
) -> tuple[np.ndarray, tuple[tuple[tuple[int, float], ...], ...]]:
    """The slice products of levels ``base`` and up as exact integer terms and each level's
    recipe (:class:`Levels`), with fewer products than pairs.

    For slices ``i < j`` dense in both Q and K, ``Q_i K_j + Q_j K_i = (Q_i + Q_j)(K_i + K_j)
    - Q_i K_i - Q_j K_j`` (one such pair per level): ``n`` dense slices cost about
    ``n (n + 1) / 2`` products, not ``n**2``. With ``U = E (2**width - 1)**2`` (a bound of
    one slice product) the width gives ``PER_LEVEL U < 2**53``; a sum of two slices has
    ``width + 1`` bits, so ``(Q_i + Q_j)(K_i + K_j)`` is below ``4 U``: exact, whatever the
    order of summation of the BLAS. A level adds its terms in this order: the pair product,
    minus the two squares, then its other terms (a square ``Q_i K_i``, one product of its
    other dense pairs side by side, and its pairs with a compact slice, few rows or keys):
    every partial sum stays below ``4 U`` (at most the level's pairs, ``<= PER_LEVEL``), so
    the level is exact in any evaluation of that sum."""
    n_rows, S = qsl[0].shape[0], ksl[0].shape[0]
    qrows = [compact_lines(x, 1) for x in qsl]
    krows = work.kept(("krows", b), k, lambda: [compact_lines(y, 1) for y in ksl])
    both = {i for i in range(min(len(qsl), len(ksl))) if qrows[i] is None and krows[i] is None}
    needed = [
        [(i, lev + base - i) for i in range(len(qsl)) if 0 <= lev + base - i < len(ksl)]
        for lev in range(n_levels - base)
    ]
    pair: list[tuple[int, int] | None] = [
        next(((i, j) for i, j in ps if i < j and i in both and j in both), None) for ps in needed
    ]
    squares = sorted({i for pq in pair if pq for i in pq} | {i for i in both if 2 * i >= base})
    rest = [
        [
            (i, j)
            for i, j in ps
            if not (i == j and i in both) and (pq is None or (min(i, j), max(i, j)) != pq)
        ]
        for ps, pq in zip(needed, pair, strict=True)
    ]
    cap = len(qsl) * len(ksl) + n_levels  # a bound of the terms, the same for every block
    stack = work.get("levels", (cap, n_rows, S))
    recipe: list[list[tuple[int, float]]] = [[] for _ in needed]
    t = 0
    at: dict[int, int] = {}
    for i in squares:
        np.matmul(qsl[i], ksl[i].T, out=stack[t])
        at[i] = t
        t += 1
    for lev, pq in enumerate(pair):
        if pq is not None:
            i, j = pq
            x = qsl[i] + qsl[j]  # exact: integers below 2**(width + 1)
            y = work.kept(("pair", b, i, j), k, _pair(ksl, i, j))
            np.matmul(x, y.T, out=stack[t])
            recipe[lev] += [(t, 1.0), (at[i], -1.0), (at[j], -1.0)]
            t += 1
        if (lev + base) % 2 == 0 and (lev + base) // 2 in both:  # the square of the level
            recipe[lev].append((at[(lev + base) // 2], 1.0))
    for lev, ps in enumerate(rest):
        if not ps:
            continue
        dense = [(i, j) for i, j in ps if qrows[i] is None and krows[j] is None]
        out = stack[t]
        if dense:  # one product, the slices side by side
            js = tuple(j for _, j in dense)
            x = qsl[dense[0][0]] if len(dense) == 1 else np.hstack([qsl[i] for i, _ in dense])
            y = ksl[js[0]] if len(js) == 1 else work.kept(("keys", b, js), k, _side(ksl, js))
            np.matmul(x, y.T, out=out)
        else:
            out.fill(0.0)
        for i, j in ps:
            qi, kj = qrows[i], krows[j]
            x, y = qsl[i], ksl[j]
            if qi is not None and kj is not None:
                out[np.ix_(qi, kj)] += x[qi] @ y[kj].T
            elif qi is not None:
                out[qi] += x[qi] @ y.T
            elif kj is not None:
                out[:, kj] += x @ y[kj].T
        recipe[lev].append((t, 1.0))
        t += 1
    assert all(recipe)
    return stack[:t], tuple(tuple(r) for r in recipe)


def _pair(ksl: list[np.ndarray], i: int, j: int) -> Callable[[], np.ndarray]:
    """``K_i + K_j`` (exact: integers below ``2**(width + 1)``)."""
    return lambda: ksl[i] + ksl[j]


def _side(ksl: list[np.ndarray], js: tuple[int, ...]) -> Callable[[], np.ndarray]:
    """Key slices ``js`` side by side (one row per key)."""
    return lambda: np.hstack([ksl[j] for j in js])


def line_factors(exps: np.ndarray | None) -> np.ndarray | None:
    """``2**exps`` as doubles when all are normal (a product by them is exact unless it
    underflows), else ``None`` (then ``ldexp``)."""
    if exps is None or not exps.size or int(exps.min()) < -1000:
        return None
    factor: np.ndarray = np.ldexp(1.0, exps)
    return factor


def chunk_scores(lv: Levels, rs: slice) -> tuple[np.ndarray, np.ndarray]:
    """The scores of rows ``rs`` of the block as double-doubles ``(sh, sl)`` (within
    ``lv.err`` per row): the levels added from the top, then the line scalings (products by
    powers of two: exact, unless they underflow)."""
    top = len(lv.levels) - 1
    cols = line_factors(lv.col_exp)
    use_cols = cols is not None or lv.col_exp is None

    def weight(lev: int) -> Any:
        w = 2.0 ** (lv.width * (lev + lv.base))
        return w * cols[None, :] if cols is not None else w

    sh = (
        lv.levels[top][rs] * weight(top)
        if (top + lv.base or cols is not None)
        else lv.levels[top][rs]
    )
    sl = np.zeros_like(sh)
    for lev in range(top - 1, -1, -1):
        x = lv.levels[lev][rs] * weight(lev)
        s, e = two_sum(sh, x)
        sh, sl = fast_two_sum(s, sl + e)
    if not use_cols:
        assert lv.col_exp is not None
        sh, sl = np.ldexp(sh, lv.col_exp[None, :]), np.ldexp(sl, lv.col_exp[None, :])
    if lv.row_exp is not None:
        row = lv.row_exp[rs]
        rows = line_factors(row)
        if rows is not None:
            sh, sl = sh * rows[:, None], sl * rows[:, None]
        else:
            sh, sl = np.ldexp(sh, row[:, None]), np.ldexp(sl, row[:, None])
    return sh, sl


def _truncation(
    q: Sliced,
    k: Sliced,
    b: tuple[int, ...],
    rows: slice,
    qsl: list[np.ndarray],
    ksl: list[np.ndarray],
    qs: np.ndarray | None,
    ks: np.ndarray | None,
) -> np.ndarray | float:
    """Per row, the score error of lines cut short: ``|dS_ij| <= tq_i ||K_j||_1 +
    ||Q_i||_1 tk_j + E tq_i tk_j`` in line units (``t`` = 1 on a cut line), scaled."""
    tq_all, tk = q.trunc_at(b), k.trunc_at(b)
    tq = None if tq_all is None else tq_all[rows]
    if tq is None and tk is None:
        return 0.0
    E = qsl[0].shape[1]
    n_rows = qsl[0].shape[0]
    tqf = np.zeros(n_rows) if tq is None else tq[:, 0].astype(np.float64)
    tkf = np.zeros(ksl[0].shape[0]) if tk is None else tk[:, 0].astype(np.float64)
    qn = _abs_int(qsl, q.width).sum(axis=1) * (1 + (E + 8) * 2.0**-52)
    kn = _abs_int(ksl, k.width).sum(axis=1) * (1 + (E + 8) * 2.0**-52)
    rs = np.ones(n_rows) if qs is None else np.ldexp(1.0, qs)
    cs = np.ones(len(kn)) if ks is None else np.ldexp(1.0, ks)
    kn_max = float((kn * cs).max(initial=0.0))
    tk_max = float((tkf * cs).max(initial=0.0))
    bound: np.ndarray = rs * (tqf * kn_max + qn * tk_max + E * tqf * tk_max)
    return bound * (1 + 2.0**-40)
