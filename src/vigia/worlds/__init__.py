"""Document worlds: registry, code parsers, code graph, lenses and the chat surface."""
