"""The (premise, hypothesis) pairs the grounding cross-encoder is fitted on, and the pair
encoding shared with run time.

``build`` reads the sources of ``research.grounding_nli.sources`` and returns rows (premise,
hypothesis, label, lang, source, kind, group) where label 1 = entailed:

- ``nli``: ASSIN 2, ASSIN (pt-BR, pt-PT) and SNLI pairs as labelled (neutral and
  contradiction are "not entailed");
- ``partial``: WiCE train sub-claims annotated partially supported, against the sentences
  that support part of them (not entailed);
- ``copy`` / ``clause``: a sentence of a WiCE train article, or its first clause, against a
  window of 1-4 sentences around it (entailed); ``unsupported``: the same sentence against a
  window of the same article at least 6 sentences away (not entailed);
- ``sib``: the same, on SIB-200 train sentences, the hypothesis language redrawn
  (Spanish favoured) for 40 % of rows (the sentence is the same FLORES item);
- ``number`` / ``negation`` / ``name``: an entailed hypothesis edited by
  ``research.grounding_nli.perturb`` (not entailed).

Rows are split by ``group`` (the article, FLORES item or source pair), 8 % validation.
WiCE dev and test are never read; ``assert_disjoint`` checks no dev claim or article is in.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from training.encoder.tokenizer import E5Tokenizer

from research.grounding_nli import perturb, sources

HYPOTHESIS_PREFIX = "query: "
PREMISE_PREFIX = "passage: "
MAX_LENGTH = 128
MAX_HYPOTHESIS = 48
VALIDATION_SHARE = 0.08
ARTICLE_TARGETS = 14
SIB_ROUNDS = 2


@dataclass(frozen=True)
class Pair:
    premise: str
    hypothesis: str
    label: int
    lang: str
    source: str
    kind: str
    group: str


def pair_ids(tokenizer: E5Tokenizer, hypothesis: str, premise: str) -> list[int]:
    """``<s> query: hypothesis </s></s> passage: premise </s>``, the hypothesis clipped to
    ``MAX_HYPOTHESIS`` content tokens and the premise to what is left of ``MAX_LENGTH``."""
    hyp = tokenizer.content_ids(HYPOTHESIS_PREFIX + hypothesis)[:MAX_HYPOTHESIS]
    room = MAX_LENGTH - len(hyp) - 4
    prem = tokenizer.content_ids(PREMISE_PREFIX + premise)[:room]
    return [tokenizer.bos, *hyp, tokenizer.eos, tokenizer.eos, *prem, tokenizer.eos]


def _clean_sentences(evidence: list[str]) -> list[str]:
    out = []
    for line in evidence:
        text = line.lstrip("#").strip()
        if text.startswith("(meta data)") or len(text.split()) < 6:
            continue
        out.append(text)
    return out


def _clause(sentence: str) -> str | None:
    head = re.split(r"[,;:]\s", sentence, maxsplit=1)[0].strip()
    return head if 6 <= len(head.split()) < len(sentence.split()) - 2 else None


def _names(sentences: list[str]) -> list[str]:
    found = {m.group(1) for s in sentences for m in perturb._NAME.finditer(s)}
    return sorted(found)


def _negative(
    hypothesis: str, lang: str, names: list[str], rng: random.Random
) -> tuple[str, str] | None:
    edits = ["number", "negation", "name"]
    rng.shuffle(edits)
    for kind in edits:
        if kind == "number":
            out = perturb.swap_number(hypothesis, rng)
        elif kind == "negation":
            out = perturb.negate(hypothesis, lang)
        else:
            out = perturb.swap_name(hypothesis, names, rng)
        if out and out != hypothesis:
            return out, kind
    return None


def _article_pairs(
    title: str, sentences: list[str], rng: random.Random, source: str, lang: str
) -> list[Pair]:
    out: list[Pair] = []
    names = _names(sentences)
    targets = [i for i, s in enumerate(sentences) if 8 <= len(s.split()) <= 60]
    for i in rng.sample(targets, min(ARTICLE_TARGETS, len(targets))):
        before, after = rng.randint(0, 2), rng.randint(0, 2)
        premise = " ".join(sentences[max(0, i - before) : i + after + 1])
        hypothesis = sentences[i]
        kind = "copy"
        clause = _clause(hypothesis)
        if clause and rng.random() < 0.5:
            hypothesis, kind = clause, "clause"
        out.append(Pair(premise, hypothesis, 1, lang, source, kind, title))
        negative = _negative(hypothesis, lang, names, rng) if rng.random() < 0.6 else None
        if negative:
            out.append(Pair(premise, negative[0], 0, lang, source, negative[1], title))
            continue
        far = [j for j in range(len(sentences)) if abs(j - i) >= 6]
        if far:
            j = rng.choice(far)
            window = " ".join(sentences[j : j + rng.randint(1, 4)])
            out.append(Pair(window, hypothesis, 0, lang, source, "unsupported", title))
    return out


def _wice(raw: bytes, rng: random.Random) -> list[Pair]:
    out: list[Pair] = []
    articles: dict[str, list[str]] = {}
    for row in sources.wice_rows(raw):
        evidence = [str(x) for x in row["evidence"]]  # type: ignore[attr-defined]
        title = article_key(evidence)
        articles.setdefault(title, evidence)
        support = row["supporting_sentences"]
        if support:
            ids = sorted(set(support[0]))  # type: ignore[index]
            premise = " ".join(evidence[k] for k in ids if k < len(evidence))
            out.append(Pair(premise, str(row["claim"]), 0, "en", "wice-train", "partial", title))
    for title, evidence in sorted(articles.items()):
        out.extend(_article_pairs(title, _clean_sentences(evidence), rng, "wice-train", "en"))
    return out


def article_key(evidence: list[str]) -> str:
    """A WiCE article's group: a digest of its sentences (titles repeat or are empty)."""
    return "wice-" + hashlib.sha1("\n".join(evidence).encode("utf-8")).hexdigest()[:16]


