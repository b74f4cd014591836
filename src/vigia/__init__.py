"""Vigia: a self-hosted AI agent platform."""

__version__ = "0.1.0"
