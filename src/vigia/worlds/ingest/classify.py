"""What kind of file a world path holds: COBOL program, copybook, JCL, docs, code or text."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from vigia.worlds.ingest.cobol.preprocess import is_free_format
from vigia.worlds.ingest.jcl import looks_like_jcl

COBOL_EXTENSIONS = frozenset({".cbl", ".cob", ".cobol", ".ccp", ".pco", ".sqb"})
COPYBOOK_EXTENSIONS = frozenset({".cpy", ".copy", ".cpb", ".inc"})
JCL_EXTENSIONS = frozenset({".jcl", ".proc", ".prc"})
MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".rst"})
BMS_EXTENSIONS = frozenset({".bms"})
CODE_EXTENSIONS = {
    ".py": "python",
    ".java": "java",
    ".js": "javascript",
    ".ts": "typescript",
    ".c": "c",
    ".h": "c",
    ".cs": "csharp",
    ".go": "go",
    ".rb": "ruby",
    ".sql": "sql",
}
COBOL_SUFFIXES = (".cbl", ".cob", ".cobol", ".cpy", ".copy", ".cpb", ".ccp", ".pco", ".sqb")
_PROGRAM_ID = re.compile(r"^.{0,7}\s*PROGRAM-ID\b", re.IGNORECASE | re.MULTILINE)


def classify(rel_path: str, text: str) -> str:
    """``cobol``, ``copybook``, ``jcl``, ``bms``, ``markdown``, ``code`` or ``text``."""
    suffix = PurePosixPath(rel_path).suffix.lower()
    if suffix in COBOL_EXTENSIONS:
        return "cobol" if _PROGRAM_ID.search(text) else "copybook"
    if suffix in COPYBOOK_EXTENSIONS:
        return "copybook"
    if suffix in JCL_EXTENSIONS or (suffix in ("", ".txt") and looks_like_jcl(text)):
        return "jcl"
    if suffix in BMS_EXTENSIONS:
        return "bms"
    if suffix in MARKDOWN_EXTENSIONS:
        return "markdown"
    if suffix in CODE_EXTENSIONS:
        return "code"
    if suffix == "" and _PROGRAM_ID.search(text[:5000]):
        return "cobol"
    return "text"


def is_fixed_format(path: str, text: str) -> bool:
    """Whether ``path`` is COBOL written in fixed format (sequence and indicator areas)."""
    return path.lower().endswith(COBOL_SUFFIXES) and not is_free_format(text)


def is_probably_text(raw: bytes) -> bool:
    """False for binaries (a NUL byte in the first 8 KiB)."""
    return b"\x00" not in raw[:8192]
