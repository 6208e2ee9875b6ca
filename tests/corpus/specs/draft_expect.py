"""Draft a spec's sidecar ``<id>.expect.toml`` from the hand judgements of its text.

    python tests/corpus/specs/draft_expect.py tests/corpus/specs/<id>.toml > draft.toml

Every claim of the spec (in ``symattn.judge.claims.all_claims`` order) is matched to the
first unused number of ``dev/<id>.expect.toml`` with the same text and a matching stage,
in line order, and gets that number's line, verdict (mapped to a finding code) and why.
The draft is then reviewed by hand: every non-``ok`` verdict re-verified with the exact
engine (``symattn check``), differences from the text's judgement explained in ``why``.
A development tool, not a test: it writes to stdout only.
"""

from __future__ import annotations

import json
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

from benchmarks.verdicts import TEXT_VERDICTS as VERDICTS
from symattn.judge.claims import all_claims
from symattn.spec import load_spec

TEXTS = Path(__file__).resolve().parent.parent / "dev"

#: spec step -> the stages of the text's judgements it may match
STAGES = {
    "Q": ("q",),
    "K": ("k",),
    "V": ("v",),
    "Q_heads": ("q",),
    "K_heads": ("k",),
    "V_heads": ("v",),
    "scores": ("scores",),
    "scaled_scores": ("scaled",),
    "exp_scores": ("exp",),
    "exp_sums": ("sum",),
    "weights": ("weights",),
    "output": ("output", "head_output", "concat"),
    "head_outputs": ("head_output", "output"),
    "concat": ("concat", "head_output"),
    "sqrt_d_k": ("divisor",),
    "d_k": ("d_k",),
}

def _value(text: str) -> Fraction | None:
    try:
        return abs(Fraction(text.strip().rstrip(".").replace("−", "-")))
    except (ValueError, ZeroDivisionError):
        return None


def main(path: str) -> None:
    spec = load_spec(path)
    ident = Path(path).stem
    judged = tomllib.loads((TEXTS / f"{ident}.expect.toml").read_text("utf-8"))
    numbers = [n for n in judged["number"] if n["role"] == "claim"]
    numbers.sort(key=lambda n: n["line"])
    used: set[int] = set()
    print(f'id = "{ident}"')
    text = next(p for p in TEXTS.glob(ident + ".*") if not p.name.endswith(".expect.toml"))
    print(f'text = "{text.name}"')
    print()
    for c in all_claims(spec):
        where = f"{c.step}[{','.join(c.position)}]" if c.position else c.step
        stages = STAGES.get(c.step, ())
        pick = None
        for exact_text in (True, False):
            for k, n in enumerate(numbers):
                if k in used or n["stage"] not in stages:
                    continue
                value = _value(n["text"])
                text = c.claim.text.lstrip("-")  # the judgements list "0.0428" for "-0.0428"
                same = (
                    n["text"].lstrip("-−") == text
                    if exact_text
                    else value in (abs(c.claim.value), 100 * abs(c.claim.value))  # 61% of 0.61
                )
                if same:
                    pick = k
                    break
            if pick is not None:
                break
        print("[[claim]]")
        print(f"where = {json.dumps(where, ensure_ascii=False)}")
        print(f"claimed = {json.dumps(c.claim.text)}")
        if pick is None:
            print('verdict = "?"')
            print('why = "no judgement of the text matched"')
        else:
            used.add(pick)
            n = numbers[pick]
            print(f"line = {n['line']}")
            print(f'verdict = "{VERDICTS.get(n["verdict"], n["verdict"])}"')
            why = n.get("why", "")
            if why:
                print(f"why = {json.dumps(why, ensure_ascii=False)}")
        print()
    rows = [("", spec.claims.rows)] + [(f"h{h + 1},", hc.rows) for h, hc in spec.claims.heads.items()]
    for head, table in rows:
        for row, rc in table.items():
            if not rc.attends_most:
                continue
            n = next((n for n in numbers if n["stage"] == "interpretation"), None)
            print("[[claim]]")
            print(f"where = {json.dumps(f'interpretation[{head}{row}]', ensure_ascii=False)}")
            print(f"claimed = {json.dumps(', '.join(rc.attends_most), ensure_ascii=False)}")
            if n is not None:
                print(f"line = {n['line']}")
                print(f'verdict = "{VERDICTS.get(n["verdict"], n["verdict"])}"')
                print(f"why = {json.dumps(n.get('why', ''), ensure_ascii=False)}")
            else:
                print('verdict = "?"')
            print()


if __name__ == "__main__":
    main(sys.argv[1])
