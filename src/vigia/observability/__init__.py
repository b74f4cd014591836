"""Operational signals (infrastructure): Prometheus metrics, structured logs, OpenTelemetry.

Imports no domain, engine or surface; the engine and the domains report into it.
"""
