"""present/sandbox.py: the bounded, immutable jinja2 sandbox for user templates (issue 24 rows
8-10; the command-line cases are in tests/test_hostile_round3.py)."""

from __future__ import annotations

import pytest
from jinja2.sandbox import SecurityError

from symattn.present.sandbox import (
    MAX_VALUE,
    BoundedSandbox,
    TemplateLimitError,
    bounded_render,
    check_format,
)


def _render(source: str, **context: object) -> str:
    return bounded_render(BoundedSandbox().from_string(source), dict(context))


def test_ordinary_templates_render() -> None:
    assert _render("{% for x in xs %}{{ x|center(5) }}{% endfor %}", xs=[1, 2]) == "  1    2  "


@pytest.mark.parametrize(
    "source", ["{{ 'x'|center(10**9) }}", "{{ 'a' * 10**10 }}", "{{ range(10**9)|list }}"]
)
def test_values_over_the_bound_are_refused_before_they_are_made(source: str) -> None:
    with pytest.raises(TemplateLimitError):
        _render(source)


def test_steps_are_bounded() -> None:
    with pytest.raises(TemplateLimitError, match="steps"):
        _render("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")


def test_data_cannot_be_changed() -> None:
    with pytest.raises(SecurityError):
        _render("{{ l.append(2) }}", l=[1])


def test_format_widths_are_checked() -> None:
    check_format("%5d")
    with pytest.raises(TemplateLimitError):
        check_format(f"%0{MAX_VALUE * 10}d")
