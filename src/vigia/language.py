"""Text normalisation for Spanish, Portuguese and English: accents, case, words, sentences."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Combining marks left by NFKD: accents, tildes, cedillas (Latin, Greek and Cyrillic blocks).
_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# A sentence ends at . ! ? … followed by space and an upper-case letter, digit, ¿ ¡ or quote,
# or at a blank line. Text written all in lower case (transcripts, scraped regulations) also
# ends one where a word of four letters or more closes with the stop and a lower-case word
# follows: abbreviations ("art.", "Sr.", "etc.", "pág.") are shorter and stay whole.
# Citation markers after the stop belong to the sentence they close (possessive ``*+``: a
# marker that ends the text is never split off as a sentence of its own).
SENTENCE_END = re.compile(
    r"(?<=[.!?…])(?:\s*\[\d+\])*+\s+(?=[\"'«¿¡(\[A-ZÁÉÍÓÚÂÊÔÃÕÇÑ0-9])"
    r"|(?<=[^\W\d_]{4}[.!?…])\s+(?=[a-záéíóúâêôãõçñ])"
    r"|\n\s*\n"
)
_LINE_BREAKS = re.compile(r"\n+")


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` (how word lists are written here)."""
    return frozenset(text.split())


# Function words, folded (see ``fold``), that carry no topic of their own.
STOPWORDS_ES = word_set(
    """
    a al algo algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra
    cual cuales cuando cuanta cuanto de del desde donde dos el ella ellas ello ellos en entre
    era eran es esa esas ese eso esos esta estas este esto estos fue fueron ha han hasta hay la
    las le les lo los mas me mi mis mucho muy nada ni no nos nosotros o os otra otras otro otros
    para pero poco por porque que quien quienes se sea segun ser si sin sobre son su sus tambien
    te tiene tienen todo todos tu tus un una uno unos usted ustedes y ya yo
    """
)
STOPWORDS_PT = word_set(
    """
    ao aos as com como da das do dos ela elas ele eles em essa essas esse esses esta estas este
    estes eu isso isto mais mas na nao nas no nos num numa o onde os ou pela pelas pelo pelos
    quais qual quando sao seu seus sua suas tem um uma umas uns voce voces
    """
)
STOPWORDS_EN = word_set(
    """
    a about after all an and any are as at be been before but by can could did do does for from
    had has have how i if in into is it its me my no not of on or our shall should so such than
    that the their them then there these they this those to was we were what when where which
    who whom why will with would you your
    """
)
STOPWORDS = STOPWORDS_ES | STOPWORDS_PT | STOPWORDS_EN

# Words that turn a statement around: "no cubre", "não inclui", "never refunds".
NEGATIONS = word_set(
    """
    no nao not never nunca jamas ningun ninguna nenhum nenhuma none sin sem without tampoco
    nor ni nem cannot don doesn didn isn aren wasn weren hasn haven hadn couldn wouldn
    shouldn
    """
)


def fold(text: str) -> str:
    """Lower-cases and strips accents: ``Cláusula`` → ``clausula``, ``não`` → ``nao``."""
    return _MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order."""
    return _WORD.findall(fold(text))


_VOWELS = frozenset("aeiou")


@lru_cache(maxsize=131072)
def stem(word: str) -> str:
    """A light stem shared by es/pt/en: plural, then gender or infinitive ending.

    ``coberturas`` and ``cobertura`` give ``cobertur``; ``nueces`` gives ``nuez``.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ces") and len(word) > 5:
        word = word[:-3] + "z"
    elif word.endswith("es") and len(word) > 5 and word[-3] not in _VOWELS:
        word = word[:-2]
    elif word.endswith("s") and len(word) > 4:
        word = word[:-1]
    if word.endswith(("ar", "er", "ir")) and len(word) >= 6:
        word = word[:-2]
    elif word[-1] in "aoe" and len(word) > 4:
        word = word[:-1]
    return word


def content_terms(text: str) -> list[str]:
    """Stemmed words of ``text`` that carry meaning (stopwords dropped)."""
    return [stem(w) for w in words(text) if w not in STOPWORDS and len(w) > 1]


def sentences(text: str) -> list[str]:
    """Splits prose into sentences, keeping trailing citation markers with their sentence."""
    text = text.strip()
    parts, start = [], 0
    for end in SENTENCE_END.finditer(text):
        parts.append(text[start : end.end()])
        start = end.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def line_sentences(text: str) -> list[str]:
    """The sentences of ``text``, a line break ending one too (lists, bullet points)."""
    return [s for line in _LINE_BREAKS.split(text) for s in sentences(line)]


def break_point(text: str, limit: int) -> int:
    """Where to cut ``text`` to at most ``limit`` characters: after its last space before
    ``limit``, else at ``limit`` (a single word that long)."""
    space = text.rfind(" ", 0, limit)
    return space + 1 if space > 0 else limit


def detect_language(text: str) -> str:
    """A guess among ``es``, ``pt`` and ``en`` from function words and letters."""
    folded = words(text)
    marks = {
        "es": {"el", "los", "las", "que", "por", "una", "del", "como", "es", "esta", "para", "y"},
        "pt": {"o", "os", "as", "que", "uma", "do", "da", "nao", "para", "e", "voce", "com"},
        "en": {"the", "is", "are", "what", "how", "and", "of", "to", "for", "you", "with", "a"},
    }
    scores = {lang: sum(w in vocab for w in folded) for lang, vocab in marks.items()}
    lowered = text.lower()
    if any(ch in lowered for ch in "ãõç") or " não " in f" {lowered} ":
        scores["pt"] += 2
    if any(ch in lowered for ch in "ñ¿¡"):
        scores["es"] += 2
    return max(scores, key=lambda lang: (scores[lang], lang == "es"))
