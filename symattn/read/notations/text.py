"""The text around the math: invisible characters, environments, code fences, list markers,
markdown marks, where one formula ends and the next begins.

One row each, with the examples it must recognise; ``tests/read/notations/test_text.py`` checks
every row.
"""

from __future__ import annotations

import re
from typing import Final

from symattn.read.rows import Apply, Chars, Word, ex, pattern, words

__all__ = [
    "EXPRESSION_LINE",
    "NAMED_EXPRESSION_LINE",
    "RESULT_LABEL",
    "CODE_ENVIRONMENTS",
    "CODE_LINE",
    "COMMENT_MARKER",
    "ANNOTATION_LINK",
    "DIGIT",
    "ECHOED_NAME",
    "EXPRESSION_START",
    "HEAD_LABEL",
    "PROJECTION_LINK",
    "CASE_COLON",
    "FORMULA_BREAK",
    "INLINE_JOIN",
    "INVISIBLE",
    "LANGUAGE",
    "LIST_MARKER",
    "MARKDOWN_MARKUP",
    "MATH_ENVIRONMENTS",
    "MATRIX_ENVIRONMENTS",
    "NEW_DEFINITION",
    "PROSE_END",
    "PROSE_RELATION_END",
    "PROSE_SENTENCE",
    "PROSE_WORD",
    "RELATION",
    "SENTENCE_END",
    "SUBSCRIPT_INDEX",
    "TABLE_ENVIRONMENTS",
    "VALUE_WRITTEN",
    "TABLE_RULES",
    "TABLE_RULE_NAMES",
    "INDEX_NOTE",
    "LABEL_COPULA",
    "LIST_SEPARATOR",
    "NOTE_START",
    "SHAPE_NOTE",
    "TAIL_NOTE",
    "TAIL_SYMBOL",
    "TEXT_FENCES",
    "MATH_FENCES",
    "WORD_AFTER",
]

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

#: code-fence info strings that say the block is math (``` ```math ```, ``` ```latex ``` around an
#: ``align*``): its content is read as display math
MATH_FENCES: Final = words(
    "math-fences",
    "fence info strings of math: the block is a formula (GitHub renders ```math; notes put "
    "LaTeX equations in ```latex)",
    "math",
    "latex",
    "tex",
    "katex",
    counterexamples=("python", "text", "mermaid"),
)

#: code-fence info strings that say the block is text, not a program (``` ```text ```)
TEXT_FENCES: Final = words(
    "text-fences",
    "fence info strings that declare plain text: the block's words are no code, and what "
    "follows it was not printed by it",
    "text",
    "txt",
    "plain",
    "plaintext",
    counterexamples=("python", "py", "console"),
)

