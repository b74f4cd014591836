"""Ingest: walking a world's files, classifying and reading them, extracting entities, edges and
passages, and storing them (with their vectors) for the other stages."""
