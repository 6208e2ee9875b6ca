"""What a formula or a sentence claims: calls of attention, which row, which symbol, d_k and
scaling, the first link of a chain.

One row each, with the examples it must recognise; ``tests/read/notations/test_claims.py`` checks
every row.
"""

from __future__ import annotations

from typing import Final

from symattn.read.notations.grammar import NUMERAL_TEXT
from symattn.read.rows import Apply, Pattern, ex, pattern

__all__ = [
    "ATTENDS",
    "QUERY_HEADING",
    "CAUSAL_TEXT",
    "MASK_TEXT",
    "PROSE_NUMBER",
    "ATTENTION_CALL",
    "DK_STATEMENT",
    "EXP_FIRST",
    "EXP_OVER_ROOT",
    "LABEL_SYMBOL",
    "NUMBER_TEXT",
    "ROW_PHRASE",
    "SOFTMAX_ARGUMENT",
    "SOFTMAX_VALUE",
    "SCALED_FIRST",
    "SCALED_ITEMS",
    "SCALED_TEXT",
    "SQRT_DK",
    "SQRT_DK_TEXT",
    "TOKEN_LABEL",
    "UNSCALED_TEXT",
    "VECTOR_TEXT",
]

ATTENTION_CALL: Final = pattern(
    "attention-call",
    r"(?i)\b(?:attention|attn|sdpa|scaled_dot_product_attention|self_attention|"
    r"dot_product_attention)\s*\(",
    "a call of attention written with its arrays: ``attention(Q, K, V)``, the arguments in "
    "this order",
    ("attention([[1,0]],[[1,0]],[[1,2]])", "scaled_dot_product_attention(q, k, v)"),
    ("attention weights",),
)

ROW_PHRASE: Final = pattern(
    "row-phrase",
    r"(?i)\b(?P<w>first|second|third|fourth|fifth|sixth)\s+(?:row|query|token)\b"
    r"|\brow\s*(?P<n>\d{1,3})\b|第\s*(?P<z>[一二三四五六七八九十]|\d{1,3})\s*(?:行|个查询|个词)"
    r"|\bquery\s*(?P<q>\d{1,3})\b|\b(?:position|pos|token)\s*(?P<t>\d{1,3})(?=\s*[:：])"
    r"|(?:位置|词元|第)\s*(?P<p>\d{1,3})\s*(?:个(?:位置|词元|token))?(?=\s*[:：])",
    "words that say which query row the numbers after them are for",
    (
        ex("For first row [0.08, 0.18]:", w="first"),
        ex("Row 2:", n="2"),
        ex("第一行", z="一"),
        ex("for query 3", q="3"),
        ex("Position 0: [1.00, 0.00, 0.00]", t="0"),
        ex("token 2:", t="2"),
        ex("位置 1：", p="1"),
        ex("第 2 个位置：", p="2"),
    ),
    ("rows of Q", "the first time", "token 2 較沒興趣", "at position 3 the word"),
)

SOFTMAX_ARGUMENT: Final = pattern(
    "softmax-argument",
    r"(?i)soft-?max\}?\s*(?:\\left\s*)?\(\s*$",
    "the text just before an array that opens a call of softmax: the array is its argument "
    "(the scaled scores), not the weights",
    ("softmax(", "第2行: softmax(", "\\text{softmax}\\left(", "Softmax ( "),
    ("softmax(x) = ", "softmax", "softmax(QK^T) ="),
    how=Apply.SEARCH,
)

SOFTMAX_VALUE: Final = pattern(
    "softmax-value",
    r"(?i)soft-?max\}?\s*(?:\\left\s*)?\(\s*\[[^()\[\]\n]{1,400}\]\s*(?:\\right\s*)?\)\s*"
    r"(?:→|->|=|≈|\\approx|\\to\b|\\rightarrow\b)\s*$",
    "the text just before an array that is the value of softmax applied to the vector written "
    "in the call: the author's own claim that the array is that softmax",
    (
        "softmax([2.0, 1.0, 1.0]) → ",
        "Softmax([20, 10, 10]) = ",
        "\\text{softmax}([1, 2]) \\approx ",
    ),
    (
        "softmax([2.0, 1.0, 1.0])",
        "softmax(x) = ",
        "softmax → ",
        "softmax([1, 2]) → [0.27, 0.73] and ",
    ),
    how=Apply.SEARCH,
)

