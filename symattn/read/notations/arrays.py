"""Arrays outside LaTeX: printed tensors and arrays, the calls that make or combine arrays in
code, elisions, special entries, names of rows (and LaTeX's columns of row labels).

One row each, with the examples it must recognise; ``tests/read/notations/test_arrays.py`` checks
every row.
"""

from __future__ import annotations

from typing import Final

from symattn.read.rows import Apply, ex, pattern, words

__all__ = [
    "ARRAY_CALLS",
    "ARRAY_WRAPPER",
    "CAUSAL_CALLS",
    "ELISION",
    "MATRIX_SPACE",
    "EXP_CALLS",
    "MATMUL_CALLS",
    "NEG_INFINITY",
    "NOTEBOOK_PROMPT",
    "PLACEHOLDER_CELL",
    "PRINT_NOISE",
    "PROJECTION_NAMES",
    "ROW_LABEL",
    "ROW_LABEL_COLUMN",
    "ROW_NAME",
    "SHAPE_WRAPPER",
    "SIDE_BY_SIDE",
    "SOFTMAX_CALLS",
    "SPECIAL_ENTRY",
    "SQRT_CALLS",
    "TRANSPOSE_CALLS",
]

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

PLACEHOLDER_CELL: Final = words(
    "placeholder-cell",
    "a table cell that stands for an entry not written (``·``, ``—``, ``…``): an entry not "
    "shown, never a number and never a wrong one",
    *("·", "⋅", "—", "–", "-", "…", "...", "⋯", "?", "/", "n/a", "N/A"),
    counterexamples=("0", "-inf", "x"),
)

NEG_INFINITY: Final = words(
    "negative-infinity",
    "an entry that is minus infinity, a masked score (``-inf``, ``-∞``, ``-\\infty``): its key "
    "gets weight 0",
    "-inf",
    "-infinity",
    "-torch.inf",
    "-np.inf",
    "-math.inf",
    "-∞",
    "−∞",
    "-\\infty",
    "−\\infty",
    counterexamples=("inf", "∞", "nan", "-x"),
)

SPECIAL_ENTRY: Final = words(
    "special-entry",
    "array entries that are not finite numbers (a masked score is ``-inf``)",
    *NEG_INFINITY.words,
    "inf",
    "∞",
    "nan",
    counterexamples=("x", "tensor"),
)

PRINT_NOISE: Final = pattern(
    "print-noise",
    r"\bprint\s*\(|\bf?[\"']|[\"']\s*,|\\n|\)\s*$|^\s*[>#]+\s*",
    'what is not a label in the text before a printed array (``print("…",``, quotes, ``\\n``)',
    ('print("Attention weights:", ', 'f"W_q: \\n'),
    ("Attention weights",),
)

NOTEBOOK_PROMPT: Final = pattern(
    "notebook-prompt",
    r"\b(?:In|Out)\s?\[\s*\d*\s*\]:",
    "a notebook's cell prompt pasted with its cells (``In [16]:``, ``Out[3]:``): a label, "
    "not an array",
    ("In [16]:", "Out[3]:", "In [ ]:"),
    ("In [1, 2]", "x[0]: 1", "Inside [3]:"),
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
    how=Apply.FULLMATCH,
)

#: LaTeX spacing that may stand between a matrix and the column of labels beside it
_SPACE: Final = r"(?:\s|\\[,;:!]|\\q?quad(?![A-Za-z]))*"
#: an arrow that points from a label to its row (or from its row to it)
_ARROW: Final = (
    r"(?:\\(?:leftarrow|longleftarrow|gets|rightarrow|longrightarrow|to|mapsto)(?![A-Za-z])"
    r"|←|→|⟵|⟶)"
)
#: one label: a word in ``\text{…}`` (a letter at least: ``\text{0.5}`` is a number)
_WORD: Final = (
    r"\\(?:text|mathrm|textrm|textit|texttt|textbf|mathbf)\s*"
    r"\{(?P<name>(?=[^{}]*[^\W\d_])[^{}]{1,40})\}"
)
_LABEL_ROW: Final = rf"{_SPACE}(?:{_ARROW}{_SPACE})?{_WORD}{_SPACE}(?:{_ARROW}{_SPACE})?"

MATRIX_SPACE: Final = pattern(
    "matrix-space",
    _SPACE,
    "what may stand between a matrix and the column of labels beside it (spaces, ``\\,``, "
    "``\\quad``)",
    ("", " ", " \\quad ", "\\,"),
    ("\\text{a}", "\\quadrant", ","),
    how=Apply.FULLMATCH,
)

ROW_LABEL: Final = pattern(
    "row-label",
    _LABEL_ROW,
    "one row of a column of row labels: a word, perhaps with an arrow (``\\leftarrow "
    '\\text{"The"}``, ``\\text{动物}``)',
    (
        ex('\\leftarrow \\text{"The"}', name='"The"'),
        ex("\\text{动物}", name="动物"),
        ex("\\text{token 1} \\to", name="token 1"),
    ),
    ("\\text{0.5}", "q_1", "1", "\\leftarrow"),
    how=Apply.FULLMATCH,
)

ROW_LABEL_COLUMN: Final = pattern(
    "row-label-column",
    r"\\begin\s*\{(?P<env>array|matrix|smallmatrix)\}(?:\s*\{[^{}]{0,20}\})?"
    rf"(?P<body>{_LABEL_ROW.replace('(?P<name>', '(?:')}"
    rf"(?:\\\\{_LABEL_ROW.replace('(?P<name>', '(?:')})*(?:\\\\{_SPACE})?)"
    r"\\end\s*\{(?P=env)\}",
    "a matrix environment whose rows are words only (``\\begin{array}{r}\\text{动物} \\\\ "
    '\\text{马路}\\end{array}``, ``\\begin{matrix} \\leftarrow \\text{"The"} \\\\ …'
    "\\end{matrix}``): beside a matrix of as many rows, the names of its rows, no value",
    (
        ex(
            '\\begin{matrix} \\leftarrow \\text{"The"} \\\\ \\leftarrow \\text{"river"} '
            "\\end{matrix}",
            env="matrix",
        ),
        ex(
            "\\begin{array}{r}\\text{I} \\\\ \\text{am} \\\\ \\text{happy}\\end{array}", env="array"
        ),
        "\\begin{matrix}\\text{cat} \\\\ \\text{dog} \\\\ \\end{matrix}",
    ),
    (
        "\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}",
        "\\begin{matrix} a & b \\end{matrix}",
        "\\begin{matrix} q_1 \\\\ q_2 \\end{matrix}",
        "\\begin{array}{c} \\text{x} 1 \\end{array}",
        "\\begin{matrix} \\text{1} \\\\ \\text{2} \\end{matrix}",
        "\\begin{bmatrix} \\text{a} \\\\ \\text{b} \\end{bmatrix}",
    ),
)
