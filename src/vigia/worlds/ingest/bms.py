"""BMS map sources (CICS screens): the mapset (``DFHMSD``), its maps (``DFHMDI``) and the
texts each map shows (``DFHMDF … INITIAL='…'``), so that a question in screen words finds
the map, and through ``SEND``/``RECEIVE MAP`` edges the programs that use it."""

from __future__ import annotations

import re

from vigia.worlds.graph.extraction import Edge, Entity, Extraction
from vigia.worlds.graph.keys import Kind, make

_MACRO = re.compile(r"^([A-Za-z#@$][A-Za-z0-9#@$]{0,7})?\s+(DFHMSD|DFHMDI|DFHMDF)\b(.*)", re.I)
_INITIAL = re.compile(r"INITIAL='((?:[^']|'')*)'", re.I)
MAX_TEXTS = 40


def _statements(text: str) -> list[tuple[int, int, str, str, str]]:
    """(first line, last line, label, macro, operands) with continuation lines joined."""
    found: list[tuple[int, int, str, str, str]] = []
    continued = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("*"):
            continue
        code = raw[:71]
        if continued and found:
            first, _, label, macro, operands = found[-1]
            found[-1] = (first, number, label, macro, operands + code.strip())
        else:
            match = _MACRO.match(code)
            if match:
                label = (match.group(1) or "").upper()
                found.append((number, number, label, match.group(2).upper(), match.group(3)))
        continued = len(raw) > 71 and raw[71] != " "
    return found


def extract_bms(text: str, path: str) -> Extraction:
    """Mapset and maps of one BMS source, each map with the texts it shows."""
    out = Extraction()
    statements = _statements(text)
    last_line = text.count("\n") + 1
    mapset: str | None = None
    maps: list[tuple[str, int, list[str]]] = []
    for first, _last, label, macro, operands in statements:
        if macro == "DFHMSD" and label and "TYPE=FINAL" not in operands.upper():
            mapset = label
            out.entities.append(
                Entity("mapset", label, make(Kind.MAPSET, label), path, first, last_line)
            )
        elif macro == "DFHMDI" and label:
            maps.append((label, first, []))
        elif macro == "DFHMDF" and maps:
            for shown in _INITIAL.findall(operands):
                words = " ".join(shown.replace("''", "'").split())
                if re.search(r"[A-Za-z]{2}", words) and len(maps[-1][2]) < MAX_TEXTS:
                    maps[-1][2].append(words)
    for index, (name, first, texts) in enumerate(maps):
        end = maps[index + 1][1] - 1 if index + 1 < len(maps) else last_line
        detail = (f"mapset {mapset}: " if mapset else "") + "; ".join(texts)
        out.entities.append(
            Entity("map", name, make(Kind.MAP, name), path, first, end, detail=detail)
        )
        if mapset:
            out.add_edge(
                Edge("contains", make(Kind.MAPSET, mapset), make(Kind.MAP, name), path, first)
            )
    return out
