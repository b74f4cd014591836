"""Definitions and call references of non-COBOL code through the grammars bundled in
``tree-sitter-language-pack`` 0.13.0 (never COBOL: that grammar fails on most real code)."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from vigia.worlds.graph.extraction import Edge, Entity, Extraction
from vigia.worlds.graph.keys import Kind, make
from vigia.worlds.ingest.classify import CODE_EXTENSIONS

DEFINITIONS = frozenset(
    {
        "function_definition",
        "class_definition",
        "function_declaration",
        "method_declaration",
        "class_declaration",
        "interface_declaration",
        "method_definition",
        "constructor_declaration",
        "method",
        "class",
        "module",
    }
)
CALLS = frozenset({"call", "call_expression", "method_invocation", "invocation_expression"})


def _name(node: Any) -> str | None:
    named = node.child_by_field_name("name")
    if named is None:
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.child_by_field_name("declarator") is not None:
            declarator = declarator.child_by_field_name("declarator")
        named = declarator
    if named is None or named.text is None:
        return None
    return str(named.text.decode("utf-8", errors="replace"))[:128]


def _callee(node: Any) -> str | None:
    target = (
        node.child_by_field_name("function")
        or node.child_by_field_name("name")
        or node.child_by_field_name("method")
    )
    if target is None or target.text is None:
        return None
    text = str(target.text.decode("utf-8", errors="replace"))
    return text.rsplit(".", 1)[-1][:128]


def extract_code(rel_path: str, text: str) -> Extraction:
    """Definitions (``definition`` entities) and calls between them; empty if no grammar."""
    out = Extraction()
    language = CODE_EXTENSIONS.get(PurePosixPath(rel_path).suffix.lower())
    if language is None:
        return out
    try:
        from tree_sitter_language_pack import get_parser

        tree = get_parser(language).parse(text.encode("utf-8"))  # type: ignore[arg-type]
    except Exception:  # a missing or broken grammar leaves the file as plain text
        return out
    stack: list[tuple[Any, str | None]] = [(tree.root_node, None)]
    while stack:
        node, owner = stack.pop()
        current = owner
        if node.type in DEFINITIONS:
            name = _name(node)
            if name:
                key = make(Kind.DEF, rel_path, name)
                out.entities.append(
                    Entity(
                        "definition",
                        name,
                        key,
                        rel_path,
                        node.start_point[0] + 1,
                        node.end_point[0] + 1,
                        detail=node.type,
                    )
                )
                current = key
        elif node.type in CALLS and owner is not None:
            callee = _callee(node)
            if callee:
                out.add_edge(
                    Edge("calls", owner, make(Kind.NAME, callee), rel_path, node.start_point[0] + 1)
                )
        stack.extend((child, current) for child in reversed(node.children))
    return out
