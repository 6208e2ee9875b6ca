"""Tests of symattn.present.keys: every message key used is listed, and in every catalog.

A test here fails when a key is used but missing in a catalog, when one catalog has a key the
other lacks (for the document's keys and for the ``[check]``, ``[audit]`` and ``[unchecked]``
tables), or when
the lists in ``keys.py`` and what the code and templates use drift apart.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

from symattn.config import LANGS
from symattn.errors import InputError
from symattn.judge.check import check
from symattn.judge.findings import Join, Message
from symattn.judge.messages import CHECK_KEYS
from symattn.present import keys
from symattn.present.errata import UNANNOTATED
from symattn.present.resources import templates_dir
from symattn.read.audit import audit
from symattn.read.messages import AUDIT_KEYS, UNCHECKED_KEYS
from symattn.spec import load_spec, loads_spec
from symattn.stages import ROW_STAGES, TOKEN_STAGES

from ..conftest import EXAMPLES, ROOT

PRESENT = ROOT / "symattn" / "present"
FIXTURES = ROOT / "tests" / "fixtures"
SECTIONS = ("check", "audit", "unchecked", "report")
#: the tables whose keys judge and read use (``report`` is present's own)
FINDING_SECTIONS = ("check", "audit", "unchecked")

# --------------------------------------------------------------------------- the catalogs


def _catalog_files() -> list[Path]:
    return sorted((templates_dir() / "messages").glob("*.toml"))


@cache
def _catalog(lang: str) -> Mapping[str, object]:
    return tomllib.loads((templates_dir() / "messages" / f"{lang}.toml").read_text("utf-8"))


def _is_plural(value: object) -> bool:
    """Whether a catalog value is a sentence in plural forms (``{ one = ..., other = ... }``)."""
    return (
        isinstance(value, dict)
        and set(value) <= keys.PLURAL_FORMS
        and "other" in value
        and all(isinstance(v, str) for v in value.values())
    )


def _top(lang: str) -> set[str]:
    """The top-level keys of a catalog: the document's (a plural sentence is one key)."""
    return {k for k, v in _catalog(lang).items() if isinstance(v, str) or _is_plural(v)}


def _forms(lang: str) -> dict[str, str]:
    """Every form of every top-level sentence, flattened (``rounding.one``)."""
    out: dict[str, str] = {}
    for k, v in _catalog(lang).items():
        if isinstance(v, str):
            out[k] = v
        elif _is_plural(v):
            assert isinstance(v, dict)
            out.update({f"{k}.{form}": text for form, text in v.items()})
    return out


def _table(lang: str, section: str) -> set[str]:
    """The keys of one table of a catalog (``[check]``, ``[audit]``)."""
    table = _catalog(lang)[section]
    assert isinstance(table, dict)
    return set(table)


