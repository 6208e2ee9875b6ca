"""Tests of symattn.judge.graph: the expression graph of the author's chain."""

from __future__ import annotations

from symattn.judge.frames import stated_frame
from symattn.judge.graph import E_STEPS, ORDER, Graph, Node, _factor
from symattn.spec import loads_spec
from tests.judge.common import small

MH = """
tokens = ["a", "b"]
num_heads = 2
scale = 1
[inputs]
X = [[1, 0], [0, 1]]
W_Q = [[1, 0, 0, 1], [0, 1, 1, 0]]
W_K = [[1, 0, 0, 1], [0, 1, 1, 0]]
W_V = [[1, 0, 0, 1], [0, 1, 1, 0]]
W_O = [["1/2", 0], [0, "1/2"], ["1/2", 0], [0, "1/2"]]
[claims.heads.2.tokens.a]
q = [0, 1]
[claims.heads.2.rows.a]
scores = [1, 0]
weights = ["0.73", "0.27"]
output = ["0.27", "0.73"]
[claims.rows.a]
concat = ["0.73", "0.27", "0.27", "0.73"]
output = ["0.5", "0.5"]
"""


def _graph(text: str) -> Graph:
    s = loads_spec(text, name="g.toml")
    f = stated_frame(s)
    return Graph(s, f.result, f.scale)


def test_single_head_parents_and_claims() -> None:
    s = small("scores = [5, 2]\nexp = [12.18, 2.71]\nsum = 14.89\nweights = [0.82, 0.18]")
    f = stated_frame(s)
    g = Graph(s, f.result, f.scale)
    assert g.parents(Node("scores", (0, 1))) == [
        Node("Q", (0, 0)),
        Node("Q", (0, 1)),
        Node("K", (1, 0)),
        Node("K", (1, 1)),
    ]
    assert g.parents(Node("exp_sums", (0,))) == [
        Node("exp_scores", (0, 0)),
        Node("exp_scores", (0, 1)),
    ]
    assert g.parents(Node("Q", (0, 0))) == [] and g.is_input("Q")
    assert g.claim(Node("exp_sums", (0,))) is not None and g.claim(Node("output", (0, 0))) is None
    assert g.where[Node("weights", (0, 1))] == ("weights", ("q", "b"))
    # the nearest claimed ancestors: the weight comes from the author's exps and sum
    assert g.sources(Node("weights", (0, 0))) == [
        Node("exp_scores", (0, 0)),
        Node("exp_scores", (0, 1)),
        Node("exp_sums", (0,)),
    ]
    assert g.formula(Node("exp_sums", (0,))) == "12.18 + 2.71"
    assert g.formula(Node("weights", (0, 0))) == "12.18 / 14.89"
    assert g.formula(Node("exp_sums", (0,)), base="2.7") == "2.7^x[q,a] + 2.7^x[q,b]"
    assert g.claimed_nodes()[0] == Node("scores", (0, 0))


def test_first_wrong_follows_carried_numbers() -> None:
    g = _graph(
        'tokens = ["a", "b"]\nquery_tokens = ["q"]\nscale = 1\n[inputs]\nscores = [[1, 2]]\n'
        "V = [[1], [2]]\n[claims.rows.q]\nexp = [2.8, 7.39]\nsum = 10.19\nweights = [0.27, 0.73]\n"
    )
    e0, s, w = Node("exp_scores", (0, 0)), Node("exp_sums", (0,)), Node("weights", (0, 0))
    assert g.first_wrong(w, {}) is None
    assert g.first_wrong(w, {e0: "error"}) == e0
    assert g.first_wrong(w, {s: "carried", e0: "error"}) == e0
    assert g.first_wrong(w, {s: "error"}) == s


def test_heads_concat_and_w_o() -> None:
    g = _graph(MH)
    assert g.heads and g.has_wo and (g.att, g.cat) == ("head_outputs", "concat")
    assert g.parents(Node("Q_heads", (1, 0, 0))) == [Node("Q", (0, 2))]
    assert g.parents(Node("concat", (0, 3))) == [Node("head_outputs", (1, 0, 1))]
    assert g.parents(Node("output", (0, 1)))[-1] == Node("W_O", (3, 1))
    assert g.where[Node("weights", (1, 0, 1))] == ("weights", ("h2", "a", "b"))
    assert g.where[Node("head_outputs", (1, 0, 0))] == ("head_outputs", ("h2", "a", "0"))
    assert g.where[Node("Q_heads", (1, 0, 1))] == ("Q_heads", ("h2", "a", "1"))
    assert g.where[Node("concat", (0, 2))] == ("concat", ("a", "2"))
    assert g.where[Node("output", (0, 0))] == ("output", ("a", "0"))
    assert g.label(Node("weights", (0, 0, 1))) == "w[h1,a,b]"


def test_order_and_e_steps() -> None:
    assert ORDER.index("scores") < ORDER.index("exp_scores") < ORDER.index("output")
    assert "exp_sums" in E_STEPS and "scaled_scores" not in E_STEPS


def test_a_negative_factor_is_written_in_parentheses() -> None:
    assert (
        _factor("-2") == "(-2)" and _factor("\u22122") == "(\u22122)" and _factor("0.58") == "0.58"
    )
