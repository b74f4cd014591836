"""``vigia knowledge …``: add documents to an agent's knowledge, list knowledge bases."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from sqlalchemy.orm import Session

from vigia.agents.service import get_agent
from vigia.db.cli_session import in_session
from vigia.db.migrate import upgrade
from vigia.db.session import session_scope
from vigia.errors import Invalid, TooLarge, VigiaError
from vigia.kit.cli_output import emit, fail
from vigia.kit.cli_progress import progress
from vigia.knowledge import service
from vigia.knowledge.schemas import KnowledgeBaseOut
from vigia.workspaces.service import find_workspace

app = typer.Typer(help="Knowledge bases and documents", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
WorkspaceOpt = Annotated[str, typer.Option("--workspace", help="Workspace id or name.")]


def _read(path: Path) -> bytes:
    if not path.is_file():
        raise Invalid(f"no such file: {path}")
    if path.stat().st_size > service.MAX_DOCUMENT_BYTES:
        raise TooLarge(
            f"{path.name}: documents may be at most "
            f"{service.MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB"
        )
    return path.read_bytes()


@app.command("add")
def add(
    files: Annotated[
        list[Path], typer.Argument(help="Documents: PDF, DOCX, HTML, Markdown, text.")
    ],
    workspace: WorkspaceOpt,
    agent: Annotated[str, typer.Option("--agent", help="Agent slug.")],
    url: Annotated[
        str | None, typer.Option("--url", help="Source address shown on citations.")
    ] = None,
    as_json: Json = False,
) -> None:
    """Adds documents to the agent's knowledge, in its draft (publish to reach production).

    A document with the same file name as one already there replaces it. All files are
    added in one transaction: if one fails, none is added. The command indexes them itself,
    whatever their size, and returns when they are searchable (a server's background upload
    of the same document is superseded).
    """
    added: list[dict[str, Any]] = []
    try:
        upgrade()
        with session_scope() as session, progress(transient=as_json) as steps:
            ws = find_workspace(session, workspace)
            kb = service.agent_knowledge_base(session, ws, get_agent(session, ws.id, agent))
            for path in files:
                upload = service.add_document(
                    session, kb, path.name, _read(path), url=url, progress=steps.step(path.name)
                )
                doc = upload.document
                added.append({"id": doc.id, "name": doc.name, "chunks": doc.chunk_count})
            kb_id = kb.id
    except VigiaError as error:
        fail(error, as_json)
    lines = [f"{d['name']}: {d['chunks']} chunks" for d in added]
    emit(
        {"documents": added, "knowledge_base_id": kb_id},
        as_json,
        "\n".join(lines) + f"\nknowledge base {kb_id} (draft of '{agent}': publish to use it)",
    )


@app.command("list")
def list_bases(workspace: WorkspaceOpt, as_json: Json = False) -> None:
    """Knowledge bases of the workspace with their documents."""

    def views(session: Session) -> list[dict[str, Any]]:
        bases = []
        for kb in service.list_knowledge_bases(session, find_workspace(session, workspace)):
            docs = service.list_documents(session, kb)
            base = KnowledgeBaseOut.of(kb, len(docs), sum(d.chunk_count for d in docs))
            listed = [
                {"id": d.id, "name": d.name, "chunks": d.chunk_count, "status": d.status}
                for d in docs
            ]
            bases.append({**base.model_dump(mode="json"), "document_list": listed})
        return bases

    bases = in_session(as_json, views)
    human = "\n".join(f"{b['id']}  {b['name']}  ({b['documents']} documents)" for b in bases)
    emit({"knowledge_bases": bases}, as_json, human or "no knowledge bases")
