"""The cross-domain rule (docs/architecture.md): any package may read another's models, but
writes go through the owner's service. Outside the package that owns an ORM class, no module
constructs it or builds an ``insert``/``update``/``delete`` statement on it."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "vigia"
STATEMENTS = {"insert", "update", "delete"}
# The retention purge deletes a conversation's rows of every owner in one transaction.
ALLOWED = {"vigia.operations.retention"}


def _module(path: Path) -> str:
    parts = path.with_suffix("").relative_to(SRC.parent).parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def foreign_writes(module: str, source: str) -> list[str]:
    """``line: what`` for each write ``module`` makes on another package's ORM classes."""
    owner = module.split(".")[1] if "." in module else ""
    tree = ast.parse(source)
    foreign = {
        alias.asname or alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.startswith("vigia.")
        and node.module.endswith(".models")
        and node.module.split(".")[1] != owner
        for alias in node.names
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        name = node.func.id
        if name in foreign:
            found.append(f"{node.lineno}: constructs {foreign[name]}.{name}")
        elif name in STATEMENTS and node.args and isinstance(node.args[0], ast.Name):
            target = node.args[0].id
            if target in foreign:
                found.append(f"{node.lineno}: {name}({foreign[target]}.{target})")
    return found


def test_the_scan_finds_a_planted_foreign_write() -> None:
    source = (
        "from vigia.conversations.models import Conversation, Message\n"
        "from sqlalchemy import delete\n"
        "row = Conversation(workspace_id='w')\n"
        "statement = delete(Message)\n"
    )
    assert foreign_writes("vigia.review.threads", source) == [
        "3: constructs vigia.conversations.models.Conversation",
        "4: delete(vigia.conversations.models.Message)",
    ]
    assert foreign_writes("vigia.conversations.service", source) == []


def test_no_package_writes_another_packages_rows() -> None:
    found = {
        module: writes
        for path in sorted(SRC.rglob("*.py"))
        if (module := _module(path)) not in ALLOWED
        and (writes := foreign_writes(module, path.read_text()))
    }
    assert found == {}, "write through the owner's service"


def test_no_service_re_exports_an_orm_class() -> None:
    """ORM classes are imported from ``<owner>.models``, never through another module."""
    classes = {
        node.name: _module(path)
        for path in SRC.rglob("models.py")
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.ClassDef)
    }
    found = [
        f"{_module(path)}:{node.lineno}: {alias.name} from {node.module}"
        for path in sorted(SRC.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("vigia")
        for alias in node.names
        if alias.name in classes and node.module != classes[alias.name]
    ]
    assert found == []
