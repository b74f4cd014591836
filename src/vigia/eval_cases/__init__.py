"""Evaluation cases of an agent: stored inputs with assertions on the reply, and their checks."""
