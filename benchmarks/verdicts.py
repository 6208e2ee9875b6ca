"""How ``symattn check`` does on real worked examples: recall, false accusations, causes.

Runs ``check`` on every spec of ``tests/corpus/specs/`` and compares each claim's findings
with the verdict its sidecar ``<id>.expect.toml`` expects (transcribed from the hand
judgements of ``tests/corpus/dev/``; see ``tests/corpus/README.md``), then prints:

- **recall**: real errors (expected ``wrong-value``, ``truncated``, ``approximate-constant``,
  ``dk-mismatch``, ``not-normalized``, ``conflicting-definition``, ``interpretation``) with a
  finding of severity error or warning at that claim;
- **false accusations**: error-severity findings on numbers expected correct (``ok``,
  ``float-representation``, ``rounded-inputs``, ``propagated-rounding``,
  ``precision-mixed``);
- **cause agreement**: found real errors whose finding names the expected code (or lists it
  among its alternatives, when two causes stay possible);
- carried errors (``propagated-error``) found as such, and the agreement of every verdict.

    python benchmarks/verdicts.py            # the table
    python benchmarks/verdicts.py -v         # and every disagreement
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "tests" / "corpus" / "specs"
sys.path.insert(0, str(ROOT))

from symattn.judge.check import check  # noqa: E402
from symattn.judge.claims import all_claims  # noqa: E402
from symattn.judge.findings import Finding  # noqa: E402
from symattn.spec import Spec, load_spec  # noqa: E402

#: verdicts of real errors
ERRORS = frozenset(
    {
        "wrong-value",
        "truncated",
        "approximate-constant",
        "dk-mismatch",
        "not-normalized",
        "conflicting-definition",
        "interpretation",
    }
)
#: verdicts of numbers that are not wrong (an error finding on them is a false accusation)
CORRECT = frozenset(
    {"ok", "float-representation", "rounded-inputs", "propagated-rounding", "precision-mixed"}
)
#: a number right from the author's earlier wrong number
CARRIED = frozenset({"propagated-error"})
#: numbers that cannot be checked (the spec lacks inputs)
UNCHECKED = frozenset({"missing-input"})
VERDICTS = ERRORS | CORRECT | CARRIED | UNCHECKED
#: the verdicts of the texts' hand judgements (tests/corpus/dev) -> the finding code
TEXT_VERDICTS = {
    "ok": "ok",
    "ok-author-frame": "ok",
    "ok-rounded-inputs": "rounded-inputs",
    "float-representation": "float-representation",
    "carried-error": "propagated-error",
    "not-checkable": "missing-input",
}
TEXTS = ROOT / "tests" / "corpus" / "dev"


@dataclass(frozen=True)
class Expected:
    """One claim (or row-level finding) of a spec and the verdict its sidecar expects."""

    where: str  # as check reports it: step[position]
    claimed: str
    verdict: str
    why: str = ""
    line: int | None = None  # in the text it was transcribed from
    also: tuple[str, ...] = ()  # further codes expected at the same claim


@dataclass(frozen=True)
class Outcome:
    """An expected verdict and the findings check gave at that claim."""

    spec: str
    expected: Expected
    findings: tuple[Finding, ...]

    @property
    def codes(self) -> set[str]:
        """The codes found, alternatives included."""
        out = {f.code for f in self.findings}
        for f in self.findings:
            out |= set(f.alternatives)
        return out

    @property
    def primary(self) -> str:
        """The verdict check gives: ``ok`` without findings, else the first non-mixed code."""
        main = [f.code for f in self.findings if f.code != "precision-mixed"]
        if main:
            return main[0]
        return "precision-mixed" if self.findings else "ok"

    @property
    def flagged(self) -> bool:
        """Whether check says the number is wrong or doubtful (error or warning)."""
        return any(f.severity in ("error", "warning") for f in self.findings)

    @property
    def accused(self) -> bool:
        """Whether check reports an error at this number."""
        return any(f.severity == "error" for f in self.findings)

    @property
    def agrees(self) -> bool:
        """Whether check gives exactly the expected verdict (and the ``also`` codes)."""
        v = self.expected.verdict
        if v == "ok":
            ok = not [
                f
                for f in self.findings
                if f.code not in self.expected.also and f.code != "not-normalized"
            ]
        else:
            ok = v == self.primary or (v == "precision-mixed" and v in self.codes)
        return ok and set(self.expected.also) <= self.codes


def where_of(f: Finding) -> str:
    """A finding's place as reports write it."""
    return f"{f.step}[{','.join(f.position)}]" if f.position else f.step


