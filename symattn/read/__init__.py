"""Reading worked examples from text (Markdown, LaTeX, plain text): ``audit``.

The stages, in the order a text goes through them (docs/audit.md has the whole picture):

1. ``source`` (invisible characters removed, positions kept) and ``census`` (every number in
   the text, and what became of it);
2. ``blocks`` (markdown-it-py, pylatexenc through ``latex``, plain paragraphs): prose, inline
   and display math, tables, code and output blocks with their source positions;
3. reading the blocks (``reading``): formulas cut into chains ``a = b ≈ c`` (``formulas``,
   ``extract``, ``mapped``), arrays in every notation (``arrays``, ``layout``, ``tables``),
   code read, never run (``code``, ``python``, ``dataflow``), names and phrases
   (``roles``); every table of notations lives in ``notations``;
4. Level 1 (``level1``, ``linkclaims``, ``chainstate``, with the arithmetic grammar ``tokens``,
   ``syntax``, ``scalar``, ``evaluate``, ``links`` and ``definitions``, ``claims``): each chain
   judged on its own;
5. the problem (``naming``, ``facts``, ``inputs``, ``scaling``, ``problem``): specs built with
   ``symattn.spec.build.build_spec``, judged by ``check`` (``level2``), with what could not be
   checked (``missing``) and repeats of wrong numbers (``repeats``);
6. ``messages``, ``report`` and ``observations``: what the audit says and returns;
   ``audit``: the driver.
"""

from symattn.read.audit import AuditReport, audit

__all__ = ["AuditReport", "audit"]
