"""What every lens shares: the question's context (scope, names carried over from earlier
turns, retrieval), entity resolution, and the answer with its citations (``path:line``).

Scope: a lens only cites what lies under the request's scope paths — graph edges (each edge
is proven by a line, and that line must be in scope), passages and entities — so every
citation of an answer is in scope. Names the question gives are resolved against the whole
world all the same: "What calls LGSTSQ?" scoped to two callers finds LGSTSQ, says that it is
defined outside the scope, and cites the calls the scope holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.embeddings import Vectors
from vigia.language import detect_language
from vigia.worlds import embedding
from vigia.worlds.answer.glossary import english_words
from vigia.worlds.answer.lenses.wording import phrase, question_language, word
from vigia.worlds.answer.names import code_like, lexical_query, query_terms
from vigia.worlds.answer.retrieval import ChunkHit, in_scope, search_world
from vigia.worlds.graph.keys import Kind, is_kind, parse_key
from vigia.worlds.graph.queries import Hop, edges, entities_by_key, entities_named, label, upstream
from vigia.worlds.models import WorldEdge, WorldEntity, WorldFile

KIND_ORDER = {
    kind: rank
    for rank, kind in enumerate(
        [
            "program",
            "transaction",
            "copybook",
            "cics_file",
            "table",
            "queue",
            "counter",
            "map",
            "mapset",
            "job",
            "proc",
            "paragraph",
            "section",
            "step",
            "dataset",
            "data",
            "condition",
            "cursor",
            "abend_code",
            "file",
            "definition",
        ]
    )
}
RESOLVABLE = tuple(KIND_ORDER)
SEARCH_DEPTH = 24
BOILERPLATE_PROGRAMS = 4


@dataclass
class LensInput:
    """A question asked of one world, with the scope it may look at and the names earlier
    turns of the conversation were about (used when the question refers back to them)."""

    session: Session
    world_id: str
    message: str
    scope_paths: list[str]
    context: list[str] = field(default_factory=list)

    @cached_property
    def lang(self) -> str:
        """The language the answer is written in: the question's (es, pt or en)."""
        return question_language(self.message)

    @property
    def terms(self) -> list[str]:
        return list(dict.fromkeys([*query_terms(self.message), *self.context]))

    @property
    def query(self) -> str:
        """The text searched by meaning: the question, plus the names it refers back to."""
        return " ".join([self.message, *self.context])

    @property
    def words(self) -> str:
        """The text searched by words: the query without the words every question about
        code has ("which program", "qué párrafo"), which would match every paragraph; a
        Spanish or Portuguese question also brings the English words of its own."""
        found = lexical_query(self.query)
        if detect_language(self.message) in ("es", "pt"):
            found = " ".join([found, *english_words(self.message)])
        return found

    @cached_property
    def boilerplate(self) -> set[str]:
        """Paragraph names found in many programs (``WRITE-ERROR-MESSAGE``, ``MAINLINE-EXIT``):
        shared plumbing, rarely what a question is about."""
        rows = self.session.execute(
            select(WorldEntity.name)
            .where(
                WorldEntity.world_id == self.world_id,
                WorldEntity.kind.in_(["paragraph", "section"]),
            )
            .group_by(WorldEntity.name)
            .having(func.count(func.distinct(WorldEntity.program)) >= BOILERPLATE_PROGRAMS)
        )
        return {str(r[0]) for r in rows}

    def in_scope(self, path: str) -> bool:
        return in_scope(path, self.scope_paths)

    def edges(self, **where: Any) -> list[WorldEdge]:
        """Graph edges (``src``, ``dst``, ``kinds``) whose proving line is in scope."""
        return [e for e in edges(self.session, self.world_id, **where) if self.in_scope(e.path)]

    def upstream(self, keys: list[str]) -> list[Hop]:
        """Transitive dependants of ``keys``, only through edges proven in scope."""
        hops = upstream(self.session, self.world_id, keys)
        return [h for h in hops if self.in_scope(h.path)]

    def entities(self, keys: list[str]) -> list[WorldEntity]:
        found = entities_by_key(self.session, self.world_id, keys)
        return [e for e in found if self.in_scope(e.path)]

    @cached_property
    def vector(self) -> Vectors:
        return embedding.query(self.query)

    @cached_property
    def hits(self) -> list[ChunkHit]:
        """The best passages in scope for the question (hybrid search), best first."""
        return search_world(
            self.session,
            self.world_id,
            self.words,
            self.scope_paths,
            SEARCH_DEPTH,
            vector=self.vector,
        )

    def search(self, query: str, scope_paths: list[str], limit: int = 8) -> list[ChunkHit]:
        """Another search of the world (within the request's scope as well)."""
        paths = [p for p in scope_paths if self.in_scope(p)] or self.scope_paths
        return search_world(self.session, self.world_id, query, paths, limit)

    @cached_property
    def named_files(self) -> list[str]:
        """Files of the world the question names (``db2bind.jcl``), in scope."""
        wanted = {t.lower() for t in code_like(self.message) if "." in t}
        if not wanted:
            return []
        paths = self.session.scalars(
            select(WorldFile.path).where(WorldFile.world_id == self.world_id)
        )
        return [p for p in paths if p.rsplit("/", 1)[-1].lower() in wanted and self.in_scope(p)]


