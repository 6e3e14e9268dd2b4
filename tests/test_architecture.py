"""The direction of imports (docs/architecture.md): tiles <- hand <- rules <- game <- vision <- app; cli may
import anything.

Every module under ``companion`` gets a layer, in this order (a module may import its own layer or one below):

* ``base``: the package root (``companion/__init__.py``) and the helpers ``files.py``, ``english.py`` and
  ``names.py`` that the core imports (``rules.profiles``, ``game.service``, ``game.text``, ``game.check``), so they
  sit below ``tiles``;
* the six layers ``tiles``, ``hand``, ``rules``, ``game``, ``vision``, ``app``;
* ``cli``: ``cli.py``, ``__main__.py`` and the ``commands`` it loads; nothing below imports them.

The pure layers (base, tiles, hand, rules, game) import the standard library only. ``vision`` and ``app`` import
the standard library and the packages listed for them below: of the six, only ``vision`` imports cv2, onnxruntime and
PIL, only ``app`` imports flet. ``cli`` (its commands too) may import any of the project's dependencies; nothing
imports torch or ``training``. View-models (``app/*_model.py``) import no flet, not even through another module.

Imports are read with ``ast``: ``import x``, ``from x import y`` (each ``y`` may itself be a module, as in
``from companion import app``) and relative imports, resolved against the module's package; imports inside
functions and under ``TYPE_CHECKING`` count too. A second check imports the pure layers and the view-models in a
fresh interpreter and looks at what ``sys.modules`` holds afterwards.

``training`` (outside the package) imports from ``companion`` only ``tiles`` and the layers that are pure Python and
say what a tile or a hand is (``hand``, ``rules``: the renderer lays out winning hands with ``rules.win``), and
``vision``, so that training and inference see the same pixels and the evaluation reads as the product does
(``vision.detect``, ``read``, ``orient``). The docs' narrower rule (``tiles`` and vision preprocessing only) is kept
in spirit: training never imports the table, the app or the commands.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
SIX = ("tiles", "hand", "rules", "game", "vision", "app")
ORDER = ("base", *SIX, "cli")
PURE = {"base", "tiles", "hand", "rules", "game"}
# what the package's second name (companion.<name>) says about the layer; "" is companion itself
LAYER_OF = {"": "base", "files": "base", "english": "base", "names": "base",
            **{name: name for name in SIX}, "cli": "cli", "__main__": "cli", "commands": "cli"}
# third-party packages (top-level import names) each impure layer may import; the pure layers import none
THIRD_PARTY = {
    "vision": {"numpy", "cv2", "onnxruntime", "PIL"},
    "app": {"numpy", "flet", "flet_web", "uvicorn"},  # flet-web serves the app under uvicorn (app/server.py)
    "cli": {"numpy", "cv2", "onnxruntime", "PIL", "flet", "flet_web", "uvicorn"},  # "cli may import anything":
    # the dependencies in pyproject.toml (commands/read.py, score.py and calibrate.py use cv2 and PIL)
}
FLET = {"flet", "flet_web"}
HEAVY = {"numpy", "cv2", "onnxruntime", "PIL", "torch", "flet", "flet_web", "uvicorn", "training"}
STDLIB = sys.stdlib_module_names


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer_of_module(name: str) -> str | None:
    """The layer of ``companion`` or ``companion.x...``; None for a name outside every layer."""
    parts = name.split(".")
    return LAYER_OF.get(parts[1] if len(parts) > 1 else "")


def _layer(path: Path) -> str | None:
    return _layer_of_module(_module_name(path))


@cache
def _sources() -> tuple[Path, ...]:
    return tuple(sorted(ROOT.rglob("*.py")))


@cache
def _known_modules() -> frozenset[str]:
    return frozenset(_module_name(p) for p in _sources())


def _imports(path: Path, source: str | None = None) -> set[str]:
    """Every module name ``path`` (or ``source`` read as if it were at ``path``) imports, absolute; for
    ``from m import a`` both ``m`` and ``m.a`` when that is a module of companion (``from companion import app``
    imports ``companion.app``)."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source, str(path))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = package.split(".")
                if node.level - 1 >= len(up):
                    out.add("." * node.level + (node.module or ""))  # above the top package: reported
                    continue
                base = ".".join(up[: len(up) - (node.level - 1)])
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            out.add(mod)
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                if sub in _known_modules():
                    out.add(sub)
    return out


@cache
def _file_imports(path: Path) -> frozenset[str]:
    return frozenset(_imports(path))


def _problems(path: Path, layer: str, imported: set[str]) -> list[str]:
    """What ``path`` in ``layer`` may not import, each as the name imported and why."""
    problems = []
    for mod in sorted(imported):
        top = mod.split(".")[0]
        if not top:
            problems.append(f"{mod}: a relative import above companion")
        elif top == "companion":
            target = _layer_of_module(mod)
            if target is None:
                problems.append(f"{mod}, which has no layer")
            elif ORDER.index(target) > ORDER.index(layer):
                problems.append(f"{mod} ({target})")
        elif top in STDLIB:
            continue
        elif top not in THIRD_PARTY.get(layer, set()):
            why = "a pure layer imports the standard library only" if layer in PURE else f"not one of {layer}'s"
            problems.append(f"{top}: {why}")
    return problems