LABEL_SYMBOL: Final = pattern(
    "label-symbol",
    r"^[\s*_>#-]*(?P<sym>[A-Za-z]{1,3}(?:_\{?[^\s{}()*:：]{1,20}\}?|\^\{?\(?\d{1,3}\)?\}?|\d{1,3}))"
    r"(?=[\s*:：(]|$)|^[\s*_>#-]*[A-Za-z]+\s*\((?P<paren>[A-Za-z])\)[\s*:：]*$",
    "a label that starts with a symbol and goes on in words (``**K_animal (Exact Match):**``), "
    "or words with the symbol in parentheses (``**Query (Q):**``)",
    (
        ex("**K_animal (Exact Match):**", sym="K_animal"),
        ex("V_street:", sym="V_street"),
        ex("- q1 (The)", sym="q1"),
        ex("* **Query (Q):**", paren="Q"),
    ),
    ("Attention weights:", "Keys:", "Output (token 1):"),
    how=Apply.MATCH,
)

DK_STATEMENT: Final = pattern(
    "dk-statement",
    r"(?i)(?<![A-Za-z])(?:d_?\{?k\}?|dₖ|head_?dim|d_head)\s*(?:[=:：]|is|为|是)\s*(?P<n>\d{1,6})(?![\d.])"
    r"|\\sqrt\s*\{?\s*d_?\{?k\}?\s*\}?\s*=\s*\\sqrt\s*\{?\s*(?P<n2>\d{1,6})\s*\}?"
    r"|\(d_?k\)\s*\|\s*(?P<n3>\d{1,6})"
    r"|维度(?:为|是|=)\s*\$?\s*(?P<n4>\d{1,6})",
    "a sentence, formula or table row that states d_k",
    (
        ex("d_k = 2", n="2"),
        ex("$d_k=64$", n="64"),
        ex("\\sqrt{d_k} = \\sqrt{3}", n2="3"),
        ex("head dimension (d_k) | 4", n3="4"),
        ex("维度为 2", n4="2"),
        ex("head_dim = 2", n="2"),
    ),
    ("d_k = d_v", "d_model = 512"),
    hint=r"[dD]_?\{?[kK]|[dD]ₖ|[hH][eE][aA][dD]_?[dD][iI][mM]|[dD]_head|维度",
)

SCALED_TEXT: Final = pattern(
    "scaled-text",
    r"(?i)\\sqrt\s*\{?\s*d_?\{?k|√\s*d_?k|sqrt\s*\(\s*d_?k|np\.sqrt|math\.sqrt|torch\.sqrt|"
    r"\*\*\s*0?\.5|\*\*\s*\(1\s*/\s*2\)|(?<!not )\bscaled?\b|(?<!without )(?<!no )scaling|"
    r"(?<!未)(?<!不)缩放|(?<!未經)縮放|除以\s*\\?√",
    "the text says it scales the scores",
    (
        "\\sqrt{d_k}",
        "√dₖ".replace("ₖ", "k"),
        "/ np.sqrt(3)",
        "keys.shape[-1]**0.5",
        "scaled dot-product",
        "缩放",
    ),
    ("softmax(S)",),
    hint=r"sqrt|√|[sS][cC][aA][lL]|SCAL|缩放|縮放|除以|\*\*",
)

UNSCALED_TEXT: Final = pattern(
    "unscaled-text",
    r"(?i)without\s+scaling|unscaled|no\s+scaling|not\s+scaled|skip(?:ping)?\s+(?:the\s+)?scaling|"
    r"未缩放|未經縮放|不缩放|不縮放|(?:暂|暫|先)?(?:略|省略|忽略|跳过|跳過)[^。\n]{0,24}(?:缩放|縮放)|"
    r"softmax\s*\(\s*(?:S|QK\^\{?T\}?|Q\s*K\^\{?T\}?|scores|attn_scores|attention_scores|sims|wei)\s*[,)]",
    "the text says it does not scale the scores",
    (
        "without scaling",
        "softmax(S)",
        "torch.softmax(attn_scores, dim=-1)",
        "未缩放",
        "暂略 $\\sqrt{d_k}$ 縮放",
        "skipping the scaling",
    ),
    ("softmax(S / sqrt(d_k))",),
    hint=r"[sS][cC][aA][lL]|SCAL|缩放|縮放|[sS][oO][fF][tT][mM][aA][xX]",
)

SCALED_ITEMS: Final = pattern(
    "scaled-items",
    r"^\[\s*-?[\d.]+\s*[/÷]\s*(?P<d>[\d.]+|√\s*\d+|\\sqrt\s*\{?\d+\}?)"
    r"(?:\s*,\s*-?[\d.]+\s*[/÷]\s*(?P=d))*\s*\]$",
    "``[10/4, 20/4, 30/4]``: each score divided by the same divisor, so the value is scaled",
    ("[10/4, 20/4, 30/4]", "[0.14/1.73, 0.32/1.73]"),
    ("[10/4, 20/5]", "[1, 2]"),
    how=Apply.MATCH,
)

