"""Certified fixed-point ``exp`` of every score of a head of binary-float inputs, compiled by
numba (the optional extra ``fast``; without it the same functions run as plain Python, slow,
for the tests of small inputs).

Numbers are non-negative fixed-point integers held as little-endian int64 limbs of
:data:`LIMB` bits; a value with ``nf`` fraction limbs is ``sum x[i] 2**(LIMB (i - nf))``.
Every operation rounds toward zero (floor) and its error is bounded in units of the last
place (ulps, ``2**-(LIMB nf)``); :func:`error_ulps` adds them up. For one entry:

1. ``u = M_i - s_ij`` exactly (the score's exact slice products, each at its power of two,
   and a dyadic ``M_i >= max_j s_ij``), bits below the grid floored (one ulp per term);
2. ``D = u G`` with ``G = floor(g 2**(LIMB (nf + n_int)))``, ``g`` the positive scale
   (``u < 2**(LIMB n_int)``), so ``D = delta 2**F`` with ``delta = g (M_i - s_ij)``; with an
   additive mask ``a``, plus ``(c_i - a_ij) 2**F`` (``c_i`` a dyadic of the row, chosen so
   that ``delta = g (M_i - s_ij) + c_i - a_ij`` is near 0 at the row's largest logit); the
   softmax is the same for any ``M_i`` and ``c_i``, and ``delta >= 0`` is checked;
3. ``exp(-delta) = T0[c0] T1[c1] T2[c2] T3[c3] exp(-r)``: four 12-bit chunks of ``delta``
   (``2**7`` down to ``2**-40``) looked up in tables of floored fixed-point exps, and
   ``r < 2**-40`` by ``6 exp(-r) = 6 - 6r + 3r^2 - r^3 + r^4/4 - ...``;
4. the weight ``W = floor(2**F exp(-delta))`` to within :func:`error_ulps`, written out as
   its limbs (float64, exact: each below ``2**LIMB``) for the exact ``P V`` products.

``delta >= 256`` gives ``W = 0``, marked by -1 in limb 0 of the output: ``exp(-256) <
2**-369``, so it is within ``2**(F - 369)`` ulps, below one only while ``F < 369`` (the caller
counts ``1 + 2**max(F - 369, 0)``); every other weight is within :func:`error_ulps`, a
computed 0 too.
"""

from __future__ import annotations

import numpy as np

from symattn.fast.compiled import _kernel

__all__ = [
    "BLOCK",
    "CHUNK",
    "LIMB",
    "centre_kernel",
    "error_ulps",
    "table_kernel",
    "weights_kernel",
]

LIMB = 26
MASK = (1 << LIMB) - 1
CHUNK = 12  # bits per table index
TOP = 7  # the first chunk starts at 2**TOP (delta < 2**(TOP + 1) = 256)


@_kernel
def _mul(
    x: np.ndarray, y: np.ndarray, shift: int, out: np.ndarray, acc: np.ndarray, nb: int
) -> int:
    """``out = floor(x y 2**(-LIMB shift))`` for each of the first ``nb`` entries of a block
    (limbs along the first axis, entries along the second; uint32 limbs, ``acc`` a uint64
    scratch of two rows), up to ``m + 2`` ulps below (``m``: the most limb pairs of a
    column, ``min(len(x), len(y))``); columns below ``-1`` are left out. Column by column,
    the entries in the inner loop (vectorized). Returns what did not fit in ``out`` (0 when
    it fits)."""
    nx = x.shape[0]
    ny = y.shape[0]
    n_out = out.shape[0]
    over = np.uint64(0)
    total = acc[0]
    carry = acc[1]
    for e in range(nb):
        carry[e] = 0
    for c in range(n_out):
        oc = out[c]
        for e in range(nb):
            oc[e] = 0
    for c in range(-1, nx + ny - 1 - shift):
        k = c + shift
        i0 = max(k - (ny - 1), 0)
        i1 = min(k, nx - 1)
        for e in range(nb):
            total[e] = carry[e]
        for i in range(i0, i1 + 1):
            xi = x[i]
            yi = y[k - i]
            for e in range(nb):
                total[e] += np.uint64(xi[e]) * np.uint64(yi[e])
        if c >= n_out:
            for e in range(nb):
                over |= total[e]
        elif c >= 0:
            oc = out[c]
            for e in range(nb):
                oc[e] = np.uint32(total[e] & MASK)
        for e in range(nb):
            carry[e] = total[e] >> LIMB
    for c in range(max(nx + ny - 1 - shift, 0), n_out):  # the last carry, upward
        oc = out[c]
        for e in range(nb):
            oc[e] = np.uint32(carry[e] & MASK)
            carry[e] = carry[e] >> LIMB
    for e in range(nb):
        over |= carry[e]
    return int(over)


