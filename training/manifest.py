"""The training manifest (``training/manifest.json``): every shipped artefact and how it is made.

One entry per artefact: its model id, output files with their expected SHA-256, the one
command that writes them, the input files (and ``measured_on``: the files its recorded
figures were measured on) with SHA-256 (``data`` inputs are relative to
the dev-data folder, ``package`` inputs to an installed package, ``repo`` inputs to the
repository root), parameters, and the package versions used. Standard library only, so
``python -m training.fit --check`` runs on the plain run-time environment.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = Path(__file__).with_name("manifest.json")
KINDS = ("repo", "package", "data")


@dataclass(frozen=True)
class FileRef:
    """A file named by where it lives (``kind``), its path there, and its SHA-256."""

    kind: str
    path: str
    sha256: str
    package: str = ""


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def package_dir(name: str) -> Path | None:
    """The installed folder of package ``name``, or None where it is not installed."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def resolve(ref: FileRef, data: Path | None) -> Path | None:
    """Where ``ref`` is on this machine; None when its folder is not available."""
    if ref.kind == "repo":
        return ROOT / ref.path
    if ref.kind == "package":
        folder = package_dir(ref.package)
        return None if folder is None else folder / ref.path
    if ref.kind == "data":
        return None if data is None else data / ref.path
    raise ValueError(f"unknown file kind {ref.kind!r}")


def _ref(raw: dict[str, str]) -> FileRef:
    if raw.get("kind") not in KINDS:
        raise ValueError(f"manifest file entry has no valid kind: {raw}")
    return FileRef(raw["kind"], raw["path"], raw["sha256"], raw.get("package", ""))


@dataclass(frozen=True)
class Artefact:
    """One shipped (or to-be-shipped) artefact of the manifest."""

    name: str
    model_id: str
    command: str
    outputs: tuple[FileRef, ...]
    inputs: tuple[FileRef, ...]
    measured_on: tuple[FileRef, ...]
    features: tuple[str, ...]
    shipped: bool
    raw: dict[str, object]


def load(path: Path = MANIFEST) -> dict[str, Artefact]:
    """The manifest's artefacts by name."""
    document = json.loads(path.read_text(encoding="utf-8"))
    artefacts: dict[str, Artefact] = {}
    for name, entry in document["artefacts"].items():
        artefacts[name] = Artefact(
            name=name,
            model_id=entry["model_id"],
            command=entry["command"],
            outputs=tuple(_ref(o) for o in entry["outputs"]),
            inputs=tuple(_ref(i) for i in entry["inputs"]),
            measured_on=tuple(_ref(i) for i in entry.get("measured_on", ())),
            features=tuple(entry.get("features", ())),
            shipped=bool(entry["shipped"]),
            raw=entry,
        )
    return artefacts


def record_outputs(name: str, path: Path = MANIFEST) -> None:
    """Write the current digests of artefact ``name``'s outputs into the manifest."""
    document = json.loads(path.read_text(encoding="utf-8"))
    for output in document["artefacts"][name]["outputs"]:
        target = resolve(_ref(output), None)
        if target is None or not target.exists():
            raise FileNotFoundError(f"{name}: output {output['path']} was not written")
        output["sha256"] = sha256(target)
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
