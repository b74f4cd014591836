"""Template helpers that speak the page's language: the ``number`` filter, ``label`` for an
identifier the catalogue may name, and ``field_message`` for a form field's problem."""

from __future__ import annotations

from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from vigia.console.field_errors import FieldError, message
from vigia.console.numbers import format_number


@pass_context
def number(context: Context, value: float, digits: int | None = None) -> str:
    """``{{ value | number }}`` (or ``number(2)``) with the page language's separators."""
    return format_number(value, context.get("lang", "es"), digits)


@pass_context
def label(context: Context, prefix: str, value: str) -> str:
    """The catalogue's text for ``prefix + value``, or ``value`` itself when it has none
    (a stage or outcome recorded by a newer engine still shows)."""
    text: str = context["t"](prefix + value)
    return value if text == prefix + value else text


@pass_context
def field_message(context: Context, error: FieldError) -> str:
    return message(error, context["t"], context.get("lang", "es"))


def install(env: Environment) -> None:
    """Adds the helpers to ``env``."""
    env.filters["number"] = number
    env.globals["label"] = label
    env.globals["field_message"] = field_message
