"""FastAPI app factory: mounts each surface's router and the error formats."""

from __future__ import annotations

from fastapi import FastAPI

from vigia import __version__, http_errors
from vigia.admin.endpoints import router as admin_router
from vigia.body_limit import BodyLimitMiddleware
from vigia.decide.endpoints import router as decide_router
from vigia.knowledge.endpoints import router as knowledge_router
from vigia.openai_api.endpoints import router as openai_router
from vigia.request_text import RequestTextMiddleware
from vigia.review.endpoints import router as review_router
from vigia.worlds.endpoints import router as worlds_router


def create_app() -> FastAPI:
    """The whole Vigia HTTP service."""
    app = FastAPI(title="Vigia", version=__version__)
    http_errors.install(app)
    app.add_middleware(RequestTextMiddleware)
    app.add_middleware(BodyLimitMiddleware)  # outermost: bounds what the others read
    app.include_router(openai_router)
    app.include_router(decide_router)
    app.include_router(review_router)
    app.include_router(admin_router)
    app.include_router(knowledge_router)
    app.include_router(worlds_router)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app
