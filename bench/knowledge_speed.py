"""Ingestion throughput and search latency of the knowledge stack.

1. Ingestion: a synthetic Spanish policy PDF of ``--pages`` pages (fpdf2) goes through the
   real path (pypdf parsing, chunking, USE embeddings, SQLite rows + FTS5 + vectors):
   pages per second.
2. Search: a knowledge base of ``--chunks`` synthetic chunks (60 Zipf-distributed words of
   a vocabulary made of the eval documents' words first, then made-up ones) is
   queried with the 48 questions of the eval set through ``search_knowledge`` (query
   embedding + FTS5 BM25 + dense search + fusion + loading the chunk rows): p50/p95 in
   milliseconds, after one warm-up query that loads the vectors. A chunk's vector is the
   normalised mean of its words' USE vectors (embedding 100,000 texts would take many
   minutes; this keeps the uneven geometry of real embeddings, which random vectors lack).
   It also reports how many of the exact top 50 by cosine the projected first pass of
   large collections keeps (``vigia.search.vectors``), and the CPU time per search (this
   process's, plus the PostgreSQL backend's when the server runs on this machine): on a
   shared machine wall times measure the load, CPU times the work.

    .venv/bin/python bench/knowledge_speed.py [--pages 40] [--chunks 100000] [--queries 300]
        [--data-dir DIR]   # keep the synthetic base there (SQLite) and reuse it next time

On PostgreSQL set ``VIGIA_DATABASE_URL``; a database that already holds the synthetic base
is reused.
"""

from __future__ import annotations

import os

# One BLAS thread: with OpenBLAS's default (one per core) a busy 2-core machine makes each
# small product wait on its peer thread (USE queries went from ~5 ms to ~270 ms at p95).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "knowledge"


def _vocabulary(rng: np.random.Generator, size: int) -> list[str]:
    real = sorted(
        {
            w
            for p in (DATA / "docs").iterdir()
            for w in re.findall(r"[a-záéíóúñü]{3,}", p.read_text().lower())
        }
    )
    syllables = [
        "ca",
        "se",
        "ro",
        "ta",
        "mi",
        "no",
        "le",
        "ga",
        "pu",
        "do",
        "ri",
        "ven",
        "tra",
        "cla",
    ]
    fake = {"".join(rng.choice(syllables, size=int(rng.integers(2, 5)))) for _ in range(size)}
    return real + sorted(fake - set(real))[: max(0, size - len(real))]


