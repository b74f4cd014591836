"""The Uso page's range: ``from``/``to`` filter the runs the charts and totals count (both
days included), the totals name the range, the axes and dates speak the page's language,
and a bad range is a 422 with the problem under its field (the default range shown)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, date, datetime, time, timedelta

from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from vigia.console.dates import long_date, short_date
from vigia.db.base import utcnow
from vigia.db.session import session_scope
from vigia.engine.models import Run


def _owner(client: TestClient, tenant: Tenant) -> str:
    make_user("ana", tenant.workspace_id, "owner")
    log_in(client, "ana")
    return f"/console/w/{tenant.workspace_id}/usage"


def _run(tenant: Tenant, when: datetime, tokens: int, cost: float) -> None:
    with session_scope() as session:
        session.add(
            Run(
                id=str(uuid.uuid4()),
                workspace_id=tenant.workspace_id,
                agent_id=tenant.agent_id,
                prompt_tokens=tokens,
                cost_usd=cost,
                created_at=when,
            )
        )


def _totals(html: str) -> str:
    found = re.search(r'<p data-role="totals">(.*?)</p>', html)
    assert found, "no totals"
    return re.sub(r"<[^>]+>", "", found.group(1))


def _field_error(html: str, field: str) -> str:
    found = re.search(rf'<span class="field-error" id="error-{field}"[^>]*>([^<]*)</span>', html)
    assert found, f"no message under {field}"
    return found.group(1)


def _at(day: date, moment: time) -> datetime:
    return datetime.combine(day, moment, UTC)


def test_the_range_counts_only_its_runs_and_the_totals_name_it(
    client: TestClient, tenant: Tenant
) -> None:
    usage = _owner(client, tenant)
    today = utcnow().date()
    old, recent = today - timedelta(days=40), today - timedelta(days=2)
    _run(tenant, _at(old, time(12)), 7000, 3.0)
    _run(tenant, _at(recent, time(23, 59, 59)), 100, 0.5)  # the last second of its day
    default = client.get(usage).text  # the last 30 days: the old run left out
    period = f"{long_date(today - timedelta(days=29), 'es')} – {long_date(today, 'es')}"
    assert _totals(default) == (
        f"Total del período ({period}): Turnos 1 · Tokens 100 · Costo $0,5000"
    )
    assert "<title>asistente: $0,5000</title>" in default and "$3,00" not in default
    wide = client.get(usage, params={"from": old.isoformat(), "to": today.isoformat()}).text
    assert "Turnos 2 · Tokens 7.100 · Costo $3,50" in _totals(wide)
    before = client.get(
        usage, params={"from": old.isoformat(), "to": (recent - timedelta(days=1)).isoformat()}
    )
    assert before.status_code == 200 and "Turnos 1 · Tokens 7.000" in _totals(before.text)
    one_day = client.get(usage, params={"from": recent.isoformat(), "to": recent.isoformat()})
    assert "Turnos 1 · Tokens 100 ·" in _totals(one_day.text)
    assert f'value="{recent.isoformat()}"' in one_day.text  # the form shows the range


def test_axes_and_dates_speak_the_pages_language(client: TestClient, tenant: Tenant) -> None:
    usage = _owner(client, tenant)
    today = utcnow().date()
    _run(tenant, _at(today, time(0)), 1500, 0.0034)
    start = today - timedelta(days=6)
    week = {"from": start.isoformat(), "to": today.isoformat()}
    spanish = client.get(usage, params=week).text
    ticks = re.findall(r'data-role="y-tick">([^<]*)<', spanish)
    assert ticks[:5] == ["$0,000", "$0,001", "$0,002", "$0,003", "$0,004"]  # cost per day
    assert ticks[5:9] == ["0", "500", "1.000", "1.500"]  # tokens per day
    labels = re.findall(r'data-role="x-label">([^<]*)<', spanish)
    assert labels[:7] == [short_date(start + timedelta(days=n), "es") for n in range(7)]
    assert f'<th scope="row">{short_date(today, "es")}</th><td>1.500</td>' in spanish
    assert '<desc id="chart-2-desc">Máximo 1.500; total 1.500.</desc>' in spanish
    assert 'aria-current="true">Últimos 7 días</a>' in spanish
    client.cookies.set("vigia_lang", "en", path="/console")
    english = client.get(usage, params=week).text
    ticks = re.findall(r'data-role="y-tick">([^<]*)<', english)
    assert ticks[5:9] == ["0", "500", "1,000", "1,500"]
    labels = re.findall(r'data-role="x-label">([^<]*)<', english)
    assert labels[:7] == [short_date(start + timedelta(days=n), "en") for n in range(7)]
    assert f"Total for the range ({long_date(start, 'en')} – {long_date(today, 'en')})" in english


def test_a_workspace_without_runs_draws_empty_charts(client: TestClient, tenant: Tenant) -> None:
    page = client.get(_owner(client, tenant))
    assert page.status_code == 200
    assert page.text.count("Sin uso en este período.") == 4
    assert re.findall(r'data-role="y-tick">([^<]*)<', page.text)[:3] == ["$0,0", "$0,5", "$1,0"]
    assert "Turnos 0 · Tokens 0 · Costo $0,0000" in _totals(page.text)


def test_a_bad_range_is_refused_under_its_field(client: TestClient, tenant: Tenant) -> None:
    usage = _owner(client, tenant)
    today = utcnow().date()
    tomorrow = (today + timedelta(days=1)).isoformat()
    cases = [
        ({"from": "ayer"}, "from", "Escribí una fecha (AAAA-MM-DD)."),
        ({"from": "2026-02-30"}, "from", "Escribí una fecha (AAAA-MM-DD)."),
        ({"to": tomorrow}, "to", "No puede ser posterior a hoy."),
        (
            {"from": today.isoformat(), "to": (today - timedelta(days=1)).isoformat()},
            "to",
            "Tiene que ser igual o posterior a «Desde».",
        ),
        (
            {"from": (today - timedelta(days=366)).isoformat(), "to": today.isoformat()},
            "to",
            "El período puede abarcar como máximo 366 días.",
        ),
    ]
    for params, field, message in cases:
        refused = client.get(usage, params=params)
        assert refused.status_code == 422, params
        assert _field_error(refused.text, field) == message
        assert f'name="{field}" type="date"' in refused.text
        assert f'value="{params[field]}" aria-invalid="true"' in refused.text  # kept as typed
        assert "Últimos 30 días" in refused.text and "Total del período" in refused.text
    longest = {"from": (today - timedelta(days=365)).isoformat(), "to": today.isoformat()}
    assert client.get(usage, params=longest).status_code == 200  # 366 days, both included
    client.cookies.set("vigia_lang", "en", path="/console")
    english = client.get(usage, params={"from": "yesterday"})
    assert english.status_code == 422
    assert _field_error(english.text, "from") == "Enter a date (YYYY-MM-DD)."
