"""Answering: the names a question uses, passage search, the lenses that answer from the graph
and the passages, and the optional prose rewrite."""