@_kernel
def _add_at(acc: np.ndarray, val: int | np.int64, k: int) -> int:
    """``acc += val 2**k`` for ``|val| < 2**62`` (limbs left unnormalized); bits below
    ``2**0`` are floored. Returns 1 when bits were floored, 2 when ``acc`` is too short."""
    flag = 0
    if k < 0:
        if -k >= 62:
            val = -1 if val < 0 else 0
        else:
            val = val >> (-k)
        k = 0
        flag = 1
    idx = k // LIMB
    off = k - LIMB * idx
    if idx >= acc.shape[0]:
        return 2 if val != 0 else flag
    lo = val & ((1 << (LIMB - off)) - 1)
    hi = val >> (LIMB - off)
    acc[idx] += lo << off
    if idx + 1 < acc.shape[0]:
        acc[idx + 1] += hi
    elif hi != 0:
        return 2
    return flag


@_kernel
def _normalize(acc: np.ndarray) -> int:
    """Carries of signed limbs propagated upward; returns the carry out of the top limb
    (negative: the value is negative)."""
    carry = 0
    for c in range(acc.shape[0]):
        v = acc[c] + carry
        acc[c] = v & MASK
        carry = v >> LIMB
    return carry


@_kernel
def _bits(d: np.ndarray, e: int, pos: int, count: int) -> int:
    """Bits ``pos .. pos + count - 1`` of entry ``e`` of the limbs ``d`` (``count <= LIMB``)."""
    idx = pos // LIMB
    off = pos - LIMB * idx
    v = np.int64(d[idx, e]) >> off
    if idx + 1 < d.shape[0]:
        v |= np.int64(d[idx + 1, e]) << (LIMB - off)
    return int(v & ((1 << count) - 1))


BLOCK = 256  # entries per block of the vectorized products


