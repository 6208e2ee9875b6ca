"""Certified outputs of a head of binary-float Q and K in fixed point, with no Python object
per score: the exact scores as BLAS slice products, every weight ``W = floor(2**F e)`` by the
compiled kernel of :mod:`symattn.fast.limbexp` within a proved number of ulps, and ``P V``
and the row sums as exact BLAS products of the weights' limbs with slices of V.

:func:`fixed_binary` gives ``N`` and ``R`` with ``|N - 2**F N_true| <= num_rad`` and
``|R - 2**F R_true| <= den_rad``; :func:`binary_balls` makes the balls (``unit N / R``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import ModuleType

import flint
import numpy as np

from symattn.errors import PrecisionError
from symattn.exact import arb_of, float_ints, int_slices
from symattn.fast.problem import Problem, exact_values
from symattn.fast.sliced import Sliced, from_float

__all__ = [
    "BinaryOutputs",
    "binary_balls",
    "combine_ints",
    "exp_tables",
    "fixed_binary",
    "limb_count",
    "limbs_of",
]

LIMB = 26  # limbexp.LIMB (kept here so this module does not load numba)
CHUNK = 12
TOP = 7
ROWS = 64  # rows of a head per block: its score terms and weights stay small


@dataclass(frozen=True)
class BinaryOutputs:
    """``N`` (L x Ev) and ``R`` (L) of one head in units of ``2**-bits`` and bounds of their
    errors: ``num_rad`` (integers, per column or per entry) and ``den_rad`` (per row); the
    output is ``unit N / R`` (0 where a row has no ``n_active`` keys)."""

    num: np.ndarray
    den: np.ndarray
    num_rad: np.ndarray
    den_rad: np.ndarray
    n_active: np.ndarray
    bits: int
    unit: Fraction


def limb_count(digits: int, vmax_bits: int) -> int:
    """Fraction limbs of the weights for ``digits`` digits: the bits of ``10**-digits``, of
    ``max |V|`` and guard bits for the error terms (a ball too wide only costs a second try)."""
    return max(2, -(-(math.ceil(digits * math.log2(10)) + 8 + max(vmax_bits, 0)) // LIMB))


def limbs_of(x: int, n: int) -> np.ndarray:
    """The ``n`` limbs of a non-negative integer (low first)."""
    return np.array([(x >> (LIMB * i)) & ((1 << LIMB) - 1) for i in range(n)], dtype=np.int64)


def _floor_fixed(x: flint.arb, bits: int) -> int | None:
    """``m`` with ``|x 2**bits - m| <= 2`` (``None``: the ball is too wide)."""
    y = x * (1 << bits)
    if not y.is_finite() or y.rad() > 0.5:
        return None
    man, ex = y.mid().man_exp()
    m, e = int(man), int(ex)
    return m << e if e >= 0 else m >> -e


@lru_cache(maxsize=4)
def exp_tables(nf: int) -> np.ndarray:
    """``T_k[c] = floor(2**F exp(-c 2**(-4 - 12 k)))`` within 2 ulps, as limbs: (4, 4096,
    nf + 1) uint32. Each table is the powers of one Arb ``exp`` (ball products: the radius
    stays far below an ulp, and is checked), floored from the midpoints."""
    F = LIMB * nf
    count = 1 << CHUNK
    values: list[int] = []
    with flint.ctx.workprec(F + 64):
        half_ulp = flint.arb(2) ** (-F - 1)
        for k in range(4):
            x = (-(flint.arb(2) ** (TOP - (CHUNK - 1) - CHUNK * k))).exp()
            power = flint.arb(1)
            for _ in range(count):
                if not power.rad() < half_ulp:
                    raise PrecisionError("exp tables too wide")  # never at F + 64 bits
                man, ex = power.mid().man_exp()
                m, e = int(man), int(ex) + F
                values.append(m << e if e >= 0 else m >> -e)  # floor: within 1 + 1/2 ulp
                power = power * x
    ints = np.array(values, dtype=object)
    out = np.empty((4 * count, nf + 1), dtype=np.uint32)
    for i in range(nf + 1):
        out[:, i] = ((ints >> (LIMB * i)) & ((1 << LIMB) - 1)).astype(np.uint32)
    tables = out.reshape(4, count, nf + 1)
    tables.flags.writeable = False
    return tables


def _exp2(unit: Fraction) -> int:
    """The exponent of a power of two given as a Fraction."""
    num, den = unit.numerator, unit.denominator
    return (num.bit_length() - 1) - (den.bit_length() - 1)


def _line_exps(s: Sliced, n: int) -> np.ndarray:
    e = np.zeros(n, dtype=np.int64) if s.exps is None else np.asarray(s.exps).reshape(n)
    return e + _exp2(s.unit)


def _row_tops(
    qf: np.ndarray, kf: np.ndarray, active: np.ndarray, add: np.ndarray | None, gf: float
) -> tuple[np.ndarray, np.ndarray | None, float] | None:
    """``(M, c, big)``: ``M_i``, a float64 upper bound of row ``i``'s exact scores over its
    active keys (the kernel checks ``M_i - s_ij >= 0``); with an additive mask ``a``, ``c_i``
    a float64 near ``max_j (a_ij - g (M_i - s_ij))`` and above it by a margin (the kernel
    checks ``delta >= 0``); ``big`` bounds every ``|M_i|``, ``|s_ij|``, ``|c_i|`` and
    ``|a_ij|``. By blocks of rows (no L x S temporaries); ``None`` when not finite."""
    L, E = qf.shape
    top = np.empty(L)
    c = np.empty(L) if add is not None else None
    biggest = 0.0
    ka = np.abs(kf).T
    for i0 in range(0, L, ROWS):
        rows = slice(i0, min(L, i0 + ROWS))
        act = active[rows]
        with np.errstate(over="ignore", invalid="ignore"):
            absf = np.abs(qf[rows]) @ ka
            sf = qf[rows] @ kf.T
            up = sf + absf * ((E + 4) * 2.0**-51) + 2.0**-1000
        t = np.where(act, up, -np.inf).max(axis=1, initial=-np.inf)
        t = np.nextafter(np.nextafter(np.where(np.isfinite(t), t, 0.0), np.inf), np.inf)
        top[rows] = t
        biggest = max(biggest, float(absf.max(initial=0.0)))
        if add is not None and c is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                est = add[rows] - gf * (t[:, None] - sf)
                ci = np.where(act, est, -np.inf).max(axis=1, initial=-np.inf)
                ci = np.where(np.isfinite(ci), ci, 0.0)
                slack = gf * (np.abs(t) + absf.max(axis=1, initial=0.0)) + np.abs(ci) + 1.0
                c[rows] = ci + slack * 2.0**-30  # float64 errors are far below the margin
    biggest = max(biggest, float(np.abs(top).max(initial=0.0)))
    if add is not None and c is not None:
        biggest = max(biggest, float(np.abs(c).max(initial=0.0)), float(np.abs(add).max()))
    if not (np.isfinite(biggest) and np.isfinite(top).all()):
        return None
    return top, c, biggest


def _man_exp(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(m, e)``: ``x == m 2**e`` exactly, ``m`` int64 (53 bits), for finite float64."""
    mant, ex = np.frexp(x)
    return np.ldexp(mant, 53).astype(np.int64), (ex - 53).astype(np.int64)


