"""Every name, label, notation and phrase the reader recognises: one table, one row each.

Adding a notation is adding a row. Each row carries examples it must recognise (and some it
must not), and ``tests/read/test_notations.py`` checks every row against them. The code that
uses a row (tokenizer, extractor, scanner, Level 1 and Level 2) never spells a pattern itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from symattn.read.rows import Chars, Pattern, Spelling, TokenRule, Word, Words, ex, pattern, words

# --------------------------------------------------------------------------- the text

INVISIBLE: Final = Chars(
    "invisible",
    frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\x00"),
    "characters that change nothing a reader sees (zero-width, soft hyphen, NUL): removed, "
    "positions kept",
    "\u200b\u00ad\x00",
    "a 1\u00a0",
)

#: LaTeX environments that hold display math
MATH_ENVIRONMENTS: Final = words(
    "math-environments",
    "LaTeX environments of display math",
    *("equation", "align", "aligned", "alignat", "alignedat", "gather", "gathered"),
    *("multline", "flalign", "eqnarray", "displaymath", "math", "split", "dmath"),
    counterexamples=("table", "bmatrix", "document"),
)
#: LaTeX environments that hold a table
TABLE_ENVIRONMENTS: Final = words(
    "table-environments",
    "LaTeX environments whose rows are table rows (``&`` between cells, ``\\\\`` between rows)",
    "tabular",
    "tabularx",
    "tabular*",
    "longtable",
    counterexamples=("table", "array"),
)
#: LaTeX environments that hold code
CODE_ENVIRONMENTS: Final = words(
    "code-environments",
    "LaTeX environments that hold code or printed output",
    "verbatim",
    "Verbatim",
    "lstlisting",
    "minted",
    "python",
    "pycode",
    counterexamples=("equation",),
)

LANGUAGE: Final = pattern(
    "language",
    r"[A-Za-z][\w+#.-]{0,30}(?:\s+\{.*\})?",
    "the info string of a code fence that names a language (else it is content)",
    ("python", "plaintext", "raw", "c++", "python {.line-numbers}"),
    ("input = [", "x = 1"),
)

# --------------------------------------------------------------------------- arrays outside LaTeX

ARRAY_WRAPPER: Final = pattern(
    "array-wrapper",
    r"(?:\b(?:torch|np|numpy|tf|jnp|mx)\.)?(?P<wrapper>tensor|Tensor|array|asarray|constant|"
    r"Parameter containing:?)\s*\(?\s*$",
    "what a printed array is wrapped in (``tensor([…])``, ``array([…])``, ``tf.Tensor(``)",
    (
        ex("tensor(", wrapper="tensor"),
        ex("np.array(", wrapper="array"),
        ex("tf.Tensor(", wrapper="Tensor"),
        ex("Parameter containing:", wrapper="Parameter containing:"),
    ),
    ("print(", "x = "),
)
SHAPE_WRAPPER: Final = pattern(
    "shape-wrapper",
    r"(?:Size|shape|TensorShape)\s*\(\s*$|shape\s*[:=]\s*\(?\s*$",
    "a printed shape (``torch.Size([5, 4])``), whose numbers are sizes, not values",
    ("torch.Size(", "TensorShape(", "shape: "),
    ("tensor(",),
)
ARRAY_CALLS: Final = words(
    "array-calls",
    "calls that make an array of the list they are given (the list is the array's value)",
    *("array", "asarray", "tensor", "as_tensor", "constant", "Tensor", "FloatTensor"),
    *("DoubleTensor", "matrix", "np.array", "torch.tensor", "tf.constant", "jnp.array"),
    counterexamples=("zeros", "rand"),
)
MATMUL_CALLS: Final = words(
    "matmul-calls",
    "calls that multiply two matrices (``np.matmul(a, b)``, ``torch.mm``, ``np.dot``)",
    "matmul",
    "dot",
    "mm",
    "bmm",
    counterexamples=("multiply", "add"),
)
SOFTMAX_CALLS: Final = words(
    "softmax-calls",
    "calls that compute a softmax (``torch.softmax``, ``F.softmax``, ``tf.nn.softmax``)",
    "softmax",
    "Softmax",
    counterexamples=("log_softmax",),
)
EXP_CALLS: Final = words("exp-calls", "calls of the exponential", "exp", counterexamples=("expm1",))
SQRT_CALLS: Final = words(
    "sqrt-calls", "calls of the square root", "sqrt", "rsqrt", counterexamples=("sqr",)
)
TRANSPOSE_CALLS: Final = words(
    "transpose-calls",
    "calls that transpose (``k.transpose(0, 1)``, ``np.transpose(k)``, ``k.t()``)",
    "transpose",
    "t",
    counterexamples=("tanh",),
)
CAUSAL_CALLS: Final = words(
    "causal-calls",
    "calls that build a causal (triangular) mask",
    "tril",
    "triu",
    "band_part",
    counterexamples=("ones",),
)
PROJECTION_NAMES: Final = words(
    "projection-names",
    "names in code that mean learned projections (the values they make are not in the text)",
    "Linear",
    "Dense",
    "MultiheadAttention",
    "LazyLinear",
    counterexamples=("softmax",),
)
ELISION: Final = words(
    "elision",
    "entries left out of a printed array (numpy and torch print large arrays so)",
    "...",
    "…",
    "⋯",
    counterexamples=(".",),
)
SPECIAL_ENTRY: Final = words(
    "special-entry",
    "array entries that are not finite numbers (a masked score is ``-inf``)",
    "-inf",
    "inf",
    "nan",
    "-infinity",
    "-torch.inf",
    "-np.inf",
    counterexamples=("x", "tensor"),
)
PRINT_NOISE: Final = pattern(
    "print-noise",
    r"\bprint\s*\(|\bf?[\"']|[\"']\s*,|\\n|\)\s*$|^\s*[>#]+\s*",
    "what is not a label in the text before a printed array (``print(\"…\",``, quotes, ``\\n``)",
    ('print("Attention weights:", ', 'f"W_q: \\n'),
    ("Attention weights",),
)

SIDE_BY_SIDE: Final = pattern(
    "side-by-side",
    r"(?:^|(?<=\s))(?P<name>[A-Za-z][A-Za-z0-9_]*)\s*=\s*\[",
    "``NAME = [`` starting an array; two on one line start matrices written side by side",
    (ex("Q = [[1, 0, 1],    K = [[1, 1, 0],", name="Q"),),
    ("x[0] = 1",),
)
ROW_NAME: Final = pattern(
    "row-name",
    r"(?P<name>[^\s:：=\[\]→]{1,24})\s*(?:[:：]|→|->)?",
    "a word before a vector on its own line names its row (``I: [0.1, 0.2]``, ``cat → [1, 0]``)",
    (ex("I:", name="I"), ex("happy", name="happy"), ex("Fine. →", name="Fine.")),
    ("",),
)

MATRIX_ENVIRONMENTS: Final = words(
    "matrix-environments",
    "LaTeX environments whose cells are the entries of a matrix",
    *("bmatrix", "pmatrix", "vmatrix", "Vmatrix", "Bmatrix", "matrix", "smallmatrix", "array"),
    counterexamples=("aligned", "cases"),
)
MARKDOWN_MARKUP: Final = pattern(
    "markdown-markup",
    r"\\(?P<keep>[!-/:-@\[-`{-~])|\*\*|__|`+",
    "Markdown marks around numbers in prose (``**0.82**``, `` `[1, 2]` ``, ``\\[1, 0]``): read "
    "through",
    (ex("\\[1, 0]", keep="["), "**0.82**", "`[1, 2]`"),
    ("0.1*0.42",),
)

FORMULA_BREAK: Final = Chars(
    "formula-break",
    frozenset(";；。"),
    "a character between two formulas on one line",
    ";。",
    "=,+→",
)
NEW_DEFINITION: Final = pattern(
    "new-definition",
    r"\s+(?P<name>(?:[A-Za-z]+|[\u4e00-\u9fff]+)(?:_(?:\{[^{}]{0,20}\}|[A-Za-z0-9]+))?'*)"
    r"\s*[=≈]",
    "after a complete value, ``NAME =`` starts the next formula on the same line",
    (ex(" V = [[1,2]]", name="V"), ex(" d_k = 2", name="d_k"), ex(" r_{1,2} = h", name="r_{1,2}")),
    (" + x", " V"),
)

INLINE_JOIN: Final = pattern(
    "inline-join",
    r"\s*(?:[(（][^()（）$=]{1,40}[)）])?\s*[:：]?\s*",
    "what may stand between ``$k_1$`` and ``$= [1, 2]$`` for the two to be one formula: "
    "nothing, or a token name in parentheses",
    (" (Thinking) ", "", "（动物）"),
    ("，总和 ",),
)

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
    r"|\bquery\s*(?P<q>\d{1,3})\b",
    "words that say which query row the numbers after them are for",
    (ex("For first row [0.08, 0.18]:", w="first"), ex("Row 2:", n="2"), ex("第一行", z="一"),
     ex("for query 3", q="3")),
    ("rows of Q", "first token embeddings"),
)

LABEL_SYMBOL: Final = pattern(
    "label-symbol",
    r"^[\s*_>#-]*(?P<sym>[A-Za-z]{1,3}(?:_\{?[^\s{}()*:：]{1,20}\}?|\^\{?\(?\d{1,3}\)?\}?|\d{1,3}))"
    r"(?=[\s*:：(]|$)|^[\s*_>#-]*[A-Za-z]+\s*\((?P<paren>[A-Za-z])\)[\s*:：]*$",
    "a label that starts with a symbol and goes on in words (``**K_animal (Exact Match):**``), "
    "or words with the symbol in parentheses (``**Query (Q):**``)",
    (ex("**K_animal (Exact Match):**", sym="K_animal"), ex("V_street:", sym="V_street"),
     ex("- q1 (The)", sym="q1"), ex("* **Query (Q):**", paren="Q")),
    ("Attention weights:", "Keys:", "Output (token 1):"),
)

# --------------------------------------------------------------------------- scaling

DK_STATEMENT: Final = pattern(
    "dk-statement",
    r"(?i)(?<![A-Za-z])(?:d_?\{?k\}?|dₖ|head_?dim|d_head)\s*(?:[=:：]|is|为|是)\s*(?P<n>\d{1,6})(?![\d.])"
    r"|\\sqrt\s*\{?\s*d_?\{?k\}?\s*\}?\s*=\s*\\sqrt\s*\{?\s*(?P<n2>\d{1,6})\s*\}?"
    r"|\(d_?k\)\s*\|\s*(?P<n3>\d{1,6})"
    r"|维度(?:为|是|=)\s*\$?\s*(?P<n4>\d{1,6})",
    "a sentence, formula or table row that states d_k",
    (ex("d_k = 2", n="2"), ex("$d_k=64$", n="64"), ex("\\sqrt{d_k} = \\sqrt{3}", n2="3"),
     ex("head dimension (d_k) | 4", n3="4"), ex("维度为 2", n4="2"), ex("head_dim = 2", n="2")),
    ("d_k = d_v", "d_model = 512"),
)
SCALED_TEXT: Final = pattern(
    "scaled-text",
    r"(?i)\\sqrt\s*\{?\s*d_?\{?k|√\s*d_?k|sqrt\s*\(\s*d_?k|np\.sqrt|math\.sqrt|torch\.sqrt|"
    r"\*\*\s*0?\.5|\*\*\s*\(1\s*/\s*2\)|\bscaled?\b|scaling|缩放|縮放|除以\s*\\?√",
    "the text says it scales the scores",
    ("\\sqrt{d_k}", "√dₖ".replace("ₖ", "k"), "/ np.sqrt(3)", "keys.shape[-1]**0.5", "scaled dot-product", "缩放"),
    ("softmax(S)",),
)
UNSCALED_TEXT: Final = pattern(
    "unscaled-text",
    r"(?i)without\s+scaling|unscaled|no\s+scaling|not\s+scaled|未缩放|未經縮放|不缩放|"
    r"softmax\s*\(\s*(?:S|QK\^\{?T\}?|Q\s*K\^\{?T\}?|scores|attn_scores|attention_scores|sims|wei)\s*[,)]",
    "the text says it does not scale the scores",
    ("without scaling", "softmax(S)", "torch.softmax(attn_scores, dim=-1)", "未缩放"),
    ("softmax(S / sqrt(d_k))",),
)

# --------------------------------------------------------------------------- the grammar

#: LaTeX and unicode spellings mapped to the grammar's own characters (longest first when read)
SPELLINGS: Final[tuple[Spelling, ...]] = (
    Spelling("\\times", "×"),
    Spelling("\\cdot", "·"),
    Spelling("\\div", "÷"),
    *(Spelling(w, "≈") for w in ("\\approx", "\\simeq", "\\thickapprox", "约等于", "≒", "≃")),
    Spelling("根号", "√"),
    Spelling("\\dfrac", "\\frac"),
    Spelling("\\tfrac", "\\frac"),
    Spelling("\\exp", "exp"),
    # sizes, fonts and styles: dropped
    *(
        Spelling(w, "")
        for w in (
            *("\\left", "\\right", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr", "\\big", "\\Big"),
            *("\\mathbf", "\\boldsymbol", "\\mathrm", "\\mathit", "\\textbf", "\\text"),
            *("\\operatorname", "\\displaystyle", "\\textstyle", "\\scriptstyle", "\\!"),
            *("\\vec", "\\hat", "\\tilde", "\\bar", "\\textit", "\\mathsf", "\\mathtt"),
        )
    ),
    # spaces, and the column separator of aligned environments
    *(Spelling(w, " ") for w in ("\\quad", "\\qquad", "\\,", "\\;", "\\:", "\\ ")),
    # transposes, percent, functions written as text
    *(Spelling(w, "^T") for w in ("^{T}", "^\\top", "^{\\top}", "^\\intercal", "^{\\intercal}", "ᵀ")),
    Spelling("^{\\mathsf{T}}", "^T"),
    Spelling("\\%", "%"),
    # a row break stays one (so that ``\\ 1`` is not read as ``\`` and a spaced ``\ ``)
    Spelling("\\\\", "\\\\"),
    *(
        Spelling(f"\\{cmd}{{{fn}}}", fn.lower())
        for cmd in ("text", "mathrm", "operatorname")
        for fn in ("softmax", "Softmax", "exp", "sum")
    ),
    Spelling("\\odot", "⊙"),
    # a step from one stage to the next: not an equality
    *(
        Spelling(w, "→")
        for w in ("\\rightarrow", "\\longrightarrow", "\\Rightarrow", "\\to", "\\mapsto", "⟶", "⇒", "->")
    ),
    Spelling("\\circ", "⊙"),
    # unicode signs
    *(Spelling(w, "-") for w in ("\u2212", "\u2013")),
    Spelling("\u00d7", "×"),
    Spelling("\u2217", "*"),
    *(Spelling(w, "·") for w in ("\u22c5", "\u2022")),
    Spelling("\u221a", "√"),
    # fullwidth and CJK punctuation, digits and point
    *(Spelling(w, ",") for w in ("\uff0c", "\u3001")),
    *(Spelling(chr(0xFF00 + ord(c) - 0x20), c) for c in "()=+-[]."),
    *(Spelling(chr(0xFF10 + d), str(d)) for d in range(10)),
)

TEXT_NAME: Final = pattern(
    "text-name",
    r"\\(?:text|textrm|textbf|mathrm|mathbf|mathit|operatorname|boldsymbol)\s*\{"
    r"(?P<words>\s*[A-Za-z\u4e00-\u9fff][A-Za-z0-9\u4e00-\u9fff ]{0,40}?)\s*\}",
    "a name written as words in math (``\\text{Attention Scores}``): one name, "
    "``Attention_Scores``",
    (ex("\\text{Attention Scores}", words="Attention Scores"), ex("\\mathbf{x}", words="x"),
     ex("\\text{ sum }", words="sum")),
    ("\\text{(number of tokens)}", "\\frac{1}{2}"),
)
#: CJK ideographs a name of the grammar may hold (``总和``, ``v_它``)
CJK: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

#: the tokens of the grammar, tried in this order
TOKEN_RULES: Final[tuple[TokenRule, ...]] = (
    TokenRule("space", r"\s+", (" ", "\t ")),
    TokenRule(
        "num",
        r"(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?",
        ("0.47", "2.", ".5", "12", "1e-3", "2.5E+4"),
    ),
    TokenRule(
        "name",
        rf"(?:[A-Za-z]+|[{CJK}]+)(?:_(?:\{{[^{{}}]{{0,40}}\}}|[A-Za-z0-9{CJK}]+))?'*",
        ("d_k", "x_{3}", "v_它", "总和", "sum", "k'"),
    ),
    TokenRule("dots", r"\\(?:cdots|ldots|dots|vdots|ddots)|\.\.\.|…|⋯", ("\\cdots", "...", "…")),
    TokenRule(
        "matbegin",
        r"\\begin\s*\{(?:[bpvBV]?matrix|smallmatrix|array)\*?\}(?:\s*\{[^{}]{0,40}\})?",
        ("\\begin{bmatrix}", "\\begin{pmatrix}", "\\begin{array}{cc}"),
    ),
    TokenRule(
        "matend",
        r"\\end\s*\{(?:[bpvBV]?matrix|smallmatrix|array)\*?\}",
        ("\\end{bmatrix}", "\\end{array}"),
    ),
    TokenRule("rowsep", r"\\\\", ("\\\\",)),
    TokenRule("cmd", r"\\[A-Za-z]+", ("\\frac", "\\sqrt")),
    TokenRule("rel", r"≈|=", ("=", "≈")),
    TokenRule("op", r"[-+×*·÷/^()\[\]{},√&%⊙]", ("-", "×", "÷", "^", "{", ",", "√", "&", "%", "⊙")),
)

#: signs of multiplication and division, and the operation each stands for
MULTIPLY_SIGNS: Final[tuple[Spelling, ...]] = (
    Spelling("×", "*"),
    Spelling("*", "*"),
    Spelling("·", "*"),
    Spelling("÷", "/"),
    Spelling("/", "/"),
    Spelling("⊙", "⊙"),
)

#: functions the grammar evaluates
FUNCTIONS: Final[tuple[Word, ...]] = (
    Word("exp", "e to the power of the argument"),
    Word("sqrt", "the square root of the argument"),
    Word("sum", "the sum of a list"),
    Word("softmax", "the softmax of a vector, or of each row of a matrix"),
)

BRACED_SUBSCRIPT: Final = pattern(
    "braced-subscript",
    r"_\{([^{}]*)\}",
    "``s_{1}`` is the name ``s_1``",
    ("s_{1}", "x_{it}"),
    ("s_1",),
)

# --------------------------------------------------------------------------- math in documents

DISPLAY_MATH: Final = pattern(
    "display-math",
    r"\$\$(?P<d>.*?)\$\$|\\\[(?P<b>.*?)\\\]|\\begin\{(?P<env>(?:equation|align|aligned|alignat|"
    r"gather|gathered|multline|flalign|eqnarray|displaymath|math|split)\*?)\}(?P<e>.*?)"
    r"\\end\{(?P=env)\}",
    "display math: ``$$…$$``, ``\\[…\\]`` and the LaTeX math environments",
    (
        ex("$$1 = 1$$", d="1 = 1"),
        ex("\\[x = 2\\]", b="x = 2"),
        ex("\\begin{align*}a &= 1\\end{align*}", env="align*", e="a &= 1"),
    ),
    ("$x = 1$", "\\begin{table}1\\end{table}"),
    flags=re.S,
)
INLINE_MATH: Final = pattern(
    "inline-math",
    r"(?<![\\$])\$(?P<i>[^$\n]+?)\$(?!\$)|\\\((?P<p>.*?)\\\)",
    "inline math: ``$…$`` and ``\\(…\\)``",
    (ex("a $x = 2$ b", i="x = 2"), ex("\\(y = 3\\)", p="y = 3")),
    ("costs \\$5", "$$"),
)
ENV_COMMAND: Final = pattern(
    "environment-command",
    r"\\(?:begin|end)\{[A-Za-z*]+\}(?:\{[^{}]*\})?|\\(?:label|tag|nonumber|notag)(?:\{[^{}]*\})?",
    "commands inside display math that are not math (blanked out)",
    ("\\begin{aligned}", "\\end{array}{cc}", "\\label{eq:1}", "\\nonumber"),
    ("\\frac{1}{2}",),
)
LATEX_ROW_BREAK: Final = pattern(
    "latex-row-break",
    r"(\\\\)",
    "``\\\\`` ends a row of an aligned environment or a table",
    ("a &= 1 \\\\ b &= 2",),
    ("\\frac{1}{2}",),
)
RELATION: Final = pattern(
    "relation",
    r"=|≈|\\approx|约等于|\\simeq|≒|≃",
    "a relation in a line as written: a line without one holds no claim",
    ("x = 1", "e \\approx 2.718", "e^1 约等于 2.718", "a ≒ b"),
    ("x + 1",),
)
DIGIT: Final = pattern(
    "digit",
    r"[0-9０-９]",
    "a digit, ASCII or fullwidth: a line without one holds no number",
    ("7", "１"),
    ("x = y",),
)
CODE_LINE: Final = pattern(
    "code-line",
    r"[A-Za-z_]\.[A-Za-z_]|^\s*(?:def|return|import|from|class|print)\b|#|==|!=|\+=|;\s*$",
    "a plain line that is code, not math",
    ("feature_dim = query_matrix.size(-1)", "import os", "x += 1", "a == 1", "x = 1;"),
    ("x = 1.5", "score = 0.47"),
)
LIST_MARKER: Final = pattern(
    "list-marker",
    r"^\s*(?:[•·*+\-–]\s+|\d{1,3}[.)]\s+|\d{1,3}、\s*|[（(]\d{1,3}[)）]\s*)",
    "a list marker at the start of a line (not part of the math); a number right after "
    "``1.`` is arithmetic, not a marker",
    ("• e^1 ≈ 2.718", "3. 总和", "  - x = 1", "（2）x = 1", "1、x = 1"),
    ("x = 1", "e^1 = 2.718", "1.15/1.414≈0.813"),
)
PROSE_WORD: Final = pattern(
    "prose-word",
    r"([^\s$:：，,。；;]+)\s*$",
    "the word right before inline math (``总和 $= …$``)",
    (ex("3. 总和 ", **{"1": "总和"}), ex("the sum ", **{"1": "sum"})),
    (": ",),
)
FENCED_CODE: Final = pattern(
    "fenced-code",
    r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$",
    "a fenced code block: code, not math",
    ("```\nx = 1 + 2\n```", "~~~python\nx = 1\n~~~"),
    ("```\nx = 1\n~~~",),
    flags=re.S | re.M,
)
RESULT_LABEL: Final = pattern(
    "result-label",
    r"^\s*(?:乘积|计算|相乘|点积)?结果\s*$|^\s*(?:the\s+)?(?:product\s+|final\s+)?result\s*$",
    "a line naming the result of the expression on the line before (``乘积结果=[…]``)",
    ("乘积结果", "结果", "result", "The result", "the final result"),
    ("total", "results"),
    flags=re.I,
)
EXPRESSION_LINE: Final = pattern(
    "expression-line",
    r"^[\s\[\]()0-9.,+\-*×·÷/^]+$",
    "a line holding only arithmetic (a result line may claim its value)",
    ("[0.55, 0.20]*[[1, 0], [0, 1]]", "1.15/1.414"),
    ("x * 2", "some prose"),
)

# --------------------------------------------------------------------------- reading chains

#: characters after which prose may end and math begin (in a chain's first link)
PROSE_END: Final = Chars(
    "prose-end",
    frozenset(":：;；。!！?？") | {chr(c) for c in range(0x4E00, 0xA000)},
    "a character after which prose may end and math begin",
    ":：;；。!！?？它总",
    "=+(x1 ",
)
EXPRESSION_START: Final = pattern(
    "expression-start",
    r"[A-Za-z\u4e00-\u9fff]\s+[\[(√\\0-9-]",
    "where an expression may start after words (``Scores become [10/4, 20/4]``)",
    ("become [10", "is 2"),
    ("x[0]",),
)
SCALED_ITEMS: Final = pattern(
    "scaled-items",
    r"^\[\s*-?[\d.]+\s*[/÷]\s*(?P<d>[\d.]+|√\s*\d+|\\sqrt\s*\{?\d+\}?)"
    r"(?:\s*,\s*-?[\d.]+\s*[/÷]\s*(?P=d))*\s*\]$",
    "``[10/4, 20/4, 30/4]``: each score divided by the same divisor, so the value is scaled",
    ("[10/4, 20/4, 30/4]", "[0.14/1.73, 0.32/1.73]"),
    ("[10/4, 20/5]", "[1, 2]"),
)
PROSE_SENTENCE: Final = pattern(
    "prose-sentence",
    r"(?:[A-Za-z]{2,}[ ,]+){3}|[\u4e00-\u9fff]{6}",
    "three words in a row, or six CJK characters: prose, not a formula",
    ("the sum is = 3", "为了方便计算假设"),
    ("d_k = 2", "总和 = 3"),
)
TAIL_SYMBOL: Final = pattern(
    "tail-symbol",
    r"(?:[A-Za-z\u4e00-\u9fff]{2}[^=]*?[\s,，:：\u4e00-\u9fff])"
    r"(?P<sym>[A-Za-z][A-Za-z0-9]*_\{?[A-Za-z0-9]{1,8}\}?)\s*$",
    "prose, then the symbol the chain defines (``We assume that d_k``, ``假设 d_k``)",
    (
        ex("We assume that d_k", sym="d_k"),
        ex("假设 d_k", sym="d_k"),
        ex("设维度 d_{k}", sym="d_{k}"),
    ),
    ("d_k",),
)
SUBSCRIPT_INDEX: Final = pattern(
    "subscript-index",
    r"_\s*(?:\{[^{}]{0,24}\}|[A-Za-z0-9]+)",
    "a subscript (``x_{3}``, ``q_1``): an index, not a number",
    ("x_{3}", "q_1", "W_ Q"),
    ("x^2",),
)
SENTENCE_END: Final = pattern(
    "sentence-end",
    r"^(?P<body>.*\d)\.\s*$",
    "``= 2.`` at the end of a sentence: the period is not part of the number",
    (ex("4.", body="4"), ex("0.82. ", body="0.82")),
    ("4", "4.5"),
)
WORD_AFTER: Final = pattern(
    "word-after",
    r"\s+[A-Za-z\u4e00-\u9fff]{2,}",
    "a word after the last number ends the math (``= 2 here.``)",
    ("2 here.", "0.82 即可"),
    ("2", "2 x"),
)

# --------------------------------------------------------------------------- Level 2: inputs

#: a number as Level 2 finds it in a line
NUMBER_TEXT: Final = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
#: a vector of numbers ``[1, 2]``
VECTOR_TEXT: Final = rf"\[\s*{NUMBER_TEXT}(?:\s*,\s*{NUMBER_TEXT})*\s*\]"
#: a matrix of numbers ``[[1, 0], [0, 1]]``
MATRIX_TEXT: Final = rf"\[\s*{VECTOR_TEXT}(?:\s*,\s*{VECTOR_TEXT})*\s*\]"

NUMBER: Final = pattern(
    "number",
    NUMBER_TEXT,
    "a number in a vector, a table cell or prose",
    ("1", "-0.15", "1e-3", "2.5E4"),
    ("x",),
)
VECTOR: Final = pattern(
    "vector",
    VECTOR_TEXT,
    "a vector of numbers",
    ("[1, 2]", "[ -0.15 ,0.2 ]", "[3]"),
    ("[a, b]", "[]"),
)
VECTOR_DEFINITION: Final = pattern(
    "vector-definition",
    rf"(?<![A-Za-z])(?P<role>[qkv])\s*_\s*(?P<idx>[^\s=()\[\],]{{1,24}})\s*"
    rf"(?:\((?P<tok>[^()=\[\]]{{1,40}})\)\s*)?=\s*(?P<vec>{VECTOR_TEXT})",
    "a query, key or value vector: ``q_1 = [1, 2]``, ``k_1 (Thinking) = [1, 2]``, ``v_它 = […]``",
    (
        ex("q_1 = [1, 2]", role="q", idx="1", vec="[1, 2]"),
        ex("k_1 (Thinking) = [1, 2]", role="k", idx="1", tok="Thinking"),
        ex("v_它=[0.5, 1]", role="v", idx="它"),
    ),
    ("Q_1 = [1, 2]", "seq_1 = [1, 2]", "q_1 = 2"),
)
W_DEFINITION: Final = pattern(
    "w-definition",
    rf"(?<![A-Za-z])W\s*[_^]?\s*(?P<role>[QKV])(?![A-Za-z])\s*[=:]?\s*(?P<mat>{MATRIX_TEXT})",
    "a weight matrix: ``WQ [[…]]``, ``W_Q = [[…]]``, ``W^Q: [[…]]``",
    (
        ex("W_Q = [[1, 0], [0, 1]]", role="Q", mat="[[1, 0], [0, 1]]"),
        ex("WK [[1]]", role="K"),
        ex("W^V: [[2, 3]]", role="V"),
    ),
    ("W_Query = [[1]]", "W_Q = [1, 2]"),
)
W_HEADER: Final = pattern(
    "w-header",
    r"^W\s*[_^]?\s*(?P<role>[QKV])$",
    "the heading of a weight matrix written as rows below it",
    (ex("W_Q", role="Q"), ex("W^K", role="K"), ex("WV", role="V")),
    ("W_Q = 1", "w_q"),
)
X_HEADER: Final = pattern(
    "x-header",
    r"(?i)^(?:x|embeddings?\b.*|.*embedding.*x.*|.*向量\s*x.*|嵌入.*)$",
    "the heading of a table's column of embeddings",
    ("x", "Embedding", "embedding x", "词向量 x", "嵌入向量"),
    ("token", "q"),
)
#: words naming the Q, K, V columns of a table
QKV_HEADERS: Final[tuple[Word, ...]] = (
    Word("q", "Q"),
    Word("k", "K"),
    Word("v", "V"),
    Word("query", "Q"),
    Word("key", "K"),
    Word("value", "V"),
)
#: LaTeX rules between table rows (``\\hline``: after ``\\`` is blanked out)
TABLE_RULES: Final[tuple[Word, ...]] = tuple(
    Word(w, "a LaTeX rule between table rows")
    for w in ("hline", "toprule", "midrule", "bottomrule", "cline")
)
#: characters blanked out of a line before it is scanned
MARKUP: Final = Chars("markup", frozenset("${}\\"), "math and LaTeX markup", "${}\\", "[]()|&")
CELL_GAP: Final = pattern(
    "cell-gap",
    r"\t+|\s{2,}",
    "what separates the cells of a plain table row: tabs or two or more spaces",
    ("a\tb", "a  b"),
    ("a b",),
)

# --------------------------------------------------------------------------- Level 2: claims

#: labels of chains (braces dropped): what the chain's value states
LABEL_RULES: Final[tuple[Pattern, ...]] = (
    pattern(
        "label-score-of",
        r"(?i)^(?:score|scores|s|分数|得分|相似度)\((?P<row>[^,()]+),(?P<col>[^,()]+)\)$",
        "one score, named by its query and key",
        (ex("score(它,动物)", row="它", col="动物"), ex("S(Thinking,Machines)", row="Thinking")),
        ("score(它)",),
        kind="scores",
    ),
    pattern(
        "label-q-dot-k",
        r"(?i)^q_(?P<row>\w+)\s*[·*×]?\s*k_(?P<col>\w+)$",
        "one score as a dot product of a query and a key",
        (ex("q_1 · k_2", row="1", col="2"), ex("q_1k_1", row="1", col="1")),
        ("q_1 + k_2",),
        kind="scores",
    ),
    pattern(
        "label-sum",
        r"(?i)^(?:sum|总和|求和|和|分母|denominator)$",
        "the sum of the exponentials",
        ("sum", "总和", "分母", "Denominator"),
        ("summary",),
        kind="sum",
    ),
    pattern(
        "label-weights",
        r"(?i)^(?:softmax|attention weights?|weights?|权重|注意力权重|α|alpha)(?:\s*归一化)?"
        r"(?:_(?P<row>\S+))?$",
        "the weights of a query row",
        ("softmax", "attention weights", "权重归一化", ex("α_它", row="它")),
        ("weighted",),
        kind="weights",
    ),
    pattern(
        "label-output",
        r"(?i)^(?:attention output|output|输出|注意力输出|out)(?:_(?P<row>\S+))?$",
        "the output of a query row",
        ("output", "注意力输出", ex("output_它", row="它"), "Out"),
        ("outputs",),
        kind="output",
    ),
)
EXP_FIRST: Final = pattern(
    "exp-first",
    rf"^(?:e\s*\^\s*\(?\s*(?P<a>{NUMBER_TEXT})\s*\)?|exp\s*\(\s*(?P<b>{NUMBER_TEXT})\s*\))$",
    "a chain that starts with one exponential: its value is an exponential of the row",
    (ex("e^2.5", a="2.5"), ex("e^(0.5)", a="0.5"), ex("exp(1)", b="1")),
    ("e^x", "2e^1"),
)
SQRT_DK: Final = pattern(
    "sqrt-dk",
    r"^(?:\\sqrt|sqrt|√)\s*\(?\s*d_k\s*\)?$",
    "a chain that starts with the root of d_k: its value is the divisor",
    ("\\sqrt d_k", "sqrt(d_k)", "√d_k"),
    ("\\sqrt 2", "d_k"),
)
SCORE_FIRST: Final = pattern(
    "score-first",
    r"^q_(?P<row>\w+)\s*[·*×]\s*k_(?P<col>\w+)$",
    "a chain that starts with a dot product of a query and a key: its value is a score",
    (ex("q_1 · k_2", row="1", col="2"), ex("q_it×k_an", row="it")),
    ("q_1k_2", "Q_1 · K_2"),
)
SCALED_FIRST: Final = pattern(
    "scaled-first",
    rf"^{VECTOR_TEXT}\s*[÷/]\s*\S.{{0,40}}$",
    "``[5, 2] ÷ 2``: the scores divided by the scale, so the value is the scaled scores",
    ("[5, 2] ÷ 2", "[5, 2]/√2"),
    ("[5, 2] * 2", "5 ÷ 2"),
)
WEIGHT_LINE: Final = pattern(
    "weight-line",
    rf"(?<![A-Za-z])w\s*_\s*(?P<idx>[^\s=()\[\],:：]{{1,24}})\s*(?:\([^()=]{{1,40}}\)\s*)?"
    rf"(?:[:：]|(?=[=≈]))[^\n]{{0,200}}?[=≈]\s*(?P<num>{NUMBER_TEXT})\s*[.。]?\s*$",
    "one weight, named by its key: ``w_1 (对自己): 12.18 / 14.89 ≈ 0.82``, ``w_{2} = … ≈ 0.1070``",
    (
        ex("w_1 (对自己): 12.18 / 14.89 ≈ 0.82", idx="1", num="0.82"),
        ex("w_ 2 = 0.11.", idx="2", num="0.11"),
    ),
    ("w_1 is large", "raw_1 = 0.5"),
)
#: prose that states weights or an output without an equation sign
PROSE_RULES: Final[tuple[Pattern, ...]] = (
    pattern(
        "prose-weights",
        rf"(?i)(?:注意力权重|权重|attention weights?|weights)[^\[\d\n]{{0,8}}"
        rf"(?P<vec>{VECTOR_TEXT})",
        "a sentence stating the weights of a row",
        (
            ex("注意力权重： [0.5, 0.5]", vec="[0.5, 0.5]"),
            ex("the weights are [1, 0]", vec="[1, 0]"),
        ),
        ("weights of the model [1, 2]",),
        kind="weights",
    ),
    pattern(
        "prose-weight",
        rf"(?i)(?:权重|weight)\s*(?:是|为|of|=|:)?\s*(?P<num>{NUMBER_TEXT})",
        "a sentence stating one weight",
        (ex("权重为 0.79", num="0.79"), ex("weight of 0.5", num="0.5")),
        ("weight matrix",),
        kind="weight",
    ),
    pattern(
        "prose-output",
        rf"(?i)(?:注意力输出|输出|新向量|attention output|output(?: vector)?)[^\[\d\n]{{0,12}}"
        rf"(?P<vec>{VECTOR_TEXT})",
        "a sentence stating the output of a row",
        (ex("输出 [9.68, 42.98]", vec="[9.68, 42.98]"), ex("the output vector is [1, 2]")),
        ("output layer",),
        kind="output",
    ),
)

# --------------------------------------------------------------------------- lookups

#: every pattern row (tested one by one)
PATTERNS: Final[tuple[Pattern, ...]] = (
    BRACED_SUBSCRIPT,
    DISPLAY_MATH,
    INLINE_MATH,
    ENV_COMMAND,
    LATEX_ROW_BREAK,
    RELATION,
    DIGIT,
    CODE_LINE,
    LIST_MARKER,
    PROSE_WORD,
    FENCED_CODE,
    RESULT_LABEL,
    EXPRESSION_LINE,
    PROSE_SENTENCE,
    TAIL_SYMBOL,
    SUBSCRIPT_INDEX,
    SENTENCE_END,
    WORD_AFTER,
    NUMBER,
    VECTOR,
    VECTOR_DEFINITION,
    W_DEFINITION,
    W_HEADER,
    X_HEADER,
    CELL_GAP,
    *LABEL_RULES,
    EXP_FIRST,
    SQRT_DK,
    SCORE_FIRST,
    SCALED_FIRST,
    WEIGHT_LINE,
    *PROSE_RULES,
)

#: the grammar's spelling of each written form
SPELLING_OF: Final[Mapping[str, str]] = MappingProxyType({s.written: s.grammar for s in SPELLINGS})
#: the operation (``*`` or ``/``) of each multiplication sign
MULTIPLY_OP: Final[Mapping[str, str]] = MappingProxyType(
    {s.written: s.grammar for s in MULTIPLY_SIGNS}
)
#: the names of the functions
FUNCTION_NAMES: Final = frozenset(w.text for w in FUNCTIONS)
#: the role (Q, K, V) of each table heading word
QKV_HEADER: Final[Mapping[str, str]] = MappingProxyType({w.text: w.means for w in QKV_HEADERS})
#: the names of the LaTeX table rules
TABLE_RULE_NAMES: Final = frozenset(w.text for w in TABLE_RULES)
