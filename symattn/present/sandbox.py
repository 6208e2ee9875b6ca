"""The sandbox every template runs in: immutable, bounded in the size of what it makes and in
the steps it takes.

A template from ``--templates DIR`` is code from a stranger. jinja2's
:class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` keeps it from Python internals and
from changing data (``l.append(2)``, ``d.pop('x')``); this subclass bounds its work too:

- every value a template operation makes (a string, a list) holds at most
  :data:`MAX_VALUE` items: ``'a' * 10**10``, ``'x'|center(10**9)``, ``lipsum(10**6)``,
  ``'%0999999999d' % 1`` are refused before anything is allocated, ``s ~ s`` after;
- the rendered output holds at most :data:`MAX_OUTPUT` characters (:func:`bounded_render`
  streams it and stops);
- a render takes at most :data:`MAX_STEPS` steps: each call, attribute or item lookup,
  operator, filter and loop iteration is one (nested ``range(100000)`` loops stop there).

The package's own templates write a document of 400 (query, key) pairs (the most one
writes by default) in about 6 000 steps and 140 000 characters; at the step bound, nested
empty loops stop after about half a second.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import generate_lorem_ipsum

from symattn.errors import LimitError

#: items (characters, entries) of one value a template operation makes
MAX_VALUE = 1_000_000
#: characters of one rendered template
MAX_OUTPUT = 20_000_000
#: steps of one render (calls, lookups, operators, filters, loop iterations)
MAX_STEPS = 2_000_000

#: a number written in a format string (a width or a precision)
_FORMAT_NUMBER = re.compile(r"\d+")
#: a width or precision taken from the arguments (``%*d``, ``{:{w}}``)
_FORMAT_STAR = re.compile(r"%[-#0 +]*(\d*\.)?\*|%[-#0 +]*\*|\{[^{}]*:[^{}]*\{")


#: what jinja2 passes a filter before its value (pass_context, pass_eval_context, ...)
_PASSED = (jinja2.runtime.Context, nodes.EvalContext, jinja2.Environment)


class TemplateLimitError(LimitError):
    """A template went past a bound of the sandbox (see the module doc)."""


def _refuse(what: str) -> TemplateLimitError:
    return TemplateLimitError(f"refused by the sandbox: {what}")


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict, set)) else 0


def _check_value(value: Any) -> Any:
    if _size(value) > MAX_VALUE:
        raise _refuse(f"a value of {_size(value)} items, more than {MAX_VALUE}")
    return value


def _check_number(n: Any, what: str) -> None:
    if isinstance(n, int) and abs(n) > MAX_VALUE:
        raise _refuse(f"{what} {n}, more than {MAX_VALUE}")


def check_format(fmt: str) -> None:
    """Refuse a format string whose widths could make a value beyond :data:`MAX_VALUE`."""
    if _FORMAT_STAR.search(fmt):
        raise _refuse("a width or precision taken from the arguments of a format")
    for m in _FORMAT_NUMBER.finditer(fmt):
        if len(m.group()) > 7 or int(m.group()) > MAX_VALUE:
            raise _refuse(f"a width {m.group()} in a format, more than {MAX_VALUE}")


def _estimate(name: str, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """An upper bound of the size of ``target.name(*args)`` (a string method or a filter of
    the same name), computed before the call; 0 when the result is no larger than its input."""
    text = str(target) if isinstance(target, str) else ""
    first = args[0] if args else None
    if name in ("center", "ljust", "rjust", "zfill") and isinstance(first, int):
        return max(len(text), first)
    if name == "indent":
        width = kwargs.get("width", first if first is not None else 4)
        pad = len(width) if isinstance(width, str) else int(width) if isinstance(width, int) else 0
        return len(text) + pad * (text.count("\n") + 1)
    if name == "expandtabs":
        return len(text) * max(int(first) if isinstance(first, int) else 8, 1)
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str):
        new = len(str(args[1]))
        return len(text) + (text.count(args[0]) if args[0] else len(text) + 1) * new
    if name == "join" and isinstance(target, Iterable) and not isinstance(target, str):
        items = list(target) if not isinstance(target, Sized) else target
        sep = len(str(first)) if first is not None else 0
        return sum(len(str(x)) for x in items) + sep * len(items)
    if name == "join" and isinstance(target, str) and isinstance(first, (list, tuple)):
        return sum(len(str(x)) for x in first) + len(target) * len(first)
    return 0


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox with a bound on value sizes, output and steps (the module doc)."""

    intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.steps = 0
        for name, f in list(self.filters.items()):
            self.filters[name] = self._bounded_filter(name, f)
        self.globals["lipsum"] = self._lipsum
        self.globals["range"] = self._range

    def step(self, n: int = 1) -> None:
        """Count ``n`` steps of the render; refuse past :data:`MAX_STEPS`."""
        self.steps += n
        if self.steps > MAX_STEPS:
            raise _refuse(f"more than {MAX_STEPS} steps (calls, lookups, loop iterations)")

    def _bounded_filter(self, name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def bounded(*args: Any, **kwargs: Any) -> Any:
            self.step()
            # a filter's first argument is the value (after the context or environment
            # that pass_context/pass_environment filters receive)
            values = [a for a in args if not isinstance(a, _PASSED)]
            target, rest = (values[0], tuple(values[1:])) if values else (None, ())
            for a in (*rest, *kwargs.values()):
                _check_number(a, f"an argument of |{name}")
            if name == "format" and isinstance(target, str):
                check_format(target)
            if _estimate(name, target, rest, kwargs) > MAX_VALUE:
                raise _refuse(f"|{name} would make more than {MAX_VALUE} characters")
            return _check_value(f(*args, **kwargs))

        for attr in ("jinja_pass_arg",):  # keep pass_context / pass_environment
            if hasattr(f, attr):
                setattr(bounded, attr, getattr(f, attr))
        return bounded

    def _lipsum(self, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
        _check_number(n * max, "lipsum: paragraphs times words")
        self.step(n)
        return generate_lorem_ipsum(n, html, min, max)

    def _range(self, *args: int) -> Iterator[int]:
        r = range(*args)
        _check_number(len(r), "a range of")
        return self.counted(r)

    def counted(self, items: Any) -> Iterator[Any]:
        """``items`` with one step counted per item (every ``{% for %}`` loops over this)."""
        for item in items:
            self.step()
            yield item

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.step()
        for a in (*args, *kwargs.values()):
            _check_value(a)
        target = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(target, (str, list, tuple)):
            for a in (*args, *kwargs.values()):
                _check_number(a, f"an argument of .{name}()")
            if _estimate(name, target, args, kwargs) > MAX_VALUE:
                raise _refuse(f".{name}() would make more than {MAX_VALUE} characters")
        return _check_value(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.step()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        self.step()
        return super().getitem(obj, argument)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        check_format(value.__self__)
        return wrapped

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self.step()
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if _size(seq) and isinstance(n, int) and _size(seq) * n > MAX_VALUE:
                    raise _refuse(f"a value of {_size(seq) * n} items, more than {MAX_VALUE}")
            if isinstance(left, int) and isinstance(right, int):
                _check_bits(left.bit_length() + right.bit_length())
        elif operator == "**" and isinstance(left, int) and isinstance(right, int):
            _check_bits(max(left.bit_length(), 1) * max(right, 0))
        elif operator == "%" and isinstance(left, str):
            check_format(left)
        return _check_value(super().call_binop(context, operator, left, right))

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """The template's syntax tree, with every loop counting its iterations."""
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(
                nodes.EnvironmentAttribute("counted"), [loop.iter], [], None, None
            )
        for concat in tree.find_all(nodes.Concat):
            concat.nodes = [
                nodes.Call(nodes.EnvironmentAttribute("checked"), [n], [], None, None)
                for n in concat.nodes
            ]
        return tree

    def checked(self, value: Any) -> Any:
        """``value``, refused beyond :data:`MAX_VALUE` (each piece of a ``~`` concatenation)."""
        return _check_value(value)


def _check_bits(bits: int) -> None:
    if bits > 4 * MAX_VALUE:
        raise _refuse(f"a number of about {bits} bits, more than {4 * MAX_VALUE}")


def bounded_render(template: jinja2.Template, context: dict[str, Any]) -> str:
    """``template`` rendered, streamed, refused past :data:`MAX_OUTPUT` characters."""
    env = template.environment
    if isinstance(env, BoundedSandbox):
        env.steps = 0
    out: list[str] = []
    total = 0
    for piece in template.generate(**context):
        total += len(piece)
        if total > MAX_OUTPUT:
            raise _refuse(f"an output of more than {MAX_OUTPUT} characters")
        out.append(piece)
    return "".join(out)
