"""Agents: configuration, draft and published versions."""
