"""Reading worked examples from text (Markdown, LaTeX, plain text): ``audit``."""

from symattn.read.audit import AuditReport, audit

__all__ = ["AuditReport", "audit"]
