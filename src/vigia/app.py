"""FastAPI app factory: mounts each surface's router and the error formats."""

from __future__ import annotations

import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import Depends, FastAPI

from vigia import __version__
from vigia.admin.endpoints import router as admin_router
from vigia.config import get_settings
from vigia.console import router as console
from vigia.decide.endpoints import router as decide_router
from vigia.engine import WorldsGate
from vigia.evaluation.endpoints import router as evaluation_router
from vigia.http import errors as http_errors
from vigia.http.admission import model_workers_for, write_gate_for
from vigia.http.body_limit import BodyLimitMiddleware
from vigia.http.client_gone import ClientGoneMiddleware
from vigia.http.form_text import refuse_unstorable_fields
from vigia.http.forwarded import ForwardedMiddleware
from vigia.http.observability import ObservabilityMiddleware
from vigia.http.request_text import RequestTextMiddleware
from vigia.http.security_headers import SecurityHeadersMiddleware
from vigia.http.server_errors import ServerErrorMiddleware
from vigia.http.write_tenant import find_workspaces_with
from vigia.knowledge.endpoints import router as knowledge_router
from vigia.knowledge.ingest_worker import ingest_worker_for
from vigia.llm.local_models import LocalModels, LocalModelsMiddleware, local_options
from vigia.openai_api.conversations import router as conversations_router
from vigia.openai_api.endpoints import router as openai_router
from vigia.openai_api.lane import ChatLane
from vigia.operations.endpoints import router as operations_router
from vigia.review.endpoints import router as review_router
from vigia.users.endpoints import router as users_router
from vigia.workspaces.auth import cached_workspace
from vigia.workspaces.ratelimit import rate_limiter_for
from vigia.worlds.endpoints import router as worlds_router


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At startup the ingest worker takes up the uploads a stopped server left queued."""
    await anyio.to_thread.run_sync(app.state.knowledge_ingest.resume)
    yield
    app.state.knowledge_ingest.shutdown()


def create_app() -> FastAPI:
    """The whole Vigia HTTP service, with state of its own: a second app in the same process
    shares no write slots and no rate-limit counts with it."""
    settings = get_settings()
    docs = settings.api_docs  # their pages load scripts from a CDN: off by default
    app = FastAPI(
        title="Vigia",
        version=__version__,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        dependencies=[Depends(refuse_unstorable_fields)],  # every form, every route
        lifespan=_lifespan,
    )
    app.state.write_gate = write_gate_for(settings)
    app.state.model_workers = model_workers_for(settings)  # writes' model work runs there
    weakref.finalize(app, app.state.model_workers.shutdown)  # its threads end with the app
    app.state.knowledge_ingest = ingest_worker_for(settings)  # large uploads, one at a time
    weakref.finalize(app, app.state.knowledge_ingest.shutdown)
    app.state.rate_limiter = rate_limiter_for(settings)
    app.state.worlds_gate = WorldsGate()  # worlds turns run through the engine
    app.state.local_models = LocalModels(local_options(settings))  # GGUF files, loaded once
    http_errors.install(app, pages=console.ERROR_PAGES)
    find_workspaces_with(cached_workspace)  # write slots are shared by workspace
    app.add_middleware(ChatLane)  # innermost: valid chat completions skip FastAPI's routing
    app.add_middleware(ClientGoneMiddleware)  # the engine stops for a gone client
    app.add_middleware(LocalModelsMiddleware)  # turns find app.state.local_models
    app.add_middleware(RequestTextMiddleware)
    app.add_middleware(BodyLimitMiddleware)  # bounds what the inner ones read
    app.add_middleware(ServerErrorMiddleware)  # a 500 inside the headers and the request id
    app.add_middleware(SecurityHeadersMiddleware)  # the 413s get them too
    app.include_router(openai_router)
    app.include_router(conversations_router)
    app.include_router(decide_router)
    app.include_router(review_router)
    app.include_router(admin_router)
    app.include_router(knowledge_router)
    app.include_router(evaluation_router)
    app.include_router(users_router)
    app.include_router(worlds_router)
    app.include_router(operations_router)
    console.mount(app)
    app.add_middleware(ObservabilityMiddleware)  # counts and ids every response
    app.add_middleware(ForwardedMiddleware)  # outermost: the client behind trusted proxies

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app
