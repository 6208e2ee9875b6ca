"""``symattn explain SPEC``: write the worked example of a spec as Markdown, LaTeX or JSON."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from symattn.cli.options import limits_from
from symattn.cli.output import write_text_atomic
from symattn.errors import InputError
from symattn.present import render
from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.present.plot import plot_weights
from symattn.spec import load_spec

HELP = "write the worked example of a spec step by step (Markdown, LaTeX or JSON; zh or en)"

#: output format -> render function name in symattn.present.render
RENDERERS = {"markdown": "render_markdown", "latex": "render_latex", "json": "render_json"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``explain``."""
    p.add_argument("spec", help="spec file (.toml or .json); see docs/spec.md and docs/explain.md")
    p.add_argument("--lang", help="language of the document (zh or en; default: the spec's lang)")
    p.add_argument(
        "--format",
        choices=tuple(RENDERERS),
        default="markdown",
        help="output format (default markdown)",
    )
    p.add_argument(
        "--digits", type=int, default=4, help="decimal places of rounded numbers (default 4)"
    )
    p.add_argument("--query", nargs="+", metavar="TOKEN", help="explain only these query tokens")
    p.add_argument(
        "--exact", action="store_true", help="also show the exact symbolic value of each number"
    )
    p.add_argument(
        "--fragment", action="store_true", help="LaTeX: only the body, to paste into a document"
    )
    p.add_argument(
        "--templates", metavar="DIR", help="your templates folder, searched before the built-in one"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="also check the spec's claims and mark each wrong one next to its step (errata)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw a heatmap of the weights (.svg or .png; needs matplotlib)",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``explain``."""
    limits = limits_from(args)
    if not 0 <= args.digits <= 50:
        raise InputError(f"--digits {args.digits}: choose between 0 and 50")
    if args.fragment and args.format != "latex":
        raise InputError("--fragment only applies to --format latex")
    spec = load_spec(args.spec, limits=limits)
    meta = meta_from_spec(spec)
    lang = args.lang or spec.lang
    meta = replace(meta, lang=lang)
    result = spec.run() if spec.computable else None
    plot_ref = None
    if args.plot and result is not None:
        plot_weights(result, args.plot, digits=args.digits, limits=limits)
        plot_ref = args.plot
    options = DocOptions(
        digits=args.digits,
        queries=tuple(args.query or ()),
        exact=args.exact,
        plot=plot_ref,
        limits=limits,
    )
    doc = build_document(result, meta, options, check=True if args.check else None)
    renderer = getattr(render, RENDERERS[args.format])
    if args.format == "latex":
        text = renderer(doc, fragment=args.fragment, templates=args.templates)
    else:
        text = renderer(doc, templates=args.templates)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