def _sib(data: Path, rng: random.Random) -> list[Pair]:
    texts = sources.sib_sentences(data)
    common = sorted(set.intersection(*(set(v) for v in texts.values())))
    langs = sorted(texts)
    names = {lang: _names(list(texts[lang].values())) for lang in langs}
    out: list[Pair] = []
    for item, premise_lang in [(i, p) for i in common for p in langs for _ in range(SIB_ROUNDS)]:
        others = rng.sample([i for i in common if i != item], rng.randint(1, 3))
        window = [texts[premise_lang][i] for i in [item, *others]]
        rng.shuffle(window)
        hyp_lang = premise_lang if rng.random() < 0.6 else rng.choice(["es", "es", "pt", "en"])
        hypothesis = texts[hyp_lang][item]
        group = f"sib-{item}"
        out.append(Pair(" ".join(window), hypothesis, 1, hyp_lang, "sib200", "sib", group))
        negative = _negative(hypothesis, hyp_lang, names[hyp_lang], rng)
        if negative and rng.random() < 0.6:
            out.append(
                Pair(" ".join(window), negative[0], 0, hyp_lang, "sib200", negative[1], group)
            )
            continue
        far = rng.choice([i for i in common if i not in (item, *others)])
        premise = " ".join([*(texts[premise_lang][i] for i in others), texts[premise_lang][far]])
        out.append(Pair(premise, hypothesis, 0, hyp_lang, "sib200", "unsupported", group))
    return out


def _nli(source: sources.Source, raw: bytes, rng: random.Random) -> list[Pair]:
    reader = sources.assin_pairs if source.name.startswith("assin") else sources.snli_pairs
    out: list[Pair] = []
    for premise, hypothesis, label in reader(raw):
        group = f"{source.name}-{hashlib.sha1(premise.encode()).hexdigest()[:10]}"
        out.append(Pair(premise, hypothesis, label, source.lang, source.name, "nli", group))
        if label == 1 and rng.random() < 0.25:
            negative = _negative(hypothesis, source.lang, [], rng)
            if negative:
                out.append(
                    Pair(premise, negative[0], 0, source.lang, source.name, negative[1], group)
                )
    return out


def build(data: Path, mirrors: Path, seed: int = 29) -> list[Pair]:
    """Every pair, deduplicated on (premise, hypothesis), in a fixed order."""
    rng = random.Random(seed)
    rows: list[Pair] = []
    for source in sources.SOURCES:
        raw = sources.blob(mirrors, source)
        rows.extend(_wice(raw, rng) if source.name == "wice-train" else _nli(source, raw, rng))
    rows.extend(_sib(data, rng))
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in rows:
        key = (row.premise, row.hypothesis)
        if key not in seen and row.premise.strip() and row.hypothesis.strip():
            seen.add(key)
            unique.append(row)
    return unique


def assert_disjoint(rows: list[Pair], wice_dev: Path) -> None:
    """No WiCE dev claim and no WiCE dev article (by ``article_key``) is in ``rows``."""
    dev = [json.loads(x) for x in wice_dev.read_text(encoding="utf-8").splitlines() if x]
    claims = {str(r["claim"]) for r in dev}
    titles = {article_key([str(x) for x in r["evidence"]]) for r in dev}
    assert not claims & {r.hypothesis for r in rows}, "a WiCE dev claim is in the training pairs"
    assert not titles & {r.group for r in rows}, "a WiCE dev article is in the training pairs"


def split(rows: list[Pair]) -> tuple[list[Pair], list[Pair]]:
    """(fit, validation) by group hash."""

    def held(group: str) -> bool:
        return int(hashlib.sha1(group.encode()).hexdigest()[:8], 16) / 2**32 < VALIDATION_SHARE

    return [r for r in rows if not held(r.group)], [r for r in rows if held(r.group)]


def digest(rows: list[Pair]) -> str:
    """SHA-256 of the rows as JSON lines."""
    text = "".join(json.dumps(asdict(r), ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
