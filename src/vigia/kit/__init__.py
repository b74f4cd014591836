"""Small shared tools with no domain in them: caches, field types, private files, CLI output."""