def test_every_language_has_a_catalog() -> None:
    assert [p.stem for p in _catalog_files()] == sorted(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_has_only_the_document_keys_and_the_tables(lang: str) -> None:
    assert set(_catalog(lang)) == keys.DOCUMENT_KEYS | set(SECTIONS)


@pytest.mark.parametrize("lang", LANGS)
def test_document_keys_are_in_the_catalog(lang: str) -> None:
    assert keys.DOCUMENT_KEYS - _top(lang) == set()


@pytest.mark.parametrize("section", SECTIONS)
def test_catalogs_have_the_same_keys(section: str) -> None:
    first, *others = LANGS
    for lang in others:
        assert _top(lang) ^ _top(first) == set(), (first, lang)
        assert _table(lang, section) ^ _table(first, section) == set(), (first, lang, section)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("section", SECTIONS)
def test_report_keys_are_in_the_catalog(lang: str, section: str) -> None:
    # (``[unchecked]`` holds read's sentences only: no report prints one of its own)
    assert set(keys.REPORT_KEYS.get(section, ())) - _table(lang, section) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_placeholders_match_across_languages(lang: str) -> None:
    """A translation fills the same placeholders as the first language."""
    first = LANGS[0]
    holder = re.compile(r"\{([a-z_]+)\}")

    def entries(name: str) -> dict[str, str]:
        data = _catalog(name)
        flat = {k.removesuffix(".other").removesuffix(".one"): v for k, v in _forms(name).items()}
        for section in SECTIONS:
            table = data[section]
            assert isinstance(table, dict)
            flat.update({f"{section}.{k}": v for k, v in table.items()})
        return flat

    mine, theirs = entries(lang), entries(first)
    for key in mine.keys() & theirs.keys():
        assert set(holder.findall(mine[key])) == set(holder.findall(theirs[key])), key


# --------------------------------------------------------------------------- present's own use


def _scan(paths: Iterable[Path], pattern: str) -> set[str]:
    found: set[str] = set()
    for path in paths:
        found |= set(re.findall(pattern, path.read_text("utf-8")))
    return found


def _templates(*folders: str) -> list[Path]:
    return [p for f in folders for p in sorted((templates_dir() / f).glob("*.j2"))]


@pytest.mark.parametrize("lang", LANGS)
def test_plural_sentences_have_the_forms_their_language_needs(lang: str) -> None:
    """English gives one and other; Chinese has one form (a plain string)."""
    for key, value in _catalog(lang).items():
        if _is_plural(value):
            assert isinstance(value, dict)
            assert set(value) == {"one", "other"} if lang == "en" else set(value) == {"other"}, key


def test_placeholders_sit_outside_math() -> None:
    """A ``{name}`` inside ``$...$`` is LaTeX, not a placeholder: the catalogs never mean it."""
    for lang in LANGS:
        for key, text in _forms(lang).items():
            for span in re.findall(r"\$[^$]+\$", text):
                names = set(re.findall(r"\{([a-z_]+)\}", span)) - {
                    "d_k",
                    "k",
                    "q",
                    "v",
                    "i",
                    "j",
                    "e",
                }
                assert not names, (lang, key, span)


def test_template_texts_are_the_keys_the_templates_print() -> None:
    used = _scan(_templates("markdown", "latex", "html"), r't\("([a-z_]+)"\)')
    used |= _scan(_templates("latex"), r'"([a-z_]+)" \| raw_message')
    assert used == keys.TEMPLATE_TEXTS


def test_fixed_sentences_are_the_keys_the_code_names() -> None:
    """Every literal ``msg("key", ...)`` in present/ is listed, and every listed key is used."""
    used = _scan(sorted(PRESENT.glob("*.py")), r'\bmsg\(\s*"([a-z_]+)"')
    assert used <= keys.SENTENCES
    assert keys.FIXED_SENTENCES - used == set()


def test_report_keys_are_the_keys_the_reports_print() -> None:
    reports = [PRESENT / "reports.py"]
    check_used = _scan(_templates("markdown"), r'labels\["([a-z_.]+)"\]')
    check_used |= _scan(reports, r'_check_texts\(lang\)\["([a-z_.]+)"\]')
    check_used |= _scan(reports, r'cat\["([a-z_.]+)"\]') & set(keys.CHECK_REPORT_TEXTS)
    assert check_used <= set(keys.CHECK_REPORT_TEXTS)
    audit_used = _scan(_templates("markdown"), r"\bcat\.([a-z_]+)")
    audit_used |= _scan(reports, r'cat\["([a-z_.]+)"\]') - set(keys.CHECK_REPORT_TEXTS)
    assert audit_used <= set(keys.AUDIT_REPORT_TEXTS)


def test_every_claim_field_has_a_caption() -> None:
    fields = set(TOKEN_STAGES) | {s.claim for s in ROW_STAGES}
    assert set(keys.CLAIMS) == fields


def test_lookup_of_an_unlisted_value_is_an_error() -> None:
    assert keys.lookup(keys.LABELS, "error", "severity") == "errata_label_error"
    with pytest.raises(InputError, match="no message for severity 'fatal'"):
        keys.lookup(keys.LABELS, "fatal", "severity")


# --------------------------------------------------------------------------- judge's and read's


def _message_keys(value: object) -> Iterator[tuple[str, str]]:
    """``(section, key)`` of a message and of every message among its parameters."""
    if isinstance(value, Message):
        yield value.section, value.key
        for v in value.params.values():
            yield from _message_keys(v)
    elif isinstance(value, Join):
        for part in (*value.parts, value.sep):
            yield from _message_keys(part)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _message_keys(v)


#: specs with findings the examples do not have
EXTRA_SPECS = (
    # a divisor with no frame to recompute in: dk-mismatch-divisor
    'tokens = ["a", "b"]\nd_k = 2\n[inputs]\nQ = [[1, 2], [0, 1]]\nK = [[1, 2], [0, 1]]\n'
    "V = [[10, 20], [30, 40]]\n[claims]\nsqrt_d_k = -2\n",
)


@cache
def _produced() -> frozenset[tuple[str, str, str]]:
    """``(section, key, code)`` of every message check and audit give on the examples."""
    out: set[tuple[str, str, str]] = set()
    specs = [load_spec(p) for p in sorted(EXAMPLES.glob("*.toml"))]
    specs += [loads_spec("schema = 1\n" + text) for text in EXTRA_SPECS]
    findings = [f for spec in specs for f in check(spec).findings]
    texts = sorted((FIXTURES / "seeds").glob("*.txt")) + sorted((FIXTURES / "audit").glob("*"))
    reports = [audit(p.read_text("utf-8"), path=str(p)) for p in texts]
    findings += [f for r in reports for f in r.findings]
    for f in findings:
        out |= {(section, key, f.code) for section, key in _message_keys(f.message)}
    # (the reasons of what the audits did not check or read: no finding, no code)
    reasons = [u.reason for r in reports for u in r.unparsed]
    reasons += [m for r in reports for m, _ in r.not_read()]
    for m in reasons:
        out |= {(section, key, "") for section, key in _message_keys(m)}
    return frozenset(out)


def used_keys(section: str) -> set[str]:
    """The message keys of ``section`` that judge (``check``) or read (``audit``,
    ``unchecked``) use: their lists (``CHECK_KEYS``, ``AUDIT_KEYS``, ``UNCHECKED_KEYS``) and
    every key they produced on the examples."""
    produced = {key for sec, key, _ in _produced() if sec == section}
    listed = {"check": CHECK_KEYS, "audit": AUDIT_KEYS, "unchecked": UNCHECKED_KEYS}[section]
    return produced | set(listed)


@pytest.mark.parametrize("section", FINDING_SECTIONS)
def test_keys_were_found(section: str) -> None:
    assert len(used_keys(section)) >= 10


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("section", FINDING_SECTIONS)
def test_every_key_judge_and_read_use_is_in_the_catalog(lang: str, section: str) -> None:
    assert used_keys(section) - _table(lang, section) == set()


def test_every_annotated_finding_has_an_erratum() -> None:
    """A finding that explain --check places in a document has a sentence for it."""
    placed = {key for sec, key, code in _produced() if sec == "check" and code not in UNANNOTATED}
    placed -= {key for key in placed if key.startswith("cause.")}
    assert placed - set(keys.ERRATA) == set()
    finding_keys = {k for k in used_keys("check") if not k.startswith(("cause.", "missing-"))}
    assert finding_keys - set(keys.ERRATA) == set()
