"""Presentation: the document model of a worked example, message catalogs, the jinja2
environment, reports of check and audit, and plots."""
