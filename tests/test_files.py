"""Files written whole or not at all (companion.files)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from companion.files import whole_file, write_whole


def test_a_block_that_raises_leaves_the_old_file_and_nothing_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_bytes(b"old")
    for stop in (OSError(28, "No space left on device"), KeyboardInterrupt()):
        with pytest.raises(type(stop)), whole_file(path) as f:
            f.write(b"half of the new")
            raise stop
        assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_the_new_file_replaces_the_old_with_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    write_whole(path, b"new")
    assert path.read_bytes() == b"new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    write_whole(fresh, b"x")  # as open() would have made it, not mkstemp's owner-only 0600
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_a_folder_or_a_missing_folder_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        write_whole(tmp_path, b"x")
    with pytest.raises(FileNotFoundError):
        write_whole(tmp_path / "not here" / "x.txt", b"x")
    assert list(tmp_path.iterdir()) == []
