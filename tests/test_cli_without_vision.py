"""The rules' commands answer where the vision stack cannot load (a broken onnxruntime or OpenCV wheel, a machine
they were never installed on): every command's module is loaded to build the command line, and one that loaded the
photo scorer at its top made even ``companion waits`` and ``--help`` end in a traceback (a review)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ("onnxruntime", "cv2", "numpy", "PIL", "flet", "torch")


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment in which each heavy package fails to import, as a broken wheel does, and notes that it was
    tried (in the folder ``SHIM_SEEN``): a command that tried and caught the failure would still load it where it
    works, the start-up cost this guards against."""
    shim = tmp_path_factory.mktemp("broken")
    for name in BROKEN:
        (shim / name).mkdir()
        (shim / name / "__init__.py").write_text(
            "import os\n"
            f"open(os.path.join(os.environ['SHIM_SEEN'], '{name}'), 'w').close()\n"
            f"raise ImportError('{name} is broken here')\n", "utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(shim), str(ROOT)])}


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["waits", "123m456m789m123s45p55z"],
    ["shanten", "123m456m789m123s45p55z"],
    ["discard", "123m456m789m123s45p55z9s"],
    ["tai", "--list-profiles"],
    ["score", "--help"],
    ["calibrate", "--help"],
    ["replay", "--help"],
])
def test_a_rules_command_answers_without_the_vision_stack(argv: list[str], broken: dict[str, str],
                                                          tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "companion", *argv], env={**broken, "SHIM_SEEN": str(tmp_path)},
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stdout.strip()
    assert not sorted(p.name for p in tmp_path.iterdir())  # not even tried


def test_the_shim_does_break_what_it_names(broken: dict[str, str], tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import onnxruntime"], env={**broken, "SHIM_SEEN": str(tmp_path)},
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0 and "onnxruntime is broken here" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["onnxruntime"]
