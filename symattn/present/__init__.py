"""Presentation: worked-example documents, message catalogs, reports, the jinja2 environment.

The document of a worked example, built bottom-up:

- ``model``: the records a template lays out (``Document``, ``RowDoc``, ``Msg``, ...).
- ``keys``: every message key used, in one list (checked against the catalogs).
- ``numbers``: how a document writes numbers (exact forms in LaTeX, fixed decimals).
- ``certified``: roundings and signs decided from exact values; every shown number recorded.
- ``tables``, ``scaling``, ``rows``, ``interpretation``: the sections of a document.
- ``errata``: a check report's findings placed next to their steps (``explain --check``).
- ``missing``: the document of an example that cannot be computed.
- ``document``: ``build_document``, which puts the sections together.

Output: ``messages`` (the only reader of the catalogs), ``formats`` (escaping per format),
``render`` (the jinja2 environment; Markdown, LaTeX, JSON), ``reports`` (check and audit
reports), ``plot`` (a heatmap of the weights), ``resources`` (where the templates are).
"""
