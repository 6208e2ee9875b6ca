"""``symattn explain SPEC``: write the worked example of a spec as Markdown, LaTeX, HTML or JSON."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from symattn.cli.lintrun import refuse_output_over_input
from symattn.cli.options import limits_from
from symattn.cli.output import write_bytes_atomic, write_text_atomic
from symattn.errors import InputError
from symattn.present import render
from symattn.present.assets import katex_assets
from symattn.present.document import MAX_DIGITS, DocOptions, build_document, meta_from_spec
from symattn.present.model import Detail
from symattn.present.plot import heatmap_image, plot_format
from symattn.spec import load_spec

HELP = "write the worked example of a spec step by step (Markdown, LaTeX, HTML or JSON; zh or en)"

EPILOG = """examples:
  symattn explain docs/examples/thinking_machines.toml --lang en -o post.md
  symattn explain docs/examples/causal_four_tokens.toml --format latex -o notes.tex
  symattn explain docs/examples/two_heads.toml --format html -o page.html
  symattn explain docs/examples/animal_street.toml --query 它 --digits 6 --exact
  symattn explain docs/examples/thinking_machines.toml --check -o errata.md

--digits is the number of decimal places of every rounded number (ties to even).
--format html inlines the KaTeX shipped with symattn (SYMATTN_KATEX_DIR may name another
KaTeX 0.16 dist folder): the page works offline. --templates DIR runs in a jinja2 sandbox.
See docs/explain.md."""

#: output format -> render function name in symattn.present.render
RENDERERS = {
    "markdown": "render_markdown",
    "latex": "render_latex",
    "html": "render_html",
    "json": "render_json",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``explain``."""
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("spec", help="spec file (.toml or .json); see docs/spec.md and docs/explain.md")
    p.add_argument("--lang", help="language of the document (zh or en; default: the spec's lang)")
    p.add_argument(
        "--format",
        choices=tuple(RENDERERS),
        default="markdown",
        help="output format (default markdown)",
    )
    p.add_argument(
        "--digits",
        type=int,
        default=4,
        help="decimal places of every rounded number (default 4)",
    )
    p.add_argument("--query", nargs="+", metavar="TOKEN", help="explain only these query tokens")
    p.add_argument(
        "--detail",
        choices=[d.value for d in Detail],
        default=Detail.FULL.value,
        help="full (default): every projection row and each query's steps key by key; "
        "compact: the projections and the per-key steps in matrix form only",
    )
    p.add_argument(
        "--exact", action="store_true", help="also show the exact symbolic value of each number"
    )
    p.add_argument(
        "--fragment", action="store_true", help="LaTeX: only the body, to paste into a document"
    )
    p.add_argument(
        "--templates",
        metavar="DIR",
        help="your templates folder, searched before the built-in one (run in a jinja2 sandbox)",
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
    if not 0 <= args.digits <= MAX_DIGITS:
        raise InputError(f"--digits {args.digits}: choose between 0 and {MAX_DIGITS}")
    if args.fragment and args.format != "latex":
        raise InputError("--fragment only applies to --format latex")
    plot_fmt = plot_format(args.plot) if args.plot else None
    assets = katex_assets() if args.format == "html" else None
    refuse_output_over_input(args.output, [args.spec, *([args.plot] if args.plot else [])])
    spec = load_spec(args.spec, limits=limits)
    meta = replace(meta_from_spec(spec), lang=args.lang or spec.lang)
    result = spec.run() if spec.computable else None
    plot_ref = None
    if plot_fmt is not None and result is not None:
        image = heatmap_image(
            result,
            plot_fmt,
            query_labels=meta.query_tokens or None,
            key_labels=meta.tokens or None,
            digits=args.digits,
            limits=limits,
        )
        write_bytes_atomic(args.plot, image)
        plot_ref = args.plot
    options = DocOptions(
        digits=args.digits,
        queries=tuple(args.query or ()),
        exact=args.exact,
        plot=plot_ref,
        limits=limits,
        detail=Detail(args.detail),
    )
    doc = build_document(result, meta, options, check=True if args.check else None)
    renderer = getattr(render, RENDERERS[args.format])
    if args.format == "latex":
        text = renderer(doc, fragment=args.fragment, templates=args.templates)
    elif args.format == "html":
        text = renderer(doc, templates=args.templates, assets=assets)
    else:
        text = renderer(doc, templates=args.templates)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
