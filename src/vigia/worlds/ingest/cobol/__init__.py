"""Tolerant COBOL preprocessing and extraction."""
