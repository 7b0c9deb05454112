"""Decisions: which rules move a metric (sensitivity), rule changes proposed
toward targets (tune, goals) and sequential yes/no verdicts (sequential,
expressions)."""
