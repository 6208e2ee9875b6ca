"""symattn against numpy and torch float64 on the inputs a kernel test suite uses.

One BLAS thread (``OPENBLAS_NUM_THREADS=1`` and friends are set below, before numpy loads;
torch gets ``set_num_threads(1)``), CPU time (``time.process_time``) medians of several
runs, every backend on the same inputs in the same process, one process per case. Printed:
the load average before and after, then Markdown tables.

* the input axis (n = 1024, d = 64): two decimals, float32 / float64 / bfloat16 standard
  normal, a causal mask, an additive (ALiBi-like) mask, a wide score range, half of V's
  columns zero. For each: numpy float64, torch float64 (``scaled_dot_product_attention``
  with the MATH backend forced), ``attention_float64`` (with numba's fused kernels when
  installed) and the same with them switched off (the numpy path), the API's
  ``scaled_dot_product_attention(q, k, v).to_numpy()``, the entries the proved bound left
  open, and a correctness column: the largest error in ulps of each backend against an
  independent 300-bit python-flint computation, on a sample of entries;
* certified digits (two decimals, n = 1024): ``attention_enclose(50)``, the API's
  ``.enclose(50)``, a plain python-flint pipeline at 50 digits, and the weights'
  ``to_numpy``, ``evalf(15)``, ``enclose(50)``;
* the batch axis: (B, H) = (2, 8), n = 1024, d = 128, float32;
* n = 4096, d = 128, float32, single process: time and peak RSS.

    python benchmarks/bench_attention.py            # everything (a few minutes)
    python benchmarks/bench_attention.py --quick    # the input axis at n = 256
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy (and torch) load: one BLAS thread

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Callable  # noqa: E402
from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baselines import (  # noqa: E402
    accuracy,
    longdouble_attention,
    mpmath_attention,
    plain_flint,
    wrong_balls,
)

ROOT = Path(__file__).resolve().parent.parent
KINDS = (
    "two decimals",
    "float32 normal",
    "float64 normal",
    "bfloat16 normal",
    "causal mask",
    "additive mask",
    "wide range",
    "zero columns",
)
SAMPLE = 48  # entries checked against the 300-bit reference
MPMATH_N = 32  # mpmath runs at this n (same d) only; time scaled by n**2 d: (n / MPMATH_N)**2


# --------------------------------------------------------------------------- inputs


def _bf16(a: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (to nearest even), held exactly in float32."""
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def make(kind: str, n: int, d: int, batch: tuple[int, ...] = ()) -> dict[str, Any]:
    """The inputs of one case: ``q, k, v`` arrays, keywords, and how to read floats."""
    rng = np.random.default_rng(zlib.crc32(f"{kind} {n} {d} {batch}".encode()))
    shape = batch + (n, d)

    def normal(dtype: Any = np.float32, s: float = 1.0) -> np.ndarray:
        return (rng.standard_normal(shape) * s).astype(dtype)

    case: dict[str, Any] = {"kw": {}, "exact_float": True, "kind": kind}
    if kind == "two decimals":
        case["x"] = [np.round(rng.uniform(-1, 1, shape), 2) for _ in range(3)]
        case["exact_float"] = False
    elif kind == "float32 normal":
        case["x"] = [normal(), normal(), normal()]
    elif kind == "float64 normal":
        case["x"] = [normal(np.float64) for _ in range(3)]
    elif kind == "bfloat16 normal":
        case["x"] = [_bf16(normal()) for _ in range(3)]
    elif kind == "causal mask":
        case["x"] = [normal(), normal(), normal()]
        case["kw"] = {"is_causal": True}
    elif kind == "additive mask":
        i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
        case["x"] = [normal(), normal(), normal()]
        case["kw"] = {"attn_mask": (-np.abs(i - j) * 0.0625).astype(np.float32)}
    elif kind == "wide range":  # scaled scores in the hundreds: most weights far below 2**-100
        case["x"] = [normal(s=30.0), normal(s=30.0), normal()]
    elif kind == "zero columns":
        v = normal()
        v[..., ::2] = 0
        case["x"] = [normal(), normal(), v]
    else:
        raise ValueError(kind)
    return case


