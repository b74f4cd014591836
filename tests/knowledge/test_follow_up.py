"""Short follow-ups are searched together with the previous user message."""

from vigia.agents.schemas import AgentConfig
from vigia.engine.stages.retrieval import search_query
from vigia.engine.turn import Turn, TurnRequest
from vigia.llm.protocol import ChatMessage


def _turn(message: str, history: list[ChatMessage]) -> Turn:
    request = TurnRequest(workspace_id="w", agent_id="a", message=message)
    return Turn(request, "r", AgentConfig(), 1, "c", False, history=history)


def test_short_follow_up_carries_the_previous_question() -> None:
    history = [
        ChatMessage("user", "¿Qué cubre la póliza contra todo riesgo?"),
        ChatMessage("assistant", "Cubre los daños propios del vehículo [1]."),
    ]
    query = search_query(_turn("¿Y si el auto es 0 km?", history))
    assert query == "¿Qué cubre la póliza contra todo riesgo?\n¿Y si el auto es 0 km?"


def test_full_question_and_first_turn_are_searched_alone() -> None:
    long = "¿Qué documentación necesito para pedir un reintegro de gastos médicos?"
    history = [ChatMessage("user", "hola")]
    assert search_query(_turn(long, history)) == long
    assert search_query(_turn("¿Y la franquicia?", [])) == "¿Y la franquicia?"
