"""Presentation: worked-example documents, message catalogs, reports, the jinja2 environment.

The document of a worked example, built bottom-up:

- ``model``: the records a template lays out (``Document``, ``Part``, ``RowDoc``, ``Msg``, ...).
- ``keys``: every message key used, in one list (checked against the catalogs).
- ``numbers``: how a document writes numbers (exact forms in LaTeX, fixed decimals).
- ``mathwidth`` and ``layout``: how wide typeset math is, and the line breaks, column blocks
  and summaries decided from it.
- ``labels``: which token names may sit inside a formula.
- ``view``: one 2-D attention inside a result (the whole, a head, a batch item).
- ``certified``: roundings and signs decided from exact values; every shown number recorded.
- ``data``, ``scaling``, ``matrices``, ``rows``, ``exactforms``, ``interpretation``,
  ``heads``: the sections of a document.
- ``errata``: a check report's findings placed next to their steps (``explain --check``).
- ``missing``: the document of an example that cannot be computed.
- ``document``: ``build_document``, which puts the parts together.

Output: ``messages`` (the only reader of the catalogs; plural forms), ``formats`` (escaping
per format), ``render`` (the sandboxed jinja2 environment; Markdown, LaTeX, HTML, JSON),
``assets`` (KaTeX for HTML pages), ``heatmap`` (the weights as inline SVG), ``notebook``
(a result's summaries in a notebook), ``reports`` (check and audit reports), ``plot`` (a
matplotlib heatmap), ``resources`` (where the templates are).
"""