# --------------------------------------------------------------------------- backends


def numpy_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, **kw: Any) -> np.ndarray:
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if kw.get("is_causal"):
        s = np.where(np.tril(np.ones(s.shape[-2:], dtype=bool)), s, -np.inf)
    elif kw.get("attn_mask") is not None:
        s = s + np.asarray(kw["attn_mask"], dtype=np.float64)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def torch_attention() -> Callable[..., np.ndarray] | None:
    try:
        import torch
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return None
    torch.set_num_threads(1)

    def run(q: np.ndarray, k: np.ndarray, v: np.ndarray, **kw: Any) -> np.ndarray:
        t = [torch.from_numpy(np.asarray(x, dtype=np.float64)) for x in (q, k, v)]
        mask = kw.get("attn_mask")
        with sdpa_kernel([SDPBackend.MATH]):
            out = torch.nn.functional.scaled_dot_product_attention(
                *t,
                attn_mask=None if mask is None else torch.from_numpy(mask.astype(np.float64)),
                is_causal=bool(kw.get("is_causal")),
            )
        return out.numpy()

    return run


def symattn_float64(case: dict[str, Any]) -> np.ndarray:
    from symattn.fast import attention_float64

    q, k, v = case["x"]
    return attention_float64(q, k, v, exact_float=case["exact_float"], **case["kw"])


def symattn_api(case: dict[str, Any]) -> Any:
    import symattn
    from symattn.config import Limits

    q, k, v = case["x"]
    return symattn.scaled_dot_product_attention(
        q, k, v, exact_float=case["exact_float"], limits=Limits(max_elements=2**26), **case["kw"]
    )


# --------------------------------------------------------------------------- measuring


def cpu(fn: Callable[[], Any], runs: int) -> float:
    """The median CPU time of ``runs`` calls (seconds)."""
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return float(np.median(times))


def _exact(x: float, decimal: bool) -> Any:
    import flint

    f = Fraction(str(x)) if decimal else Fraction(x)
    return flint.arb(flint.fmpq(f.numerator, f.denominator))


def reference(case: dict[str, Any], cells: list[tuple[int, ...]]) -> list[Any]:
    """The output at ``cells`` by plain python-flint at 300 bits (independent of symattn)."""
    import flint

    q, k, v = case["x"]
    decimal = not case["exact_float"]
    kw = case["kw"]
    out = []
    with flint.ctx.workprec(300):
        scale = 1 / flint.arb(q.shape[-1]).sqrt()
        for cell in cells:
            *b, i, c = cell
            qi = [_exact(x, decimal) for x in q[tuple(b) + (i,)].tolist()]
            kb, vb = k[tuple(b)], v[tuple(b)]
            keys = range(i + 1) if kw.get("is_causal") else range(kb.shape[0])
            logits = []
            for j in keys:
                s = flint.arb(0)
                for a, x in zip(qi, kb[j].tolist(), strict=True):
                    s += a * _exact(x, decimal)
                t = s * scale
                if kw.get("attn_mask") is not None:
                    t += _exact(float(kw["attn_mask"][i, j]), decimal)
                logits.append((j, t))
            top = max((t for _, t in logits), key=lambda t: t.mid())
            num, den = flint.arb(0), flint.arb(0)
            for j, t in logits:
                e = (t - top).exp()
                den += e
                num += e * _exact(float(vb[j, c]), decimal)
            out.append(num / den)
    return out


def ulps(values: np.ndarray, cells: list[tuple[int, ...]], refs: list[Any]) -> float:
    """The largest ``|value - exact| / ulp(exact)`` over the sample (0.5 or less: every
    sampled entry correctly rounded)."""
    import flint

    worst = 0.0
    with flint.ctx.workprec(300):
        for cell, ref in zip(cells, refs, strict=True):
            got = float(values[cell])
            if ref.is_zero():
                worst = max(worst, 0.0 if got == 0 else math.inf)
                continue
            near = float(ref.mid())
            unit = math.ulp(near) if near != 0 else 5e-324
            err = abs(flint.arb(got) - ref) / unit
            worst = max(worst, float(err.upper()))
    return worst


