"""The console: a server-rendered web UI for the people who run agents (``/console``)."""