def load_expected(path: Path) -> list[Expected]:
    """The sidecar of a spec."""
    data = tomllib.loads(path.read_text("utf-8"))
    out = []
    for e in data.get("claim", []):
        if e["verdict"] not in VERDICTS:
            raise ValueError(f"{path.name}: unknown verdict {e['verdict']!r} at {e['where']}")
        out.append(
            Expected(
                e["where"],
                e["claimed"],
                e["verdict"],
                e.get("why", ""),
                e.get("line"),
                tuple(e.get("also", ())),
            )
        )
    return out


def spec_paths(root: Path = SPECS) -> list[Path]:
    """Every spec of the corpus."""
    return sorted(p for p in root.glob("*.toml") if not p.name.endswith(".expect.toml"))


def sidecar(spec_path: Path) -> Path:
    """The expectations of a spec."""
    return spec_path.with_name(spec_path.stem + ".expect.toml")


def claim_keys(spec: Spec) -> list[tuple[str, str]]:
    """(where, claimed) of every claim of a spec, its ``attends_most`` sentences included."""
    out = [
        (f"{c.step}[{','.join(c.position)}]" if c.position else c.step, c.claim.text)
        for c in all_claims(spec)
    ]
    rows = [("", spec.claims.rows)] + [
        (f"h{h + 1},", hc.rows) for h, hc in spec.claims.heads.items()
    ]
    for head, table in rows:
        for row, rc in table.items():
            if rc.attends_most:
                out.append((f"interpretation[{head}{row}]", ", ".join(rc.attends_most)))
    return out


def outcomes(spec_path: Path) -> list[Outcome]:
    """Each expected verdict of one spec with the findings check gave there."""
    spec = load_spec(spec_path)
    report = check(spec)
    expected = load_expected(sidecar(spec_path))
    found: dict[tuple[str, str], list[Finding]] = {}
    rows: dict[str, list[Finding]] = {}  # not-normalized is about every weight of its row
    for f in report.findings:
        found.setdefault((where_of(f), f.claimed), []).append(f)
        if f.code == "not-normalized":
            rows.setdefault(where_of(f)[:-1] + ",", []).append(f)

    def at(e: Expected) -> tuple[Finding, ...]:
        own = found.get((e.where, e.claimed), [])
        row = [f for key, fs in rows.items() if e.where.startswith(key) for f in fs]
        return tuple(own + row)

    return [Outcome(spec_path.stem, e, at(e)) for e in expected]


