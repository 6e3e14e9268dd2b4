"""The direction of imports (README, Layout): tiles <- hand <- rules <- game <- vision <- app."""

import ast
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
LAYERS = ["tiles", "hand", "rules", "game", "vision", "app"]
PURE = {"tiles", "hand", "rules", "game"}
HEAVY = {"numpy": {"vision", "app"}, "cv2": {"vision"}, "onnxruntime": {"vision"}, "flet": {"app"}}


def _layer(path: Path) -> str | None:
    rel = path.relative_to(ROOT).parts
    name = rel[0].removesuffix(".py")
    return name if name in LAYERS else None


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def test_imports_follow_the_layers() -> None:
    problems = []
    for path in ROOT.rglob("*.py"):
        layer = _layer(path)
        if layer is None:
            continue
        for mod in _imports(path):
            top = mod.split(".")[0]
            if top == "companion":
                parts = mod.split(".")
                target = parts[1] if len(parts) > 1 else None
                if target in ("cli", "commands"):
                    problems.append(f"{path.name} imports {mod}: only cli may import commands")
                if target in LAYERS and LAYERS.index(target) > LAYERS.index(layer):
                    problems.append(f"{path.relative_to(ROOT)} ({layer}) imports {mod} ({target})")
            elif top in HEAVY and layer not in HEAVY[top]:
                problems.append(f"{path.relative_to(ROOT)} ({layer}) imports {top}")
            elif top == "training":
                problems.append(f"{path.relative_to(ROOT)} imports training")
    assert not problems, "\n".join(problems)


def test_the_walker_sees_the_layers() -> None:
    layers = {_layer(p) for p in ROOT.rglob("*.py")}
    assert {"tiles", "hand", "rules"} <= layers
