"""``LocalBackend`` on the real SmolLM2 file: what llama.cpp refuses (a malformed body, a
prompt past the context window) becomes an ``UpstreamError`` with llama.cpp's reason, on the
whole path and the streamed one, and the queue lets the next request in afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.local_files import requires_local, smollm2
from vigia.errors import UpstreamError
from vigia.llm.local import LocalBackend, LocalOptions, default_threads

pytestmark = [pytest.mark.local_model, requires_local]


@pytest.fixture(scope="module")
def backend() -> Iterator[LocalBackend]:
    yield LocalBackend(smollm2(), LocalOptions(threads=1, context=512))


def _too_long(stream: bool) -> dict[str, object]:
    words = "the shop opens monday to friday " * 200  # well past 512 tokens
    return {"messages": [{"role": "user", "content": words}], "max_tokens": 8, "stream": stream}


def test_refusals_of_llama_cpp_are_upstream_errors(backend: LocalBackend) -> None:
    with pytest.raises(UpstreamError, match=r"refused the request: .*messages"):
        backend.post("/chat/completions", {"messages": "hello"})
    with pytest.raises(UpstreamError, match=r"refused the request: .*messages"):
        list(backend.stream_lines("/chat/completions", {"messages": "hello", "stream": True}))
    with pytest.raises(UpstreamError, match=r"the local model failed: .*context"):
        backend.post("/chat/completions", _too_long(False))
    with pytest.raises(UpstreamError, match=r"the local model failed: .*context"):
        list(backend.stream_lines("/chat/completions", _too_long(True)))
    answer = backend.post(
        "/chat/completions", {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 4}
    )
    assert answer["choices"][0]["finish_reason"] in ("stop", "length")


def test_the_default_thread_count_follows_the_cores() -> None:
    assert [default_threads(n) for n in (1, 2, 4, 16)] == [1, 1, 2, 8]
