"""Rebuild one artefact of the manifest, or verify every recorded digest without training.

    python -m training.fit --check [--data DIR]       # digests, model ids, feature names
    python -m training.fit ARTEFACT [--data DIR] [--record]

``--check`` needs only the standard library: for every artefact it compares the SHA-256 of
each output and input that is on this machine with the manifest, and the ``model`` and
``features`` fields of JSON outputs with the manifest's model id and feature names. A
shipped output that is missing, or any digest or identity that differs, fails the check;
data inputs are checked only when the dev-data folder is given (``--data`` or
``$VIGIA_BENCH_DATA``), and outputs of artefacts not shipped yet only where built.

``ARTEFACT`` runs that artefact's one writer (its ``run`` command, in the repository root,
``{data}`` replaced by the data folder) and then compares the outputs with the manifest;
``--record`` writes the new output digests into the manifest instead.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from training import manifest
from training.manifest import Artefact, FileRef


def _identity_problems(artefact: Artefact, path: Path) -> list[str]:
    if path.suffix != ".json":
        return []
    content = json.loads(path.read_text(encoding="utf-8"))
    # Vigia's JSON artefacts name their model id in "model" (a tokenizer.json's "model" is
    # its tokenizer model, a dict: not an id).
    if not isinstance(content, dict) or not isinstance(content.get("model"), str):
        return []
    problems = []
    if content["model"] != artefact.model_id:
        problems.append(f"{path.name}: model {content['model']!r} != {artefact.model_id!r}")
    if artefact.features and content.get("features") != list(artefact.features):
        problems.append(f"{path.name}: feature names differ from the manifest")
    return problems


def _check_file(ref: FileRef, data: Path | None, required: bool) -> tuple[str, bool]:
    where = manifest.resolve(ref, data)
    label = f"{ref.kind}:{ref.package + '/' if ref.package else ''}{ref.path}"
    if where is None:
        return f"  unchecked {label} (no {ref.kind} folder here)", True
    if not where.exists():
        return (f"  MISSING   {label}", False) if required else (f"  not built {label}", True)
    if manifest.sha256(where) != ref.sha256:
        return f"  DIFFERS   {label}", False
    return f"  ok        {label}", True


def check(artefacts: dict[str, Artefact], data: Path | None) -> bool:
    """Print one line per file; True when nothing differs and nothing shipped is missing."""
    good = True
    for artefact in artefacts.values():
        state = "shipped" if artefact.shipped else "not shipped"
        print(f"{artefact.name} ({artefact.model_id}, {state})")
        for ref in artefact.outputs:
            line, fine = _check_file(ref, data, required=artefact.shipped)
            print(line)
            good &= fine
            where = manifest.resolve(ref, data)
            if fine and where is not None and where.exists():
                for problem in _identity_problems(artefact, where):
                    print(f"  IDENTITY  {problem}")
                    good = False
        for ref in (*artefact.inputs, *artefact.measured_on):
            line, fine = _check_file(ref, data, required=True)
            print(line)
            good &= fine
    return good


def _data_folder(explicit: Path | None) -> Path | None:
    if explicit is not None:
        return explicit
    env = os.environ.get("VIGIA_BENCH_DATA")
    return Path(env) if env else None


def rebuild(artefact: Artefact, data: Path | None, record: bool) -> bool:
    """Run the artefact's writer; compare (or record) its outputs."""
    run = [str(part) for part in artefact.raw["run"]]  # type: ignore[attr-defined]
    if data is None and any("{data}" in part for part in run):
        raise SystemExit(f"{artefact.name} reads the dev data: give --data or VIGIA_BENCH_DATA")
    argv = [part.replace("{data}", str(data)) for part in run]
    env = dict(os.environ, **({"VIGIA_BENCH_DATA": str(data)} if data else {}))
    print("running:", " ".join(argv), flush=True)
    subprocess.run(argv, cwd=manifest.ROOT, env=env, check=True)
    if record:
        manifest.record_outputs(artefact.name)
        print(f"recorded the output digests of {artefact.name} in {manifest.MANIFEST.name}")
        return True
    good = True
    for ref in artefact.outputs:
        line, fine = _check_file(ref, data, required=True)
        print(line)
        good &= fine
    return good


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artefact", nargs="?", help="name of an artefact in the manifest")
    parser.add_argument("--check", action="store_true", help="verify digests, train nothing")
    parser.add_argument("--data", type=Path, default=None, help="the dev-data folder")
    parser.add_argument("--record", action="store_true", help="write the new output digests")
    parser.add_argument("--manifest", type=Path, default=manifest.MANIFEST)
    args = parser.parse_args(argv)
    artefacts = manifest.load(args.manifest)
    data = _data_folder(args.data)
    if args.check:
        good = check(artefacts, data)
        print("manifest check:", "passed" if good else "FAILED")
        return 0 if good else 1
    if args.artefact not in artefacts:
        parser.error(f"artefact must be one of: {', '.join(artefacts)}")
    return 0 if rebuild(artefacts[args.artefact], data, args.record) else 1


if __name__ == "__main__":
    sys.exit(main())