LANGUAGE: Final = pattern(
    "language",
    r"[A-Za-z][\w+#.-]{0,30}(?:\s+\{.*\})?",
    "the info string of a code fence that names a language (else it is content)",
    ("python", "plaintext", "raw", "c++", "python {.line-numbers}"),
    ("input = [", "x = 1"),
    how=Apply.FULLMATCH,
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

CASE_COLON: Final = Chars(
    "case-colon",
    frozenset(":："),
    "a colon after a formula that names a case, before the formula of that case "
    '(``j=1 ("I"): (-0.5×0.3 + 1.2×(-0.8)) / 1.414 = -0.78``, ``i = 1：q_1 = [1, 0]``): '
    "two formulas when the formula before it is complete and one follows",
    ":：",
    "=;,",
)

NEW_DEFINITION: Final = pattern(
    "new-definition",
    r"\s+(?:(?:[A-Za-z]{2,}|[\u4e00-\u9fff]+)[,，]?\s+){0,6}"
    r"(?P<name>(?:[A-Za-z]+\d{0,3}|[\u4e00-\u9fff]+)(?:_(?:\{[^{}]{0,20}\}|[A-Za-z0-9]+))?'*)"
    r"\s*[=≈]",
    "after a complete value, ``NAME =`` starts the next formula on the same line, also after "
    "a few words (``q = (1, 0) and the keys are k_1 = (1, 0)``)",
    (
        ex(" V = [[1,2]]", name="V"),
        ex(" d_k = 2", name="d_k"),
        ex(" r_{1,2} = h", name="r_{1,2}"),
        ex(" and the keys are k_1 = (1, 0)", name="k_1"),
        ex("    k1 = [1, 0]", name="k1"),
    ),
    (" + x", " V", " x y = 3"),
    how=Apply.MATCH,
)

INLINE_JOIN: Final = pattern(
    "inline-join",
    r"\s*(?:[(（](?P<token>[^()（）$=]{1,40})[)）])?\s*[:：]?\s*",
    "what may stand between ``$k_1$`` and ``$= [1, 2]$`` for the two to be one formula: "
    "nothing, or a token name in parentheses",
    (" (Thinking) ", "", "（动物）"),
    ("，总和 ",),
    how=Apply.FULLMATCH,
)

PROSE_RELATION_END: Final = pattern(
    "prose-relation-end",
    r"\s*(?P<left>(?![.!?;:,]\s)[^\s。！？；：，$](?:(?![.!?;:,]\s)[^。！？；：，$\n])*?(?:=|≈|约等于|≒|≃))\s*$",
    "prose that ends with a relation just before a piece of inline math holding one matrix: "
    "the prose's last clause is the formula's left side, the matrix its right side (``Q = "
    "$\\begin{pmatrix}…\\end{pmatrix}$``)",
    (
        ex("Q = ", left="Q ="),
        ex("α ≈ softmax ≈ ", left="α ≈ softmax ≈"),
        ex("Scaled = Scores / √2 ≈", left="Scaled = Scores / √2 ≈"),
        ex("假设输入为 X，Q = ", left="Q ="),
        ex("In the end, we get S = ", left="we get S ="),
    ),
    ("其中 ", "Q = K，", "= ", "x = 1, so "),
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

COMMENT_MARKER: Final = pattern(
    "comment-marker",
    r"^\s*#+\s*",
    "the ``#`` that starts a comment line of a code block (not part of the math the comment "
    "writes: ``#   softmax([8, -4, -4]) ≈ [0.996, 0.002, 0.002]``)",
    ("# x = 1", "    #   softmax([1, 2]) ≈ [0.27, 0.73]", "## e ≈ 2.718"),
    ("x = 1", "x = 1  # a note", "e^1 ≈ 2.718"),
    how=Apply.MATCH,
)

ANNOTATION_LINK: Final = pattern(
    "annotation-link",
    r"[^\d()\[\]{}*/+^√·×÷@=≈-]*|[\s\d.,+\-\[\]()]+",
    "a side of a relation that computes nothing: words or a name (no digit, no operator), or "
    "a literal; a code comment whose every side is one (``# shape=(2,6,2)``, ``# the output "
    "size, d=2``) annotates the code beside it",
    ("d", "shape", "the output size, d", "(2, 6, 2)", "3", "[0.5, -0.5]", "d_k"),
    ("softmax([8, -4, -4])", "0.996 * (1-0.996)", "sqrt(d_k)", "8/2", "W_1"),
    how=Apply.FULLMATCH,
)

LIST_MARKER: Final = pattern(
    "list-marker",
    r"^\s*(?:[•·*+\-–]\s+|\d{1,3}[.)]\s+|\d{1,3}、\s*|[（(]\d{1,3}[)）]\s*)",
    "a list marker at the start of a line (not part of the math); a number right after "
    "``1.`` is arithmetic, not a marker",
    ("• e^1 ≈ 2.718", "3. 总和", "  - x = 1", "（2）x = 1", "1、x = 1"),
    ("x = 1", "e^1 = 2.718", "1.15/1.414≈0.813"),
    how=Apply.MATCH,
)

PROSE_WORD: Final = pattern(
    "prose-word",
    r"([^\s$:：，,。；;]+)\s*$",
    "the word right before inline math (``总和 $= …$``)",
    (ex("3. 总和 ", **{"1": "总和"}), ex("the sum ", **{"1": "sum"})),
    (": ",),
)

RESULT_LABEL: Final = pattern(
    "result-label",
    r"^\s*(?:乘积|计算|相乘|点积)?结果\s*$|^\s*(?:the\s+)?(?:product\s+|final\s+)?result\s*$",
    "a label naming the result of the arithmetic on the line before (``乘积结果=[…]``)",
    ("乘积结果", "结果", "result", "The result", "the final result"),
    ("total", "results"),
    flags=re.I,
    how=Apply.FULLMATCH,
)
ECHOED_NAME: Final = pattern(
    "echoed-name",
    r"(?:(?:In\s*\[\s*\d*\s*\]\s*:|>>>)\s*)?(?P<name>(?!(?i:out(?:put)?|results?|answer)\b)"
    r"[A-Za-z_][A-Za-z0-9_]*)",
    "the last line above a printout holding only a name: a notebook cell or a console echoing "
    "a variable (``In [16]: scaled_scores``, ``>>> attn_weights``) names the array printed "
    "below it, whatever the lines above it say",
    (
        ex("scaled_scores", name="scaled_scores"),
        ex("In [16]: scaled_scores", name="scaled_scores"),
        ex(">>> attn_weights", name="attn_weights"),
        ex("V", name="V"),
    ),
    ("Output", "Dot product scores:", "print(scores)", "x = 1", "the weights"),
    how=Apply.FULLMATCH,
)
HEAD_LABEL: Final = pattern(
    "head-label",
    r"(?:^|[\s*(（>|])(?:(?:头|[Hh]ead)\s*(?P<head>\d+)|第\s*(?P<nth>\d+)\s*个?头)\s*[:：]",
    "a label opening the part of a line (and the lines after it) that computes one attention "
    "head (``头 2:``, ``Head 1:``, ``第 2 个头：``): a name given again under another head is "
    "that head's own, not a second value",
    (
        ex("头 1: $S_{2,1}=0$", head="1"),
        ex("**第 2 步.** 头 2: $S_{2,1}=1$", head="2"),
        ex("Head 2: the scores are", head="2"),
        ex("- 第 2 个头：", nth="2"),
    ),
    ("头部: x", "heading 2: x", "the head 2 output", "头 2 的输出", "ahead 2: x"),
    flags=re.M,
)
PROJECTION_LINK: Final = pattern(
    "projection-link",
    r"^\s*(?:\\mathbf\s*\{\s*)?[Xx](?:_\{?[\w,]+\}?)?\s*\}?\s*(?:\\cdot|\\times|·|×|\*|@)?\s*"
    r"(?:\\mathbf\s*\{\s*)?W",
    "a link of a chain that multiplies the input by a projection matrix: the array written "
    "after it is computed (a claim, ``x · W``) even under an input's name "
    "(``Q = XW_Q = [[1, 2], [4, 3]]``)",
    ("XW_Q", "X W^Q", "x_2W_Q^{(1)}", "X \\cdot W_Q", "\\mathbf{X}\\mathbf{W}_1^Q", "XW_1^K"),
    ("W_Q", "X", "Q", "W_Q X", "softmax(QK^T)", "x_1", "XX^T"),
)
EXPRESSION_LINE: Final = pattern(
    "expression-line",
    r"^[\s\[\]()0-9.,+\-*×·÷/^]*[*×·÷/][\s\[\]()0-9.,+\-*×·÷/^]*$",
    "a line holding only arithmetic with a product or quotient: a result line after it may "
    "claim its value",
    ("[0.55, 0.20]*[[1, 0], [0, 1]]", "1.15/1.414"),
    ("x * 2", "some prose", "[1, 2]"),
    how=Apply.FULLMATCH,
)

NAMED_EXPRESSION_LINE: Final = pattern(
    "named-expression-line",
    r"(?=[^\n]*\d)(?=[^\n]*[*×·÷/])[\s\w.,+\-*×·÷/^\[\]()]*",
    "a line of arithmetic that may name its vectors (``0.665 * v0 + 0.245 * v1``), no relation "
    "in it: a line right under it that starts with ``=`` claims its value",
    ("0.665 * v0 + 0.245 * v1 + 0.090 * v2", "1.15/1.414", "[0.5, 0.5] * V"),
    ("x = 0.5 * 2", "some prose", "[1, 2]", "v0 + v1"),
    how=Apply.FULLMATCH,
)

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

VALUE_WRITTEN: Final = pattern(
    "value-written",
    r"[\[(][^\[\]()]*\d[^\[\]()]*[\])]",
    "a value in brackets (numbers inside ``[…]`` or ``(…)``): math, so never words dropped "
    "before an expression (``[1, 0, 2] x [1, 4, 3]``: the second vector is an operand, not "
    "the formula)",
    ("[1, 0, 2] x", "(0.5, 1) times", "softmax([1, 2]) is"),
    ("Step 2: Scores become", "softmax(x) is", "We assume that d_k", "第 2 步：分数为"),
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
    r"(?P<sym>[A-Za-z][A-Za-z0-9]*_\{?[A-Za-z0-9]{1,8}\}?|(?<![A-Za-z])[B-Zb-z])\s*$",
    "prose, then the symbol the chain defines (``We assume that d_k``, ``假设 d_k``, ``The "
    "query is q``; a one-letter symbol is never the word ``a``)",
    (
        ex("We assume that d_k", sym="d_k"),
        ex("假设 d_k", sym="d_k"),
        ex("设维度 d_{k}", sym="d_{k}"),
        ex("The query is q", sym="q"),
        ex("查询向量 q", sym="q"),
    ),
    ("d_k", "The weight is a", "the sum"),
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
    how=Apply.MATCH,
)

TAIL_NOTE: Final = pattern(
    "tail-note",
    r"\s+\{?\s*[(\uff08]\s*\{?\s*[\u201c\u2018\x22']?"
    r"(?:[A-Za-z][A-Za-z \-']*[A-Za-z]|[\u4e00-\u9fff]+)"
    r"[\u201d\u2019\x22']?\s*\}?\s*[)\uff09]\s*\}?\s*$"
    r"|\s+\{\s*[\u201c\u2018\x22']?(?:[A-Za-z]{2,}|[\u4e00-\u9fff]+)[\u201d\u2019\x22']?\s*\}\s*$",
    "words in parentheses (or braces, from ``\\text{…}``) after the value: a note naming "
    "the token it is about (``≈ 87% \\quad \\text{(animal)}``), not part of the math",
    (
        "{33%}   {(animal)}",
        "0.5 (animal)",
        "[0.43, 0.15]   ({\u201cYour\u201d})",
        "0.3 \uff08\u52a8\u7269\uff09",
        "0.9 {street}",
    ),
    ("0.5 (x)", "softmax(x)", "2 (3)", "0.5 {x}", "(animal) 0.5"),
)


WORD_AFTER: Final = pattern(
    "word-after",
    r"\s+[A-Za-z\u4e00-\u9fff]{2,}",
    "a word after the last number ends the math (``= 2 here.``)",
    ("2 here.", "0.82 即可"),
    ("2", "2 x"),
)

#: LaTeX rules between table rows (``\\hline``: after ``\\`` is blanked out)
TABLE_RULES: Final[tuple[Word, ...]] = tuple(
    Word(w, "a LaTeX rule between table rows")
    for w in ("hline", "toprule", "midrule", "bottomrule", "cline")
)

#: the names of the LaTeX table rules
TABLE_RULE_NAMES: Final = frozenset(w.text for w in TABLE_RULES)


# A value may be followed by a note (rule: read/notes.py): words, marks and symbols that hold
# no number, or whose numbers are a shape or an index. These rows say what a note is.

SHAPE_NOTE: Final = pattern(
    "shape-note",
    r"(?:\b(?:shape|size|Size|dims?)\b(?:\s+(?:is|of))?|(?:形状|维度|大小)(?:\s*[为是])?)"
    r"\s*[:：=]?\s*(?:torch\.Size\s*\(\s*)?"
    r"[\[(（]\s*\d{1,6}(?:\s*[,，×xX*]\s*\d{1,6})*\s*[\])）]\)?"
    r"|_\s*\{\s*\(?\s*\d{1,6}(?:\s*(?:×|\\times|[xX*])\s*\d{1,6})+\s*\)?\s*\}"
    r"|[\[(（]\s*\d{1,6}(?:\s*(?:×|\\times|[xX*])\s*\d{1,6})+\s*[\])）]"
    r"|(?<![\d.])\d{1,6}(?:\s*(?:×|\\times)\s*\d{1,6})+(?![\d.])",
    "the size of an array written beside it (``shape: [3, 3]``, ``_{2\\times 2}``, "
    "``(2 × 3)``, ``（5×4）``, ``torch.Size([2, 4])``): sizes, not values",
    (
        "shape: [3, 3]",
        "_{2× 2}",
        "_{2\\times 2}",
        "(2 × 3)",
        "（5×4）",
        "shape=(2, 4)",
        "2×3",
        "形状 [2, 3]",
        "形状为 [6]",
        "shape is (3, 2)",
        "size torch.Size([2, 4])",
    ),
    ("[0.5, 0.5]", "(0.5 × 2)", "2.5 × 3", "(2, 3)", "x_{2}", "S_{2,1}"),
)

INDEX_NOTE: Final = pattern(
    "index-note",
    r"(?:\b[A-Za-z]{2,}|[\u4e00-\u9fff]|#)\s*\d{1,4}(?![\d.])",
    "a number that says which one in a note (``token 1``, ``第 2 行``, ``#3``): an index",
    ("← token 1 的 query", "第 2 行", "#3", "row 2"),
    ("0.5", "x 2", "2 tokens"),
)

NOTE_START: Final = pattern(
    "note-start",
    r"\s*(?:[(（\[{#%←⟵⇐✅✓✔☑❌✗✘⚠!！。.,，;；:：\u201c\u2018\x22'<]|"
    r"[\u4e00-\u9fff]|\\(?:quad|qquad|text|tag|[,;:! ])|(?<=\s)[A-Za-z]{2,}\b)",
    "how a note after a value starts: a bracket, a mark (``←``, ``#``, ``✅``), punctuation "
    "(a sentence's final period), CJK, ``\\quad``/``\\text``, or a word; never an operator or "
    "a relation (then the value goes on)",
    ("  ← token 1", " ✅", ".", '（"吃"的 Query）', "  # 平滑分布", " \\quad x", " here"),
    (" + 0.5", " = 1", " x", "^2", " \\ln 2", " - 1", "end{bmatrix}"),
    how=Apply.MATCH,
)

LIST_SEPARATOR: Final = pattern(
    "list-separator",
    r"\s*(?:[,，、;；]\s*(?:and\s+|和|及)?|and|和|及|与|以及)\s*",
    "what stands between vectors listed in one sentence after one label (``Keys are [1, 0], "
    "[0, 1] and [1, 1]``, ``键为 [1, 0]、[0, 1]``): they are the rows of one matrix",
    (", ", " and ", "、", ", and ", "和"),
    (" → ", " + ", " k = ", " x "),
    how=Apply.FULLMATCH,
)

LABEL_COPULA: Final = pattern(
    "label-copula",
    r"(?:(?:and|And|the|The|以及|和|而)\s*)*(?P<name>.+?)\s*"
    r"(?:\s(?:are|is|were|was|become|becomes|equals?)|分别为|分别是|为|是)",
    "a label that is a sentence's subject and its verb (``Keys are``, ``and values are``, "
    "``键分别为``): the name is the subject",
    (
        ex("Keys are", name="Keys"),
        ex("and values are", name="values"),
        ex("The weights are", name="weights"),
        ex("键分别为", name="键"),
    ),
    ("Keys", "Attention weights", "are"),
    how=Apply.FULLMATCH,
)
