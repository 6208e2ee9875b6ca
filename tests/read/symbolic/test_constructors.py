"""Tests of symattn.read.symbolic.constructors: one test per array call followed exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.read.symbolic.constructors import CALLS
from symattn.read.symbolic.sym import exact

from .helpers import value

F = Fraction


def entries(expr: str, **env: str) -> tuple[tuple[int, ...], list[Fraction]]:
    a = exact(value(expr, **env))
    assert a is not None, expr
    return a.shape, list(a.data)


M = "np.array([[1, 2], [3, 4]])"
#: call -> (an expression using it, the shape and entries it gives)
ROWS: dict[str, tuple[str, tuple[int, ...], list[Fraction]]] = {
    "array": ("np.array([[1, 2.5]])", (1, 2), [F(1), F(5, 2)]),
    "asarray": ("np.asarray([1, 2])", (2,), [F(1), F(2)]),
    "tensor": ("torch.tensor([[0.1]])", (1, 1), [F(1, 10)]),
    "as_tensor": ("torch.as_tensor([3])", (1,), [F(3)]),
    "constant": ("tf.constant([1, 0])", (2,), [F(1), F(0)]),
    "Tensor": ("torch.Tensor([2])", (1,), [F(2)]),
    "FloatTensor": ("torch.FloatTensor([2])", (1,), [F(2)]),
    "DoubleTensor": ("torch.DoubleTensor([2])", (1,), [F(2)]),
    "matrix": ("np.matrix([[2]])", (1, 1), [F(2)]),
    "convert_to_tensor": ("tf.convert_to_tensor([2])", (1,), [F(2)]),
    "eye": ("np.eye(2) * 0.5", (2, 2), [F(1, 2), F(0), F(0), F(1, 2)]),
    "identity": ("np.identity(2)", (2, 2), [F(1), F(0), F(0), F(1)]),
    "zeros": ("torch.zeros(1, 2)", (1, 2), [F(0), F(0)]),
    "ones": ("np.ones((2,))", (2,), [F(1), F(1)]),
    "zeros_like": ("np.zeros_like(m)", (2, 2), [F(0)] * 4),
    "ones_like": ("torch.ones_like(m)", (2, 2), [F(1)] * 4),
    "full_like": ("np.full_like(m, 7)", (2, 2), [F(7)] * 4),
    "full": ("np.full((1, 2), 0.25)", (1, 2), [F(1, 4)] * 2),
    "diag": ("np.diag([1, 2])", (2, 2), [F(1), F(0), F(0), F(2)]),
    "arange": ("np.arange(1, 2, 0.5)", (2,), [F(1), F(3, 2)]),
    "range": ("np.array(range(3))", (3,), [F(0), F(1), F(2)]),
    "linspace": ("np.linspace(0, 1, 3)", (3,), [F(0), F(1, 2), F(1)]),
    "tril": ("np.tril(m)", (2, 2), [F(1), F(0), F(3), F(4)]),
    "triu": ("torch.triu(m, diagonal=1)", (2, 2), [F(0), F(2), F(0), F(0)]),
    "reshape": ("np.arange(4).reshape(2, -1)", (2, 2), [F(0), F(1), F(2), F(3)]),
    "view": ("torch.arange(4).view(4)", (4,), [F(0), F(1), F(2), F(3)]),
    "transpose": ("m.transpose(0, 1)", (2, 2), [F(1), F(3), F(2), F(4)]),
    "permute": ("m.permute(1, 0)", (2, 2), [F(1), F(3), F(2), F(4)]),
    "t": ("m.t()", (2, 2), [F(1), F(3), F(2), F(4)]),
    "stack": ("np.stack([m[0], m[1]], axis=1)", (2, 2), [F(1), F(3), F(2), F(4)]),
    "concatenate": ("np.concatenate([m, m], axis=0)", (4, 2), [F(1), F(2), F(3), F(4)] * 2),
    "concat": ("tf.concat([m[0], m[1]], 0)", (4,), [F(1), F(2), F(3), F(4)]),
    "cat": ("torch.cat([m, m], dim=1)", (2, 4), [F(1), F(2), F(1), F(2), F(3), F(4), F(3), F(4)]),
    "vstack": ("np.vstack([m[0], m[1]])", (2, 2), [F(1), F(2), F(3), F(4)]),
    "hstack": ("np.hstack([m[0], m[1]])", (4,), [F(1), F(2), F(3), F(4)]),
    "sum": ("m.sum(axis=0, keepdims=True)", (1, 2), [F(4), F(6)]),
    "reduce_sum": ("tf.reduce_sum(m, axis=1)", (2,), [F(3), F(7)]),
    "mean": ("m.mean(axis=1)", (2,), [F(3, 2), F(7, 2)]),
    "max": ("m.max(axis=-1)", (2,), [F(2), F(4)]),
    "amax": ("np.amax(m, axis=0)", (2,), [F(3), F(4)]),
    "reduce_max": ("tf.reduce_max(m, axis=0)", (2,), [F(3), F(4)]),
    "min": ("m.min(axis=0)", (2,), [F(1), F(2)]),
    "sqrt": ("np.sqrt(m * m)", (2, 2), [F(1), F(2), F(3), F(4)]),
    "matmul": ("np.matmul(m, np.eye(2))", (2, 2), [F(1), F(2), F(3), F(4)]),
    "dot": ("m.dot(m[0])", (2,), [F(5), F(11)]),
    "mm": ("m.mm(np.eye(2))", (2, 2), [F(1), F(2), F(3), F(4)]),
    "unsqueeze": ("m[0].unsqueeze(0)", (1, 2), [F(1), F(2)]),
    "expand_dims": ("np.expand_dims(m[0], 1)", (2, 1), [F(1), F(2)]),
    "flatten": ("m.flatten()", (4,), [F(1), F(2), F(3), F(4)]),
    "bool": ("(m > 2).bool()", (2, 2), [F(0), F(0), F(1), F(1)]),
}


def test_every_call_has_a_row() -> None:
    assert set(ROWS) == set(CALLS)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_call(name: str) -> None:
    expr, shape, data = ROWS[name]
    assert entries(expr, m=M) == (shape, data)


@pytest.mark.parametrize(
    "expr",
    [
        "np.linspace(0, 1, 4)",  # steps of 1/3: no exact decimal
        "np.sqrt(np.array([2]))",  # irrational
        "np.zeros((100, 100))",  # more entries than a worked example's arrays
        "np.random.randn(2, 2)",
        "np.exp(np.array([1]))",  # an exponential is never followed as a float
        "m @ np.ones((3, 1))",  # shapes that do not multiply
    ],
)
def test_not_followed(expr: str) -> None:
    assert exact(value(expr, m=M)) is None
