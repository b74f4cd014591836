"""Writes the composed rows of the rejected candidates ``vigia-injection-2.2.0a`` and ``b``
(README.md): documents with and without an instruction planted in them, and benign dialogue
transcripts.

Two genres the public pieces lack as they are:

- ``planted.jsonl``: pairs, one group each. A document is 1 to 3 consecutive SIB-200
  *train* sentences (FLORES-200 articles, es/pt/en) of at most ``MAX_DOCUMENT`` characters,
  after a frame or none (a one-line task of the shared train split's self-instruct rows, as
  a user asks about a document; none, as a tool result is read). It is written as it is
  (label 0) and with one instruction addressed to its reader planted at a sentence boundary
  (label 1). The planted instruction is, in ``--trigger-share`` of the pairs (0.7 for
  candidate a, 1.0 for b), a TaskTracker
  injection trigger of the shared train split ("IMPORTANT UPDATE…") followed by a task for
  the reader: a self-instruct instruction or a Schema-Guided Dialogue user request (the
  TaskTracker recipe: the injected task is an ordinary task, the attack is that the data
  gives it); otherwise a short attack of the shared train split (deepset, PurpleLlama,
  llm-guard, giskard), the document's language preferred. No harmful request is planted: the
  candidate that planted AdvBench behaviours learnt that an imperative is an attack
  (``research/injection_documents``).
- ``transcripts.jsonl``: benign. 3 to 6 consecutive turns of one Schema-Guided Dialogue
  train dialogue, one turn a line behind a speaker name (User/Assistant, Customer/Agent,
  Client/Support), as prompts quote a conversation; attacks of the shared split write fake
  dialogues, and without benign ones the format alone reads as an attack.

Every row passes the duplicate filter of ``training/injection_data.py`` (a pair only when
both sides do), and no text equals one of ``training/data/injection``'s files. Inputs are
read, never fetched: the shared data folder (``VIGIA_BENCH_DATA``) and the SGD git mirror
under ``--mirror``. Writes ``planted.jsonl``, ``transcripts.jsonl`` and ``sources.json``
(their provenance) into ``--out``; a candidate is trained with both files copied into
``training/data/injection`` and its ``sources.json`` entries merged there.

Run: ``.venv/bin/python -m research.injection_planted.compose --mirror DIR --out DIR
[--trigger-share 0.7]``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

from training.injection_data import OUT_DIR, folded, guard, opposite_labels, write_rows
from training.injection_sources import SGD, SGD_FILES, SHARED, git_show, sha256

SEED = 13
LANGS = {"spa": "es", "por": "pt", "eng": "en"}
MAX_DOCUMENT = 300
MAX_TEXT = 460
"""Characters of a planted row: about the 126 tokens the classifier reads, so the planted
instruction is never cut out of its window."""
MAX_TASK = 200
MAX_ATTACK = 300
TRIGGER_SHARE = 0.7
FRAME_SHARE = 0.5
ATTACK_SOURCES = frozenset(
    {"deepset-pi", "purplellama-pi", "purplellama-pi-ml", "llm-guard-tests", "giskard-pi"}
)
SPEAKERS = (("User", "Assistant"), ("Customer", "Agent"), ("Client", "Support"))
TRANSCRIPTS = 900
COMPOSED = ("planted", "transcripts")
PLANTED_LICENSE = (
    "CC-BY-SA-4.0 (FLORES-200 via SIB-200; SGD requests) + the shared train split's "
    "licences (TaskTracker MIT, self-instruct Apache-2.0, deepset Apache-2.0, PurpleLlama MIT)"
)


def jsonl(path: Path) -> list[dict[str, object]]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line]


def shared_rows() -> list[dict[str, object]]:
    return jsonl(SHARED / "injection" / "train.jsonl")


def documents() -> list[tuple[str, list[str], str]]:
    """``(lang, sentences, group)``: runs of 1-3 SIB-200 train sentences within the bound."""
    out = []
    for code, lang in LANGS.items():
        path = SHARED / "decide" / f"sib200_{code}_train.jsonl"
        items = jsonl(path)
        items.sort(key=lambda item: int(str(item["index_id"])))
        rng = random.Random(f"{SEED}:{code}")
        start = 0
        while start + 1 <= len(items):
            size = rng.randint(1, 3)
            chunk = [str(i["text"]).strip() for i in items[start : start + size]]
            while len(chunk) > 1 and len(" ".join(chunk)) > MAX_DOCUMENT:
                chunk.pop()
            if len(" ".join(chunk)) <= MAX_DOCUMENT:
                out.append((lang, chunk, f"planted:{code}:{start}"))
            start += size
    return out


def sgd_dialogues(mirror: Path) -> tuple[list[list[str]], list[str]]:
    """The SGD train dialogues (turn texts) and the digests of the files read."""
    repo, commit = SGD
    dialogues: list[list[str]] = []
    digests = []
    for path in SGD_FILES:
        raw = git_show(mirror, repo, commit, path)
        digests.append(sha256(raw))
        for dialog in json.loads(raw):
            dialogues.append([str(t["utterance"]).strip() for t in dialog["turns"]])
    return dialogues, digests


def tasks(rows: list[dict[str, object]], dialogues: list[list[str]]) -> list[str]:
    """Ordinary tasks for a reader: self-instruct instructions and SGD opening requests."""
    out = []
    for item in rows:
        first = str(item["text"]).strip().split("\n")[0].strip()
        if item["source"] == "self-instruct" and 15 <= len(first) <= MAX_TASK:
            out.append(first)
    out += [d[0] for d in dialogues if d and 15 <= len(d[0]) <= MAX_TASK]
    return out


def sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1] in ".!?:;)\"'»" else text + "."


def planted(
    rows: list[dict[str, object]], dialogues: list[list[str]], trigger_share: float
) -> list[dict[str, object]]:
    """The document pairs, in a fixed order."""
    triggers = [
        str(r["text"]).strip()
        for r in rows
        if r["source"] == "tasktracker" and r.get("kind") == "injection-trigger"
    ]
    attacks: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        text = str(r["text"]).strip()
        if r["label"] == 1 and r["source"] in ATTACK_SOURCES and len(text) <= MAX_ATTACK:
            attacks[str(r.get("lang") or "en")].append(text)
    frames = [
        str(r["text"]).strip()
        for r in rows
        if r["source"] == "self-instruct"
        and "\n" not in str(r["text"]).strip()
        and len(str(r["text"])) <= MAX_TASK
    ]
    reader_tasks = tasks(rows, dialogues)
    rng = random.Random(SEED)
    out: list[dict[str, object]] = []
    for lang, sentences, group in documents():
        if rng.random() < trigger_share:
            instruction = f"{sentence(rng.choice(triggers))} {sentence(rng.choice(reader_tasks))}"
            kind = "planted-task"
        else:
            own = attacks.get(lang, [])
            pool = own if own and lang != "en" and rng.random() < 0.5 else attacks["en"]
            instruction = sentence(rng.choice(pool))
            kind = "planted-attack"
        at = rng.randint(0, len(sentences))
        frame = rng.choice(frames) if rng.random() < FRAME_SHARE else ""
        joiner = "\n" if rng.random() < 0.3 else " "
        clean = joiner.join(sentences)
        dirty = joiner.join([*sentences[:at], instruction, *sentences[at:]])
        if len(frame) + len(dirty) > MAX_TEXT:  # the blank line after a frame not counted
            frame = ""
        if len(dirty) > MAX_TEXT:
            continue
        for label, body in ((0, clean), (1, dirty)):
            out.append(
                {
                    "text": f"{frame}\n\n{body}" if frame else body,
                    "label": label,
                    "lang": lang,
                    "source": "planted",
                    "kind": kind if label else "document",
                    "license": PLANTED_LICENSE,
                    "group": group,
                }
            )
    return out


def transcripts(dialogues: list[list[str]]) -> list[dict[str, object]]:
    """Benign transcripts of SGD dialogues, a seeded sample of ``TRANSCRIPTS``."""
    rng = random.Random(SEED)
    chosen = rng.sample(range(len(dialogues)), min(TRANSCRIPTS, len(dialogues)))
    out = []
    for index in chosen:
        turns = dialogues[index]
        size = rng.randint(3, 6)
        start = rng.randrange(0, max(1, len(turns) - size + 1))
        first, second = rng.choice(SPEAKERS)
        lines = [
            f"{first if (start + i) % 2 == 0 else second}: {turn}"
            for i, turn in enumerate(turns[start : start + size])
        ]
        out.append(
            {
                "text": "\n".join(lines),
                "label": 0,
                "lang": "en",
                "source": "transcripts",
                "kind": "dialogue-transcript",
                "license": "CC-BY-SA-4.0",
            }
        )
    return out


def kept_pairs(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows that pass the duplicate filter, also against the other extra files' texts."""
    keep = guard()
    for path in sorted(OUT_DIR.glob("*.jsonl")):
        if path.stem not in COMPOSED:
            keep.exact.update(folded(str(row["text"])) for row in jsonl(path))
    conflicts = opposite_labels()
    by_group: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in rows:
        by_group[str(r.get("group") or id(r))].append(r)
    return [
        r
        for group in by_group.values()
        if all(
            keep.admits(str(r["text"])) and conflicts[int(str(r["label"]))].admits(str(r["text"]))
            for r in group
        )
        for r in group
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, required=True, help="folder of bare git mirrors")
    parser.add_argument("--out", type=Path, required=True, help="folder to write into")
    parser.add_argument("--trigger-share", type=float, default=TRIGGER_SHARE)
    args = parser.parse_args()
    rows = shared_rows()
    dialogues, digests = sgd_dialogues(args.mirror)
    repo, commit = SGD
    shared_train = (SHARED / "injection" / "train.jsonl").read_bytes()
    built = {
        "planted": planted(rows, dialogues, args.trigger_share),
        "transcripts": transcripts(dialogues),
    }
    meta: dict[str, dict[str, object]] = {
        "planted": {
            "composed_from": {
                "documents": "dadelani/sib-200 train (spa_Latn, por_Latn, eng_Latn; via the "
                f"shared data folder), 1-3 consecutive sentences by index_id, <= {MAX_DOCUMENT} "
                "characters",
                "planted": f"{args.trigger_share:.0%}: a tasktracker injection-trigger row of the "
                "shared injection/train.jsonl + a self-instruct instruction of it or an SGD "
                f"opening user request (<= {MAX_TASK} characters); otherwise a shared train "
                f"attack of {sorted(ATTACK_SOURCES)} <= {MAX_ATTACK} characters",
                "frames": f"{FRAME_SHARE:.0%}: a one-line self-instruct row of the shared "
                "train split",
            },
            "files": [{"path": "injection/train.jsonl", "sha256": sha256(shared_train)}],
            "sgd": {"repo": repo, "commit": commit, "path": SGD_FILES, "sha256": digests},
            "license": PLANTED_LICENSE,
            "filter": "pairs (clean label 0, planted label 1, same frame and group; seed 13); "
            "a pair is dropped when either side fails the duplicate filter",
        },
        "transcripts": {
            "repo": repo, "commit": commit, "path": SGD_FILES, "sha256": digests,
            "license": "CC-BY-SA-4.0",
            "filter": f"{TRANSCRIPTS} train dialogues (seed 13), 3-6 consecutive turns behind "
            f"speaker names {list(SPEAKERS)}; label 0",
        },
    }  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    document: dict[str, dict[str, object]] = {"sources": {}}
    for name, made in built.items():
        meta[name].update(write_rows(args.out, name, kept_pairs(made), len(made)))
        document["sources"][name] = meta[name]
    (args.out / "sources.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