def sample(shape: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(7)
    return [tuple(int(rng.integers(0, n)) for n in shape) for _ in range(count)]


# --------------------------------------------------------------------------- cases


def one_kind(kind: str, n: int, d: int, runs: int) -> dict[str, Any]:
    """The input axis: one kind of input."""
    from symattn.config import DEFAULT_LIMITS
    from symattn.fast import jit
    from symattn.fast.float64 import run
    from symattn.fast.problem import prepare

    case = make(kind, n, d)
    q, k, v = case["x"]
    res: dict[str, Any] = {"kind": kind}
    res["numpy"] = cpu(lambda: numpy_attention(q, k, v, **case["kw"]), max(runs, 5))
    torch_run = torch_attention()
    if torch_run is not None:
        res["torch"] = cpu(lambda: torch_run(q, k, v, **case["kw"]), max(runs, 5))
    res["f64"] = cpu(lambda: symattn_float64(case), runs)
    with jit.use("numpy"):  # the same doubles without the fused kernels
        res["f64_numpy"] = cpu(lambda: symattn_float64(case), runs)
    res["api"] = cpu(lambda: symattn_api(case).to_numpy(), runs)
    kw = case["kw"]
    p = prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        kw.get("is_causal", False),
        None,
        False,
        case["exact_float"],
        DEFAULT_LIMITS,
    )
    values, res["undecided"] = run(p, None, DEFAULT_LIMITS, 256)
    res["api_equal"] = bool(np.array_equal(symattn_api(case).to_numpy(), values))
    with jit.use("numpy"):
        res["paths_equal"] = bool(np.array_equal(run(p, None, DEFAULT_LIMITS, 256)[0], values))
    cells = sample(values.shape, SAMPLE)
    refs = reference(case, cells)
    res["ulp_symattn"], res["wrong_symattn"] = accuracy(values, cells, refs)
    res["ulp_numpy"], res["wrong_numpy"] = accuracy(numpy_attention(q, k, v, **kw), cells, refs)
    if torch_run is not None:
        res["ulp_torch"], res["wrong_torch"] = accuracy(torch_run(q, k, v, **kw), cells, refs)
    res["longdouble"] = cpu(lambda: longdouble_attention(q, k, v, **kw), max(runs, 3))
    res["ulp_longdouble"], res["wrong_longdouble"] = accuracy(
        longdouble_attention(q, k, v, **kw), cells, refs
    )
    baselines(case, res, cells, refs, n, d)
    return res


def baselines(
    case: dict[str, Any],
    res: dict[str, Any],
    cells: list[tuple[int, ...]],
    refs: list[Any],
    n: int,
    d: int,
) -> None:
    """Certified 50 digits by symattn (one run after an untimed one) and by the plain
    python-flint anchor (one run), and mpmath at 50 digits at n = MPMATH_N, its time scaled
    by n**2 d."""
    from symattn.fast import attention_enclose

    q, k, v = case["x"]
    kw, decimal = case["kw"], not case["exact_float"]
    # One untimed call first: numba compiles (or loads from its cache) the kernels this
    # input's path takes on its first call, and that is not the time of a certified result.
    attention_enclose(q, k, v, digits=50, exact_float=case["exact_float"], **kw)
    t0 = time.process_time()
    balls = attention_enclose(q, k, v, digits=50, exact_float=case["exact_float"], **kw)
    res["enclose50"] = time.process_time() - t0
    res["wrong_enclose"] = wrong_balls(balls, cells, refs)
    t0 = time.process_time()
    anchor = plain_flint(q, k, v, 50, decimal=decimal, **kw)
    res["flint50"] = time.process_time() - t0
    res["wrong_flint"] = wrong_balls(anchor, cells, refs)
    small = make(case["kind"], MPMATH_N, d)
    qs, ks, vs = small["x"]
    t0 = time.process_time()
    mp = mpmath_attention(qs, ks, vs, 50, decimal=decimal, **small["kw"])
    res["mpmath50"] = (time.process_time() - t0) * (n / MPMATH_N) ** 2
    small_cells = sample((MPMATH_N, vs.shape[-1]), 16)
    res["ulp_mpmath"], res["wrong_mpmath"] = accuracy(
        mp, small_cells, reference(small, small_cells)
    )