def test_every_module_has_a_layer_and_the_walker_sees_all_six() -> None:
    layers = {p: _layer(p) for p in _sources()}
    missing = [str(p.relative_to(ROOT.parent)) for p, lay in layers.items() if lay is None]
    assert not missing, f"give these modules a layer in LAYER_OF: {missing}"
    assert set(SIX) <= set(layers.values()), f"a layer has no modules: {set(SIX) - set(layers.values())}"
    assert {"base", "cli"} <= set(layers.values())


def test_the_walker_resolves_relative_and_from_imports() -> None:
    """The walker sees through ``from .. import``, ``from companion import app`` and imports inside functions."""
    shape = ROOT / "rules" / "shape.py"
    got = _imports(shape, "def f():\n    from ..vision import read\n    from companion import app, tiles\n"
                          "    from . import waits\n    import PIL.Image\n")
    assert {"companion.vision.read", "companion.app", "companion.tiles", "companion.rules.waits"} <= got
    assert _problems(shape, "rules", got) == [
        "PIL: a pure layer imports the standard library only",
        "companion.app (app)",
        "companion.vision (vision)",
        "companion.vision.read (vision)",
    ]


def test_imports_follow_the_layers() -> None:
    problems = []
    for path in _sources():
        layer = _layer(path)
        assert layer is not None, path
        here = f"{path.relative_to(ROOT.parent)} ({layer}) imports"
        problems += [f"{here} {p}" for p in _problems(path, layer, set(_file_imports(path)))]
    assert not problems, "\n".join(problems)


TRAINING_MAY_IMPORT = {"base", "tiles", "hand", "rules", "vision"}


def test_training_imports_only_what_a_tile_is_and_how_it_is_seen() -> None:
    training = ROOT.parent / "training"
    files = sorted(training.rglob("*.py"))
    assert len(files) >= 5, files
    problems = []
    for path in files:
        for mod in sorted(_imports(path)):
            if mod.split(".")[0] != "companion":
                continue
            layer = _layer_of_module(mod)
            if layer not in TRAINING_MAY_IMPORT:
                problems.append(f"{path.relative_to(ROOT.parent)} imports {mod} ({layer})")
    assert not problems, "\n".join(problems)
    # the walker sees a reversed arrow here too
    assert any(m.startswith("companion.game") for m in _imports(files[0], "from companion.game import state\n"))


def _flet_importers() -> set[str]:
    """Modules of companion that import flet, directly or through other modules of companion."""
    graph = {_module_name(p): _file_imports(p) for p in _sources()}
    bad = {m for m, imps in graph.items() if any(i.split(".")[0] in FLET for i in imps)}
    grew = True
    while grew:
        grew = False
        for m, imps in graph.items():
            if m not in bad and imps & bad:
                bad.add(m)
                grew = True
    return bad


def test_view_models_import_no_flet() -> None:
    """View-models are plain Python and hold no flet types (docs: UI); views are thin and call them."""
    models = [_module_name(p) for p in sorted((ROOT / "app").glob("*_model.py"))]
    assert len(models) >= 5, models
    bad = sorted(set(models) & _flet_importers())
    assert not bad, f"view-models that import flet, directly or through another module: {bad}"


_PROBE = """
import importlib, json, pkgutil, sys
names = sys.argv[1:]
before = set(sys.modules)
wanted = []
for name in names:
    if name.endswith(".*"):
        pkg = importlib.import_module(name[:-2])
        wanted += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    else:
        wanted.append(name)
for name in wanted:
    importlib.import_module(name)
print(json.dumps({"imported": sorted(wanted), "new": sorted(set(sys.modules) - before)}))
"""


def _probe(*names: str) -> tuple[list[str], list[str]]:
    """Import ``names`` (``pkg.*``: every module under pkg) in a fresh interpreter: (what it imported, what
    sys.modules gained)."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *names], capture_output=True, text=True, timeout=120,
                          cwd=ROOT.parent, env={**os.environ, "PYTHONPATH": str(ROOT.parent)}, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    return out["imported"], out["new"]


def test_the_pure_layers_load_nothing_but_the_standard_library() -> None:
    imported, new = _probe("companion.tiles", "companion.hand", "companion.files", "companion.english",
                           "companion.rules.*", "companion.game.*")
    assert "companion.rules.scoring" in imported and "companion.game.evolve" in imported
    heavy = sorted(m for m in new if m.split(".")[0] in HEAVY)
    above = sorted(m for m in new if _layer_of_module(m) not in PURE and m.split(".")[0] == "companion")
    foreign = sorted({m.split(".")[0] for m in new} - set(STDLIB) - {"companion"})
    assert not foreign and not heavy, f"the pure layers loaded {foreign}: {heavy[:8]}"
    assert not above, f"the pure layers loaded modules above them: {above[:8]}"


def test_the_view_models_load_no_flet() -> None:
    models = [_module_name(p) for p in sorted((ROOT / "app").glob("*_model.py"))]
    _, new = _probe(*models)
    loaded = sorted(m for m in new if m.split(".")[0] in FLET | {"uvicorn"})
    assert not loaded, f"importing the view-models loaded {loaded[:8]}"
