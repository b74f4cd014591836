"""The console's texts of the Uso page (budget, range, charts), in Spanish and English
(merged into the catalogue)."""

from __future__ import annotations

USAGE_TEXTS: dict[str, tuple[str, str]] = {
    "usage.budget": ("Presupuesto del mes", "This month's budget"),
    "usage.spent": ("Gastado", "Spent"),
    "usage.paused": ("agentes en pausa", "agents paused"),
    "usage.alert": ("presupuesto alcanzado", "budget reached"),
    "usage.monthly_budget": ("Presupuesto mensual (USD)", "Monthly budget (USD)"),
    "usage.no_budget": ("sin límite", "no limit"),
    "usage.action": ("Al alcanzarlo", "When reached"),
    "usage.action_pause": ("Pausar los agentes", "Pause the agents"),
    "usage.action_alert": ("Solo avisar", "Only alert"),
    "usage.save": ("Guardar", "Save"),
    # the range the page covers
    "usage.range": ("Período", "Range"),
    "usage.from": ("Desde", "From"),
    "usage.to": ("Hasta", "To"),
    "usage.show": ("Ver", "Show"),
    "usage.last_days": ("Últimos {n} días", "Last {n} days"),
    "usage.totals": ("Total del período", "Total for the range"),
    "usage.runs": ("Turnos", "Turns"),
    "usage.tokens": ("Tokens", "Tokens"),
    "usage.cost": ("Costo", "Cost"),
    "usage.invalid_date": ("Escribí una fecha (AAAA-MM-DD).", "Enter a date (YYYY-MM-DD)."),
    "usage.future_date": ("No puede ser posterior a hoy.", "Cannot be later than today."),
    "usage.reversed_range": (
        "Tiene que ser igual o posterior a «Desde».",
        "Must be the same as “From” or later.",
    ),
    "usage.range_too_long": (
        "El período puede abarcar como máximo {max} días.",
        "The range can cover {max} days at most.",
    ),
    # charts
    "usage.cost_per_day": ("Costo por día (USD)", "Cost per day (USD)"),
    "usage.tokens_per_day": ("Tokens por día", "Tokens per day"),
    "usage.cost_per_agent": ("Costo por agente (USD)", "Cost per agent (USD)"),
    "usage.tokens_per_agent": ("Tokens por agente", "Tokens per agent"),
    "usage.day": ("Día", "Day"),
    "usage.agent": ("Agente", "Agent"),
    "usage.value": ("Valor", "Value"),
    "usage.chart_summary": ("Máximo {max}; total {total}.", "Highest {max}; total {total}."),
    "usage.no_data": ("Sin uso en este período.", "No usage in this range."),
}
