"""HTTP tools an agent declares: what the model sees (name, description, parameters) and how
the engine calls them (method, URL template, headers, timeout, response size limit).

Secrets never live in the configuration: a header names the environment variable that holds
its value (``env``), read when the tool is called.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import AfterValidator, BaseModel, Field, field_validator, model_validator

from vigia.kit.fields import Integer, Number, has_control_characters

TOOL_NAME = r"^[a-zA-Z0-9_-]{1,64}$"
HEADER_NAME = r"^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$"
ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]{0,127}$"
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_-]{1,64})\}")
MAX_SCHEMA_CHARS = 32_000
MAX_TOOLS = 20


def _empty_object() -> dict[str, Any]:
    return {"type": "object", "properties": {}}


def check_parameters_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema for an object of arguments: valid JSON Schema, small, no remote refs."""
    text = json.dumps(schema)
    if len(text) > MAX_SCHEMA_CHARS:
        raise ValueError(f"parameters schema longer than {MAX_SCHEMA_CHARS} characters")
    if re.search(r'"\$(ref|dynamicRef)"\s*:\s*"(?!#)', text):
        raise ValueError("parameters schema may only use local references ('#/...')")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        raise ValueError(f"parameters is not a valid JSON schema: {error.message}") from None
    if schema.get("type", "object") != "object":
        raise ValueError('parameters must describe an object ("type": "object")')
    return schema


class ToolHeader(BaseModel):
    """A header sent to the tool: a plain ``value``, or the name of the environment variable
    (``env``) that holds a secret one; ``prefix`` goes before it (e.g. ``"Bearer "``)."""

    name: str = Field(pattern=HEADER_NAME)
    value: str | None = Field(default=None, max_length=2000)
    env: str | None = Field(default=None, pattern=ENV_NAME)
    prefix: str = Field(default="", max_length=64)

    @model_validator(mode="after")
    def _one_source(self) -> ToolHeader:
        if (self.value is None) == (self.env is None):
            raise ValueError("a header needs exactly one of 'value' or 'env'")
        if has_control_characters((self.value or "") + self.prefix):
            raise ValueError("header values cannot contain control characters")
        return self


class HttpTool(BaseModel):
    """A tool the engine calls over HTTP when the model asks for it.

    ``url`` may hold ``{name}`` placeholders in its path or query, filled with the
    (URL-encoded) argument of that name; the other arguments go in the query string (GET,
    DELETE) or as the JSON body (POST, PUT, PATCH). Scheme, host and port are fixed.
    """

    name: str = Field(pattern=TOOL_NAME)
    description: str = Field(default="", max_length=2000)
    parameters: dict[str, Any] = Field(default_factory=_empty_object)
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"] = "GET"
    url: str = Field(min_length=8, max_length=2000)
    headers: list[ToolHeader] = Field(default_factory=list, max_length=20)
    timeout_s: Number = Field(default=10.0, gt=0, le=60)
    max_response_bytes: Integer = Field(default=100_000, ge=1, le=1_000_000)

    @field_validator("parameters")
    @classmethod
    def _schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        return check_parameters_schema(value)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if has_control_characters(value) or " " in value:
            raise ValueError("url cannot contain spaces or control characters")
        parts = urlsplit(PLACEHOLDER.sub("x", value))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("url must be an http(s) URL with a host")
        if PLACEHOLDER.search(value.split("//", 1)[1].split("/", 1)[0]):
            raise ValueError("url placeholders may only stand in the path or the query")
        if parts.username or parts.password:
            raise ValueError("url cannot carry credentials: use a header with 'env'")
        return value

    def placeholders(self) -> list[str]:
        return PLACEHOLDER.findall(self.url)


def _unique_names(tools: list[HttpTool]) -> list[HttpTool]:
    names = [t.name for t in tools]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"tool names must be unique: {', '.join(repeated)}")
    return tools


HttpTools = Annotated[list[HttpTool], Field(max_length=MAX_TOOLS), AfterValidator(_unique_names)]