#: a number as Level 2 finds it in a line
NUMBER_TEXT: Final = rf"-?{NUMERAL_TEXT}"

#: a vector of numbers ``[1, 2]``
VECTOR_TEXT: Final = rf"\[\s*{NUMBER_TEXT}(?:\s*,\s*{NUMBER_TEXT})*\s*\]"

EXP_FIRST: Final = pattern(
    "exp-first",
    rf"^(?:e\s*\^\s*\(?\s*(?P<a>{NUMBER_TEXT})\s*\)?|exp\s*\(\s*(?P<b>{NUMBER_TEXT})\s*\))$",
    "a chain that starts with one exponential: its value is an exponential of the row",
    (ex("e^2.5", a="2.5"), ex("e^(0.5)", a="0.5"), ex("exp(1)", b="1")),
    ("e^x", "2e^1"),
    how=Apply.MATCH,
)

EXP_OVER_ROOT: Final = pattern(
    "exp-over-root",
    rf"^e\s*\^\s*\{{\s*(?P<a>{NUMBER_TEXT}\s*/\s*(?:\\sqrt\s*\{{\s*{NUMERAL_TEXT}\s*\}}|"
    rf"\\sqrt\s*{NUMERAL_TEXT}|√\s*{NUMERAL_TEXT}))\s*\}}$",
    "a chain that starts with one exponential of a number over a root, in braces: its value is "
    "an exponential of the row (the exponent as written)",
    (ex("e^{1/\\sqrt{2}}", a="1/\\sqrt{2}"), ex("e^{2/√3}", a="2/√3")),
    ("e^{1}/\\sqrt{2}", "e^{x/\\sqrt{2}}"),
    how=Apply.MATCH,
)

SQRT_DK: Final = pattern(
    "sqrt-dk",
    r"^(?:\\sqrt|sqrt|√)\s*\(?\s*d_k\s*\)?$",
    "a chain that starts with the root of d_k: its value is the divisor",
    ("\\sqrt d_k", "sqrt(d_k)", "√d_k"),
    ("\\sqrt 2", "d_k"),
    how=Apply.MATCH,
)

SQRT_DK_TEXT: Final = pattern(
    "sqrt-dk-text",
    r"(?:根号后|开根号后?|开方后|开平方后)\s*(?:为|是|得|等于|=)\s*\$?\s*(?P<n>\d{1,6}(?:\.\d{1,12})?)"
    r"(?![\d.]*\d)"
    r"|(?i:square\s+root\s+of\s+\$?d_?\{?k\}?\$?\s+(?:is|equals|=))\s*\$?\s*"
    r"(?P<n2>\d{1,6}(?:\.\d{1,12})?)(?![\d.]*\d)",
    "a sentence that states the divisor, the root of d_k, in words (``根号后为2``, ``the square "
    "root of d_k is 8``): a claim about the divisor, like ``\\sqrt{d_k} = 2``",
    (
        ex("此处假设根号后为2", n="2"),
        ex("开根号后为 8", n="8"),
        ex("the square root of d_k is 8.", n2="8"),
        ex("The square root of $d_k$ is 1.41", n2="1.41"),
    ),
    ("the square root of 64 is 8", "根号 2 为 1.414 左右的数", "根号后为x"),
    hint=r"根号|开方|开平方|[Ss]quare",
)

SCALED_FIRST: Final = pattern(
    "scaled-first",
    rf"^{VECTOR_TEXT}\s*[÷/]\s*\S.{{0,40}}$",
    "``[5, 2] ÷ 2``: the scores divided by the scale, so the value is the scaled scores",
    ("[5, 2] ÷ 2", "[5, 2]/√2"),
    ("[5, 2] * 2", "5 ÷ 2"),
    how=Apply.MATCH,
)

PROSE_NUMBER: Final = pattern(
    "prose-number",
    r"(?P<phrase>注意力权重|权重|權重|概率|attention\s+weight|weight|probability)\s*"
    rf"(?:of|is|=|:|：|为|是|约为|约|≈|~)?\s*(?P<num>{NUMBER_TEXT})(?![\d.]*\d)(?!\s*[×x*])",
    "one number right after the word for a stage in prose (``（权重 0.79）``, ``a weight of "
    "0.5``): a single number of that stage",
    (ex("（权重 0.79）", phrase="权重", num="0.79"), ex("a weight of 0.5", num="0.5")),
    ("weights [0.5, 0.5]", "weight matrix 2x2"),
)

