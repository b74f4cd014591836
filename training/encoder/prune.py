"""Choose the vocabulary the shipped encoder keeps: the pieces es/pt/en text uses.

Kept: the four specials; every piece that the tokenizer produces on the es/pt/en training
texts (``corpus.TRAIN_FILES``, with the ``query: `` and ``passage: `` prefixes); every piece
of the ``WORDS_PER_LANGUAGE`` most frequent es, pt and en words of the ``wordfreq`` package
(lower-case, capitalized and upper-case, with and without a leading space); and every
single-character piece below U+2E80 (Latin, Greek, Cyrillic, Arabic, symbols), so such
characters never become ``<unk>``.

The pruned tokenizer is the same Unigram model restricted to the kept pieces, with the
same scores: a word whose own piece was dropped is re-segmented into kept pieces (usually
two or three shorter ones); a character with no kept piece becomes ``<unk>``. New ids
follow the old order, so the specials keep ids 0-3.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from training.encoder import corpus
from training.encoder.tokenizer import META, E5Tokenizer
from training.encoder.weights import Vocabulary

WORDS_PER_LANGUAGE = 50_000
SINGLE_CHARACTER_BELOW = 0x2E80


def kept_ids(tokenizer: E5Tokenizer, vocabulary: Vocabulary, data: Path) -> np.ndarray:
    """Sorted old ids of the kept pieces."""
    import wordfreq

    kept = {vocabulary.bos, vocabulary.pad, vocabulary.eos, vocabulary.unk}
    for _lang, text in corpus.read_files(data, corpus.TRAIN_FILES):
        for prefix in ("query: ", "passage: "):
            kept.update(tokenizer.content_ids(prefix + text))
    for lang in corpus.LANGS:
        for word in wordfreq.top_n_list(lang, WORDS_PER_LANGUAGE):
            for form in (word, word.capitalize(), word.upper()):
                kept.update(tokenizer.content_ids(form))
                kept.update(tokenizer.content_ids("(" + form))
    for index, piece in enumerate(vocabulary.pieces):
        bare = piece.removeprefix(META)
        if len(bare) == 1 and ord(bare) < SINGLE_CHARACTER_BELOW:
            kept.add(index)
    return np.array(sorted(kept), dtype=np.int64)


def pruned_tokenizer(
    vocabulary: Vocabulary, normalization: dict[int, str], keep: np.ndarray
) -> E5Tokenizer:
    """The Unigram tokenizer over the kept pieces only (new ids = positions in ``keep``)."""
    position = {int(old): new for new, old in enumerate(keep)}
    specials = {
        "bos": position[vocabulary.bos],
        "eos": position[vocabulary.eos],
        "pad": position[vocabulary.pad],
        "unk": position[vocabulary.unk],
    }
    pieces = [vocabulary.pieces[int(i)] for i in keep]
    scores = [float(vocabulary.scores[int(i)]) for i in keep]
    return E5Tokenizer.from_vocabulary(pieces, scores, normalization, specials)