@_kernel
def weights_kernel(
    terms: np.ndarray,
    shifts: np.ndarray,
    row_e: np.ndarray,
    col_e: np.ndarray,
    m_man: np.ndarray,
    m_exp: np.ndarray,
    active: np.ndarray,
    g: np.ndarray,
    tables: np.ndarray,
    nf: int,
    n_int: int,
    big_zero: bool,
    add_man: np.ndarray,
    add_exp: np.ndarray,
    c_man: np.ndarray,
    c_exp: np.ndarray,
    out: np.ndarray,
) -> int:
    """The fixed-point weights of one head (the module's steps 1-4): ``out[s, i, j]`` is limb
    ``s`` of ``W_ij`` (``nf + 1`` limbs). The score ``s_ij`` is ``sum_t terms[t, i, j]
    2**(shifts[t] + row_e[i] + col_e[j])``, ``M_i = m_man[i] 2**m_exp[i]``, ``g`` the uint32
    limbs of ``G`` (``nf + n_int`` fraction limbs, one integer limb), ``tables[k, c]`` the
    uint32 limbs of ``T_k[c]``. An additive mask (``add_man`` not empty) adds
    ``c_i - a_ij`` to ``delta`` (``a_ij = add_man 2**add_exp``, ``c_i = c_man 2**c_exp``,
    bits below ``2**-F`` floored: one ulp each). Entries go by blocks of a row: the exact
    ``u`` one by one, the products for the whole block. Returns 0, or 1 when some ``u`` or
    ``delta`` was negative or did not fit (the caller takes another path)."""
    L = active.shape[0]
    S = active.shape[1]
    F = LIMB * nf
    nu = nf + n_int
    B = BLOCK
    u = np.zeros(nu + 1, dtype=np.int64)  # a guard limb: borrows of negative terms
    dd = np.zeros(nu + 2, dtype=np.int64)  # D plus the additive mask, a guard limb
    has_add = add_man.shape[0] > 0
    pp = np.zeros((nf + 2, B), dtype=np.int64)
    t4 = np.zeros(B, dtype=np.int64)
    keep = np.zeros(B)
    carry6 = np.zeros(B, dtype=np.int64)
    acc = np.zeros((2, B), dtype=np.uint64)
    ub = np.zeros((nu, B), dtype=np.uint32)
    gb = np.zeros((nu + 1, B), dtype=np.uint32)
    for c in range(nu + 1):
        for e in range(B):
            gb[c, e] = g[c]
    db = np.zeros((nu + 1, B), dtype=np.uint32)
    rb = np.zeros((nf + 1, B), dtype=np.uint32)
    r2 = np.zeros((nf + 1, B), dtype=np.uint32)
    r3 = np.zeros((nf + 1, B), dtype=np.uint32)
    pb = np.zeros((nf + 1, B), dtype=np.uint32)
    tb = np.zeros((4, nf + 1, B), dtype=np.uint32)
    e1 = np.zeros((nf + 1, B), dtype=np.uint32)
    e2 = np.zeros((nf + 1, B), dtype=np.uint32)
    zero = np.zeros(B, dtype=np.bool_)
    idx = np.zeros((4, B), dtype=np.int64)
    chunk_at = np.zeros((4, 2), dtype=np.int64)  # limb and offset of each chunk of D
    for k in range(4):
        pos = F - 4 - CHUNK * k
        chunk_at[k, 0] = pos // LIMB
        chunk_at[k, 1] = pos - LIMB * (pos // LIMB)
    rpos = F - 40
    ridx = rpos // LIMB
    roff = rpos - LIMB * ridx
    scale_f = 2.0**F
    weights = np.zeros(nf + 1)
    for c in range(nf + 1):
        weights[c] = 2.0 ** (LIMB * (c - nf))
    for i in range(L):
        for j0 in range(0, S, B):
            nb = min(B, S - j0)
            # 1. u = M_i - s_ij, exactly but for the floored bits, entry by entry
            for e in range(nb):
                j = j0 + e
                zero[e] = not active[i, j]
                for c in range(nu + 1):
                    u[c] = 0
                if not zero[e]:
                    if _add_at(u, m_man[i], m_exp[i] + F) == 2:
                        return 1
                    base = row_e[i] + col_e[j] + F
                    for t in range(terms.shape[0]):
                        v = terms[t, i, j]
                        if v != 0.0 and _add_at(u, -np.int64(v), shifts[t] + base) == 2:
                            return 1
                    top = _normalize(u)
                    if top < 0:
                        return 1
                    if top > 0 or u[nu] != 0:  # u >= 2**(LIMB n_int)
                        if not big_zero:
                            return 1
                        zero[e] = True
                for c in range(nu):
                    ub[c, e] = 0 if zero[e] else np.uint32(u[c])
            # 2. D = u G
            if _mul(ub, gb, nu, db, acc, nb) != 0:
                return 1
            if has_add:  # D += (c_i - a_ij) 2**F, exactly but for the floored bits
                for e in range(nb):
                    if zero[e]:
                        continue
                    for c in range(nu + 1):
                        dd[c] = np.int64(db[c, e])
                    dd[nu + 1] = 0
                    if _add_at(dd, c_man[i], c_exp[i] + F) == 2:
                        return 1
                    a = add_man[i, j0 + e]
                    if a != 0 and _add_at(dd, -a, add_exp[i, j0 + e] + F) == 2:
                        return 1
                    top = _normalize(dd)
                    if top < 0:
                        return 1
                    if top > 0 or dd[nu + 1] != 0:  # delta >= 2**(LIMB (n_int + 1)) > 256
                        zero[e] = True
                    for c in range(nu + 1):
                        db[c, e] = np.uint32(dd[c])
            for e in range(nb):
                if db[nf, e] >= 1 << (TOP + 1):
                    zero[e] = True
            for c in range(nf + 1, nu + 1):
                for e in range(nb):
                    if db[c, e] != 0:
                        zero[e] = True
            for k in range(4):  # the table indices: bits of D, the same place in every entry
                lo, off, hi = chunk_at[k, 0], chunk_at[k, 1], chunk_at[k, 0] + 1
                for e in range(nb):
                    x = np.int64(db[lo, e]) >> off
                    if hi <= nu:
                        x |= np.int64(db[hi, e]) << (LIMB - off)
                    idx[k, e] = x & ((1 << CHUNK) - 1)
            for c in range(nf + 1):
                for e in range(nb):
                    rb[c, e] = db[c, e] if c < ridx else 0
            for e in range(nb):
                rb[ridx, e] = db[ridx, e] & ((1 << roff) - 1)
            # 3. exp(-r) for r < 2**-40, then the table products
            _mul(rb[: ridx + 1], rb[: ridx + 1], nf, r2, acc, nb)
            _mul(r2, rb[: ridx + 1], nf, r3, acc, nb)
            for e in range(nb):
                rd = 0.0
                for c in range(max(0, ridx - 2), ridx + 1):
                    rd += rb[c, e] * weights[c]
                t4[e] = np.int64(np.floor(rd * rd * rd * rd / 24.0 * scale_f))
            # 6 P = 6 - 6 r + 3 r2 - r3 + 6 t4 (limbs normalized), then P = floor(6 P / 6)
            for e in range(nb):
                carry6[e] = 0
            for c in range(nf + 2):
                for e in range(nb):
                    v6 = carry6[e] + (6 * t4[e] if c == 0 else 0) + (6 if c == nf else 0)
                    if c <= nf:
                        v6 += 3 * np.int64(r2[c, e]) - 6 * np.int64(rb[c, e]) - np.int64(r3[c, e])
                    pp[c, e] = v6 & MASK
                    carry6[e] = v6 >> LIMB
            for e in range(nb):
                carry6[e] = 0  # the remainder, below 6: x < 7 2**LIMB < 2**32
            for c in range(nf + 1, -1, -1):  # every limb and remainder is >= 0
                for e in range(nb):
                    x6 = (carry6[e] << LIMB) + pp[c, e]
                    q6 = (x6 * 2863311531) >> 34  # x6 // 6 for x6 < 2**32
                    carry6[e] = x6 - 6 * q6
                    if c <= nf:
                        pb[c, e] = np.uint32(q6)
            for k in range(4):
                for c in range(nf + 1):
                    for e in range(nb):
                        tb[k, c, e] = tables[k, idx[k, e], c]
            _mul(tb[0], tb[1], nf, e1, acc, nb)
            _mul(e1, tb[2], nf, e2, acc, nb)
            _mul(e2, tb[3], nf, e1, acc, nb)
            _mul(e1, pb, nf, e2, acc, nb)
            # 4. the limbs of W; -1 in limb 0 marks a weight set to 0 (delta >= 256)
            for e in range(nb):
                keep[e] = 0.0 if zero[e] else 1.0
            for s in range(nf + 1):
                o = out[s, i]
                es = e2[s]
                for e in range(nb):
                    o[j0 + e] = float(es[e]) * keep[e]
            for e in range(nb):
                if zero[e] and active[i, j0 + e]:
                    out[0, i, j0 + e] = -1.0
    return 0


def error_ulps(nf: int, n_int: int, n_terms: int, g_ceil: int, n_add: int = 0) -> int:
    """A bound, in ulps ``2**-(LIMB nf)``, of ``|W - 2**F exp(-delta)|`` for every weight of
    :func:`weights_kernel` (``n_terms`` score terms and ``M``, ``g <= g_ceil``, ``n_add``
    terms added to ``D`` unscaled, each floored; table entries within 2 ulps; ``r**4 / 24``
    in float64 from the top three limbs of ``r``, within 3)."""
    m = nf + 1  # limb pairs per column of a product of two (nf + 1)-limb values
    # floored score terms (one ulp of u each, times g), G within 2 of its last place (times
    # u < 2**(LIMB n_int): 2 ulps), the product u G
    e_d = (n_terms + 1) * g_ceil + 3 + (nf + n_int + 2) + n_add
    tail = 6 * (1 + (1 << max(LIMB * nf - 206, 0)))  # 6 r^5 / 120 and beyond
    e_p = (3 * (m + 2) + (m + 3) + 18 + tail) // 6 + 2
    e_t = 2
    return 4 * e_t + e_p + 4 * (m + 3) + e_d


@_kernel
def centre_kernel(
    table: np.ndarray, inv: np.ndarray, recip: np.ndarray, drop: int, width: int, out: np.ndarray
) -> None:
    """:func:`symattn.fast.limbs.shifted_product` of the weights' digits (``table[inv[i, j]]``,
    ``width``-bit integer digits, low first) and each row's digits ``recip[i]``, with the
    same columns and carries (so the same digits): ``out[i, j]`` gets the digits from
    column ``drop`` up, then the carry's digits (zeros where there is none). Blocks of a
    row at a time, the entries in the inner loops."""
    L = inv.shape[0]
    S = inv.shape[1]
    na = table.shape[1]
    nb = recip.shape[1]
    n_out = out.shape[2]
    first = max(drop - 2, 0)
    mask = (1 << width) - 1
    B = BLOCK
    a = np.zeros((na, B), dtype=np.uint32)
    col = np.zeros(B, dtype=np.uint64)
    carry = np.zeros(B, dtype=np.uint64)
    for i in range(L):
        for j0 in range(0, S, B):
            nb_e = min(B, S - j0)
            for e in range(nb_e):
                row = table[inv[i, j0 + e]]
                for s in range(na):
                    a[s, e] = row[s]
            for e in range(nb_e):
                carry[e] = 0
            d = 0
            for t in range(first, na + nb - 1):
                for e in range(nb_e):
                    col[e] = carry[e]
                for s in range(max(0, t - nb + 1), min(na, t + 1)):
                    r = np.uint64(recip[i, t - s])
                    a_s = a[s]
                    for e in range(nb_e):
                        col[e] += np.uint64(a_s[e]) * r
                if t >= drop:
                    for e in range(nb_e):
                        out[i, j0 + e, d] = np.int64(col[e] & mask)
                    d += 1
                for e in range(nb_e):
                    carry[e] = col[e] >> width
            while d < n_out:
                for e in range(nb_e):
                    out[i, j0 + e, d] = np.int64(carry[e] & mask)
                    carry[e] = carry[e] >> width
                d += 1


@_kernel
def table_kernel(
    a0: np.ndarray, a1: np.ndarray, lo: np.ndarray, hi: np.ndarray, drop: int, out: np.ndarray
) -> int:
    """``out[u] = floor(a0[lo[u]] a1[hi[u]] / 2**(24 drop))`` exactly, as float64 digits of
    24 bits (low first; ``a0`` and ``a1`` uint32 digits of 24 bits). Returns 1 when a
    product needs more digits than ``out`` holds."""
    n0 = a0.shape[1]
    n1 = a1.shape[1]
    n_out = out.shape[1]
    mask = (1 << 24) - 1
    for u in range(lo.shape[0]):
        x = a0[lo[u]]
        y = a1[hi[u]]
        carry = np.uint64(0)
        for t in range(n0 + n1 - 1):
            col = carry
            for s in range(max(0, t - n1 + 1), min(n0, t + 1)):
                col += np.uint64(x[s]) * np.uint64(y[t - s])
            d = t - drop
            if d >= n_out:
                if col != 0:
                    return 1
            elif d >= 0:
                out[u, d] = float(col & mask)
            carry = col >> np.uint64(24)
        d = n0 + n1 - 1 - drop
        while carry != 0:
            if d >= n_out or d < 0:
                return 1
            out[u, d] = float(carry & mask)
            carry = carry >> np.uint64(24)
            d += 1
    return 0
