"""What extractors produce: entities and edges of the code graph, keyed by kind-prefixed names
(``PGM:NAME``, ``PARA:PGM:NAME``…: built and parsed by ``vigia.worlds.graph.keys``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entity:
    """A node: what it is, its name, where it is defined (file and line range)."""

    kind: str
    name: str
    key: str
    path: str
    line_start: int
    line_end: int
    program: str | None = None
    level: int | None = None
    origin: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class Edge:
    """A relation between two keys, proven by ``path:line``."""

    kind: str
    src_key: str
    dst_key: str
    path: str
    line: int
    detail: str | None = None


@dataclass
class Extraction:
    """Everything one file contributes to the graph."""

    entities: list[Entity] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    copies: list[str] = field(default_factory=list)

    def add_edge(self, edge: Edge) -> None:
        """Adds ``edge`` unless the same relation on the same line is already there."""
        if edge not in self._seen:
            self._seen.add(edge)
            self.edges.append(edge)

    @property
    def _seen(self) -> set[Edge]:
        seen = self.__dict__.get("_seen_edges")
        if seen is None:
            seen = set(self.edges)
            self.__dict__["_seen_edges"] = seen
        return seen
