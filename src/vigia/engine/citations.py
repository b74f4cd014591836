"""Maps the model's ``[n]`` markers to passages and renumbers them in order of first use.

A citation's snippet is the passage sentence(s) the citing sentences were taken from: the
passage sentences that share the most words with them (the embedded answerer quotes them
verbatim; an upstream model paraphrases), in passage order, at most ``SNIPPET_SENTENCES``:
the best one always, another only while the snippet stays within ``SNIPPET_CHARS`` (a
long neighbour must not push the cited sentence past the cut).
A passage no citing sentence resembles falls back to its opening.

A model that may write no markers at all (small local models often do not; every model
but the embedded answerer, which marks exactly what it takes) still gets its answer
attributed: until the answer's first marker, a sentence that restates one passage
(at least ``ATTRIBUTION_TERMS`` of its content words, and ``ATTRIBUTION_SHARE`` of them, in
that passage; a question is not a claim) is given that passage's marker, so its citation
is attached as if written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vigia.engine.events import Citation
from vigia.language import content_terms, sentences
from vigia.llm.protocol import Passage

MARKER = re.compile(r"\[(\d{1,3})\]")
SNIPPET_CHARS = 600
SNIPPET_SENTENCES = 2
ATTRIBUTION_TERMS = 3
ATTRIBUTION_SHARE = 0.5


def _clip(text: str) -> str:
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS].rstrip() + "…"


def snippet(passage: str, citing: list[str]) -> str:
    """The sentences of ``passage`` that the ``citing`` sentences draw on."""
    parts = sentences(passage)
    wanted = set(content_terms(" ".join(citing)))
    if len(parts) <= 1 or not wanted:
        return _clip(passage)
    scores = [len(wanted & set(content_terms(p))) for p in parts]
    best = max(scores)
    if best == 0:
        return _clip(passage)
    ranked = sorted(range(len(parts)), key=lambda i: (-scores[i], i))
    chosen = [ranked[0]]
    for i in ranked[1:SNIPPET_SENTENCES]:
        longer = sorted([*chosen, i])
        if (
            scores[i] >= max(1, best // 2)
            and len(" ".join(parts[j] for j in longer)) <= SNIPPET_CHARS
        ):
            chosen = longer
    return _clip(" ".join(parts[i] for i in sorted(chosen)))


class CitationMap:
    """Rewrites markers sentence by sentence; unknown markers are removed.

    Disabled (``enabled=False``) for answers the client asked as JSON: ``[1]`` there is data.
    ``attribute=False`` trusts the model's markers alone (no attribution of unmarked text).
    ``redact`` is applied to each cited passage before its snippet is chosen (so a value is
    never half cut and half shown).
    """

    def __init__(
        self,
        passages: list[Passage],
        enabled: bool = True,
        redact: Callable[[str], str] | None = None,
        attribute: bool = True,
    ) -> None:
        self._passages = passages
        self._enabled = enabled
        self._numbers: dict[int, int] = {}
        self._citing: dict[int, list[str]] = {}
        self._redact = redact
        self._marked = not attribute
        self._terms: dict[int, set[str]] = {}

    def _attributed(self, sentence: str) -> int | None:
        """The passage (numbered from 1) an unmarked sentence restates, if one clearly does."""
        if "?" in sentence:
            return None
        terms = set(content_terms(sentence))
        if len(terms) < ATTRIBUTION_TERMS:
            return None
        best, chosen = 0, None
        for number, passage in enumerate(self._passages, start=1):
            if number not in self._terms:
                self._terms[number] = set(content_terms(passage.text))
            common = len(terms & self._terms[number])
            if common > best:
                best, chosen = common, number
        if best >= ATTRIBUTION_TERMS and best >= ATTRIBUTION_SHARE * len(terms):
            return chosen
        return None

    def rewrite(self, sentence: str) -> str:
        if not self._enabled:
            return sentence
        plain = MARKER.sub("", sentence).strip()
        if MARKER.search(sentence):
            self._marked = True
        elif not self._marked and (number := self._attributed(plain)) is not None:
            body = sentence.rstrip()
            sentence = f"{body} [{number}]{sentence[len(body) :]}"

        def replace(match: re.Match[str]) -> str:
            original = int(match.group(1))
            if not 1 <= original <= len(self._passages):
                return ""
            new = self._numbers.setdefault(original, len(self._numbers) + 1)
            self._citing.setdefault(original, []).append(plain)
            return f"[{new}]"

        return MARKER.sub(replace, sentence)

    def citations(self) -> list[Citation]:
        """The cited passages, numbered as they appear in the rewritten text."""
        out = []
        for original, new in sorted(self._numbers.items(), key=lambda item: item[1]):
            p = self._passages[original - 1]
            text = self._redact(p.text) if self._redact is not None else p.text
            out.append(
                Citation(
                    n=new,
                    document_id=p.document_id,
                    document=p.document,
                    snippet=snippet(text, self._citing.get(original, [])),
                    score=max(0.0, min(1.0, p.score)),
                    url=p.url,
                    page=p.page,
                    heading=p.heading,
                )
            )
        return out