def _policy_pdf(pages: int) -> bytes:
    from fpdf import FPDF

    text = (
        "El Asegurador indemnizará los daños materiales que sufra el vehículo asegurado por "
        "accidente, incendio o robo, con deducción de la franquicia pactada en la póliza. "
    )
    pdf = FPDF()
    for page in range(pages):
        pdf.add_page()
        for clause in range(3):
            pdf.set_font("helvetica", "B", 13)
            pdf.multi_cell(
                0,
                8,
                f"Cláusula {page * 3 + clause + 1}. Condición número {clause}",
                new_x="LMARGIN",
                new_y="NEXT",
            )
            pdf.set_font("helvetica", size=11)
            pdf.multi_cell(0, 6, text * 3, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    return bytes(pdf.output())


def _build(chunks, workspace, word_vectors, vocabulary, weights, rng):
    """The synthetic knowledge base of ``chunks`` chunks."""
    from sqlalchemy import insert

    from vigia.db.session import session_scope
    from vigia.knowledge import service
    from vigia.knowledge.models import KnowledgeChunk, KnowledgeDocument, KnowledgeRevision
    from vigia.knowledge.versions import collection_of
    from vigia.search import Entry, index_for

    started, cpu = time.perf_counter(), time.process_time()
    with session_scope() as session:
        backend = _backend_cpu(session)
        backend_started = backend()
        big = service.create_knowledge_base(session, workspace, "synthetic")
        index = index_for(session)
        per_doc = 1000
        for d in range(0, chunks, per_doc):
            doc = KnowledgeDocument(
                knowledge_base_id=big.id,
                name=f"doc-{d // per_doc}.txt",
                media_type="text/plain",
                sha256="0" * 64,
                chunk_count=per_doc,
            )
            session.add(doc)
            session.flush()
            # one collection for the whole base, as bases from before versioning have
            revision = KnowledgeRevision(
                knowledge_base_id=big.id, document_id=doc.id, collection=collection_of(big.id)
            )
            session.add(revision)
            session.flush()
            n = min(per_doc, chunks - d)
            words = rng.choice(len(vocabulary), size=(n, 60), p=weights)
            texts = [" ".join(vocabulary[i] for i in row) for row in words]
            vectors = word_vectors[words].mean(axis=1)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            ids = [f"{big.id[:8]}-{d + i:08d}" for i in range(n)]
            session.execute(
                insert(KnowledgeChunk),
                [
                    {
                        "id": ids[i],
                        "document_id": doc.id,
                        "knowledge_base_id": big.id,
                        "revision_id": revision.id,
                        "seq": i,
                        "text": texts[i],
                        "page": None,
                        "heading": None,
                    }
                    for i in range(n)
                ],
            )
            index.add(
                session,
                collection_of(big.id),
                [Entry(ids[i], texts[i], vectors[i]) for i in range(n)],
            )
        session.flush()
        backend_used = backend() - backend_started
    print(
        f"synthetic knowledge base: {chunks} chunks built in {time.perf_counter() - started:.1f} s"
        f" (CPU: this process {time.process_time() - cpu:.1f} s,"
        f" PostgreSQL backend {backend_used:.1f} s before the commit)"
    )
    return big


def _backend_cpu(session):
    """A function giving the CPU seconds used so far by the PostgreSQL backend serving
    ``session`` (0 on SQLite, or when the server is not on this machine)."""
    from sqlalchemy import text

    if session.bind.dialect.name != "postgresql":
        return lambda: 0.0
    stat = Path(f"/proc/{session.scalar(text('SELECT pg_backend_pid()'))}/stat")

    def used() -> float:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    return used


def _settle_postgres() -> None:
    """On PostgreSQL: ``VACUUM (ANALYZE)`` the search tables (what autovacuum does on its own
    after a large insert: statistics, and the visibility map that lets BM25 read its postings
    from the index alone) and print the lexical index's size. Nothing on SQLite."""
    from sqlalchemy import text

    from vigia.db.session import get_engine

    engine = get_engine()
    if engine.dialect.name != "postgresql":
        return
    tables = ["search_postings", "search_terms", "search_vocabulary", "search_totals"]
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")  # VACUUM needs it
        present = [t for t in tables if conn.scalar(text(f"SELECT to_regclass('{t}')"))]
        started = time.perf_counter()
        conn.execute(text(f"VACUUM (ANALYZE) {', '.join([*present, 'search_entries'])}"))
        print(f"VACUUM (ANALYZE) of the search tables: {time.perf_counter() - started:.1f} s")
        sizes = {
            t: int(conn.scalar(text(f"SELECT pg_total_relation_size('{t}')")) or 0) for t in present
        }
    parts = ", ".join(f"{t} {size / 2**20:.0f} MB" for t, size in sizes.items())
    print(
        f"lexical index (tables with their indexes): {sum(sizes.values()) / 2**20:.0f} MB = {parts}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--data-dir", help="keep the synthetic knowledge base here and reuse it")
    args = parser.parse_args()
    os.environ["VIGIA_DATA_DIR"] = args.data_dir or tempfile.mkdtemp(prefix="vigia-speed-")

    from sqlalchemy import select

    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.embeddings import get_embedder
    from vigia.knowledge import service
    from vigia.knowledge.models import KnowledgeBase
    from vigia.knowledge.retrieval import search_knowledge
    from vigia.knowledge.versions import collection_of
    from vigia.search import index_for
    from vigia.search.hybrid import HybridSearchIndex
    from vigia.search.protocol import Mode
    from vigia.workspaces.service import create_workspace

    upgrade()
    get_embedder("use").queries(["calentamiento"])
    pdf = _policy_pdf(args.pages)
    with session_scope() as session:
        old = session.scalars(
            select(KnowledgeBase).where(KnowledgeBase.name == "synthetic")
        ).first()
        collection = collection_of(old.id) if old is not None else ""
        reuse = old is not None and index_for(session).count(session, collection) == args.chunks
        workspace = create_workspace(session, f"speed-{time.time_ns()}")
        kb = service.create_knowledge_base(session, workspace, "ingestion")
        started = time.perf_counter()
        upload = service.add_document(session, kb, "poliza.pdf", pdf)
        seconds = time.perf_counter() - started
    print(
        f"ingestion: {args.pages} pages, {upload.document.chunk_count} chunks in {seconds:.2f} s "
        f"= {args.pages / seconds:.1f} pages/s"
    )

    rng = np.random.default_rng(7)
    vocabulary = _vocabulary(rng, 20_000)
    weights = 1.0 / np.arange(1, len(vocabulary) + 1)
    weights /= weights.sum()
    started = time.perf_counter()
    word_vectors = get_embedder("use").passages(vocabulary)
    print(f"vocabulary: {len(vocabulary)} words embedded in {time.perf_counter() - started:.1f} s")
    if reuse:
        assert old is not None
        big = old
        print(f"synthetic knowledge base: {args.chunks} chunks reused")
    else:
        big = _build(args.chunks, workspace, word_vectors, vocabulary, weights, rng)
    _settle_postgres()

    questions = [q["q"] for q in json.loads((DATA / "questions.json").read_text())["questions"]]
    with session_scope() as session:
        started = time.perf_counter()
        search_knowledge(session, [big], questions[0], 5)
        print(
            f"first search (loads {args.chunks} vectors): "
            f"{(time.perf_counter() - started) * 1000:.0f} ms"
        )
        backend = _backend_cpu(session)
        timings: dict[Mode, list[float]] = {"hybrid": [], "lexical": [], "dense": []}
        cpu: dict[str, list[float]] = {mode: [] for mode in timings}
        for i in range(args.queries):
            for mode, found in timings.items():
                t0, c0, b0 = time.perf_counter(), time.process_time(), backend()
                search_knowledge(session, [big], questions[i % len(questions)], 5, mode)
                found.append((time.perf_counter() - t0) * 1000)
                cpu[mode].append((time.process_time() - c0 + backend() - b0) * 1000)
        collection = collection_of(big.id)
        index = index_for(session)
        assert isinstance(index, HybridSearchIndex)
        matrix = index.matrices(session, [collection])[collection]
    kept = []
    for vector in get_embedder("use").queries(questions):
        exact = {matrix.keys[i] for i in np.argsort(-(matrix.vectors @ vector))[:50]}
        kept.append(len(exact & {k for k, _ in matrix.top(vector, 50)}) / 50)
    projected = "projected first pass" if matrix.coarse is not None else "exact search"
    print(f"dense top 50 ({projected}) keeps {np.mean(kept):.3f} of the exact top 50")
    for mode, found in timings.items():
        p50, p95 = np.percentile(found, [50, 95])
        print(
            f"search {mode:7} over {args.chunks} chunks (incl. query embedding): "
            f"p50 {p50:.1f} ms  p95 {p95:.1f} ms  ({args.queries} queries); "
            f"CPU p50 {np.percentile(cpu[mode], 50):.1f} ms"
        )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
