"""Route of the output-review surface: ``POST /api/external/v1/agents/{agentId}/output-review``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from vigia.http.deps import WriteSlot
from vigia.review.schemas import ReviewRequest, ReviewResponse
from vigia.review.service import review_output
from vigia.workspaces.auth import KeyContext, require_scope

router = APIRouter(tags=["output-review"])

ReviewKey = Annotated[KeyContext, Depends(require_scope("guardrails:review"))]


@router.post("/api/external/v1/agents/{agentId}/output-review", response_model=ReviewResponse)
def output_review(
    agentId: str, body: ReviewRequest, slot: WriteSlot, key: ReviewKey
) -> ReviewResponse:
    """Reviews a reply an external agent wants to send, with the agent's output guardrails."""
    return review_output(key, agentId, body)
