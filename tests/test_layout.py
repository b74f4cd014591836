"""The layout shows the layers: every package and root module of ``vigia`` has a layer,
the package root holds only the modules listed here (new code goes into a package),
and the test folders mirror the packages."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "vigia"

LAYERS: dict[str, str] = {
    # surfaces: routers, pages and commands
    "app": "surface", "cli": "surface", "admin": "surface", "console": "surface",
    "openai_api": "surface", "evaluation": "surface",
    "operations": "surface", "demo": "surface",
    # the engine: one pipeline for every channel
    "engine": "engine",
    # domains
    "workspaces": "domain", "agents": "domain", "conversations": "domain",
    "knowledge": "domain", "guardrails": "domain", "decide": "domain", "worlds": "domain",
    "review": "domain",
    "eval_cases": "domain", "users": "domain",
    # infrastructure
    "llm": "infrastructure", "search": "infrastructure", "embeddings": "infrastructure",
    "db": "infrastructure", "language": "infrastructure", "config": "infrastructure",
    "errors": "infrastructure", "egress": "infrastructure", "observability": "infrastructure",
    "http": "infrastructure", "kit": "infrastructure",
}  # fmt: skip
ROOT_MODULES = {"__init__", "app", "cli", "config", "egress", "embeddings", "errors", "language"}


def _packages() -> set[str]:
    return {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}


def _root_modules() -> set[str]:
    return {p.stem for p in SRC.glob("*.py")}


def test_every_package_and_root_module_has_a_layer() -> None:
    found = _packages() | (_root_modules() - {"__init__"})
    for layer in ("surface", "engine", "domain", "infrastructure"):
        print(f"{layer}: {', '.join(sorted(n for n in found if LAYERS.get(n) == layer))}")
    assert sorted(found - LAYERS.keys()) == [], "give the new package or module a layer here"
    assert sorted(LAYERS.keys() - found) == [], "a listed package or module is gone"


def test_the_package_root_holds_only_the_listed_modules() -> None:
    extra = sorted(_root_modules() - ROOT_MODULES)
    assert extra == [], f"modules at the root of vigia that belong in a package: {extra}"


# Test folders that mirror no package of vigia: the two-replica deployment behind nginx, and
# the encoder training outside src (training/).
TEST_FOLDERS_BEYOND_VIGIA = {"deploy", "training"}


def test_test_folders_mirror_the_packages() -> None:
    tests = Path(__file__).resolve().parent
    folders = {p.name for p in tests.iterdir() if (p / "__init__.py").is_file()}
    stray = sorted(folders - _packages() - _root_modules() - TEST_FOLDERS_BEYOND_VIGIA)
    assert stray == [], f"test folders named after no package or module of vigia: {stray}"
