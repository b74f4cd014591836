"""The days the Uso page covers: ``from`` and ``to`` (UTC dates, both included) from its GET
form, the last 30 days by default, at most 366 days and never past today. A refused range
keeps its typed values and says why under the field; the page then shows the default."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from vigia.console.field_errors import FieldError, FieldErrors

DEFAULT_DAYS = 30
MAX_DAYS = 366
QUICK_DAYS = (7, 30, 90)
"""The quick ranges offered beside the form: the last 7, 30 or 90 days."""
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class DateRange:
    """From ``start`` to ``end``, both days included."""

    start: date
    end: date

    @property
    def days(self) -> list[date]:
        return [self.start + timedelta(days=n) for n in range((self.end - self.start).days + 1)]

    @property
    def since(self) -> datetime:
        """The first moment of the range (UTC)."""
        return datetime.combine(self.start, time(), UTC)

    @property
    def until(self) -> datetime:
        """The first moment after the range (UTC)."""
        return datetime.combine(self.end, time(), UTC) + timedelta(days=1)


def last_days(count: int, today: date) -> DateRange:
    """The ``count`` days up to ``today``."""
    return DateRange(today - timedelta(days=count - 1), today)


@dataclass(frozen=True)
class RangeRead:
    """The range a request asked for (the default one when refused), the problems of its
    fields, and the values the form shows again."""

    range: DateRange
    errors: FieldErrors = field(default_factory=dict)
    typed: dict[str, str] = field(default_factory=dict)


def _day(text: str, name: str, today: date, errors: FieldErrors) -> date | None:
    """The date a field holds (None when empty or refused, the problem in ``errors``)."""
    if not text:
        return None
    try:
        if not ISO_DATE.fullmatch(text):
            raise ValueError(text)
        day = date.fromisoformat(text)
    except ValueError:
        errors[name] = [FieldError("usage.invalid_date")]
        return None
    if day > today:
        errors[name] = [FieldError("usage.future_date")]
        return None
    return day


def read_range(start_text: str, end_text: str, today: date) -> RangeRead:
    """The range of the form's ``from`` and ``to`` (either may be empty: ``to`` defaults to
    today, ``from`` to 30 days up to ``to``)."""
    start_text, end_text = start_text.strip(), end_text.strip()
    errors: FieldErrors = {}
    start = _day(start_text, "from", today, errors)
    end = _day(end_text, "to", today, errors)
    default = last_days(DEFAULT_DAYS, today)
    typed = {"from": start_text, "to": end_text}
    if errors:
        return RangeRead(default, errors, typed)
    end = end or today
    start = start or last_days(DEFAULT_DAYS, end).start
    if start > end:
        errors["to"] = [FieldError("usage.reversed_range")]
    elif (end - start).days + 1 > MAX_DAYS:
        errors["to"] = [FieldError("usage.range_too_long", {"max": MAX_DAYS})]
    if errors:
        return RangeRead(default, errors, typed)
    chosen = DateRange(start, end)
    return RangeRead(chosen, {}, {"from": start.isoformat(), "to": end.isoformat()})
