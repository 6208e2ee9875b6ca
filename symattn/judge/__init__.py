"""Verdicts on claimed numbers, decided with certified bounds, and ``check`` of a spec."""

from symattn.judge.check import CheckReport, Finding, check

__all__ = ["CheckReport", "Finding", "check"]
