"""Server-sent events: one ``data:`` line per JSON event, and their OpenAPI description."""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter


def sse_line(payload: dict[str, Any] | str) -> str:
    """One event: ``payload`` as JSON (a string is sent as is, e.g. ``[DONE]``)."""
    data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return f"data: {data}\n\n"


def event_stream_response(event_type: Any, description: str) -> dict[str, Any]:
    """An OpenAPI response entry for a ``text/event-stream`` whose ``data`` is ``event_type``.

    The events' schema is written inline (OpenAPI 3.2 ``itemSchema``, as FastAPI documents
    its own event streams): the models of a stream are not components of the document.
    """
    schema = TypeAdapter(event_type).json_schema(mode="serialization")
    data = {
        "type": "string",
        "contentMediaType": "application/json",
        "contentSchema": _inline(schema, schema.get("$defs", {})),
    }
    item = {"type": "object", "required": ["data"], "properties": {"data": data}}
    return {"description": description, "content": {"text/event-stream": {"itemSchema": item}}}


def _inline(schema: Any, definitions: dict[str, Any]) -> Any:
    """``schema`` with every ``#/$defs/…`` reference replaced by the definition it names."""
    if isinstance(schema, list):
        return [_inline(item, definitions) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return _inline({**definitions[name], **rest}, definitions)
    return {k: _inline(v, definitions) for k, v in schema.items() if k != "$defs"}
