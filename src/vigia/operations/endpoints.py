"""``GET /metrics`` (Prometheus text; the admin token unless public) and ``GET /readyz``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from vigia.config import get_settings
from vigia.http.deps import require_admin
from vigia.observability.metrics import exposition
from vigia.operations.readiness import readiness

router = APIRouter(include_in_schema=False)


@router.get("/metrics")
def metrics(request: Request) -> Response:
    """Every metric of this process (or of every worker, in multi-process mode)."""
    if not get_settings().metrics_public:
        require_admin(request)
    body, content_type = exposition()
    return Response(body, media_type=content_type)


@router.get("/readyz")
async def readyz() -> JSONResponse:
    """200 when this replica may take traffic; 503 with the failing checks otherwise."""
    ready, checks = await run_in_threadpool(readiness)
    body = {"status": "ready" if ready else "not ready", "checks": checks}
    return JSONResponse(body, status_code=200 if ready else 503)
