"""Whether a message is asked in another language than a passage is written in.

Across languages a message and the passage that answers it share almost no words, so the
lexical shares that half of a relevance is made of are zero whatever the passage says; the
multilingual sentence vectors are the evidence left. ``language_of`` counts the function
words that belong to one language's list only (``vigia.language`` stopwords: "the", "how"
against "el", "cómo" against "o", "quando"), so a short English question that shares one
word with Portuguese ("do") is still English; a tie goes to
``vigia.language.detect_language``.
"""

from __future__ import annotations

from functools import lru_cache

from vigia.language import (
    STOPWORDS_EN,
    STOPWORDS_ES,
    STOPWORDS_PT,
    detect_language,
    word_set,
    words,
)

# Portuguese words as well that its short list leaves out.
_ALSO_PT = word_set("de por para se a e o")
_ONLY = {
    "es": STOPWORDS_ES - STOPWORDS_PT - STOPWORDS_EN - _ALSO_PT,
    "pt": STOPWORDS_PT - STOPWORDS_ES - STOPWORDS_EN,
    "en": STOPWORDS_EN - STOPWORDS_ES - STOPWORDS_PT,
}
# A passage's language shows in its opening: reading more changes nothing but the cost.
_SAMPLE_CHARS = 600


@lru_cache(maxsize=8192)
def language_of(text: str) -> str:
    """``es``, ``pt`` or ``en``: the language whose own function words ``text`` uses most."""
    sample = text[:_SAMPLE_CHARS]
    found = words(sample)
    counts = {lang: sum(w in only for w in found) for lang, only in _ONLY.items()}
    top = max(counts.values())
    leaders = [lang for lang, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else detect_language(sample)


def crosses(message: str, passage_text: str) -> bool:
    """Whether ``message`` is in another language than ``passage_text``."""
    return language_of(message) != language_of(passage_text)