def _flint_50(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> Any:
    """A plain python-flint pipeline at 50 digits (fmpq_mat scores, Arb for the rest)."""
    import flint

    def mat(a: np.ndarray) -> Any:
        return flint.fmpq_mat(
            [[flint.fmpq(*Fraction(str(x)).as_integer_ratio()) for x in r] for r in a.tolist()]
        )

    s = mat(q) * mat(k).transpose()
    with flint.ctx.workprec(200):
        root = flint.arb(q.shape[1]).sqrt()
        rows = []
        for i in range(s.nrows()):
            e = [(flint.arb(s[i, j]) / root).exp() for j in range(s.ncols())]
            tot = sum(e, flint.arb(0))
            rows.append([x / tot for x in e])
        vm = mat(v)
        return flint.arb_mat(rows) * flint.arb_mat(
            [[flint.arb(vm[i, j]) for j in range(vm.ncols())] for i in range(vm.nrows())]
        )


def certified(n: int, d: int, runs: int) -> dict[str, Any]:
    """Certified digits on two-decimal inputs."""
    from symattn.fast import attention_enclose

    case = make("two decimals", n, d)
    q, k, v = case["x"]
    res: dict[str, Any] = {"numpy": cpu(lambda: numpy_attention(q, k, v), 5)}
    res["enclose50"] = cpu(lambda: attention_enclose(q, k, v, digits=50, exact_float=False), runs)
    res["api_enclose50"] = cpu(lambda: symattn_api(case).enclose(50), runs)
    res["flint50"] = cpu(lambda: _flint_50(q, k, v), 1)
    w = lambda: symattn_api(case).weights  # noqa: E731
    res["w_numpy"] = cpu(lambda: w().to_numpy(), runs)
    res["w_evalf15"] = cpu(lambda: w().evalf(15), runs)
    res["w_evalf12"] = cpu(lambda: w().evalf(12), runs)
    res["w_enclose30"] = cpu(lambda: w().enclose(30), runs)
    res["w_enclose50"] = cpu(lambda: w().enclose(50), runs)
    res["out_evalf15"] = cpu(lambda: symattn_api(case).evalf(15), runs)
    return res


def batched(n: int, d: int, runs: int) -> dict[str, Any]:
    """The batch axis: (2, 8) heads of float32 normal inputs."""
    case = make("float32 normal", n, d, batch=(2, 8))
    q, k, v = case["x"]
    res: dict[str, Any] = {"numpy": cpu(lambda: numpy_attention(q, k, v), 3)}
    torch_run = torch_attention()
    if torch_run is not None:
        res["torch"] = cpu(lambda: torch_run(q, k, v), 3)
    res["f64"] = cpu(lambda: symattn_float64(case), runs)
    res["api"] = cpu(lambda: symattn_api(case).to_numpy(), runs)
    values = symattn_float64(case)
    cells = sample(values.shape, 16)
    res["ulp_symattn"] = ulps(values, cells, reference(case, cells))
    return res


def big(n: int, d: int, runs: int) -> dict[str, Any]:
    """n = 4096, d = 128, float32 normal, one process: time and peak memory."""
    case = make("float32 normal", n, d)
    q, k, v = case["x"]
    res: dict[str, Any] = {"numpy": cpu(lambda: numpy_attention(q, k, v), 3)}
    res["f64"] = cpu(lambda: symattn_float64(case), runs)
    res["maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    values = symattn_float64(case)
    cells = sample(values.shape, 8)
    res["ulp_symattn"] = ulps(values, cells, reference(case, cells))
    return res


# --------------------------------------------------------------------------- report


def _t(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x * 1e3:.3g} ms" if x < 1 else f"{x:.3g} s"


def _ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or not b else f"{a / b:.3g}×"


def _u(x: float | None) -> str:
    return "—" if x is None else ("inf" if math.isinf(x) else f"{x:.3g}")


def _acc(r: dict[str, Any], key: str) -> str:
    """``max ulp / wrong entries`` of one method."""
    if r.get(f"ulp_{key}") is None:
        return "—"
    return f"{_u(r[f'ulp_{key}'])} / {r[f'wrong_{key}']}"


def report(
    kinds: list[dict[str, Any]],
    cert: dict | None,
    batch: dict | None,
    bigres: dict | None,
    n: int,
    d: int,
) -> str:
    lines = [
        f"### Input axis: n = {n}, d = {d} (CPU time, medians; × = symattn / the other)",
        "",
        "| input | numpy f64 | torch f64 (MATH) | attention_float64 | × numpy | × torch | numpy path (no numba) | × numpy | API .to_numpy() | API / float64 | left open | max ulp symattn / numpy / torch |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in kinds:
        lines.append(
            f"| {r['kind']} | {_t(r['numpy'])} | {_t(r.get('torch'))} | {_t(r['f64'])} | "
            f"{_ratio(r['f64'], r['numpy'])} | {_ratio(r['f64'], r.get('torch'))} | "
            f"{_t(r['f64_numpy'])}{'' if r['paths_equal'] else ' (DIFFERS)'} | "
            f"{_ratio(r['f64_numpy'], r['numpy'])} | {_t(r['api'])} | "
            f"{_ratio(r['api'], r['f64'])}{'' if r['api_equal'] else ' (DIFFERS)'} | {r['undecided']} | "
            f"{_u(r['ulp_symattn'])} / {_u(r['ulp_numpy'])} / {_u(r.get('ulp_torch'))} |"
        )
    lines.append("")
    lines.append(
        "attention_float64: the fused kernels (numba) when installed, else the numpy path; "
        "'numpy path': the same call with the fused kernels switched off (SYMATTN_JIT=numpy), "
        "the same doubles bit for bit (checked: DIFFERS otherwise)."
    )
    lines.append("")
    lines.append(
        f"max ulp: the largest |value − exact| / ulp(exact) over {SAMPLE} sampled entries, the "
        "exact value by plain python-flint at 300 bits; ≤ 0.5 means every sampled entry is "
        "correctly rounded. 'left open': entries the proved bound did not decide (decided "
        "structurally or refined in Arb)."
    )
    lines += [
        "",
        f"### Certified digits and high-precision baselines, per input (n = {n}, d = {d})",
        "",
        "| input | attention_enclose(50) | × numpy | plain flint 50 d (anchor) | symattn / anchor "
        f"| mpmath 50 d (timed at n = {MPMATH_N}, same d, × (n/{MPMATH_N})², i.e. scaled by n²·d) "
        "| numpy longdouble | × numpy |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in kinds:
        lines.append(
            f"| {r['kind']} | {_t(r['enclose50'])} | {_ratio(r['enclose50'], r['numpy'])} | "
            f"{_t(r['flint50'])} | {_ratio(r['enclose50'], r['flint50'])} | "
            f"{_t(r['mpmath50'])} | {_t(r['longdouble'])} | {_ratio(r['longdouble'], r['numpy'])} |"
        )
    lines += [
        "",
        f"Accuracy on the {SAMPLE} sampled entries (max ulp / entries more than half an ulp off; "
        "certified balls: wrong = the ball misses the 300-bit reference; mpmath on 16 entries "
        "of its own n):",
        "",
        "| input | symattn float64 | numpy f64 | torch f64 | numpy longdouble | mpmath 50 d | "
        "attention_enclose wrong | anchor wrong |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in kinds:
        lines.append(
            f"| {r['kind']} | {_acc(r, 'symattn')} | {_acc(r, 'numpy')} | {_acc(r, 'torch')} | "
            f"{_acc(r, 'longdouble')} | {_acc(r, 'mpmath')} | {r['wrong_enclose']} | "
            f"{r['wrong_flint']} |"
        )
    if cert is not None:
        np_t = cert["numpy"]
        lines += [
            "",
            f"### Certified digits, two decimals, n = {n}, d = {d}",
            "",
            "| call | CPU time | × numpy | × weights.to_numpy() |",
            "|---|---|---|---|",
        ]
        for key, label in (
            ("enclose50", "attention_enclose(digits=50)"),
            ("api_enclose50", "API .enclose(50)"),
            ("flint50", "plain python-flint, 50 digits (fmpq_mat scores, Arb rest; 1 run)"),
            ("out_evalf15", "API .evalf(15)"),
            ("w_numpy", "API .weights.to_numpy()"),
            ("w_evalf15", "API .weights.evalf(15) (a RoundedArray)"),
            ("w_evalf12", "API .weights.evalf(12)"),
            ("w_enclose30", "API .weights.enclose(30) (a BallArray)"),
            ("w_enclose50", "API .weights.enclose(50)"),
        ):
            w_ratio = _ratio(cert[key], cert["w_numpy"]) if key.startswith("w_") else "—"
            lines.append(f"| {label} | {_t(cert[key])} | {_ratio(cert[key], np_t)} | {w_ratio} |")
    if batch is not None:
        lines += [
            "",
            "### Batch axis: (B, H) = (2, 8), n = 1024, d = 128, float32 normal",
            "",
            "| numpy f64 | torch f64 (MATH) | attention_float64 | × numpy | × torch | API .to_numpy() | max ulp (16 sampled) |",
            "|---|---|---|---|---|---|---|",
            f"| {_t(batch['numpy'])} | {_t(batch.get('torch'))} | {_t(batch['f64'])} | "
            f"{_ratio(batch['f64'], batch['numpy'])} | {_ratio(batch['f64'], batch.get('torch'))} | "
            f"{_t(batch['api'])} | {_u(batch['ulp_symattn'])} |",
        ]
    if bigres is not None:
        lines += [
            "",
            "### n = 4096, d = 128, float32 normal, one process",
            "",
            f"attention_float64: {_t(bigres['f64'])} CPU ({_ratio(bigres['f64'], bigres['numpy'])} numpy's "
            f"{_t(bigres['numpy'])}), process peak RSS {bigres['maxrss'] / 2**20:.0f} MiB, "
            f"max ulp on 8 sampled entries {_u(bigres['ulp_symattn'])}.",
        ]
    return "\n".join(lines)


def goals(kinds: list[dict[str, Any]], cert: dict | None, bigres: dict | None) -> str:
    out = ["### Goals (issues 14 and 23)", ""]

    def mark(ok: bool) -> str:
        return "met" if ok else "MISSED"

    for r in kinds:
        x = r["f64"] / r["numpy"]
        out.append(
            f"- correctly rounded float64, {r['kind']}: {x:.3g}× numpy (≤ 10×): {mark(x <= 10)}"
        )
    for r in kinds:
        bound = {"float32 normal": 6, "float64 normal": 8}.get(r["kind"])
        if bound is not None:
            x = r["f64"] / r["numpy"]
            y = r["f64_numpy"] / r["numpy"]
            out.append(
                f"- issue 23, float64 path, {r['kind']}: {x:.3g}× numpy (≤ {bound}×): {mark(x <= bound)}"
                f" (the numpy path without numba: {y:.3g}×)"
            )
    same = all(r["paths_equal"] for r in kinds)
    out.append(f"- fused kernels and numpy path bit for bit equal on every input: {mark(same)}")
    for r in kinds:
        if r["kind"] in ("float32 normal", "float64 normal"):
            x, y = r["enclose50"] / r["numpy"], r["enclose50"] / r["flint50"]
            out.append(
                f"- issue 23, attention_enclose(50), {r['kind']}: {x:.3g}× numpy (≤ 60×): "
                f"{mark(x <= 60)}; {y:.2g}× the plain flint anchor (≤ 0.5×): {mark(y <= 0.5)}"
            )
    wrong = sum(r["wrong_enclose"] + r["wrong_symattn"] for r in kinds)
    out.append(
        f"- wrong certified or correctly rounded values of symattn: {wrong} (0): {mark(wrong == 0)}"
    )
    plain = {r["kind"]: r for r in kinds}.get("float32 normal")
    if plain:
        for r in kinds:
            if r["kind"] in ("causal mask", "additive mask", "wide range", "zero columns"):
                x = r["f64"] / plain["f64"]
                out.append(f"- {r['kind']} vs float32 normal: {x:.3g}× (≤ 2×): {mark(x <= 2)}")
    for r in kinds:
        x = r["api"] / r["f64"]
        out.append(
            f"- API .to_numpy() / attention_float64, {r['kind']}: {x:.3g} (≤ 1.3): {mark(x <= 1.3)}"
        )
    if cert is not None:
        for key, label in (
            ("enclose50", "attention_enclose(50)"),
            ("api_enclose50", "API .enclose(50)"),
        ):
            x = cert[key] / cert["numpy"]
            out.append(
                f"- certified 50 digits, two decimals, {label}: {x:.3g}× numpy (≤ 30×): {mark(x <= 30)}"
            )
        for key, label in (
            ("w_evalf15", "weights.evalf(15)"),
            ("w_evalf12", "weights.evalf(12)"),
            ("w_enclose30", "weights.enclose(30)"),
            ("w_enclose50", "weights.enclose(50)"),
        ):
            x = cert[key] / cert["w_numpy"]
            out.append(f"- {label}: {x:.3g}× weights.to_numpy() (≤ 3×): {mark(x <= 3)}")
    if bigres is not None:
        ok = bigres["f64"] <= 10 and bigres["maxrss"] < 2 * 2**30
        out.append(
            f"- n = 4096, d = 128, float32: {_t(bigres['f64'])}, {bigres['maxrss'] / 2**20:.0f} MiB "
            f"(≤ 10 s, < 2 GiB): {mark(ok)}"
        )
    return "\n".join(out)


def _child(args: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, default=1024, help=argparse.SUPPRESS)
    ap.add_argument("--d", type=int, default=64, help=argparse.SUPPRESS)
    ap.add_argument(
        "--runs", type=int, default=3, help="runs per symattn timing (median; default 3)"
    )
    ap.add_argument("--quick", action="store_true", help="the input axis at n = 256 only")
    args = ap.parse_args()
    if args.case:
        if args.case == "certified":
            res = certified(args.n, args.d, args.runs)
        elif args.case == "batch":
            res = batched(args.n, args.d, args.runs)
        elif args.case == "big":
            res = big(args.n, args.d, args.runs)
        else:
            res = one_kind(args.case, args.n, args.d, args.runs)
        print(json.dumps(res))
        return 0
    before = os.getloadavg()
    n, d = (256, 64) if args.quick else (1024, 64)
    kinds = []
    for kind in KINDS:
        print(f"running {kind} ...", file=sys.stderr, flush=True)
        kinds.append(
            _child(["--case", kind, "--n", str(n), "--d", str(d), "--runs", str(args.runs)])
        )
    cert = batch = bigres = None
    if not args.quick:
        print("running certified ...", file=sys.stderr, flush=True)
        cert = _child(["--case", "certified", "--n", "1024", "--d", "64", "--runs", str(args.runs)])
        print("running batch ...", file=sys.stderr, flush=True)
        batch = _child(["--case", "batch", "--n", "1024", "--d", "128", "--runs", str(args.runs)])
        print("running n = 4096 ...", file=sys.stderr, flush=True)
        bigres = _child(["--case", "big", "--n", "4096", "--d", "128", "--runs", str(args.runs)])
    after = os.getloadavg()
    try:
        import torch

        torch_version = torch.__version__
    except ImportError:
        torch_version = "not installed"
    try:
        import numba

        numba_version = numba.__version__
    except ImportError:
        numba_version = "not installed (attention_float64 = the numpy path)"
    print(
        f"python {sys.version.split()[0]}, numpy {np.__version__}, torch {torch_version}, "
        f"numba {numba_version}, "
        f"{os.cpu_count()} cores, one BLAS thread; load average before "
        f"{', '.join(f'{x:.2f}' for x in before)}, after {', '.join(f'{x:.2f}' for x in after)}\n"
    )
    print(report(kinds, cert, batch, bigres, n, d))
    print()
    print(goals(kinds, cert, bigres))
    return 0


if __name__ == "__main__":
    sys.exit(main())
