"""Names and phrases that say what a number or an array is: a stage of attention (``Q``,
``attn_scores``, ``注意力权重``, ``\\frac{QK^T}{\\sqrt{d_k}}``), which row or token it is for
(``q_1``, ``k_{I}``, ``K_animal``, ``z^{(2)}``), or which head (``W_Q1`` with heads).

Two tables: :data:`SYMBOLS` match a whole name as written (an identifier, a LaTeX symbol, a
chain's label, a table's heading), :data:`PHRASES` are looked for in labels and in the prose
around an array. Every row carries the examples it must recognise and some it must not.

A name is cleaned first (:func:`symattn.read.roles.clean_name`): markup and case dropped,
``\\frac{a}{b}`` written ``a/b``, ``\\sqrt`` written ``√``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from symattn.read.rows import Apply, Pattern, Word, ex, pattern
from symattn.stages import BY_CLAIM

__all__ = [
    "INDEX_NAMES",
    "INPUT_ARRAYS",
    "ROW_ROLES",
    "CASED_SYMBOLS",
    "PHRASES",
    "ROLES",
    "SOFTMAX_NAMED",
    "STAGE_PREFIXES",
    "STAGE_QUALIFIERS",
    "SYMBOLS",
    "SYMBOL_FOR",
    "TOKEN_IN_PARENS",
    "RoleName",
]


class RoleName(StrEnum):
    """What an array (or one number) can be, bottom-up: the inputs, then the stages of a
    query row (their values are the spec claim fields of :data:`symattn.stages.BY_CLAIM`),
    then what scales or masks them. A StrEnum: code comparing with ``"weights"`` still works."""

    X = "x"
    W_Q = "w_q"
    W_K = "w_k"
    W_V = "w_v"
    W_O = "w_o"
    Q = "q"
    K = "k"
    V = "v"
    KV = "kv"
    SCORES = BY_CLAIM["scores"].claim
    SCALED = BY_CLAIM["scaled"].claim
    EXP = BY_CLAIM["exp"].claim
    SUM = BY_CLAIM["sum"].claim
    WEIGHTS = BY_CLAIM["weights"].claim
    OUTPUT = BY_CLAIM["output"].claim
    CONCAT = "concat"
    D_K = "d_k"
    MASK = "mask"
    DIVISOR = "divisor"  #: the √d_k a text says it divides by (one number)


#: names of a running index (``对位置 i=1``, ``for j = 2``): given another integer, it is the
#: next case, never a conflicting definition
INDEX_NAMES: Final = frozenset({"i", "j", "t"})

#: the arrays attention is computed from (what a text or code gives)
INPUT_ARRAYS: Final = frozenset(
    {
        RoleName.X,
        RoleName.W_Q,
        RoleName.W_K,
        RoleName.W_V,
        RoleName.W_O,
        RoleName.Q,
        RoleName.K,
        RoleName.V,
        RoleName.KV,
    }
)
#: the stages of one query row, in the order they are computed
ROW_ROLES: Final = (
    RoleName.SCORES,
    RoleName.SCALED,
    RoleName.EXP,
    RoleName.SUM,
    RoleName.WEIGHTS,
    RoleName.OUTPUT,
)

#: what an array can be, bottom-up
ROLES: Final = tuple(r for r in RoleName if r is not RoleName.DIVISOR)

# an index after a symbol: q_1, q_{1}, q^{(2)}, q2, q_it, k_{I}, K_animal, Q_猫
_IX = r"(?:[_^]?\(?(?P<i>\d{1,4})[a-z]?\)?|_(?P<t>[^\s_^()=,]{1,24}))?"
# a head number after a weight matrix: W_Q1, W_{Q,1}
_HEAD = r"(?:[_,]?(?P<h>\d{1,2}))?"

SYMBOLS: Final[tuple[Pattern, ...]] = (
    # -- weight matrices
    pattern(
        "w_q",
        rf"w(?:[_^]?q|[_ ]?quer(?:y|ies))(?:\.weight)?{_HEAD}|wq|(?:q|query)[_ ]?(?:weights?"
        rf"|matrix|proj|layer)",
        "the query projection W_Q",
        ("w_q", "wq", "w^q", "w_query", ex("w_q1", h="1"), "query_matrix", "w_q.weight"),
        ("w", "q"),
        kind="w_q",
    ),
    pattern(
        "w_k",
        rf"w(?:[_^]?k|[_ ]?keys?)(?:\.weight)?{_HEAD}|wk|(?:k|key)[_ ]?(?:weights?|matrix|proj"
        rf"|layer)",
        "the key projection W_K",
        ("w_k", "wk", "w^k", "w_key", ex("w_k2", h="2"), "key_matrix"),
        ("k",),
        kind="w_k",
    ),
    pattern(
        "w_v",
        rf"w(?:[_^]?v|[_ ]?values?)(?:\.weight)?{_HEAD}|wv|(?:v|value)[_ ]?(?:weights?|matrix|proj"
        rf"|layer)",
        "the value projection W_V",
        ("w_v", "wv", "w^v", "w_value", "value_matrix"),
        ("v",),
        kind="w_v",
    ),
    pattern(
        "w_o",
        rf"w(?:[_^]?o|[_ ]?out(?:put)?)(?:\.weight)?{_HEAD}|wo|out[_ ]?proj(?:\.weight)?"
        rf"|output[_ ]?projection",
        "the output projection W_O",
        ("w_o", "wo", "w^o", "out_proj", "out_proj.weight"),
        ("output",),
        kind="w_o",
    ),
    # -- inputs
    pattern(
        "x",
        rf"(?:x|inputs?|input[_ ]?(?:matrix|embeddings?|tokens?|x|sequence)|embeddings?|encodings?"
        rf"(?:[_ ]?matrix)?|emb|tok[_ ]?emb(?:eddings?)?|token[_ ]?embeddings?|sentence"
        rf"|input[_ ]?token|"
        rf"x[_ ]?(?:input|in)|输入(?:矩阵|序列|向量)?|嵌入(?:向量|矩阵)?|词向量|词嵌入){_IX}",
        "the token embeddings X",
        ("x", "inputs", "input_matrix", "embeddings", "encodings_matrix", "输入矩阵", "词向量"),
        ("xq", "index"),
        kind="x",
    ),
    pattern(
        "kv",
        r"(?:encoder[_ ]?(?:states?|outputs?|hidden[_ ]?states?)|enc[_ ]?(?:outputs?|states?"
        r"|hidden[_ ]?states?)"
        r"|annotations?|memory|编码器(?:输出|隐藏状态)?)",
        "encoder states that serve as both keys and values (cross-attention)",
        ("encoder_states", "enc_output", "annotations", "memory"),
        ("encoder",),
        kind="kv",
    ),
    pattern(
        "q",
        rf"(?:q|query|queries|querys|temp[_ ]?q|q[_ ]?total"
        rf"|dec(?:oder)?[_ ]?(?:hidden[_ ]?)?states?|"
        rf"查询(?:向量|矩阵)?){_IX}",
        "the queries Q (one query: q_1, query_2, q^{(2)})",
        (
            "q",
            "queries",
            "querys",
            "temp_q",
            ex("q_1", i="1"),
            ex("query_2", i="2"),
            ex("q^(2)", i="2"),
            ex("q_it", t="it"),
            "decoder_state",
            "查询向量",
        ),
        ("qk^t", "w_q"),
        kind="q",
    ),
    pattern(
        "k",
        rf"(?:k|keys?|temp[_ ]?k|k[_ ]?total|键(?:向量|矩阵)?){_IX}",
        "the keys K (one key: k_1, k_{I}, K_animal)",
        ("k", "keys", ex("k_1", i="1"), ex("k_i", t="i"), ex("k_animal", t="animal"), "键向量"),
        ("kv", "w_k"),
        kind="k",
    ),
    pattern(
        "v",
        rf"(?:v|values?|temp[_ ]?v|v[_ ]?total|值(?:向量|矩阵)?){_IX}",
        "the values V (one value: v_1, value_2, V_street)",
        ("v", "values", ex("value_2", i="2"), ex("v_street", t="street"), "值向量"),
        ("w_v", "variance"),
        kind="v",
    ),
    # -- stages of a query row
    pattern(
        "scores",
        rf"(?:s|scores?|attn[_ ]?scores?|attention[_ ]?scores?|raw[_ ]?(?:attention[_ ]?)?scores?"
        rf"|sims?|"
        rf"similarit(?:y|ies)|logits|alignment[_ ]?scores?|dot[_ ]?products?|qk\^?t"
        rf"|q\s*[·*×]\s*k\^?t?|"
        rf"qq\^t|注意力(?:分数|得分)|点积|相似度|得分|分数){_IX}",
        "the scores q·k (Q K^T)",
        (
            "scores",
            "attn_scores",
            ex("attn_scores_2", i="2"),
            "qk^t",
            "q·k^t",
            "qq^t",
            "sims",
            "注意力分数",
            "s",
        ),
        ("scaled_scores", "qk^t/√d_k"),
        kind="scores",
    ),
    pattern(
        "score-of",
        r"(?:score|scores|s|分数|得分|相似度|e)\s*\(\s*(?P<r>[^,()]+?)\s*,\s*(?P<c>[^,()]+?)\s*\)"
        r"|q[_ ]?(?P<r2>\w+)\s*[·*×]?\s*k[_ ]?(?P<c2>\w+)(?:\^?t)?",
        "one score, named by its query and key: score(它, 动物), q_1·k_2",
        (
            ex("score(它,动物)", r="它", c="动物"),
            ex("q_1·k_2", r2="1", c2="2"),
            ex("q₁·k₁", r2="1", c2="1"),
        ),
        ("score(它)",),
        kind="score",
    ),
    pattern(
        "scaled",
        rf"(?:scaled(?:[_ ]?(?:scores?|sims?|attention[_ ]?scores?|dot[_ ]?products?|logits"
        rf"|matrix))?|"
        rf"(?:qk\^?t|q\s*[·*×]?\s*k\^?t|qq\^t|s|scores?|attention[_ ]?scores?|sims)\s*/\s*√?\s*\(?"
        rf"(?:d[_ ]?k|\d+(?:\.\d+)?)\)?|缩放(?:后的)?(?:分数|得分)?|after[_ ]?scaling){_IX}",
        "the scaled scores q·k / √d_k",
        (
            "scaled_scores",
            "qk^t/√d_k",
            "qq^t/√d_k",
            "s/√3",
            "scaled",
            "attention scores/√d_k",
            "after scaling",
        ),
        ("scores",),
        kind="scaled",
    ),
    pattern(
        "exp",
        r"(?:exp[_ ]?scores?|exps?|e\^.*|exp\(.*\)|指数)",
        "exponentials of the scaled scores",
        ("exp_scores", "e^x", "exp(0.08)"),
        ("expected",),
        kind="exp",
    ),
    pattern(
        "sum",
        r"(?:sum|总和|求和|和|分母|denominator|row[_ ]?sums?)",
        "the sum of the exponentials of a row",
        ("sum", "总和", "分母", "denominator"),
        ("summary",),
        kind="sum",
    ),
    pattern(
        "weights",
        rf"(?:a|α|alpha|p|wei|weights?|attn[_ ]?weights?|attention[_ ]?weights?"
        rf"|attention[_ ]?percents?|"
        rf"attention[_ ]?probs?|probs|probabilities|softmax(?:\(.*\))?|attention[_ ]?matrix|"
        rf"attn[_ ]?scores[_ ]?softmax|注意力权重(?:矩阵)?|权重|注意力分布|概率){_IX}",
        "the softmax weights",
        (
            "weights",
            "attn_weights",
            ex("attn_weights_2", i="2"),
            "softmax",
            "softmax(s)",
            ex("α_2", i="2"),
            "a",
            "wei",
            "注意力权重",
        ),
        ("weighted_values", "w_q"),
        kind="weights",
    ),
    pattern(
        "weight-of",
        r"w[_ ]?\(?(?P<i>\d{1,3})\)?",
        "one weight, named by its key: w_1, w_{2}",
        (ex("w_1", i="1"), ex("w2", i="2")),
        ("w_q", "w", "w_qx"),
        kind="weights",
    ),
    pattern(
        "output",
        rf"(?:z|o|out|(?:final[_ ]?)?outputs?|context(?:[_ ]?vec(?:tor)?s?)?"
        rf"|all[_ ]?context[_ ]?vecs|attention[_ ]?outputs?|"
        rf"attn[_ ]?outputs?|av|attention\(q,\s*k,\s*v\)|z[_ ]?single|weighted[_ ]?(?:sum|output)|"
        rf"注意力(?:输出|向量)|输出|上下文向量|新向量|expected(?:[_ ]?output)?"
        rf"|期望输出|预期输出){_IX}|head_?(?P<h>\d{{1,2}})",
        "the output rows (the weighted sum of the values); ``head_1``: head 1's output",
        (
            "output",
            ex("head_1", h="1"),
            ex("head2", h="2"),
            "z",
            ex("z_2", i="2"),
            ex("z^(2)", i="2"),
            ex("context_vec_2", i="2"),
            "attention(q,k,v)",
            "av",
            "上下文向量",
            "输出",
        ),
        ("weights", "head 1", "heads", "head_i"),
        kind="output",
    ),
    pattern(
        "concat",
        r"(?:concat(?:enated)?|out[_ ]?concat|z[_ ]?cat|head[_ ]?outputs|拼接)",
        "the head outputs side by side (multi-head)",
        ("concat", "out_concat", "z_cat"),
        ("output",),
        kind="concat",
    ),
    pattern(
        "d_k",
        r"(?:d[_ ]?k|d[_ ]?\{k\}|dₖ|head[_ ]?dim|d[_ ]?head|dim[_ ]?k|key[_ ]?dim)",
        "the key dimension d_k",
        ("d_k", "dk", "head_dim", "d_head", "dₖ"),
        ("d_model",),
        kind="d_k",
    ),
    pattern(
        "mask",
        r"(?:(?:causal[_ ]?|attn[_ ]?|attention[_ ]?)?mask(?:[_ ]?simple)?|tril)",
        "a mask",
        ("mask", "causal_mask", "tril"),
        ("masked",),
        kind="mask",
    ),
)

PHRASES: Final[tuple[Pattern, ...]] = (
    pattern(
        "phrase-scaled",
        r"(?i)scaled\s+(?:scores?|similarit|dot|attention\s+scores?|matrix)|after\s+scaling|"
        r"divide[sd]?\s+by\s*(?:√|sqrt|\\sqrt)|÷\s*√|/\s*√\s*d|缩放后|除以|"
        r"before\s+(?:the\s+|applying\s+)?softmax|pre-?softmax|softmax\s*(?:之前|前)",
        "a phrase naming the scaled scores",
        (
            "Scaled matrix = Q×K^T / √3:",
            "Divide by √dₖ = √4 = 2:",
            "after scaling",
            "缩放后的分数",
            "Before softmax:",
            "pre-softmax logits",
            "softmax 前",
        ),
        ("Scale the Scores", "After softmax:"),
        kind="scaled",
    ),
    pattern(
        "phrase-scores",
        r"(?i)input\s+(?:to|of)\s+(?:the\s+)?softmax|softmax\s+(?:input|的输入)|"
        r"raw\s+(?:attention\s+)?scores?|attention\s+scores?|dot[- ]products?|similarit(?:y|ies)|"
        r"alignment\s+scores?|score\s+matrix|\bq\s*[×x·]\s*k|\bqk\^?t\b|\bscores?\b|点积|注意力分数|"
        r"注意力得分|相似度|相关性|相关度|關聯分數|得分|分数|内积|內積",
        "a phrase naming the scores",
        (
            "Dot-product scores:",
            "Raw attention scores:",
            "Compute Q × K^T",
            "点积结果",
            "分别计算相关性",
        ),
        ("weights",),
        kind="scores",
    ),
    pattern(
        "phrase-weights",
        r"(?i)softmax\s*(?:outputs?|输出|輸出)|attention\s+weights?|softmax|\bweights?\b|"
        r"probabilit|attention\s+(?:matrix|distribution)|注意力权重|注意力權重|权重|權重|概率|注意力分布",
        "a phrase naming the weights",
        (
            "Attention weights:",
            "Apply Softmax",
            "Softmax weights (attention matrix):",
            "注意力权重",
        ),
        ("weighted sum",),
        kind="weights",
    ),
    pattern(
        "phrase-q",
        r"(?i)\b(?:quer(?:y|ies))\b(?:\s+vectors?)?(?:\s*\(Q\))?\s*[:：]|查询向量|查询矩阵",
        "a label naming the queries (``Queries:``, ``Query vector:``)",
        ("Queries:", "Query vector (Q):", "查询向量"),
        ("the query is", "Query"),
        kind="q",
    ),
    pattern(
        "phrase-k",
        r"(?i)\bkeys?\b(?:\s+vectors?)?(?:\s*\(K\))?\s*[:：]|键向量|键矩阵",
        "a label naming the keys (``Keys:``, ``Key vectors:``)",
        ("Keys:", "Key vectors (K):", "键向量"),
        ("the key insight", "Keys"),
        kind="k",
    ),
    pattern(
        "phrase-v",
        r"\bValues?\b|\bvalue\s+(?:vectors?|matrix|rows?)\b|值向量|值矩阵",
        "a phrase naming the values V (``Value`` capitalised: a lower-case ``value`` is any "
        "number)",
        ("Apple 的 Value 是", "the value vectors", "值向量"),
        ("the value is 0.5", "weighted sum"),
        kind="v",
    ),
    pattern(
        "phrase-output",
        r"(?i)\boutputs?\b|context\s+vectors?|weighted\s+sum|attention\s+vector|输出|上下文向量|"
        r"加权求和|新向量",
        "a phrase naming the output",
        ("Final attention output:", "Context vectors Z", "Weighted output vector:", "注意力输出"),
        ("softmax",),
        kind="output",
    ),
    pattern(
        "phrase-exp",
        r"(?i)exponentia|\bexp\b|指数",
        "a phrase naming the exponentials",
        ("exponentiate", "exp values"),
        ("expected",),
        kind="exp",
    ),
    pattern(
        "phrase-x",
        r"(?i)\bembeddings?|\binputs?\b(?!\s+(?:token\s+)?(?:ind(?:ices|ex)|ids?)\b)|input\s+matrix"
        r"|词向量|输入|嵌入",
        "a phrase naming the embeddings X (not the token ids of the input)",
        ("Input Matrix X (3 × 4):", "word embeddings", "输入序列"),
        ("output", "Input token indices", "input ids"),
        kind="x",
    ),
)

SOFTMAX_NAMED: Final = pattern(
    "softmax-named",
    r"(?i)(?<!before\s)(?<!pre-)soft-?max(?!\s*(?:之?前|的?输入|inputs?\b|\())",
    "a label that says its numbers are a softmax (``Softmax 后：``, ``softmax output:``): "
    "numbers under it that are only the scores divided by their sum, or the scores "
    "themselves, are no softmax",
    ("Softmax 后", "after softmax:", "soft-max weights"),
    ("归一化后", "normalized weights:", "权重", "Softmax 前", "softmax input", "before softmax"),
)

TOKEN_IN_PARENS: Final = pattern(
    "token-in-parens",
    r"(?P<name>[^()]{1,40}?)\s*\((?P<token>[^()=\[\],]{1,40})\)",
    "a symbol of an input row and the token it is for in parentheses (``k_1 (Thinking)``): the "
    "token is not itself a symbol (``Query (Q)`` names Q)",
    (ex("k_1 (Thinking)", name="k_1", token="Thinking"), ex("q(猫)", name="q", token="猫")),
    ("k_1", "softmax(x, y)"),
    how=Apply.FULLMATCH,
)

#: a symbol and the words that say whose it is (``Q for last token``, ``K of the keys``): the
#: symbol's stage, for a row the words do not name as a token
SYMBOL_FOR: Final = pattern(
    "symbol-for",
    r"(?P<name>[^\s()]{1,12})\s+(?:for|of)\s+(?P<whose>[^=()\[\]]{1,40})",
    "a symbol, then for or of and the words that say whose it is: the symbol's stage",
    (ex("Q for last token", name="Q", whose="last token"), ex("K of token 2", name="K")),
    ("Q", "the sum of all", "Q (last token)"),
    how=Apply.FULLMATCH,
)

#: single letters whose case tells what they are (``w`` the weights of a row, ``W`` a
#: projection; ``Z`` the sum of the exponentials, ``z`` an output row): matched as written
CASED_SYMBOLS: Final[tuple[Word, ...]] = (
    Word("w", "weights"),
    Word("Z", "sum"),
)

#: words written as the subscript or suffix of a stage's symbol that say which stage (or
#: which version of it) the array is, not a token of its row: ``S_{\text{scaled}}`` is the
#: scaled scores, ``weights_masked`` the weights (masked), ``scores_raw`` the scores;
#: ``means`` is the stage, or "" for "the stage the symbol says"
STAGE_QUALIFIERS: Final[tuple[Word, ...]] = (
    Word("scaled", "scaled"),
    Word("scale", "scaled"),
    Word("raw", "scores"),
    Word("unscaled", "scores"),
    Word("masked", ""),
    Word("unmasked", ""),
    Word("causal", ""),
    Word("softmax", "weights"),
    Word("normalized", "weights"),
    Word("norm", "weights"),
    Word("probs", "weights"),
    Word("缩放", "scaled"),
    Word("掩码", ""),
)

#: words written before a stage's symbol that say whose value it is, not which stage
#: (``expected_Q``, ``actual_scores``, ``ref_weights``): the name is the stage it qualifies;
#: ``means`` is one symbol each word must leave to its own stage (tested)
STAGE_PREFIXES: Final[tuple[Word, ...]] = (
    Word("expected", "q"),
    Word("actual", "k"),
    Word("computed", "scores"),
    Word("manual", "v"),
    Word("ref", "weights"),
    Word("reference", "scaled"),
    Word("torch", "output"),
    Word("np", "q"),
    Word("numpy", "k"),
    Word("my", "weights"),
    Word("true", "scores"),
    Word("target", "weights"),
    Word("hand", "scores"),
    Word("by_hand", "weights"),
)