@dataclass
class Score:
    """The corpus table."""

    specs: int = 0
    claims: int = 0
    errors: int = 0
    found: int = 0
    agreed: int = 0
    correct: int = 0
    accused: int = 0
    carried: int = 0
    carried_found: int = 0
    verdicts_agreed: int = 0
    rejudged: int = 0
    misses: list[Outcome] = field(default_factory=list)

    def add(self, outs: Iterable[Outcome]) -> None:
        self.specs += 1
        outs = list(outs)
        self.rejudged += len(rejudged(outs))
        for o in outs:
            v = o.expected.verdict
            self.claims += 1
            self.verdicts_agreed += o.agrees
            if not o.agrees:
                self.misses.append(o)
            if v in ERRORS:
                self.errors += 1
                if o.flagged:
                    self.found += 1
                    self.agreed += v in o.codes
            elif v in CORRECT:
                self.correct += 1
                self.accused += o.accused
            elif v in CARRIED:
                self.carried += 1
                self.carried_found += "propagated-error" in o.codes

    def rows(self) -> list[tuple[str, str, str]]:
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.1f}%" if b else "-"

        return [
            ("specs / claims judged", f"{self.specs} / {self.claims}", ""),
            (
                "recall of real errors",
                f"{self.found} / {self.errors}",
                pct(self.found, self.errors),
            ),
            (
                "false accusations (errors on correct numbers)",
                f"{self.accused} / {self.correct}",
                "",
            ),
            (
                "cause agreement (found errors)",
                f"{self.agreed} / {self.found}",
                pct(self.agreed, self.found),
            ),
            (
                "carried errors named as such",
                f"{self.carried_found} / {self.carried}",
                pct(self.carried_found, self.carried),
            ),
            (
                "every verdict as expected",
                f"{self.verdicts_agreed} / {self.claims}",
                pct(self.verdicts_agreed, self.claims),
            ),
            (
                "expectations re-judged from the text's hand verdict (each says why)",
                f"{self.rejudged} / {self.claims}",
                pct(self.rejudged, self.claims),
            ),
        ]


def text_verdicts(outs: list[Outcome]) -> list[set[str]]:
    """For each expectation, the verdicts the hand judgement of its text gives that number
    (found by line and number in ``texts/<id>.expect.toml``; empty when not found)."""
    if not outs:
        return []
    path = TEXTS / f"{outs[0].spec}.expect.toml"
    if not path.is_file():
        return [set() for _ in outs]
    numbers = [
        n for n in tomllib.loads(path.read_text("utf-8")).get("number", []) if n["role"] == "claim"
    ]
    out = []
    for o in outs:
        e = o.expected
        out.append(
            {
                TEXT_VERDICTS.get(n["verdict"], n["verdict"])
                for n in numbers
                if n["line"] == e.line and n["text"].lstrip("-−") == e.claimed.lstrip("-")
            }
        )
    return out


def as_texts_judge(outs: list[Outcome]) -> list[Outcome]:
    """The outcomes with the texts' own verdicts expected, where the text has one number of
    that line and value with a single verdict (else the sidecar's)."""
    out = []
    for o, texts in zip(outs, text_verdicts(outs), strict=True):
        if len(texts) == 1 and o.expected.verdict not in texts:
            (v,) = texts
            if v in VERDICTS:
                o = Outcome(o.spec, replace(o.expected, verdict=v), o.findings)
        out.append(o)
    return out


def rejudged(outs: list[Outcome]) -> list[Outcome]:
    """The expectations that differ from the hand judgement of the text they come from (each
    says why)."""
    return [
        o
        for o, texts in zip(outs, text_verdicts(outs), strict=True)
        if texts and o.expected.verdict not in texts
    ]


def score(paths: Iterable[Path], *, texts: bool = False) -> Score:
    """The table over the specs at ``paths`` (``texts``: against the texts' own verdicts)."""
    s = Score()
    for p in paths:
        outs = outcomes(p)
        s.add(as_texts_judge(outs) if texts else outs)
    return s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true", help="list every disagreement")
    ap.add_argument(
        "--texts",
        action="store_true",
        help="expect the texts' own hand verdicts, not the re-judged ones of the sidecars",
    )
    args = ap.parse_args(argv)
    s = score(spec_paths(), texts=args.texts)
    width = max(len(r[0]) for r in s.rows())
    print(f"| {'measure'.ljust(width)} | count | rate |")
    print(f"|{'-' * (width + 2)}|-------|------|")
    for name, count, rate in s.rows():
        print(f"| {name.ljust(width)} | {count} | {rate} |")
    if args.verbose:
        for p in spec_paths():
            for o in rejudged(outcomes(p)):
                e = o.expected
                print(f"re-judged {o.spec}: {e.where} {e.claimed} -> {e.verdict}: {e.why[:100]}")
        for o in s.misses:
            got = ", ".join(f.code for f in o.findings) or "ok"
            print(
                f"{o.spec}: {o.expected.where} {o.expected.claimed}: expected {o.expected.verdict}, got {got}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
