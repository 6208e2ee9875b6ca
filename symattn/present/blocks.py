"""Consecutive equations of one step set as one block, so that they share one left edge.

The document model keeps one :class:`~symattn.present.model.Line` per equation (laid out on
its own by :mod:`symattn.present.layout`, its line breaks decided by measurement, errata
attached to the line they concern). When a document is rendered, :func:`share_edges` (the
``blocks`` filter of every format's ``lines`` macro) sets the equations that follow one
another as one ``aligned`` block, every relation under the first, instead of centring each
one by itself (which makes their left edges jump). A block ends where the page has
something else to say:

- before a line with a caption (the caption is printed above the block it starts);
- after a line with erratum callouts (the callout stays right after its equation);
- before an equation that would make the block wider than the line
  (:func:`~symattn.present.layout.fits_together`: the widest left side plus the widest row)
  or taller than :data:`~symattn.present.layout.MAX_BLOCK_ROWS` rows;
- around a line that is not an equation (a matrix).

``aligned`` is in amsmath, KaTeX and MathJax, so the block serves every format.
"""

from __future__ import annotations

from symattn.present.layout import Equation, block, fits_together
from symattn.present.model import Line


def share_edges(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """``lines`` with each run of equations that may share a block merged into one line.

    A merged line keeps the caption of its first line and the callouts of its last (its
    ``at`` is ``None``: it is made for rendering, after the errata are placed).
    """
    groups: list[list[Line]] = []
    for line in lines:
        last = groups[-1] if groups else None
        if last is not None and _joins(last, line):
            last.append(line)
        else:
            groups.append([line])
    return tuple(_merged(g) for g in groups)


def _joins(group: list[Line], line: Line) -> bool:
    prev = group[-1]
    if line.caption is not None or prev.notes or line.eq is None or prev.eq is None:
        return False
    return fits_together([*_equations(group), line.eq])


def _equations(group: list[Line]) -> list[Equation]:
    out = []
    for g in group:
        assert g.eq is not None
        out.append(g.eq)
    return out


def _merged(group: list[Line]) -> Line:
    if len(group) == 1:
        return group[0]
    return Line(group[0].caption, block(_equations(group)), notes=group[-1].notes)