def fixed_binary(
    p: Problem,
    b: tuple[int, ...],
    masked: np.ndarray | None,
    nf: int,
    kernels: ModuleType,
) -> BinaryOutputs | None:
    """``N`` and ``R`` of head ``b`` with ``nf`` fraction limbs (``None``: out of this path's
    reach, e.g. a scale that is not positive, V too wide, an additive mask not of binary
    floats). Blocks of :data:`ROWS` rows at a time: score terms, weights, ``P V``."""
    qf = p.q.source.batch(b).floats
    kf = p.k.source.batch(b).floats
    if qf is None or kf is None:
        return None
    qf = np.asarray(qf, dtype=np.float64)
    kf = np.asarray(kf, dtype=np.float64)
    L, E = qf.shape
    S = kf.shape[0]
    F = LIMB * nf
    with flint.ctx.workprec(F + 128):
        g = p.scale.arb()
        if not (g > 0) or not (g < 2**20):
            return None
    width = (53 - E.bit_length()) // 2
    qs, ks = from_float(qf, width, -1, 960), from_float(kf, width, -1, 960)
    if not (qs.exact and ks.exact) or width < 8:
        return None
    active = np.ones((L, S), dtype=np.bool_) if masked is None else ~np.asarray(masked)
    add = None
    if p.add is not None:  # binary floats, 0 where masked
        af = p.add.source.batch(b).floats
        if af is None:
            return None
        add = np.ascontiguousarray(np.broadcast_to(np.asarray(af, dtype=np.float64), (L, S)))
        if not np.isfinite(add).all():
            return None
    tops = _row_tops(qf, kf, active, add, float(g.mid()))
    if tops is None:
        return None
    top, c, biggest = tops
    n_int = max(1, -(-(int(np.frexp(2 * biggest + 1)[1]) + 2) // LIMB))
    m_man, m_exp = _man_exp(top)
    if add is not None and c is not None:
        a_man, a_exp = _man_exp(add)
        c_man, c_exp = _man_exp(c)
    else:
        a_man = a_exp = np.zeros((0, 0), dtype=np.int64)
        c_man = c_exp = np.zeros(0, dtype=np.int64)
    with flint.ctx.workprec(F + LIMB * n_int + 128):
        # without a mask, u >= 2**(LIMB n_int) means delta >= 256 (W = 0); with one, not
        big_zero = add is None and bool(g * flint.arb(2) ** (LIMB * n_int) >= 2 ** (TOP + 1))
        gm = _floor_fixed(g, LIMB * (nf + n_int))
        if gm is None:
            return None
        g_ceil = int(math.ceil(float(g.upper())))
    glimbs = limbs_of(gm, nf + n_int + 1).astype(np.uint32)
    pv = _PV.of(p, b, F)
    if pv is None:
        return None
    pairs = [(u, v) for u in range(len(qs.slices)) for v in range(len(ks.slices))]
    shifts = np.array([width * (u + v) for u, v in pairs], dtype=np.int64)
    row_e, col_e = _line_exps(qs, L), _line_exps(ks, S)
    tables = exp_tables(nf)
    kt = [ks.slices[v].T for v in range(len(ks.slices))]
    rows_max = min(ROWS, L)
    terms_buf = np.empty(len(pairs) * rows_max * S)
    w_buf = np.empty((nf + 1) * rows_max * S)
    for i0 in range(0, L, ROWS):
        i1 = min(L, i0 + ROWS)
        terms = terms_buf[: len(pairs) * (i1 - i0) * S].reshape(len(pairs), i1 - i0, S)
        for t, (u, v) in enumerate(pairs):
            np.matmul(qs.slices[u][i0:i1], kt[v], out=terms[t])
        w = w_buf[: (nf + 1) * (i1 - i0) * S].reshape(nf + 1, i1 - i0, S)
        status = kernels.weights_kernel(
            terms,
            shifts,
            row_e[i0:i1],
            col_e,
            m_man[i0:i1],
            m_exp[i0:i1],
            active[i0:i1],
            glimbs,
            tables,
            nf,
            n_int,
            big_zero,
            a_man[i0:i1],
            a_exp[i0:i1],
            c_man[i0:i1],
            c_exp[i0:i1],
            w,
        )
        if status != 0:
            return None
        pv.block(i0, w, active[i0:i1])
    err = int(kernels.error_ulps(nf, n_int, len(pairs), g_ceil, 0 if add is None else 2))
    return pv.outputs(err, active)


def _v_ints(p: Problem, b: tuple[int, ...]) -> tuple[np.ndarray, Fraction]:
    """V of head ``b`` as exact integers (int64 when they fit) times a unit."""
    vf = p.v.source.batch(b).floats
    if vf is None:
        return exact_values(p, b)
    ints, e0 = float_ints(np.asarray(vf, dtype=np.float64), small=True)
    return ints, Fraction(2) ** e0


class _PV:
    """``N = W V`` and ``R = W 1`` exactly, a block of rows at a time: each limb of the
    weights times V's slices (and a column of ones) in one float64 product, exact (every
    partial sum below ``2**53``); limbs that are all 0 in a block are skipped."""

    def __init__(
        self, vint: np.ndarray, unit: Fraction, vw: int, vsl: list[np.ndarray], L: int, bits: int
    ) -> None:
        S, Ev = vint.shape
        self.vint, self.unit, self.vw, self.nv, self.bits = vint, unit, vw, len(vsl), bits
        self.stack = np.concatenate([*vsl, np.ones((S, 1))], axis=1)
        self.num = np.empty((L, Ev), dtype=object)
        self.den = np.empty(L, dtype=object)
        # the blocks with weights set to 0, by first row: which weights are nonzero, active
        self.far_bounds: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.nonzero = np.zeros(L, dtype=np.int64)  # per row: active weights not set to 0
        # exp(-256) < 2**-369: a weight set to 0 (delta >= 256) is within 2**(bits - 369)
        # ulps, below one only while bits < 369
        self.far_ulps = 1 + (1 << max(bits - 369, 0))

    @classmethod
    def of(cls, p: Problem, b: tuple[int, ...], bits: int) -> _PV | None:
        """The products of head ``b`` (``None``: V too wide for them)."""
        vint, unit = _v_ints(p, b)
        S = vint.shape[0]
        vw = 53 - LIMB - max(S - 1, 1).bit_length()
        if vw < 8:
            return None
        vsl = int_slices(vint, vw)
        if len(vsl) > 12:
            return None
        return cls(vint, unit, vw, vsl, p.q.shape[-2], bits)

    def block(self, i0: int, w: np.ndarray, active: np.ndarray) -> None:
        """The rows ``i0, i0 + 1, ...`` from their weights' limbs ``w`` (nf + 1, rows, S)."""
        rows = slice(i0, i0 + w.shape[1])
        Ev, nv = self.num.shape[1], self.nv
        far = w[0] < 0  # set to 0 by the kernel (delta >= 256)
        w[0][far] = 0.0
        num_parts, den_parts = [], []
        for s in range(w.shape[0]):
            if not w[s].any():
                continue
            got = w[s] @ self.stack
            for t in range(nv):
                num_parts.append((got[:, t * Ev : (t + 1) * Ev], LIMB * s + self.vw * t))
            den_parts.append((got[:, nv * Ev], LIMB * s))
        if num_parts:
            self.num[rows] = combine_ints(num_parts)
            self.den[rows] = combine_ints(den_parts)
        else:  # every weight of the block is 0
            self.num[rows] = 0
            self.den[rows] = 0
        nonzero = active & ~far
        self.nonzero[rows] = nonzero.sum(axis=1)
        if far.any():  # masked weights are exact, those set to 0 within far_ulps: per entry
            self.far_bounds[i0] = nonzero, active

    def outputs(self, err: int, active: np.ndarray) -> BinaryOutputs | None:
        """The outputs and their error bounds, every weight not set to 0 within ``err``."""
        vint = self.vint
        S = vint.shape[0]
        n_active = active.sum(axis=1)
        if vint.dtype == np.int64 and S * max(int(np.abs(vint).max(initial=0)), 1) < 2**62:
            colabs = np.abs(vint).sum(axis=0).astype(object)
        else:
            colabs = np.abs(np.asarray(vint, dtype=object)).sum(axis=0)
        num_rad: np.ndarray = colabs * err
        den_rad = (
            self.nonzero.astype(object) * err
            + (n_active - self.nonzero).astype(object) * self.far_ulps
        )
        if self.far_bounds:
            num_rad = np.array(np.broadcast_to(num_rad, self.num.shape))
            vabs = np.abs(vint.astype(np.float64))
            for i0, (nonzero, act) in self.far_bounds.items():
                cost = np.where(nonzero, float(err), act * float(self.far_ulps))
                with np.errstate(over="ignore"):
                    bound = cost @ vabs  # rounding: at most S 2**-53
                bound = np.ceil(bound * (1 + (S + 4) * 2.0**-51) + 1)
                if not np.isfinite(bound).all():
                    return None
                rad = np.array([int(x) for x in bound.reshape(-1).tolist()], dtype=object)
                num_rad[i0 : i0 + len(bound)] = rad.reshape(bound.shape)
        return BinaryOutputs(self.num, self.den, num_rad, den_rad, n_active, self.bits, self.unit)


_M32 = (1 << 32) - 1


def combine_ints(parts: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """``sum c 2**k`` over exact integer-valued float64 arrays ``c`` (``|c| < 2**53``) as
    Python integers (an object array): added in int64 words of 32 bits, carried, then read
    as bytes (one ``int.from_bytes`` per entry, no Python integer per part)."""
    shape = parts[0][0].shape
    nl = (max(k for _, k in parts) + 53) // 32 + 3
    acc = np.zeros((nl, int(np.prod(shape))), dtype=np.int64)
    for c, k in parts:
        ci = c.reshape(-1).astype(np.int64)
        idx, off = divmod(k, 32)
        x = (ci & _M32) << off  # below 2**63
        y = (ci >> 32) << off  # |y| < 2**52
        acc[idx] += x & _M32
        acc[idx + 1] += (x >> 32) + (y & _M32)
        acc[idx + 2] += y >> 32
    carry = np.zeros(acc.shape[1], dtype=np.int64)
    for col in range(nl):
        v = acc[col] + carry
        acc[col] = v & _M32
        carry = v >> 32
    raw = acc.T.astype("<u4").tobytes()
    width = 4 * nl
    wrap = 1 << (32 * nl)
    neg = (carry < 0).tolist()
    ints = [
        int.from_bytes(raw[o : o + width], "little") - (wrap if n else 0)
        for o, n in zip(range(0, len(raw), width), neg, strict=True)
    ]
    out = np.empty(len(ints), dtype=object)
    out[:] = ints
    return out.reshape(shape)


def binary_balls(bo: BinaryOutputs, digits: int) -> np.ndarray | None:
    """The balls ``unit N / R`` of :class:`BinaryOutputs`, one ``arb_mat`` row at a time
    (``N`` plus its radii, times the ball of ``unit / R``), or ``None`` when a bound of their
    radii in float64 (Arb's own, plus 1%, plus its rounding) does not stay below
    ``10**-digits / 2`` (the caller tries more limbs)."""
    L, Ev = bo.num.shape
    if digits > 280 or not L or not Ev:
        return None
    nums = np.abs(bo.num.astype(np.float64))
    dens = bo.den.astype(np.float64)
    r_num = np.broadcast_to(bo.num_rad.astype(np.float64), (L, Ev))
    r_den = bo.den_rad.astype(np.float64)
    unit = float(bo.unit)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        low = dens - r_den
        inv_rad = r_den / (dens * low)  # the radius of 1 / R
        rad = ((nums + r_num) * inv_rad[:, None] + r_num / low[:, None]) * unit
        mag = (nums + r_num) / low[:, None] * unit
        bound = rad * 1.01 + mag * 2.0 ** (-bo.bits - 40) + 1e-300
    live = bo.n_active > 0
    if not (low[live] > 0).all() or not (bound[live] < 0.5 * 10.0**-digits).all():
        return None
    out = np.empty((L, Ev), dtype=object)
    per_entry = bo.num_rad.ndim == 2
    with flint.ctx.workprec(bo.bits + 128):
        u = arb_of(bo.unit)
        zero = flint.arb(0)

        def radii(values: list[int]) -> flint.arb_mat:
            return flint.arb_mat(1, Ev, [flint.arb(0, r) for r in values])

        shared = None if per_entry else radii(bo.num_rad.tolist())
        rad_rows = bo.num_rad.tolist() if per_entry else None
        nums_list = bo.num.tolist()
        for i in range(L):
            if not live[i]:
                out[i] = [zero] * Ev
                continue
            scale = u / flint.arb(flint.fmpz(int(bo.den[i])), int(bo.den_rad[i]))
            r = radii(rad_rows[i]) if rad_rows is not None else shared
            assert r is not None
            row = (flint.arb_mat(1, Ev, nums_list[i]) + r) * scale
            out[i] = row.entries()
    return out