CAUSAL_TEXT: Final = pattern(
    "causal-text",
    r"(?i)\bcausal\b|look-?ahead\s+mask|masked\s+self-attention|因果|下三角掩码",
    "the text says its attention is causal (each token sees itself and the tokens before it)",
    ("The attention is causal:", "a look-ahead mask", "因果注意力"),
    ("casual reading",),
    hint=r"[cC][aA][uU][sS][aA][lL]|[lL][oO][oO][kK]-?\s*[aA][hH][eE][aA][dD]|[mM][aA][sS][kK][eE][dD]|因果|下三角",
)
MASK_TEXT: Final = pattern(
    "mask-text",
    r"(?i)\bmask(?:ed|s|ing)?\b|掩码|屏蔽",
    "the text says some keys are masked out (their weight is 0)",
    ("Key love is masked:", "An additive mask is given", "掩码矩阵"),
    ("Massachusetts",),
    hint=r"[mM][aA][sS][kK]|掩码|屏蔽",
)

TOKEN_LABEL: Final = pattern(
    "token-label",
    r"(?:^|[\s(（])(?:(?:[Ww]ord|[Tt]oken|词元?|单词)\s*)?[\"“'「『](?P<token>[^\s\"”'」』]{1,24})[\"”'」』]"
    r"\s*(?:→|->|=>|[:：])\s*$",
    'a quoted token heading the line of its vectors (``Word "cat" → Q = […], K = […]``): '
    "the vectors are that token's",
    (
        ex('   Word "cat" → ', token="cat"),
        ex("“猫”: ", token="猫"),
        ex("词元「吃」：", token="吃"),
        ex("'sat' -> ", token="sat"),
    ),
    ('say "cat" and ', 'Word "cat" is ', "a → "),
    how=Apply.SEARCH,
)

QUERY_HEADING: Final = pattern(
    "query-heading",
    r"^[#\s]*(?:\\[a-z]*section\*?\{)?\s*(?:Query|Query\s+token|查询词元|查询|第\s*\d+\s*个查询[:：]?)"
    r"\s*[:：]?\s*[\"“']?(?P<token>[^\s,，:：(){}\"”']{1,40})[\"”']?\s*\}?\s*$",
    "a heading that names the query token its section is for (``## Query love``, ``查询词元 I``)",
    (
        ex("## Query love", token="love"),
        ex("\\subsection*{查询词元 I}", token="I"),
        ex("### Query: cats", token="cats"),
    ),
    ("### Query, Key and Value", "## Queries and keys"),
    how=Apply.MATCH,
)

#: sentences that say which key a query attends to most (words are claims)
ATTENDS: Final[tuple[Pattern, ...]] = (
    pattern(
        "attends-zh",
        r"[“\"'「]?(?P<q>[^\s“”\"'「」，。,.]{1,12}?)[”\"'」]?\s*(?:更多地|更加|更|主要|最)\s*"
        r"(?:关注|注意|聚焦(?:于|在)?)\s*(?:了\s*)?[“\"'「]?(?P<k>[^\s“”\"'「」，。,.]{1,12})[”\"'」“]?"
        r"(?:\s*而(?:不是|非)\s*[“\"'「]?(?P<other>[^\s“”\"'「」，。,.]{1,12})[”\"'」“]?)?",
        "a sentence in Chinese: the query attends most (or more) to a key (``让 “它” 更多地关注 "
        "“动物” 而不是 “马路”``)",
        (
            ex("“它” 更多地关注 “动物” 而不是 “马路“", q="它", k="动物", other="马路"),
            ex("它最关注动物", q="它", k="动物"),
        ),
        ("关注度很高",),
        # (the verb after the adverb: "注意力" alone, in every post about attention, is no hint)
        hint=r"[地加更要最]\s*(?:关注|注意|聚焦)",
    ),
    pattern(
        "attends-en",
        r"(?i)\b(?P<q>[\w'’-]{1,24})[\"”’]?\s+(?:attends|pays\s+attention|looks)\s+"
        r"(?:most(?:ly)?|more|strongly|primarily)\s+(?:\w+\s+)?to\s+[\"“‘]?(?P<k>[\w'’-]{1,24})"
        r"[\"”’]?(?:\s+than\s+(?:to\s+)?[\"“‘]?(?P<other>[\w'’-]{1,24}))?",
        "a sentence in English: the query attends most (or more) to a key",
        (
            ex("so it attends most to animal", q="it", k="animal"),
            ex(
                '"it" attends more to "animal" than to "street"', q="it", k="animal", other="street"
            ),
        ),
        ("attention to detail",),
        # (the verb and the adverb: "attention" alone, in every post about it, is no hint)
        hint=r"(?i)(?:attends|attention|looks)\s+(?:most|more|strongly|primarily)",
    ),
)
