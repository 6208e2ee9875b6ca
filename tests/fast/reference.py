"""References for the tests of symattn.fast: the per-entry Arb path of symattn.exact."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import ExactTensor, Places, Significant
from symattn.fast.float64 import run
from symattn.fast.problem import prepare


def arb_reference(q, k, v, **kw):  # the reference: the pure Arb path of symattn.exact
    return symattn.scaled_dot_product_attention(q, k, v, exact_float=True, **kw).to_numpy(
        method="exact"
    )


def arb_weights(q, k, v, **kw):  # the weights by the pure Arb path of symattn.exact
    exact_float = kw.pop("exact_float", True)
    r = symattn.scaled_dot_product_attention(q, k, v, exact_float=exact_float, **kw)
    return r.weights.to_numpy(method="exact")


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def fallbacks(q, k, v, **kw) -> int:
    """How many output entries the fast float64 bound leaves open."""
    p = prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        kw.get("is_causal", False),
        kw.get("scale"),
        False,
        True,
        DEFAULT_LIMITS,
    )
    return run(p, None, DEFAULT_LIMITS, 256)[1]


def flint_outputs(q, k, v, *, mask=None, causal=False, scale=None, decimal=False, prec=300):
    """The outputs by plain python-flint (independent of symattn): Arb balls at ``prec``
    bits, from the exact inputs (binary floats, or their shortest decimal with ``decimal``).
    Inputs are 2-D; ``mask`` boolean (True takes part) or additive (-inf allowed)."""
    import flint

    def exact(x):
        f = Fraction(str(x)) if decimal else Fraction(float(x))
        return flint.arb(flint.fmpq(f.numerator, f.denominator))

    L, S = q.shape[0], k.shape[0]
    out = np.empty((L, v.shape[1]), dtype=object)
    with flint.ctx.workprec(prec):
        c = 1 / flint.arb(q.shape[1]).sqrt() if scale is None else exact(scale)
        for i in range(L):
            logits = []
            for j in range(S):
                if causal and j > i:
                    continue
                add = None
                if mask is not None:
                    m = mask[i, j]
                    if mask.dtype == bool:
                        if not m:
                            continue
                    elif np.isneginf(m):
                        continue
                    else:
                        add = exact(m)
                s = sum(
                    (exact(a) * exact(b) for a, b in zip(q[i], k[j], strict=True)), flint.arb(0)
                )
                logits.append((j, s * c + add if add is not None else s * c))
            if not logits:
                out[i] = [flint.arb(0)] * v.shape[1]
                continue
            top = max((t for _, t in logits), key=lambda t: t.mid())
            e = [(j, (t - top).exp()) for j, t in logits]
            den = sum((x for _, x in e), flint.arb(0))
            for col in range(v.shape[1]):
                num = sum((x * exact(v[j, col]) for j, x in e), flint.arb(0))
                out[i, col] = num / den
    return out


def correctly_rounded(values: np.ndarray, balls: np.ndarray) -> bool:
    """Whether every double is within half an ulp of its exact value (the ball's midpoint,
    its radius counted against): the correct rounding, ties either way."""
    import flint

    with flint.ctx.workprec(300):
        for got, ref in zip(values.reshape(-1).tolist(), balls.reshape(-1), strict=True):
            if ref.is_zero():
                if got != 0:
                    return False
                continue
            near = float(ref.mid())
            half = flint.arb(math.ulp(near) if near else 5e-324) / 2
            if not (abs(flint.arb(got) - ref) - half).upper() <= 0:
                return False
    return True


def assert_same_decimals(got: np.ndarray, exact: ExactTensor, decide: Significant | Places) -> None:
    """``got`` (Decimals from a fast path) is what the per-entry exact path gives for the
    same significant digits (``Significant``) or places (``Places``)."""
    if isinstance(decide, Significant):
        want = exact.evalf(decide.digits, method="exact")
    else:
        want = exact.round(decide.decimals, method="exact")
    assert [str(x) for x in got.reshape(-1)] == [str(x) for x in want.reshape(-1)]


def bf16(a: np.ndarray) -> np.ndarray:
    """Float32 values rounded to bfloat16 (nearest, ties to even), kept as float32."""
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def random_inputs(
    rng: np.random.Generator, kind: str, mask_kind: str, L: int, S: int, E: int, v_extra: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Q, K, V (V with ``v_extra`` more columns) and a mask of one input ``kind`` (float16,
    float32, bfloat16, decimals, wide, spread, huge, zero_columns; else float64) and
    ``mask_kind`` (boolean, additive; else None), drawn from ``rng``."""
    q, k, v = (rng.standard_normal((n, E)) for n in (L, S, S))
    if v_extra:
        v = np.concatenate([v, rng.standard_normal((S, v_extra))], axis=1)
    if kind in ("float16", "float32"):
        q, k, v = (x.astype(kind) for x in (q, k, v))
    elif kind == "bfloat16":
        q, k, v = (bf16(x) for x in (q, k, v))
    elif kind == "decimals":
        q, k, v = (np.round(x, 2) for x in (q, k, v))
    elif kind == "wide":
        q = q * 60
    elif kind == "spread":  # many slices with line exponents: entries over 2**-40 .. 2**10
        q = q * np.exp2(rng.integers(-40, 10, q.shape))
        k = k * np.exp2(rng.integers(-40, 10, k.shape))
    elif kind == "huge":  # scores beyond the double range: NaN and infinite logits
        q[0, 0], k[0, 0] = 1e155, 1e160
        if S > 1:
            k[1, 0] = -2e160
    elif kind == "zero_columns":
        v[:, ::2] = 0
    mask = None
    if mask_kind == "boolean":
        mask = rng.random((L, S)) < 0.7
    elif mask_kind == "additive":
        mask = np.where(rng.random((L, S)) < 0.2, -np.inf, np.round(rng.normal(size=(L, S)), 1))
    return q, k, v, mask
