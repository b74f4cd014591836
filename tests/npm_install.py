"""Runs one of the project's npm install scripts for a test that needs a Node package."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NETWORK_ERRORS = (
    "ENOTFOUND",
    "EAI_AGAIN",
    "ECONNREFUSED",
    "ETIMEDOUT",
    "ECONNRESET",
    "ENETUNREACH",
)


def npm_installed(script: str, folder_env: str, default: str, timeout_s: int) -> Path:
    """The folder ``scripts/<script>`` installs into (``$folder_env``, else ``default`` under
    the repository); skips the test only when the npm registry cannot be reached."""
    folder = Path(os.environ.get(folder_env, ROOT / default)).resolve()
    done = subprocess.run(
        [str(ROOT / "scripts" / script)],
        env={**os.environ, folder_env: str(folder)},
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )
    if done.returncode != 0:
        if any(code in done.stderr for code in NETWORK_ERRORS):
            last = done.stderr.strip().splitlines()[-1]
            pytest.skip(f"scripts/{script} could not install, npm registry unreachable: {last}")
        pytest.fail(f"scripts/{script} failed:\n{done.stderr[-3000:]}")
    return folder
