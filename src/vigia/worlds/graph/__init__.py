"""The code graph: what extractors produce (entities, edges), their typed kinds and keys, and
the queries that read the stored graph."""
