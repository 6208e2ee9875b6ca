"""Slips in writing a result down: transposed or dropped digits, a wrong sign, a swapped operand.

A slip names the cause of a ``wrong-value`` only when it reproduces the claim exactly (the
digits of the correct rounding, or a correct rounding of the negated or neighbouring entry).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from symattn.exact import ExactTensor
from symattn.judge.messages import Cause
from symattn.judge.quantities import TensorEntry
from symattn.judge.run import Run
from symattn.judge.verdict import Verdict
from symattn.numbers import Written


@dataclass(frozen=True)
class Slip:
    """A named cause and what it shows (the value the author meant, or the entry they used)."""

    cause: Cause
    shown: str


def digits(text: str) -> str:
    """The digits of a written number, leading zeros dropped (``-0.0340`` -> ``340``)."""
    return "".join(ch for ch in text if ch.isdigit()).lstrip("0")


def digit_slip(claimed: str, expected: str) -> Cause | None:
    """``transposed-digits`` or ``dropped-digit`` when ``claimed`` is ``expected`` so miswritten."""
    digits_c, digits_e = digits(claimed), digits(expected)
    sign_c, sign_e = claimed.strip().startswith("-"), expected.startswith("-")
    if sign_c == sign_e and len(digits_c) == len(digits_e) and digits_c != digits_e:
        diffs = [k for k in range(len(digits_c)) if digits_c[k] != digits_e[k]]
        if (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and digits_c[diffs[0]] == digits_e[diffs[1]]
            and digits_c[diffs[1]] == digits_e[diffs[0]]
        ):
            return "transposed-digits"
    if sign_c == sign_e and len(digits_c) + 1 == len(digits_e):
        for k in range(len(digits_e)):
            if digits_e[:k] + digits_e[k + 1 :] == digits_c:
                return "dropped-digit"
    return None


def find_slip(
    run: Run, w: Written, v: Verdict, tensor: ExactTensor, idx: tuple[int, ...]
) -> Slip | None:
    """A plausible slip that reproduces the claim exactly, or None."""
    if v.expected is not None:
        cause = digit_slip(w.text, v.expected)
        if cause is not None:
            return Slip(cause, v.expected)
    if w.value != 0 and run.consistent(replace(w, value=-w.value), TensorEntry(tensor, idx)):
        return Slip("wrong-sign", v.exact)
    if len(idx) == 2 and tensor.ndim == 2:
        i, j = idx
        n, m = tensor.shape
        others = [(i, k) for k in range(m) if k != j] + [(k, j) for k in range(n) if k != i]
        if n == m and (j, i) not in others and (j, i) != (i, j):
            others.append((j, i))
        for o in others:
            if tensor.is_neg_inf(o):
                continue
            if run.consistent(w, TensorEntry(tensor, o)):
                return Slip("swapped-operand", f"[{o[0]}, {o[1]}]")
    return None
