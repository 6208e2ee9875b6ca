"""The safe arithmetic grammar: spellings, tokens, multiplication signs, functions.

One row each, with the examples it must recognise; ``tests/read/notations/test_grammar.py`` checks
every row.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from symattn.read.rows import Apply, Spelling, TokenRule, Word, ex, pattern, words

__all__ = [
    "FRAC_DIGITS",
    "SUBSCRIPT_OF",
    "UNICODE_SUBSCRIPT",
    "TUPLE_OPEN",
    "NUMERAL",
    "NUMERAL_TEXT",
    "BRACED_SUBSCRIPT",
    "CJK",
    "FUNCTIONS",
    "FUNCTION_NAMES",
    "GREEK_LETTERS",
    "GREEK_NAMES",
    "VECTOR_FUNCTIONS",
    "MULTIPLY_OP",
    "MULTIPLY_SIGNS",
    "SPELLINGS",
    "SPELLING_OF",
    "STEP_SIGNS",
    "TEXT_NAME",
    "WORD_TIMES",
    "TOKEN_RULES",
]

#: a step from one stage to the next (``[0.95, …] \\to softmax``), or a consequence drawn from
#: a formula (``d_k = 2 \\implies \\sqrt{d_k} = \\sqrt{2} ≈ 1.414``, ``\\therefore``): no
#: equality, so the chain before it ends there (its name keeps the value it was given before
#: the sign) and what follows is a chain of its own (:func:`symattn.read.level1.judge_chains`)
STEP_SIGNS: Final[tuple[Spelling, ...]] = tuple(
    Spelling(w, "→")
    for w in (
        "\\rightarrow",
        "\\longrightarrow",
        "\\Rightarrow",
        "\\Longrightarrow",
        "\\implies",
        "\\therefore",
        "\\to",
        "\\mapsto",
        "⟶",
        "⇒",
        "⟹",
        "∴",
        "->",
    )
)

#: Greek letters written as names (``\\alpha_1``, ``α_1``, ``\\beta``): the LaTeX command and
#: the unicode letter, both read as the letter's name (``alpha_1``); π is a constant, not a
#: name, and is not among them
GREEK_LETTERS: Final[tuple[tuple[str, str], ...]] = (
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("varepsilon", "ϵ"),
    ("zeta", "ζ"),
    ("eta", "η"),
    ("theta", "θ"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("nu", "ν"),
    ("xi", "ξ"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("tau", "τ"),
    ("phi", "φ"),
    ("varphi", "ϕ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Sigma", "Σ"),
    ("Phi", "Φ"),
    ("Psi", "Ψ"),
    ("Omega", "Ω"),
)

#: the names of the Greek letters (their commands match only as whole commands)
GREEK_NAMES: Final = frozenset(name for name, _ in GREEK_LETTERS)

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
    Spelling("\\ln", "ln"),
    Spelling("\\log", "log"),
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
    *(
        Spelling(w, "^T")
        for w in ("^{T}", "^\\top", "^{\\top}", "^\\intercal", "^{\\intercal}", "ᵀ")
    ),
    Spelling("^{\\mathsf{T}}", "^T"),
    Spelling("\\%", "%"),
    # a row break stays one (so that ``\\ 1`` is not read as ``\`` and a spaced ``\ ``)
    Spelling("\\\\", "\\\\"),
    *(
        Spelling(f"\\{cmd}{{{fn}}}", fn.lower())
        for cmd in ("text", "mathrm", "operatorname")
        for fn in ("softmax", "Softmax", "exp", "sum", "ln", "log")
    ),
    *(Spelling(f"\\{name}", name) for name, _ in GREEK_LETTERS),
    *(Spelling(letter, name) for name, letter in GREEK_LETTERS),
    Spelling("\\odot", "⊙"),
    # a step from one stage to the next, or a consequence drawn: not an equality
    *STEP_SIGNS,
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

#: a multiplication written as a word or a letter: ``0.5760 x 4`` (the letter x between two
#: numbers, spaced: a times sign typed on a keyboard), ``q_it dot k_cat`` (the dot product in
#: words, between two operands); read as ``×`` and ``·``. (``x`` touching a number, ``2x``, or
#: beside a name, ``x = 2``, is a name.)
WORD_TIMES: Final = pattern(
    "word-times",
    r"(?<=[\d)\]}])[ \t]+(?P<x>x)[ \t]+(?=[-\d(\[]|\.\d|[A-Z][A-Za-z]?\d{0,3}(?![\w(]))"
    r"|(?<![\w.])\d{1,6}(?:\.\d{1,6})?(?P<nx>x)(?=\d{1,6}(?:\.\d{1,6})?(?![\w.]))"
    r"|(?<![\w\\])[A-Za-z]{1,2}\d{0,3}(?:_\{?\w{1,16}\}?)?(?:\^T)?[ \t]+(?P<dot>dot)[ \t]+"
    r"(?=[A-Za-z]{1,2}\d{0,3}(?:_\{?\w{1,16}\}?)?(?:\^T)?(?![\w{]))"
    r"|(?<=[\w)\]])[ \t](?P<period>\.)[ \t]"
    r"(?=\[|\d|[A-Za-z]{1,2}\d{0,3}(?:_\{?\w{1,16}\}?)?(?:\^T)?(?![\w{]))",
    "a times sign written as the letter x between spaced numbers, a dot product written "
    "as the word dot between two symbols, or as a period with a space on each side",
    (
        ex("0.5760 x 4", x="x"),
        ex("2 x 0.5 + 0 x 0.5", x="x"),
        ex("0.590831 x (1 - 0.590831)", x="x"),
        ex("0.6697 x V1 + 0.3303 x V2", x="x"),
        ex("1x1 + 0x0", nx="x"),
        ex("q_it dot k_cat", dot="dot"),
        ex("q dot k_1", dot="dot"),
        ex("Q1 = x1 . W_Q", period="."),
        ex("[1,0] . [0,1]", period="."),
    ),
    (
        "2x + 1",
        "x = 2",
        "let x be 3",
        "a dotted line",
        "3 x",
        "the dot product",
        "key dot value",
        "It ends. Then",
        "1.5",
        "a . . . b",
        "x1.W_Q",
    ),
    how=Apply.SEARCH,
)

TEXT_NAME: Final = pattern(
    "text-name",
    r"\\(?:text|textrm|textbf|mathrm|mathbf|mathit|operatorname|boldsymbol)\s*\{"
    r"(?P<words>\s*[A-Za-z\u4e00-\u9fff][A-Za-z0-9\u4e00-\u9fff ]{0,40}?)\s*\}",
    "a name written as words in math (``\\text{Attention Scores}``): one name, "
    "``Attention_Scores``",
    (
        ex("\\text{Attention Scores}", words="Attention Scores"),
        ex("\\mathbf{x}", words="x"),
        ex("\\text{ sum }", words=" sum"),
    ),
    ("\\text{(number of tokens)}", "\\frac{1}{2}"),
)

#: CJK ideographs a name of the grammar may hold (``总和``, ``v_它``)
CJK: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

#: the one spelling of the digits of a number (``12``, ``0.47``, ``2.``, ``.5``, ``1e-3``):
#: the grammar's tokens, the census and every reader scan numbers with it
#: (:mod:`symattn.read.numerals`)
NUMERAL_TEXT: Final = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"

NUMERAL: Final = pattern(
    "numeral",
    NUMERAL_TEXT,
    "the digits of a number as texts write them (a sign, and what a number is part of, are "
    "the scanner's: :mod:`symattn.read.numerals`)",
    ("0.47", "2.", ".5", "12", "1e-3", "2.5E+4", "4.6888194e-230"),
    ("1,5", "x", "-", ".", "1e", "½"),
    how=Apply.FULLMATCH,
)

FRAC_DIGITS: Final = pattern(
    "frac-digits",
    r"\\frac\s*(?P<num>[0-9])\s*(?P<den>[0-9])",
    "``\\frac13`` (after ``\\tfrac``/``\\dfrac`` are respelled): LaTeX takes one digit for "
    "each argument, so it is ``\\frac{1}{3}``",
    (ex("\\frac13", num="1", den="3"), ex("\\frac 1 2", num="1", den="2")),
    ("\\frac{13}{2}", "\\frac{1}{3}"),
)

#: the Unicode subscript characters and what they are written for (``K₂`` is ``K_2``)
SUBSCRIPT_OF: Final[Mapping[str, str]] = MappingProxyType(
    dict(zip("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ", "0123456789aeoxhklmnpstij", strict=True))
)

UNICODE_SUBSCRIPT: Final = pattern(
    "unicode-subscript",
    "[" + "".join(SUBSCRIPT_OF) + "]+",
    "a subscript in Unicode characters (``K₂``, ``dₖ``, ``h₁₂``): the name's subscript, "
    "``K_2``, ``d_k``, ``h_{12}``, as LaTeX writes it",
    ("K₂", "√dₖ", "h₁₂"),
    ("K2", "k_2", "x²"),
)

TUPLE_OPEN: Final = words(
    "tuple-open",
    "the bracket whose list, where a value stands, is a vector written as a tuple "
    "(``q = (1, 0)``, ``\\left( 1, 0 \\right)``, ``0.14(2, 1)``); never the arguments of a "
    "call (``exp(a, b)``, ``f(a, b)``) but those of a function of a vector (``softmax(a, b)``)",
    "(",
    counterexamples=("{",),
)

#: the tokens of the grammar, tried in this order
TOKEN_RULES: Final[tuple[TokenRule, ...]] = (
    TokenRule("space", r"\s+", (" ", "\t ")),
    TokenRule(
        "num",
        NUMERAL_TEXT,
        ("0.47", "2.", ".5", "12", "1e-3", "2.5E+4"),
    ),
    TokenRule(
        "name",
        rf"(?:[A-Za-z]+|[{CJK}]+)(?:\^\{{\([A-Za-z0-9]{{1,8}}\)\}})?"
        rf"(?:_(?:\{{[^{{}}]{{0,40}}\}}|[A-Za-z0-9{CJK}]+))?(?:\^\{{\([A-Za-z0-9]{{1,8}}\)\}})?'*",
        ("d_k", "x_{3}", "v_它", "总和", "sum", "k'", "w^{(1)}_{2,2}", "o_{2}^{(2)}"),
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
    Word("ln", "the natural logarithm of the argument"),
    Word("log", "the natural logarithm of the argument (as numpy's ``log``; a base is not read)"),
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

#: the grammar's spelling of each written form
SPELLING_OF: Final[Mapping[str, str]] = MappingProxyType({s.written: s.grammar for s in SPELLINGS})

#: the operation (``*`` or ``/``) of each multiplication sign
MULTIPLY_OP: Final[Mapping[str, str]] = MappingProxyType(
    {s.written: s.grammar for s in MULTIPLY_SIGNS}
)

#: the names of the functions
FUNCTION_NAMES: Final = frozenset(w.text for w in FUNCTIONS)

#: functions written under another name, and the one they are (``log`` is the natural
#: logarithm, as numpy's)
SAME_FUNCTION: Final[Mapping[str, str]] = MappingProxyType({"log": "ln"})

#: the functions whose one argument may be written without brackets (``\\ln 2``, ``log 2``,
#: ``\\exp 0.5``): a number or a name, raised to a power or not (``\\ln x^2`` is ln(x²))
BARE_ARGUMENT_FUNCTIONS: Final = frozenset({"ln", "log", "exp"})

#: the functions of a whole vector: their arguments written as a list are that vector
#: (``softmax(0.29, 0.21, 0.51)`` is the softmax of ``[0.29, 0.21, 0.51]``)
VECTOR_FUNCTIONS: Final = frozenset({"softmax"})
