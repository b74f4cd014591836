"""Imports every domain's tables so that ``Base.metadata`` is complete (Alembic, tests)."""

from vigia.agents import models as agents_models
from vigia.conversations import models as conversations_models
from vigia.decide import models as decide_models
from vigia.engine import models as engine_models
from vigia.eval_cases import models as evals_models
from vigia.knowledge import models as knowledge_models
from vigia.review import models as review_models
from vigia.search import models as search_models
from vigia.users import models as users_models
from vigia.workspaces import models as workspaces_models
from vigia.worlds import models as worlds_models

__all__ = [
    "agents_models",
    "conversations_models",
    "decide_models",
    "engine_models",
    "evals_models",
    "knowledge_models",
    "review_models",
    "search_models",
    "users_models",
    "workspaces_models",
    "worlds_models",
]
