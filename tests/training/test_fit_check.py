"""``python -m training.fit --check``: the recorded digests of every artefact, no training."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from training import fit, manifest

MANIFEST, ROOT = manifest.MANIFEST, manifest.ROOT


def _write(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def test_the_repository_manifest_passes_the_check_without_torch() -> None:
    done = subprocess.run(
        [
            sys.executable, "-c",
            "import sys; from training import fit; rc = fit.main(['--check']); "
            "assert 'torch' not in sys.modules; sys.exit(rc)",
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "manifest check: passed" in done.stdout


def test_the_manifest_covers_every_shipped_data_file() -> None:
    shipped = {
        path.relative_to(ROOT).as_posix()
        for pattern in ("*.json", "*.npz", "*.onnx", "*.bin", "*.npy")
        for path in (ROOT / "src" / "vigia").rglob(pattern)
        if "data" in path.parts or path.name == "calibration.json"
    }
    recorded = {o.path for a in manifest.load().values() for o in a.outputs if o.kind == "repo"}
    assert shipped <= recorded, f"artefacts without a manifest entry: {sorted(shipped - recorded)}"


def test_a_changed_output_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _manifest()
    document["artefacts"]["vigia-injection-2.0.0"]["outputs"][0]["sha256"] = "0" * 64
    assert fit.main(["--check", "--manifest", str(_write(tmp_path / "m.json", document))]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS   repo:src/vigia/guardrails/data/vigia-injection-2.0.0/model.int8.onnx" in out
    assert "manifest check: FAILED" in out


def test_a_wrong_model_id_or_feature_list_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _manifest()
    entry = document["artefacts"]["vigia-injection-2.0.0"]
    entry["model_id"] = "vigia-injection-9.9.9"
    entry["features"] = [*entry["features"][:-1], "renamed_input"]
    assert fit.main(["--check", "--manifest", str(_write(tmp_path / "m.json", document))]) == 1
    out = capsys.readouterr().out
    assert "model 'vigia-injection-2.0.0' != 'vigia-injection-9.9.9'" in out
    assert "feature names differ from the manifest" in out


def test_a_missing_shipped_output_fails_but_an_unbuilt_candidate_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = {"kind": "repo", "path": "training/out/no-such-file.onnx", "sha256": "0" * 64}
    candidate = {"model_id": "c", "command": "-", "run": [], "shipped": False,
                 "outputs": [ref], "inputs": []}  # fmt: skip
    document = {"artefacts": {"c": candidate}}
    assert fit.main(["--check", "--manifest", str(_write(tmp_path / "a.json", document))]) == 0
    assert "not built repo:training/out/no-such-file.onnx" in capsys.readouterr().out
    document["artefacts"]["c"]["shipped"] = True
    assert fit.main(["--check", "--manifest", str(_write(tmp_path / "b.json", document))]) == 1
    assert "MISSING   repo:training/out/no-such-file.onnx" in capsys.readouterr().out


def test_data_inputs_are_checked_when_the_data_folder_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VIGIA_BENCH_DATA", raising=False)  # else it is the data folder
    data = tmp_path / "data"
    (data / "injection").mkdir(parents=True)
    (data / "injection" / "train.jsonl").write_text('{"text": "hola", "label": 0}\n')
    digest = hashlib.sha256((data / "injection" / "train.jsonl").read_bytes()).hexdigest()
    ref = {"kind": "data", "path": "injection/train.jsonl", "sha256": digest}
    entry = {"model_id": "c", "command": "-", "run": [], "shipped": False,
             "outputs": [], "inputs": [ref]}  # fmt: skip
    path = _write(tmp_path / "m.json", {"artefacts": {"c": entry}})
    assert fit.main(["--check", "--manifest", str(path)]) == 0
    assert "unchecked data:injection/train.jsonl" in capsys.readouterr().out
    assert fit.main(["--check", "--manifest", str(path), "--data", str(data)]) == 0
    assert "ok        data:injection/train.jsonl" in capsys.readouterr().out
    (data / "injection" / "train.jsonl").write_text('{"text": "hola", "label": 1}\n')
    assert fit.main(["--check", "--manifest", str(path), "--data", str(data)]) == 1
    assert "DIFFERS   data:injection/train.jsonl" in capsys.readouterr().out
