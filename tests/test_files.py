"""Files written whole or not at all (companion.files)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from companion.files import (
    LEFT_OVER_AGE_S,
    NotAFolderError,
    file_in_the_way,
    in_the_way_said,
    make_folder,
    sweep_left_over,
    whole_file,
    write_whole,
)


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


def test_a_file_where_a_folder_must_be_is_named_as_a_file(tmp_path: Path) -> None:
    """A write below a file (``X/out.txt``, ``X`` a file) and a folder made where a file is are refused naming that
    file, not with the system's "Not a directory" or "File exists" (a review)."""
    plain = tmp_path / "X"
    plain.write_bytes(b"kept")
    for path in (plain / "out.txt", plain / "deeper" / "out.txt"):
        with pytest.raises(NotAFolderError) as bad:
            write_whole(path, b"x")
        said = bad.value
        assert (said.file, said.filename, said.strerror) == (plain, str(path), f"{plain} is a file, not a folder")
        assert said.zh == f"{plain} 是檔案，不是資料夾" and isinstance(said, NotADirectoryError)
    for folder in (plain, plain / "deeper"):
        with pytest.raises(NotAFolderError) as bad:
            make_folder(folder)
        assert bad.value.file == plain and bad.value.filename == str(folder)
    assert plain.read_bytes() == b"kept" and [p.name for p in tmp_path.iterdir()] == ["X"]
    make_folder(tmp_path / "a" / "b")  # made as mkdir(parents=True) makes it, and again without a word
    make_folder(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()


def _loop(tmp_path: Path) -> Path:
    """Two links that lead to each other (``loop1 -> loop2 -> loop1``): ``loop1``; skipped where no link can be made."""
    loop = tmp_path / "loop1"
    try:
        loop.symlink_to(tmp_path / "loop2")
        (tmp_path / "loop2").symlink_to(loop)
    except OSError:
        pytest.skip("this system makes no symbolic links here")
    return loop


def test_a_link_that_loops_where_a_folder_must_be_is_named_as_such(tmp_path: Path) -> None:
    """A review: a link that loops where a folder must be was said "does not exist" (the folder checked alone), or
    "Too many levels of symbolic links" (a write below it), naming no link and no why. Each says it is a link that
    loops, in both languages, naming the link, and writes nothing."""
    loop = _loop(tmp_path)
    en, zh = f"{loop} is a link that loops back on itself, not a folder", f"{loop} 是繞回自己的符號連結，不是資料夾"
    assert file_in_the_way(loop) == loop and file_in_the_way(loop / "a" / "b") == loop
    for path in (loop / "out.txt", loop / "deeper" / "out.txt"):
        with pytest.raises(NotAFolderError) as bad:
            write_whole(path, b"x")
        assert (bad.value.file, bad.value.filename, bad.value.strerror, bad.value.zh) == (loop, str(path), en, zh)
    for folder in (loop, loop / "deeper"):
        with pytest.raises(NotAFolderError) as bad:
            make_folder(folder)
        assert (bad.value.file, bad.value.filename, bad.value.strerror, bad.value.zh) == (loop, str(folder), en, zh)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop1", "loop2"] and loop.is_symlink()


def test_a_link_to_nothing_where_a_folder_must_be_is_named_as_such(tmp_path: Path) -> None:
    """A change review: a folder made where a link leads to nothing there (a synced folder not mounted) was said
    "File exists" in both languages, naming nothing. It names the link and where it leads, in both languages, and
    makes nothing through it."""
    link = tmp_path / "data"
    try:
        link.symlink_to(tmp_path / "unmounted" / "data")
    except OSError:
        pytest.skip("this system makes no symbolic links here")
    to = tmp_path / "unmounted" / "data"
    en, zh = f"{link} is a link to {to}, which is not there: it is not a folder", f"{link} 是符號連結，指向的 {to} 不存在，不是資料夾"
    for folder in (link, link / "profiles"):
        with pytest.raises(NotAFolderError) as bad:
            make_folder(folder)
        assert (bad.value.file, bad.value.filename, bad.value.strerror, bad.value.zh) == (link, str(folder), en, zh)
    assert [p.name for p in tmp_path.iterdir()] == ["data"] and link.is_symlink()
    # by name (a phone's words): where it leads is a host path, said to the host alone (a third review)
    assert in_the_way_said(link, by_name=True) == (
        "data is a link to a place that is not there (a drive not plugged in?), not a folder",
        "data 是符號連結，指向的地方不存在（磁碟沒接上？），不是資料夾")


def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    """A review's ``simulate --out`` through a symlink turned the link into a file and left its target as it was."""
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "log.jsonl"
    real.write_bytes(b"old")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    write_whole(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["log.jsonl"]


def test_what_is_no_plain_file_is_written_in_place(tmp_path: Path) -> None:
    """``--out /dev/stdout`` or ``/dev/null``: written to, never replaced by a file (as root it had been)."""
    null = Path(os.devnull)
    write_whole(null, b"anything")
    assert stat.S_ISCHR(null.stat().st_mode)


def test_a_long_name_leaves_room_and_an_error_names_the_file_asked_for(tmp_path: Path) -> None:
    long = tmp_path / ("x" * 250)  # the temporary name beside it does not grow with it
    write_whole(long, b"x")
    assert long.read_bytes() == b"x"
    missing = tmp_path / "not here" / "x.txt"
    with pytest.raises(FileNotFoundError) as e:
        write_whole(missing, b"x")
    assert e.value.filename == str(missing)


def test_a_file_that_may_be_written_in_a_folder_that_may_not_is_still_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No temporary file can be made beside it (a folder that may not be written, as a non-root user sees it):
    the file is written in place, as ``open`` would; a missing folder is still refused."""
    import companion.files as files

    def refused(target: Path) -> tuple[Path, int]:
        raise PermissionError(13, "Permission denied", str(target.parent / ".tmp-x"))

    kept = tmp_path / "kept.txt"
    kept.write_bytes(b"old")
    monkeypatch.setattr(files, "_beside", refused)
    write_whole(kept, b"new")
    assert kept.read_bytes() == b"new"
    with pytest.raises(PermissionError) as e:  # where the file itself may not be written either
        monkeypatch.setattr(files.os, "access", lambda *a, **k: False)
        write_whole(kept, b"newer")
    assert e.value.filename == str(kept) and kept.read_bytes() == b"new"


def test_a_file_that_cannot_be_renamed_over_is_written_in_place_unless_permission_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bind-mounted file (``docker -v f:f``) cannot be renamed over (EBUSY): it is written in place. A rename
    refused for want of permission is the folder's owner saying no: an error naming the file, the old one kept."""
    import errno

    import companion.files as files

    kept = tmp_path / "kept.txt"
    kept.write_bytes(b"old")

    def busy(src: object, dst: object) -> None:
        raise OSError(errno.EBUSY, "Device or resource busy", str(dst))

    monkeypatch.setattr(files.os, "replace", busy)
    write_whole(kept, b"new")
    assert kept.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["kept.txt"]

    def denied(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    monkeypatch.setattr(files.os, "replace", denied)
    with pytest.raises(PermissionError) as e:
        write_whole(kept, b"newer")
    assert e.value.filename == str(kept) and kept.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_the_sweep_takes_only_old_temporary_files_a_killed_write_left(tmp_path: Path) -> None:
    """A SIGKILL in the middle of a write leaves a hidden temporary file beside the file (a review): the app's start
    sweeps those over an hour old, and nothing else."""
    with pytest.raises(KeyboardInterrupt), whole_file(tmp_path / "kept.txt") as f:  # (a crash that cleans up)
        f.write(b"x")
        raise KeyboardInterrupt
    assert not list(tmp_path.iterdir())
    left = tmp_path / ".companion-tmp-0123abcd"  # what a SIGKILL leaves, named as whole_file names them
    young = tmp_path / ".companion-tmp-89abcdef"
    look_alikes = [tmp_path / n for n in (".companion-tmp-0123abc", ".companion-tmp-0123abcde",
                                          ".companion-tmp-0123ABCD", "companion-tmp-0123abcd")]
    others = tmp_path / ".tmp-0123abcd"  # another program's (a review's was deleted), or an earlier version's
    for path in (left, young, others, *look_alikes):
        path.write_bytes(b"half")
    folder = tmp_path / ".companion-tmp-00000000"
    folder.mkdir()
    now = 1_900_000_000.0
    for path in (left, others, *look_alikes, folder):
        os.utime(path, (now - LEFT_OVER_AGE_S - 1, now - LEFT_OVER_AGE_S - 1))
    os.utime(young, (now - LEFT_OVER_AGE_S + 60, now - LEFT_OVER_AGE_S + 60))  # perhaps another process's write
    assert sweep_left_over(tmp_path, now) == [".companion-tmp-0123abcd"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (young, others, *look_alikes, folder))
    assert sweep_left_over(tmp_path, now, ours=True) == [".tmp-0123abcd"]  # in this program's own folders only
    assert sweep_left_over(tmp_path / "not-there", now) == []


def test_a_temporary_file_is_named_as_this_programs_own(tmp_path: Path) -> None:
    seen: list[str] = []
    with whole_file(tmp_path / "kept.txt") as f:
        seen = [p.name for p in tmp_path.iterdir()]
        f.write(b"x")
    assert len(seen) == 1 and seen[0].startswith(".companion-tmp-")


def test_the_app_sweeps_its_folders_at_its_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    from companion.cli import main

    data = tmp_path / "data"
    beside = tmp_path / "games"
    left = [beside / ".companion-tmp-0123abcd", data / ".tmp-0123abcd", data / "calibration" / ".tmp-0123abcd",
            data / "profiles" / ".companion-tmp-0123abcd"]
    others = beside / ".tmp-0123abcd"  # another program's, in a folder of the user's (a review's was deleted)
    for path in (*left, others):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
        os.utime(path, (1.0, 1.0))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    with socket.socket() as s:  # (the start is refused after the sweep: no server is left running)
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert main(["app", "--no-browser", "--port", str(s.getsockname()[1]),
                     "--table", str(beside / "T.sqlite")]) == 2
    assert "--port" in capsys.readouterr().err
    assert [p for p in left if p.exists()] == [] and others.read_bytes() == b"half"


def test_the_folder_is_synced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rename lives in its folder: until the folder is synced, a power cut just after "saved" may leave the old
    file (a review: a new rule set gone, an edited one back as it was). The file is synced first, then its folder."""
    import companion.files as files

    real = os.fsync
    synced: list[tuple[bool, int]] = []

    def watched(fd: int) -> None:
        st = os.fstat(fd)
        synced.append((stat.S_ISDIR(st.st_mode), st.st_ino))
        real(fd)

    monkeypatch.setattr(files.os, "fsync", watched)
    (tmp_path / "sub").mkdir()
    write_whole(tmp_path / "sub" / "kept.txt", b"new")
    folder = (tmp_path / "sub").stat().st_ino
    assert synced == [(False, (tmp_path / "sub" / "kept.txt").stat().st_ino), (True, folder)]
    synced.clear()
    link = tmp_path / "link.txt"  # through a link: the folder of the file it leads to
    link.symlink_to(tmp_path / "sub" / "kept.txt")
    write_whole(link, b"newer")
    assert synced[-1] == (True, folder) and link.is_symlink()
    synced.clear()

    def busy(src: object, dst: object) -> None:  # a bind-mounted file, written in place: synced too
        raise OSError(16, "Device or resource busy", str(dst))

    monkeypatch.setattr(files.os, "replace", busy)
    write_whole(tmp_path / "sub" / "kept.txt", b"newest")
    assert synced[1:] == [(False, (tmp_path / "sub" / "kept.txt").stat().st_ino), (True, folder)]


@pytest.mark.parametrize("code", [22, 13])  # EINVAL (a file system that syncs no folder), EACCES (an unreadable one)
def test_a_folder_that_cannot_be_synced_keeps_the_write_and_windows_syncs_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    import companion.files as files

    real_open = os.open

    def no_folder(path: object, flags: int, *args: int) -> int:
        if Path(str(path)).is_dir():
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    kept = tmp_path / "kept.txt"
    monkeypatch.setattr(files.os, "open", no_folder)
    write_whole(kept, b"new")
    assert kept.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["kept.txt"]
    monkeypatch.setattr(files.os, "open", real_open)
    opened: list[str] = []

    def watched(path: object, flags: int, *args: int) -> int:
        if Path(str(path)).is_dir():
            opened.append(str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(files.os, "open", watched)
    monkeypatch.setattr(files, "_FOLDERS_SYNC", False)  # Windows opens no folder as a file: none is tried
    write_whole(kept, b"newer")
    assert kept.read_bytes() == b"newer" and opened == []


def test_an_io_error_syncing_the_folder_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An EIO from the folder's sync: the new file may not outlive a power cut, and the error says so (naming the
    file asked for) rather than the write being said to be done."""
    import companion.files as files

    real = os.fsync

    def broken(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(5, "Input/output error")
        real(fd)

    kept = tmp_path / "kept.txt"
    monkeypatch.setattr(files.os, "fsync", broken)
    with pytest.raises(OSError) as e:
        write_whole(kept, b"new")
    assert e.value.errno == 5 and e.value.filename == str(kept)


def test_what_stands_where_a_file_must_be_is_said_as_the_one_it_is(tmp_path: Path) -> None:
    """A change review: a rule set's parent file was said to be "a folder, a link to a file that is not there, or a
    link that loops back on itself" where the app could say which."""
    from companion.files import what_stands_at

    (tmp_path / "file").write_text("x", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    os.mkfifo(tmp_path / "pipe")
    said = {n: what_stands_at(tmp_path / n) for n in ("file", "folder", "dangling", "loop", "pipe", "gone")}
    assert said == {"file": "file", "folder": "folder", "dangling": "dangling", "loop": "loop", "pipe": "other",
                    "gone": "gone"}
    assert what_stands_at(tmp_path / "loop" / "x.toml") == "loop"
