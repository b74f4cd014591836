"""The output-review surface for external agents."""
