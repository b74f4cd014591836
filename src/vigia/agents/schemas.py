"""Wire and stored shapes of an agent's configuration."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from vigia.agents.tools import HttpTools
from vigia.guardrails.config import GuardrailsConfig
from vigia.kit.fields import Flag, Integer
from vigia.llm.settings import ModelSettings

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
# A knowledge base named by its id or its name (at most 120 characters).
KnowledgeBaseRef = Annotated[str, StringConstraints(max_length=120)]

Language = Literal["es", "pt", "en"]
# The replies an agent gets unless it sets its own, in each language the product speaks.
DEFAULT_REPLIES: dict[Language, dict[str, str]] = {
    "es": {
        "no_answer": "No encontré información sobre eso. ¿Podés reformular la pregunta?",
        "blocked": "No puedo ayudarte con ese pedido. ¿Hay algo más en lo que pueda ayudarte?",
        "safe_output": "Prefiero no responder eso. Un miembro del equipo puede ayudarte.",
        "holding": "Gracias por tu paciencia. Una persona del equipo va a continuar la "
        "conversación.",
    },
    "pt": {
        "no_answer": "Não encontrei informações sobre isso. Pode reformular a pergunta?",
        "blocked": "Não posso ajudar com esse pedido. Posso ajudar com mais alguma coisa?",
        "safe_output": "Prefiro não responder isso. Alguém da equipe pode ajudar você.",
        "holding": "Obrigado pela paciência. Uma pessoa da equipe vai continuar a conversa.",
    },
    "en": {
        "no_answer": "I could not find information about that. Could you rephrase the question?",
        "blocked": "I can't help with that request. Is there anything else I can help you with?",
        "safe_output": "I'd rather not answer that. A member of the team can help you.",
        "holding": "Thank you for your patience. A person from the team will continue the "
        "conversation.",
    },
}


class Replies(BaseModel):
    """Texts the agent answers with instead of generating."""

    no_answer: str = Field(default=DEFAULT_REPLIES["es"]["no_answer"], max_length=2000)
    blocked: str = Field(default=DEFAULT_REPLIES["es"]["blocked"], max_length=2000)
    safe_output: str = Field(default=DEFAULT_REPLIES["es"]["safe_output"], max_length=2000)
    holding: str = Field(default=DEFAULT_REPLIES["es"]["holding"], max_length=2000)
    greeting: str = Field(default="", max_length=2000)

    def in_language(self, old: Language, new: Language) -> Replies:
        """These replies for an agent whose language goes from ``old`` to ``new``: each text
        still at ``old``'s default becomes ``new``'s; texts the agent set stay as they are."""
        before, after = DEFAULT_REPLIES[old], DEFAULT_REPLIES[new]
        kept = [name for name, text in before.items() if getattr(self, name) == text]
        return self.model_copy(update={name: after[name] for name in kept})

    def texts(self) -> tuple[str, ...]:
        """The configured texts that are set (a reply may repeat them without a source)."""
        return tuple(
            t
            for t in (self.no_answer, self.blocked, self.safe_output, self.holding, self.greeting)
            if t
        )


class AgentConfig(BaseModel):
    """Everything a version of an agent freezes when published."""

    name: str = Field(default="", max_length=120)
    instructions: str = Field(default="", max_length=40_000)
    model: ModelSettings = Field(default_factory=ModelSettings)
    memory_turns: Integer = Field(default=10, ge=0, le=100)
    replies: Replies = Field(default_factory=Replies)
    guardrails: GuardrailsConfig = Field(default_factory=GuardrailsConfig)
    knowledge_bases: list[KnowledgeBaseRef] = Field(default_factory=list, max_length=20)
    top_k: Integer = Field(default=5, ge=1, le=20)
    language: Language = "es"
    tools: HttpTools = Field(default_factory=list)
    """HTTP tools the engine calls for the model (docs/tools.md)."""
    tool_steps: Integer = Field(
        default=4, ge=1, le=20, description="Most rounds of tool calls one turn may run."
    )
    handoff_on_request: Flag = Field(
        default=True,
        description="Hand the conversation to the team when the customer asks for a person.",
    )


class AgentPatch(BaseModel):
    """A partial edit of the draft; unset fields keep their value."""

    name: str | None = Field(default=None, max_length=120)
    instructions: str | None = Field(default=None, max_length=40_000)
    model: ModelSettings | None = None
    memory_turns: Integer | None = Field(default=None, ge=0, le=100)
    replies: Replies | None = None
    guardrails: GuardrailsConfig | None = None
    knowledge_bases: list[KnowledgeBaseRef] | None = Field(default=None, max_length=20)
    top_k: Integer | None = Field(default=None, ge=1, le=20)
    language: Language | None = None
    tools: HttpTools | None = None
    tool_steps: Integer | None = Field(default=None, ge=1, le=20)
    handoff_on_request: Flag | None = None


class AgentCreate(AgentPatch):
    slug: str = Field(min_length=1, max_length=64)
    kind: Literal["internal", "external"] = "internal"

    @field_validator("slug")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not SLUG.match(value):
            raise ValueError("slug must be lowercase letters, digits and dashes")
        return value


class AgentOut(BaseModel):
    """An agent as the admin API shows it: its draft and which version is published."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    slug: str
    kind: str
    workspace_id: str
    published_version: int | None
    draft: AgentConfig


class AgentList(BaseModel):
    agents: list[AgentOut]


class PublishedOut(BaseModel):
    """The version number a publish froze the draft as."""

    slug: str
    version: int


class RollbackIn(BaseModel):
    """The published version to answer from again."""

    model_config = ConfigDict(extra="forbid")

    version: Integer = Field(ge=1, le=2_147_483_647)


class RolledBackOut(PublishedOut):
    """The new version a rollback published, and the version it restores."""

    restored: int
