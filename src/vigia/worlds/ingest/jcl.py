"""JCL parser: jobs, steps (``EXEC PGM=`` / procedures), DD statements and their datasets,
and what in-stream data defines (CSD transactions and files, DB2 tables) or names (members)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vigia.worlds.graph.extraction import Edge, Entity, Extraction
from vigia.worlds.graph.keys import Kind, make, program_key, step_key
from vigia.worlds.ingest.comments import purpose
from vigia.worlds.ingest.definitions import csd_definitions, ddl_tables, member_references

_STATEMENT = re.compile(
    r"^//([A-Za-z0-9@#$.]*)\s+(JOB|EXEC|DD|PROC|PEND|SET|INCLUDE|JCLLIB)\b\s*(.*)"
)
_RUN_PROGRAM = re.compile(r"\bRUN\s+PROGRAM\s*\(\s*([A-Za-z0-9@#$]+)\s*\)", re.I)


@dataclass
class _Statement:
    name: str
    verb: str
    params: str
    line: int
    end: int
    instream: list[tuple[int, str]] = field(default_factory=list)


def _params(text: str) -> str:
    """Operand field without trailing comments (text after the first unquoted blank)."""
    out, quote, depth = [], False, 0
    for ch in text:
        if ch == "'":
            quote = not quote
        elif not quote and ch == "(":
            depth += 1
        elif not quote and ch == ")":
            depth -= 1
        elif not quote and ch == " " and depth <= 0:
            break
        out.append(ch)
    return "".join(out)


def _statements(text: str) -> list[_Statement]:
    found: list[_Statement] = []
    current: _Statement | None = None
    continuing = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw[:72].rstrip()
        if line.startswith("//*") or line.startswith("/*"):
            continue
        if not line.startswith("//"):
            if current is not None and current.verb == "DD":
                current.instream.append((number, line))
            continue
        match = _STATEMENT.match(line)
        if continuing and current is not None and not match:
            piece = _params(line[2:].strip())
            current.params += piece
            current.end = number
            continuing = piece.endswith(",")
            continue
        if match:
            params = _params(match.group(3))
            current = _Statement(
                match.group(1).upper(), match.group(2).upper(), params, number, number
            )
            found.append(current)
            continuing = params.endswith(",")
    return found


def _keywords(params: str) -> dict[str, str]:
    out: dict[str, str] = {}
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(params):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    parts.append(params[start:])
    for index, part in enumerate(parts):
        key, sep, value = part.partition("=")
        if sep:
            out[key.strip().upper()] = value.strip()
        elif index == 0 and part.strip():
            out["_POSITIONAL"] = part.strip()
    return out


def _job_purpose(lines: list[str], first: int, end: int) -> str | None:
    """What a job says it does: the ``//*`` comments right above its JOB card and right
    after it (copyright lines dropped); else the card's programmer-name field."""
    above: list[str] = []
    i = first - 2
    while i >= 0 and lines[i].startswith("//*"):
        above.insert(0, lines[i][3:72])
        i -= 1
    below: list[str] = []
    for raw in lines[end:]:
        if not raw.startswith("//*"):
            break
        below.append(raw[3:72])
    return purpose([*above, "", *below])


def _programmer_name(params: str) -> str | None:
    quoted = re.search(r"'([^']+)'", params)
    return quoted.group(1).strip() if quoted else None


def _disp_kind(disp: str) -> str:
    status = disp.strip("()").split(",")[0].upper() or "NEW"
    return "reads" if status == "SHR" else "writes"


def extract_jcl(text: str, path: str) -> Extraction:
    """Jobs, steps, DD names and datasets of one JCL member (or a catalogued procedure)."""
    out = Extraction()
    job: str | None = None
    step: str | None = None
    statements = _statements(text)
    last_line = max((s.end for s in statements), default=1)
    for index, st in enumerate(statements):
        if st.verb in ("JOB", "PROC"):
            job = st.name or path.rsplit("/", 1)[-1].split(".", 1)[0].upper()
            kind = "job" if st.verb == "JOB" else "proc"
            prefix = Kind.JOB if kind == "job" else Kind.PROC
            about = _job_purpose(text.splitlines(), st.line, st.end)
            out.entities.append(
                Entity(
                    kind,
                    job,
                    make(prefix, job),
                    path,
                    st.line,
                    last_line,
                    detail=about or _programmer_name(st.params) or st.params,
                )
            )
            continue
        if st.verb == "EXEC":
            owner = job or "?"
            step_end = next(
                (s.line - 1 for s in statements[index + 1 :] if s.verb in ("EXEC", "JOB", "PROC")),
                last_line,
            )
            params = _keywords(st.params)
            program = params.get("PGM")
            proc = params.get("PROC") or (None if program else params.get("_POSITIONAL"))
            step = step_key(owner, st.name or st.line)
            member_references([(st.line, st.params)], step, path, out)
            detail = f"PGM={program}" if program else f"PROC={proc}"
            out.entities.append(
                Entity(
                    "step",
                    st.name or f"STEP@{st.line}",
                    step,
                    path,
                    st.line,
                    step_end,
                    detail=detail,
                )
            )
            prefix = (
                Kind.JOB if any(e.key == make(Kind.JOB, owner) for e in out.entities) else Kind.PROC
            )
            out.add_edge(Edge("contains", make(prefix, owner), step, path, st.line))
            if program:
                out.add_edge(Edge("executes", step, program_key(program.upper()), path, st.line))
            elif proc:
                out.add_edge(Edge("executes", step, make(Kind.PROC, proc.upper()), path, st.line))
            continue
        if st.verb == "DD" and step is not None:
            params = _keywords(st.params)
            dataset = params.get("DSN") or params.get("DSNAME")
            dd = st.name or "(concatenated)"
            if dataset and "(" in dataset and not dataset.startswith("&&"):
                member = dataset.split("(", 1)[1].rstrip(")").strip().upper()
                if member and not member.lstrip("+-").isdigit():
                    out.add_edge(
                        Edge("names", step, make(Kind.MEMBER, member), path, st.line, dataset)
                    )
            if dataset and not dataset.startswith("&&"):
                name = dataset.split("(", 1)[0].upper()
                disp = params.get("DISP", "NEW" if "SPACE" in params else "SHR")
                if not any(e.key == make(Kind.DSN, name) for e in out.entities):
                    out.entities.append(
                        Entity("dataset", name, make(Kind.DSN, name), path, st.line, st.line)
                    )
                out.add_edge(
                    Edge(
                        _disp_kind(disp),
                        step,
                        make(Kind.DSN, name),
                        path,
                        st.line,
                        f"DD {dd} DISP={disp}",
                    )
                )
            if st.name:
                out.add_edge(Edge("dd", step, make(Kind.DD, st.name), path, st.line, dataset))
            csd_definitions(st.instream, path, out)
            ddl_tables(st.instream, path, out)
            member_references(st.instream, step, path, out)
            for number, data in st.instream:
                run = _RUN_PROGRAM.search(data)
                if run:
                    out.add_edge(
                        Edge(
                            "executes",
                            step,
                            program_key(run.group(1).upper()),
                            path,
                            number,
                            "DSN RUN PROGRAM",
                        )
                    )
    return out


def looks_like_jcl(text: str) -> bool:
    """Whether a file without a JCL extension is JCL (a JOB or EXEC card near the top)."""
    head = [ln for ln in text.splitlines()[:40] if ln.startswith("//")]
    return any(re.match(r"^//\S*\s+(JOB|EXEC|PROC)\b", ln) for ln in head)
