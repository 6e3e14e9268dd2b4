"""The upload folder does not fill: a photo nobody reads is removed once its address has expired, and the folders of a
server killed before it could remove them are removed at the next start (a privacy review left three 15 MB photos of
phones that left mid-send, and a killed server's folder for good)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from companion.app.upload import (
    FOLDER_PREFIX,
    HELD,
    STALE_SECONDS,
    UPLOAD_SECONDS,
    hold,
    sweep,
    sweep_left_over_folders,
)


def _aged(path: Path, seconds: float) -> Path:
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_photo_older_than_its_address_is_removed_and_one_still_sending_is_kept(tmp_path: Path) -> None:
    left = tmp_path / "left.jpg"
    left.write_bytes(b"x" * 10)
    _aged(left, STALE_SECONDS + 5)
    fresh = tmp_path / "fresh.jpg"
    fresh.write_bytes(b"y")
    _aged(fresh, UPLOAD_SECONDS - 5)  # its address may still be in use: a photo arriving now
    assert sweep(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.jpg"]
    assert sweep(tmp_path / "gone") == 0  # a folder already removed (the server stopping) is no error


def test_the_folders_of_a_killed_server_are_removed_and_a_running_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    killed = tmp_path / f"{FOLDER_PREFIX}{int(dead.stdout)}-abc123"
    running = tmp_path / f"{FOLDER_PREFIX}{os.getpid()}-def456"
    old = tmp_path / f"{FOLDER_PREFIX}q7zx_k2a"  # an earlier version's name, no process id
    recent = tmp_path / f"{FOLDER_PREFIX}r8yw_j3b"
    other = tmp_path / "someone-elses-folder"
    for d in (killed, running, old, recent, other):
        d.mkdir()
        (d / "photo.jpg").write_bytes(b"z")
    _aged(old, 3 * 86400)
    removed = sweep_left_over_folders(tmp_path)
    assert sorted(removed) == sorted([killed, old])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, recent.name, other.name])


def test_a_folder_is_kept_while_its_server_holds_it_whatever_its_process_id_says(tmp_path: Path) -> None:
    """A change review: a server in another process namespace (a container sharing the temporary folder) has a
    process id this one cannot see; the folder's lock says it runs. A lock nobody holds says it has gone, even where
    a process of its id (another one, since) runs."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    elsewhere = tmp_path / f"{FOLDER_PREFIX}{int(dead.stdout)}-abc123"
    let_go = tmp_path / f"{FOLDER_PREFIX}{os.getpid()}-def456"
    for d in (elsewhere, let_go):
        d.mkdir()
    held = hold(elsewhere)
    assert held is not None
    hold(let_go).close()  # its server stopped without removing it (the lock goes with the process)
    try:
        assert sweep_left_over_folders(tmp_path) == [let_go]
        assert elsewhere.is_dir() and (elsewhere / HELD).is_file()
        _aged(elsewhere / HELD, STALE_SECONDS + 5)
        assert sweep(elsewhere) == 0 and (elsewhere / HELD).is_file()  # the lock is no photo
    finally:
        held.close()
    assert sweep_left_over_folders(tmp_path) == [elsewhere]


def test_a_photo_over_the_upload_limit_is_refused_with_what_to_do() -> None:
    """A vision review: "huge.jpg is too big (at most 20 MB)" gave a player no way out (a 108-200 MP phone photo is
    20-60 MB); the refusal says to send a smaller photo, and how, in both languages."""
    from companion.app.photo_model import UPLOAD_MAX_BYTES
    from companion.app.upload import too_big

    said = too_big("huge.jpg")
    mb = UPLOAD_MAX_BYTES // 2**20
    assert said.en.startswith(f"huge.jpg is too big (at most {mb} MB)") and "send a smaller photo" in said.en
    assert "medium" in said.en
    assert said.zh.startswith(f"huge.jpg 太大了（上限 {mb} MB）") and "請傳小一點的照片" in said.zh
