"""The calibration folder's save lock left by a save that crashed is taken over at once (a change review: a save
killed inside :func:`~companion.vision.calibration.saving` made `calibrate rename set11 mine` wait 30.7 s and say
another tile set was being saved, and so every save and rename for ten minutes)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.tiles import Tile
from companion.vision import calibration

PICTURES = Path(__file__).parents[2] / "companion" / "assets" / "tiles"
ROOT = Path(__file__).parents[2]


@pytest.fixture(autouse=True)
def sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(calibration, "SAVE_WAIT_S", 0.0)  # a lock not taken over is said busy at once
    crops = [(t, cv2.imread(str(PICTURES / f"{t.code}.png"))) for t in (Tile.M1, Tile.P5)]
    calibration.save(calibration.Calibration.from_crops("set11", crops))
    return calibration.calibration_dir()


def test_a_save_killed_while_holding_the_lock_blocks_no_rename(sets: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    crash = "from companion.vision import calibration as c; import os\nwith c.saving(): os.kill(os.getpid(), 9)"
    subprocess.run([sys.executable, "-c", crash], env=env, check=False, timeout=120)
    assert (sets / ".saving.lock").read_text().split()[0].isdigit()  # left behind, naming the dead process
    assert main(["calibrate", "rename", "set11", "mine"]) == 0
    assert "renamed “set11” to “mine”" in capsys.readouterr().out
    assert calibration.list_sets() == ["mine"] and not (sets / ".saving.lock").exists()


@pytest.mark.parametrize("text", [b"", b"\xff\xfe", b"not a pid", b"1 2 3"])
def test_an_empty_or_unreadable_lock_is_taken_over(sets: Path, text: bytes) -> None:
    lock = sets / ".saving.lock"
    lock.write_bytes(text)
    os.utime(lock, (lock.stat().st_atime - 60, lock.stat().st_mtime - 60))  # past the moment a save writes its pid
    with calibration.saving():
        assert lock.read_text().split()[0] == str(os.getpid())


def test_a_running_saves_lock_is_waited_for_and_said_busy_saving_or_renaming(sets: Path) -> None:
    lock = sets / ".saving.lock"
    lock.write_text(str(os.getpid()))
    with pytest.raises(calibration.CalibrationError) as said:
        calibration.rename("set11", "mine")
    assert "being saved or renamed" in str(said.value) and "儲存或改名" in str(said.value)
    assert calibration.list_sets() == ["set11"] and lock.exists()


def test_the_lock_is_not_made_executable(sets: Path) -> None:
    with calibration.saving():
        mode = stat.S_IMODE((sets / ".saving.lock").stat().st_mode)
    assert not mode & 0o111  # 0o644 under the usual umask (it was made 0o777)


def _started() -> str:
    """When this process started, as Linux's ``/proc/PID/stat`` says it (field 22); skipped where it is not said."""
    try:
        stat = Path(f"/proc/{os.getpid()}/stat").read_text(encoding="ascii")
    except OSError:
        pytest.skip("no /proc: a lock names its process by its pid alone")
    return stat.rsplit(")", 1)[1].split()[19]


def test_a_lock_names_its_process_by_pid_and_start(sets: Path) -> None:
    with calibration.saving():
        assert (sets / ".saving.lock").read_text() == f"{os.getpid()} {_started()}"


def test_a_lock_whose_pid_another_process_has_since_is_taken_over_at_once(sets: Path) -> None:
    """A crashed save's pid given to another process since (a live one, started at another time than the lock
    says): its lock had blocked every save and rename for ten minutes, each waiting 30 s to say another set was being
    saved."""
    lock = sets / ".saving.lock"
    lock.write_text(f"{os.getpid()} {int(_started()) - 1}")
    assert calibration.rename("set11", "mine")
    assert calibration.list_sets() == ["mine"] and not lock.exists()


def test_a_running_saves_lock_naming_its_start_is_waited_for(sets: Path) -> None:
    lock = sets / ".saving.lock"
    lock.write_text(f"{os.getpid()} {_started()}")
    with pytest.raises(calibration.CalibrationError):
        calibration.rename("set11", "mine")
    assert calibration.list_sets() == ["set11"] and lock.exists()
