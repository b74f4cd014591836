"""What a form field may hold, read from the pydantic model that validates it: the length and
range limits become the input's ``maxlength``/``min``/``max``, a ``Literal`` becomes the
select's options. Templates never retype them."""

from __future__ import annotations

import types
from dataclasses import dataclass, replace
from typing import Literal, Union, get_args, get_origin

from annotated_types import Ge, Le, MaxLen
from markupsafe import Markup
from pydantic import BaseModel


@dataclass(frozen=True)
class Bounds:
    """An input's limits; in a template ``<input name="x"{{ limits['x'] }}>`` writes them."""

    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None

    def __html__(self) -> str:
        attributes = {"maxlength": self.max_length, "min": self.minimum, "max": self.maximum}
        return "".join(
            Markup(' {}="{}"').format(name, value)
            for name, value in attributes.items()
            if value is not None
        )


def bounds(model: type[BaseModel], name: str) -> Bounds:
    """The limits pydantic checks on ``model.name``."""
    limits = Bounds()
    for item in model.model_fields[name].metadata:
        if isinstance(item, MaxLen):
            limits = replace(limits, max_length=item.max_length)
        elif isinstance(item, Ge) and isinstance(item.ge, int | float):
            limits = replace(limits, minimum=item.ge)
        elif isinstance(item, Le) and isinstance(item.le, int | float):
            limits = replace(limits, maximum=item.le)
    return limits


def choices(model: type[BaseModel], name: str) -> tuple[str, ...]:
    """The values of the ``Literal`` that types ``model.name`` (``None`` left out)."""
    annotation = model.model_fields[name].annotation
    if get_origin(annotation) in (Union, types.UnionType):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is not Literal:
        raise TypeError(f"{model.__name__}.{name} is not a Literal")
    return tuple(str(value) for value in get_args(annotation))
