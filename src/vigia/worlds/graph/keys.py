"""Entity keys of the code graph: one place that builds and parses them.

A key is its kind and its parts joined by ``:``. Program-scoped kinds name the program
first (``PARA:PGM:NAME``, ``SECT:PGM:NAME``, ``DATA:PGM:NAME``, ``FD:PGM:NAME``,
``CURSOR:PGM:NAME``, ``SQL:PGM:LINE``, ``CICS:PGM:LINE``); a JCL step names its job or
procedure (``STEP:JOB:NAME``); a definition in another language its file
(``DEF:PATH:NAME``); a documentation passage its file and first line (``DOC:PATH:LINE``,
never stored); every other kind is ``KIND:NAME`` (``PGM:LGSTSQ``, ``TABLE:CUSTOMER``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """The prefix of a key: what kind of thing it names."""

    PGM = "PGM"
    PARA = "PARA"
    SECT = "SECT"
    DATA = "DATA"
    FD = "FD"
    CURSOR = "CURSOR"
    SQL = "SQL"
    CICS = "CICS"
    COPY = "COPY"
    JOB = "JOB"
    PROC = "PROC"
    STEP = "STEP"
    DSN = "DSN"
    DD = "DD"
    MEMBER = "MEMBER"
    TABLE = "TABLE"
    FILE = "FILE"
    QUEUE = "QUEUE"
    COUNTER = "COUNTER"
    TRAN = "TRAN"
    MAP = "MAP"
    MAPSET = "MAPSET"
    ABEND = "ABEND"
    DEF = "DEF"
    NAME = "NAME"
    DOC = "DOC"


PROGRAM_SCOPED = frozenset(
    {Kind.PARA, Kind.SECT, Kind.DATA, Kind.FD, Kind.CURSOR, Kind.SQL, Kind.CICS}
)
CODE_BLOCKS = frozenset({Kind.PARA, Kind.SECT})
JCL_KINDS = frozenset({Kind.JOB, Kind.PROC, Kind.STEP})
_OWNED = PROGRAM_SCOPED | {Kind.STEP, Kind.DEF, Kind.DOC}


@dataclass(frozen=True)
class Key:
    """A parsed key: its kind, what owns it (a program, job, file; None for top-level
    kinds) and its own name (a line number for ``SQL``/``CICS``/``DOC``)."""

    kind: Kind
    owner: str | None
    name: str

    @property
    def program(self) -> str | None:
        """The program the key belongs to (a program's own key names itself)."""
        if self.kind is Kind.PGM:
            return self.name
        return self.owner if self.kind in PROGRAM_SCOPED else None


def make(kind: Kind, *parts: str | int) -> str:
    """The key of ``kind`` with ``parts`` (``make(Kind.TABLE, "CUSTOMER")``)."""
    return ":".join([kind.value, *(str(p) for p in parts)])


def key_prefix(kind: Kind) -> str:
    """What every key of ``kind`` starts with (``PGM:``), for prefix queries."""
    return f"{kind.value}:"


def program_key(name: str) -> str:
    return make(Kind.PGM, name)


def paragraph_key(program: str, name: str) -> str:
    return make(Kind.PARA, program, name)


def section_key(program: str, name: str) -> str:
    return make(Kind.SECT, program, name)


def block_key(kind: str, program: str, name: str) -> str:
    """The key of a procedure header: ``section`` or ``paragraph``."""
    return section_key(program, name) if kind == "section" else paragraph_key(program, name)


def data_key(program: str, name: str) -> str:
    return make(Kind.DATA, program, name)


def copybook_key(name: str) -> str:
    return make(Kind.COPY, name)


def step_key(owner: str, name: str | int) -> str:
    """A JCL step of job or procedure ``owner`` (an unnamed step: its line)."""
    return make(Kind.STEP, owner, name)


def doc_key(path: str, line: int) -> str:
    """A documentation passage that answers, by its file and first line (never stored)."""
    return make(Kind.DOC, path, line)


def kind_of(key: str) -> Kind | None:
    """The kind of ``key``; None for what is no key of a known kind."""
    head, sep, _rest = key.partition(":")
    if not sep:
        return None
    try:
        return Kind(head)
    except ValueError:
        return None


def is_kind(key: str, *kinds: Kind) -> bool:
    """Whether ``key`` is of one of ``kinds``."""
    return kind_of(key) in kinds


def is_code_block(key: str) -> bool:
    """Whether ``key`` names a paragraph or a section."""
    return kind_of(key) in CODE_BLOCKS


def parse_key(key: str) -> Key | None:
    """``PARA:TAXCALC:CALC-TAX`` → ``Key(PARA, "TAXCALC", "CALC-TAX")``; None for what is no
    key of a known kind. An owned kind splits at its first ``:`` after the kind (a ``DEF`` or
    ``DOC`` key at its last: a path may hold one); a top-level kind keeps the rest as its
    name."""
    kind = kind_of(key)
    if kind is None:
        return None
    rest = key[len(kind.value) + 1 :]
    if kind in _OWNED and ":" in rest:
        split = rest.rpartition if kind in (Kind.DEF, Kind.DOC) else rest.partition
        owner, _, name = split(":")
        return Key(kind, owner, name)
    return Key(kind, None, rest)


def name_of(key: str) -> str:
    """The last part of ``key`` (``PARA:P:CALC`` → ``CALC``), or the key itself."""
    return key.rsplit(":", 1)[-1]
