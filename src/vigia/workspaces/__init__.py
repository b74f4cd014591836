"""Workspaces, API keys, environments, rate limits and budgets."""