@dataclass
class Resolved:
    """Entities the question names, grouped by name: ``strong`` names are written like code
    (``LGAPOL01``, ``MOTOR``) or carried over from earlier turns; ``weak`` ones are ordinary
    words that happen to name something (``house`` → table ``HOUSE``)."""

    strong: list[list[WorldEntity]]
    weak: list[list[WorldEntity]]

    @property
    def names(self) -> list[str]:
        return [g[0].name for g in self.strong]

    @property
    def keys(self) -> set[str]:
        return {e.key for g in [*self.strong, *self.weak] for e in g}


def resolve(lens: LensInput) -> Resolved:
    """Entities named in the question (and the context it refers to), in the whole world:
    the scope restricts what is cited (``at``), not what a name means. Of a name defined
    both inside and outside the scope, the definitions inside come first."""
    candidates = lens.terms
    found = entities_named(lens.session, lens.world_id, candidates, RESOLVABLE)
    strong_names = code_like(lens.message) | set(lens.context)
    strong: list[list[WorldEntity]] = []
    weak: list[list[WorldEntity]] = []
    for name in candidates:
        group: dict[str, WorldEntity] = {}
        for entity in sorted(
            (e for e in found if e.name == name),
            key=lambda e: (
                not lens.in_scope(e.path),
                KIND_ORDER.get(e.kind, 99),
                e.path,
                e.line_start,
            ),
        ):
            group.setdefault(entity.key, entity)
        if group:
            entities = sorted(
                group.values(),
                key=lambda e: (KIND_ORDER.get(e.kind, 99), not lens.in_scope(e.path), e.path),
            )
            (strong if name in strong_names else weak).append(entities)
    return Resolved(strong, weak)


@dataclass
class Answer:
    """Sentences with inline citations, the cited sources in order, and structured details."""

    lens: str
    lang: str = "en"
    sentences: list[str] = field(default_factory=list)
    sources: list[tuple[str, int]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    def cite(self, path: str, line: int) -> str:
        """Records ``path:line`` as a source and returns it for the sentence."""
        if (path, line) not in self.sources:
            self.sources.append((path, line))
        return f"{path}:{line}"

    def say(self, sentence: str) -> None:
        if sentence and sentence not in self.sentences:
            self.sentences.append(sentence)

    def tell(self, template: str, **values: object) -> None:
        """Says the English ``template`` in the answer's language (``wording.phrase``)."""
        self.say(phrase(self.lang, template, **values))

    def word(self, english: str, **values: object) -> str:
        """A word or lead of a sentence in the answer's language (``wording.word``)."""
        return word(self.lang, english, **values)

    @property
    def headline(self) -> str:
        return " ".join(self.sentences)


def at(lens: LensInput, answer: Answer, path: str, line: int, end: int | None = None) -> str:
    """The citation ``path:line`` (``path:line-end``) of a definition in scope; for one
    outside the scope, words saying so (the answer cites nothing the scope leaves out)."""
    if not lens.in_scope(path):
        return answer.word("defined outside the scope")
    where = answer.cite(path, line)
    return f"{where}-{end}" if end is not None and end > line else where


def program_of(key: str) -> str | None:
    """The program ``key`` names or belongs to (a paragraph's, a data item's), if any."""
    parsed = parse_key(key)
    return parsed.program if parsed is not None else None


def listing(items: list[str], limit: int = 8, lang: str = "en") -> str:
    """``A, B and C`` (``and N more`` past ``limit``), in ``lang``."""
    shown = list(dict.fromkeys(items))
    if len(shown) > limit:
        shown = [*shown[:limit], f"{len(shown) - limit} {word(lang, 'more')}"]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + f" {word(lang, 'and')} " + shown[-1]


def names(keys: list[str], limit: int = 8, lang: str = "en") -> str:
    """``A, B and C`` from keys, shortened."""
    return listing([label(k) for k in keys], limit, lang)


def distinct(key: str, path: str) -> tuple[str, str]:
    """What tells two mentions of an entity apart: its key, and for a JCL step or job its
    file too (two members may each hold a job and step of the same names)."""
    return (key, path if is_kind(key, Kind.STEP, Kind.JOB, Kind.PROC) else "")


def cited(answer: Answer, found: list[WorldEdge], use_src: bool, limit: int = 6) -> str:
    """``X (path:line), Y (path:line) and N more``, one item per distinct entity."""
    firsts: dict[tuple[str, str], WorldEdge] = {}
    for edge in found:
        key = edge.src_key if use_src else edge.dst_key
        firsts.setdefault(distinct(key, edge.path), edge)
    items = [
        f"{label(k)} ({answer.cite(e.path, e.line)})" for (k, _p), e in list(firsts.items())[:limit]
    ]
    if len(firsts) > limit:
        items.append(f"{len(firsts) - limit} {answer.word('more')}")
    return listing(items, limit + 1, answer.lang)
