"""The console's texts for identifiers it shows (the stages of a turn's trace and their
outcomes, the agent form's choices) and for the login throttle, in Spanish and English
(merged into the catalogue). ``label('stage.', name)`` in a template shows an identifier
without a text as itself."""

from __future__ import annotations

STAGES = (
    "budget",
    "input_guardrails",
    "injection",
    "history",
    "tools",
    "tool_call",
    "retrieval",
    "generation",
    "output_guardrails",
    "handoff",
)
"""The stage names a turn's trace records (``vigia.engine``'s ``trace.run`` and records)."""
OUTCOMES = ("ok", "blocked", "error", "paused", "alert", "withheld")
"""The outcomes those stages report."""

VOCABULARY_TEXTS: dict[str, tuple[str, str]] = {
    "stage.budget": ("presupuesto", "budget"),
    "stage.input_guardrails": ("guardrails de entrada", "input guardrails"),
    "stage.injection": ("inyección", "injection"),
    "stage.history": ("historial", "history"),
    "stage.tools": ("herramientas", "tools"),
    "stage.tool_call": ("llamada a herramienta", "tool call"),
    "stage.retrieval": ("búsqueda de pasajes", "retrieval"),
    "stage.generation": ("generación", "generation"),
    "stage.output_guardrails": ("guardrails de salida", "output guardrails"),
    "stage.handoff": ("derivación", "handoff"),
    "outcome.ok": ("ok", "ok"),
    "outcome.blocked": ("bloqueado", "blocked"),
    "outcome.error": ("error", "error"),
    "outcome.paused": ("en pausa", "paused"),
    "outcome.alert": ("aviso", "alert"),
    "outcome.withheld": ("retenidas", "withheld"),
    "language.es": ("español", "Spanish"),
    "language.pt": ("portugués", "Portuguese"),
    "language.en": ("inglés", "English"),
    "provider.embedded": ("integrado", "embedded"),
    "provider.openai": ("compatible con OpenAI", "OpenAI-compatible"),
    "provider.local": ("local (GGUF)", "local (GGUF)"),
    "judge.embedded": ("integrado", "embedded"),
    "judge.llm": ("el modelo del agente", "the agent's model"),
    "sensitivity.low": ("baja", "low"),
    "sensitivity.medium": ("media", "medium"),
    "sensitivity.high": ("alta", "high"),
    "handoff.on": ("sí", "yes"),
    "handoff.off": ("no", "no"),
    "agent.model_path": ("Archivo GGUF (modelo local)", "GGUF file (local model)"),
    "agent.injection_sensitivity": ("Sensibilidad a la inyección", "Injection sensitivity"),
    "agent.tool_steps": ("Rondas de herramientas por turno", "Tool rounds per turn"),
    "agent.handoff_on_request": (
        "Derivar si el cliente pide una persona",
        "Hand off when the customer asks for a person",
    ),
    "embedder.use": ("USE v3 multilingüe", "multilingual USE v3"),
    "embedder.e5": ("multilingual-e5-small", "multilingual-e5-small"),
    "keys.rpm": ("Pedidos por minuto", "Requests per minute"),
    "scope.chat": ("conversar", "chat"),
    "scope.decide": ("decidir", "decide"),
    "scope.guardrails:review": ("revisar con guardrails", "guardrails review"),
    "login.throttled_seconds": (
        "Demasiados intentos fallidos. Probá de nuevo en {n} s.",
        "Too many failed attempts. Try again in {n} s.",
    ),
    "login.throttled_minutes": (
        "Demasiados intentos fallidos. Probá de nuevo en {n} min.",
        "Too many failed attempts. Try again in {n} min.",
    ),
}
