"""What the audit read, as specs: each attention problem it judged, written as a spec that
``symattn check`` runs (``symattn audit FILE --emit-spec DIR``).

A spec holds the problem's inputs, its ``d_k``, scale and mask, and every claim the audit
judged in it, each with a comment giving its line and column in the text. Claims whose
verdict the audit withheld (the frames it tried disagree, or the number belongs to another
stage) are left out of the spec and listed in its header, so that ``check`` on the spec gives
the findings the audit reported and nothing else. The header also says what was inferred
rather than read: the frame (a divisor the text does not state), inputs taken to be equal
(Q = K = V = X), token names the text does not give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path as FilePath
from types import MappingProxyType
from typing import Final

from symattn.errors import InputError
from symattn.read.observations import Spot
from symattn.read.problem import Place, Problem
from symattn.read.report import EmittedSpec
from symattn.spec.write import Path, spec_to_toml
from symattn.stages import BY_STEP, SCALING_STAGES, TOKEN_STAGES

__all__ = ["EmittedSpec", "JudgedProblem", "emitted_specs", "write_specs"]

#: trace step of a token's projection -> its field under ``[claims.tokens.<token>]``
_TOKEN_FIELD: Final[Mapping[str, str]] = MappingProxyType(
    {step: f for f, step in TOKEN_STAGES.items()}
)


@dataclass(frozen=True)
class JudgedProblem:
    """A problem Level 2 judged, and the places whose findings it withheld."""

    problem: Problem
    withheld: frozenset[Place] = frozenset()


def _path(place: Place, data: Mapping[str, object]) -> Path | None:
    """Where the claim of ``place`` sits in the spec document ``data`` (None: nowhere)."""
    step, pos = place
    tokens = data.get("tokens")
    if step in SCALING_STAGES and not pos:
        return ("claims", step)
    if step in _TOKEN_FIELD and len(pos) == 2 and pos[1].isdigit():
        return ("claims", "tokens", pos[0], _TOKEN_FIELD[step], int(pos[1]))
    stage = BY_STEP.get(step)
    if stage is None or not pos:
        return None
    if len(pos) == 1:
        return ("claims", "rows", pos[0], stage.claim)
    if stage.per_key:
        field = ("claims", "rows", pos[0], stage.claim)
        if isinstance(_get(data, field), Mapping):
            return (*field, pos[1])  # (a table keyed by some of the tokens)
        if not isinstance(tokens, list) or pos[1] not in tokens:
            return None
        return (*field, tokens.index(pos[1]))
    return ("claims", "rows", pos[0], stage.claim, int(pos[1])) if pos[1].isdigit() else None


def _get(data: object, path: Path) -> object:
    for p in path:
        if isinstance(data, Mapping) and isinstance(p, str) and p in data:
            data = data[p]
        elif isinstance(data, list) and isinstance(p, int) and 0 <= p < len(data):
            data = data[p]
        else:
            return None
    return data


def _without(data: Mapping[str, object], paths: Sequence[Path]) -> dict[str, object]:
    """A copy of ``data`` with the claims at ``paths`` taken out: an entry of a per-key list
    turns the list into a table of the keys that stay; any other claim takes its field out."""
    out = _copy(data)
    tokens = data.get("tokens")
    for path in paths:
        field, parent = path[:-1], _get(out, path[:-2]) if len(path) > 1 else None
        holder = _get(out, field)
        keyed = field[:2] == ("claims", "rows") and isinstance(path[-1], str)
        if keyed and isinstance(holder, dict):
            holder.pop(path[-1], None)  # (an entry of a table keyed by token)
        elif isinstance(path[-1], int) and isinstance(parent, dict) and isinstance(field[-1], str):
            value = parent.get(field[-1])
            stage = next((s for s in BY_STEP.values() if s.claim == field[-1]), None)
            if isinstance(value, list) and stage is not None and stage.per_key:
                if isinstance(tokens, list) and len(tokens) == len(value):
                    value = dict(zip(tokens, value, strict=True))
            if isinstance(value, dict) and isinstance(tokens, list):
                value.pop(tokens[path[-1]], None)
                if value:
                    parent[field[-1]] = value
                    continue
            parent.pop(field[-1], None)
        elif isinstance(holder, dict) and isinstance(path[-1], str):
            holder.pop(path[-1], None)
    return _pruned(out)


def _copy(v: object) -> dict[str, object]:
    def c(x: object) -> object:
        if isinstance(x, Mapping):
            return {k: c(y) for k, y in x.items()}
        if isinstance(x, list | tuple):
            return [c(y) for y in x]
        return x

    out = c(v)
    if not isinstance(out, dict):
        raise TypeError("a spec document is a table")
    return out


def _pruned(d: dict[str, object]) -> dict[str, object]:
    """Empty claim tables dropped (a spec table with nothing in it says nothing)."""
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            v = _pruned(v)
            if not v:
                continue
        out[k] = v
    return out


def _inferred(problem: Problem) -> list[str]:
    """What the spec holds that the text does not say in so many words."""
    data = problem.data
    said = []
    if problem.hypothesis and problem.hypothesis != "stated":
        said.append(f"the frame is inferred ({problem.hypothesis}): the divisor is not stated")
    if problem.assumed:
        said.append("Q = K = V = X is assumed: the text gives no projections")
    tokens = data.get("tokens")
    if isinstance(tokens, list) and all(isinstance(t, str) and t.isdigit() for t in tokens):
        said.append("token names are positions (1, 2, …): the text names no tokens")
    return said


def emitted_specs(judged: Sequence[JudgedProblem], text_path: str) -> tuple[EmittedSpec, ...]:
    """One spec per judged problem, named ``<text stem>.<n>.toml``."""
    stem = FilePath(text_path).stem or "text"
    out = []
    for n, jp in enumerate(judged, 1):
        problem = jp.problem
        located: dict[Path, Spot] = {}
        unplaced: list[str] = []
        for place, spot in problem.spots.items():
            path = _path(place, problem.data)
            if path is None or _get(problem.data, path) is None:
                unplaced.append(f"{place[0]}{list(place[1])} (line {spot.line})")
            else:
                located[path] = spot
        withheld = sorted(
            (p for place in jp.withheld if (p := _path(place, problem.data)) in located),
            key=lambda p: (located[p].line, located[p].column),
        )
        data = _without(problem.data, withheld)
        data["source"] = text_path
        kept = {p: s for p, s in located.items() if p not in set(withheld)}
        comments = {p: f"line {s.line}, column {s.column}" for p, s in kept.items()}
        header = [
            f"The attention problem {n} that `symattn audit` read in {text_path}.",
            "Correct what it misread and run `symattn check` on this file.",
        ]
        header += [f"Inferred: {s}." for s in _inferred(problem)]
        header += [
            f"Withheld (audit did not judge it in one frame): claim at line {located[p].line}, "
            f"column {located[p].column}: {located[p].written.text}"
            for p in withheld
        ]
        header += [f"Read but not placed in the spec: {u}" for u in unplaced]
        out.append(
            EmittedSpec(
                f"{stem}.{n}.toml",
                spec_to_toml(data, comments, "\n".join(header)),
                {p: (s.line, s.column) for p, s in kept.items()},  # (a dict: reports pickle)
            )
        )
    return tuple(out)


def write_specs(specs: Sequence[EmittedSpec], directory: FilePath) -> list[FilePath]:
    """Write the specs into ``directory`` (created if needed); an existing file of the same
    name is replaced. Returns the paths written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"{directory}: cannot create the folder: {e.strerror}") from None
    if not directory.is_dir():
        raise InputError(f"{directory}: not a folder")
    paths = []
    for s in specs:
        path = directory / s.name
        try:
            path.write_text(s.toml, encoding="utf-8")
        except OSError as e:
            raise InputError(f"{path}: cannot write: {e.strerror}") from None
        paths.append(path)
    return paths
