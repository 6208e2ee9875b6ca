"""Reading worked examples from text (Markdown, LaTeX, plain text): ``audit``.

The modules, in the order a text goes through them:

- ``notations``: every recognised name, label, notation and phrase (one row each);
- ``tokens``, ``syntax``, ``scalar``, ``evaluate``: the safe arithmetic grammar (spelling and
  tokens, syntax tree, exact values, evaluation);
- ``extract``: the math of a document, cut into chains ``a = b ≈ c``;
- ``links``: what each link of a chain says (a label, an expression);
- ``level1`` with ``definitions``: each chain judged, names and conflicting definitions;
- ``scan`` and ``observations``: inputs and prose claims read line by line;
- ``problem``, ``level2`` and ``missing``: the attention problem rebuilt and judged by
  ``check``, or what could not be checked;
- ``messages`` and ``report``: the audit's message keys and what it returns;
- ``audit``: the driver.
"""

from symattn.read.audit import AuditReport, audit

__all__ = ["AuditReport", "audit"]
