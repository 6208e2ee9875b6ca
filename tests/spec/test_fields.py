"""Tests of symattn.spec.fields: one field checked, one sentence per problem."""

from __future__ import annotations

from decimal import Decimal

import pytest

from symattn.config import Limits
from symattn.errors import NumberError, SpecError
from symattn.spec.fields import Fields, field_key, is_number, short, suggest, type_name

F = Fields("f.toml", Limits())


def test_field_key() -> None:
    assert field_key("weights") == "weights" and field_key("W_Q") == "W_Q"
    assert field_key("它") == '"它"' and field_key("a b") == '"a b"' and field_key("") == '""'


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (True, "a boolean"),
        (3, "a number"),
        (Decimal("0.5"), "a number"),
        ("x", "a string"),
        ([1], "a list"),
        ({}, "a table"),
        (None, "NoneType"),
    ],
)
def test_type_name(value: object, name: str) -> None:
    assert type_name(value) == name


def test_is_number() -> None:
    assert is_number(1) and is_number(Decimal("1.5")) and is_number("1/3")
    assert not is_number(True) and not is_number([1]) and not is_number(None)


def test_suggest() -> None:
    assert suggest("Tokens", ("tokens", "title")) == "tokens"  # case first
    assert suggest("tokns", ("tokens", "title")) == "tokens"
    assert suggest("zzz", ("tokens", "title")) is None


def test_short() -> None:
    assert short(True) == "true" and short(Decimal("2.5")) == "2.5" and short("two") == "'two'"
    assert short([1, 2]) == "a list"
    assert short("x" * 100) == "'" + "x" * 36 + "..."


def test_errors_name_the_file_and_field() -> None:
    with pytest.raises(SpecError, match=r"^f\.toml: tokns: unknown field; did you mean 'tokens'"):
        F.unknown({"tokns": 1}, ("tokens",), "")
    with pytest.raises(SpecError, match=r"^f\.toml: claims\.rows\.\"它\"\.x: unknown field"):
        F.unknown({"x": 1}, ("sum",), 'claims.rows."它"')
    with pytest.raises(SpecError, match="expected a positive integer, got 0"):
        F.pos_int(0, "d_k")
    with pytest.raises(NumberError, match=r"^f\.toml: cannot read 'four' .*claims\.d_k"):
        F.written("four", "claims.d_k")


def test_values() -> None:
    assert F.text({"title": "t"}, "title") == "t" and F.text({}, "title") == ""
    assert F.boolean({}, "causal") is False
    assert F.names(["a", "b"], "tokens") == ("a", "b")
    assert F.written("0.340", "x").text == "0.340"
    arr = F.numeric(F.matrix([[1, "1/2"]], "inputs.Q"), "inputs.Q")
    assert arr.shape == (1, 2) and not arr.flags.writeable
    with pytest.raises(SpecError, match="row 2 has 1 entries, expected 2"):
        F.matrix([[1, 2], [3]], "inputs.K")
    with pytest.raises(SpecError, match="^f\\.toml: explain: 'c' is not one of tokens$"):
        F.subset(("c",), ("a", "b"), "explain", "tokens")


def test_written_numbers_are_read_once_and_kept_as_written() -> None:
    """Equal texts, and the same parsed object, give one Written; ``0.5`` and ``0.50`` (equal
    Decimals) stay two, each as written; the name of an entry is only made for an error."""
    f = Fields("f.toml", Limits())
    half, half2 = Decimal("0.5"), Decimal("0.50")
    ws = f.written_entries([half, half2, half, "0.5", " 0.5", "0.5", 3], "claims.x")
    assert [w.text for w in ws] == ["0.5", "0.50", "0.5", "0.5", "0.5", "0.5", "3"]
    assert ws[0] is ws[2] and ws[3] is ws[5] and ws[0] is not ws[1]
    with pytest.raises(SpecError, match=r"^f\.toml: claims\.x\[2\]: expected a number"):
        f.written_entries([half, "0.5", True], "claims.x")


def test_numeric_names_the_entry_that_is_not_a_number() -> None:
    with pytest.raises(SpecError, match="row 2, column 1 is a boolean, expected a number"):
        F.numeric([[1, 2], [True, 2]], "inputs.Q")
    with pytest.raises(SpecError, match="row 1, column 2 is a table, expected a number"):
        F.numeric([[1, {}]], "inputs.Q")
