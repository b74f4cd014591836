"""Routes: ``POST /v1/decide`` and its older twin ``POST /v1/systemone``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from vigia.decide import service
from vigia.decide.schemas import (
    DecideRequest,
    DecideResponse,
    SystemOneRequest,
    SystemOneResponse,
)
from vigia.http.deps import Db, WriteSlot
from vigia.workspaces.auth import KeyContext, require_scope

router = APIRouter(tags=["decide"])

DecideKey = Annotated[KeyContext, Depends(require_scope("decide"))]


@router.post("/v1/decide", response_model=DecideResponse, response_model_exclude_none=True)
def decide(body: DecideRequest, slot: WriteSlot, key: DecideKey, session: Db) -> DecideResponse:
    """Answers each question about the state, with probabilities and abstention."""
    return service.decide(session, key.workspace_id, body)


@router.post("/v1/systemone", response_model=SystemOneResponse, response_model_exclude_none=True)
def systemone(
    body: SystemOneRequest, slot: WriteSlot, key: DecideKey, session: Db
) -> SystemOneResponse:
    """The older twin of ``/v1/decide``: same model, ``noul``/``choice``/``score`` questions."""
    return service.systemone(session, key.workspace_id, body)
