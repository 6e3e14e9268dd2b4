"""Files written whole or not at all, for every layer: a saved profile, a calibration, a simulated log, the app's
forms begun. A crash, a full disk or Ctrl+C while one is written leaves the file that was there, never half of one
(a review lost a kept log to a ``simulate --out`` it stopped). And JSON read where a number too long to read is bad
JSON like any other (:func:`loads_json`)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

_NO_ROOM_BESIDE = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENAMETOOLONG)
"""Why no temporary file could be made beside a file that may still be written in place: a folder that may not be
written (a file in it that may), a name with no room for another beside it."""
_NO_RENAME_OVER = (errno.EBUSY, errno.EXDEV)
"""Why a file could not be renamed over one that may still be written in place: a bind-mounted file. (A rename
refused for want of permission is an error: the folder's owner said no.)"""


@contextmanager
def whole_file(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: a temporary file beside the file ``path`` leads to (through its
    links), synced and renamed over it when the block ends, its folder synced then (:func:`_sync_folder`: the
    rename kept through a power cut), removed when it raises (the old file kept). The new file
    keeps the old one's mode, or gets what ``open`` would give it. What is no plain file (``/dev/stdout``, a pipe)
    and what cannot be replaced by a rename (:data:`_NO_ROOM_BESIDE`, :data:`_NO_RENAME_OVER`) is written in place,
    as ``open`` would. An ``OSError`` names ``path`` (one raised by the block naming a file of its own, that one), never
    the temporary file."""
    try:  # (``path`` as given: /dev/stdout into a pipe leads to "pipe:[…]", which realpath cannot follow)
        mode: int | None = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "wb") as f:
            yield f
        return
    target = Path(os.path.realpath(path))
    try:
        tmp, fd = _beside(target)
    except OSError as e:
        if e.errno not in _NO_ROOM_BESIDE or not os.access(target if target.exists() else target.parent, os.W_OK):
            raise _named(e, path) from None
        with open(target, "wb") as f:
            yield f
        return
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if target.exists():
            os.chmod(tmp, stat.S_IMODE(target.stat().st_mode))
        try:
            os.replace(tmp, target)
        except OSError as e:
            if e.errno not in _NO_RENAME_OVER:
                raise _named(e, path) from None
            with open(tmp, "rb") as src, open(target, "wb") as dst:  # (a bind-mounted file: EBUSY)
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
                dst.flush()
                os.fsync(dst.fileno())
        _sync_folder(target.parent, path)
    except OSError as e:  # (a full disk's error, raised by a write or the sync, names no file: ``path`` it is; one
        # of no system error, a message alone, is kept as it is)
        raise e if e.filename or e.errno is None else _named(e, path) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


_FOLDER_UNSYNCABLE = (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EBADF, errno.EACCES, errno.EPERM,
                      errno.EISDIR)
"""Why a folder could not be opened or synced where that says nothing about the file written: a file system that
syncs no folders (some network and FUSE ones: EINVAL), a folder that may be written but not read (EACCES)."""


_FOLDERS_SYNC = os.name != "nt"
"""Whether a folder can be opened to sync it: not on Windows, which opens no folder as a file (NTFS journals the
rename itself)."""


def _sync_folder(folder: Path, path: Path) -> None:
    """The rename of a file in ``folder`` made durable: on POSIX a rename lives in the folder, and until the folder
    is synced a power cut just after "saved" may leave the old file, or none (a new rule set gone, an edited one back
    as it was; a review). Nothing to do on Windows (:data:`_FOLDERS_SYNC`), nor where the file system syncs no
    folders. Another error (EIO) names ``path``: the file may not be kept."""
    if not _FOLDERS_SYNC:
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        if e.errno in _FOLDER_UNSYNCABLE:
            return
        raise _named(e, path) from None
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in _FOLDER_UNSYNCABLE:
            raise _named(e, path) from None
    finally:
        os.close(fd)


def write_whole(path: Path, data: bytes) -> None:
    """``data`` into ``path``, whole or not at all (:func:`whole_file`)."""
    with whole_file(path) as f:
        f.write(data)


def _beside(target: Path) -> tuple[Path, int]:
    """A new file beside ``target`` under a short hidden name, made as ``open`` makes one (the umask applied):
    the name does not grow with ``target``'s (a 251-byte name of its own left no room for a longer one)."""
    for _ in range(100):
        tmp = target.with_name(f".companion-tmp-{secrets.token_hex(4)}")  # (our own: :func:`sweep_left_over`)
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))


LEFT_OVER_AGE_S = 3600.0
"""How old a temporary file of :func:`whole_file` must be before :func:`sweep_left_over` takes it for one a killed
process left behind: no write of this program takes an hour, so a younger one may be another process's write."""
_LEFT_OVER = re.compile(r"\.companion-tmp-[0-9a-f]{8}")
_EARLIER_LEFT_OVER = re.compile(r"\.tmp-[0-9a-f]{8}")
"""How versions before named their temporary files: a name other programs may use too (a review's start deleted
another program's ``.tmp-0123abcd`` in the table's folder), so swept only in the folders that are this program's."""


def sweep_left_over(folder: Path, now: float | None = None, ours: bool = False) -> list[str]:
    """Remove from ``folder`` the temporary files of :func:`whole_file` that a killed process (SIGKILL, a power cut)
    left there: hidden plain files named as :func:`_beside` names them, last written over
    :data:`LEFT_OVER_AGE_S` ago; ``ours`` (a folder only this program writes in, its data folder): those named as
    earlier versions named them too. Their names, sorted; a folder that is not there, or a file that cannot be
    removed, is left as it is (a sweep never stops what it tidies up for)."""
    now = time.time() if now is None else now
    gone: list[str] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not (_LEFT_OVER.fullmatch(entry.name) or (ours and _EARLIER_LEFT_OVER.fullmatch(entry.name))):
                continue
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False) and now - entry.stat(follow_symlinks=False).st_mtime > \
                        LEFT_OVER_AGE_S:
                    os.unlink(entry.path)
                    gone.append(entry.name)
    return sorted(gone)


def _named(e: OSError, path: Path) -> OSError:
    """``e`` naming ``path``, the file asked for; a :class:`NotAFolderError` where a file (or a link that loops)
    stands where a folder above it must be."""
    blocker = file_in_the_way(Path(path).parent) if e.errno in _IN_THE_WAY else None
    if blocker is not None:
        return NotAFolderError(blocker, path)
    return type(e)(e.errno, e.strerror, str(path))


_IN_THE_WAY = (errno.EEXIST, errno.ENOTDIR, errno.ELOOP)
"""The system's errors where something stands where a folder must be: "File exists" (a folder made where a file is),
"Not a directory" (a path below a file), "Too many levels of symbolic links" (a path through a link that loops)."""


class NotAFolderError(NotADirectoryError):
    """A file that stands where a folder must be for ``path`` to be written (``companion simulate --out X/log`` with
    ``X`` a file), or a link that loops there: ``file`` is that file or link, and what it says names it, in English
    (``strerror``) and in Chinese (``zh``), as :func:`in_the_way_said` says it; ``filename`` is ``path``. The system's
    "Not a directory" named neither, and a check of the folder alone said it "does not exist" (a review)."""

    def __init__(self, file: Path, path: Path) -> None:
        en, zh = in_the_way_said(file)
        super().__init__(errno.ENOTDIR, en, str(path))
        self.file = file
        self.zh = zh


def in_the_way_said(file: Path, by_name: bool = False) -> tuple[str, str]:
    """What stands at ``file`` (:func:`file_in_the_way`) where a folder must be, in English and Chinese: a link that
    loops (it was said that the folder "does not exist", or "Too many levels of symbolic links" in both languages: a
    review), a link to nothing there (it was said "File exists": a later review), or a file. ``by_name``: it named by
    its name alone, as a phone says it (two full paths filled a phone's refusal: a change review), where a link leads
    not said (a host path); the host's words say it as the link says it, the one clue to what is missing (a drive
    not mounted)."""
    shown: str | Path = file.name if by_name else file
    kind = in_the_way_kind(file)
    if kind == "loop":
        return (f"{shown} is a link that loops back on itself, not a folder",
                f"{shown} 是繞回自己的符號連結，不是資料夾")
    if kind == "link":
        if by_name:  # (where it leads is a host path: said on the host's stderr alone, a third review)
            return (f"{shown} is a link to a place that is not there (a drive not plugged in?), not a folder",
                    f"{shown} 是符號連結，指向的地方不存在（磁碟沒接上？），不是資料夾")
        to = os.readlink(file)
        return (f"{shown} is a link to {to}, which is not there: it is not a folder",
                f"{shown} 是符號連結，指向的 {to} 不存在，不是資料夾")
    return f"{shown} is a file, not a folder", f"{shown} 是檔案，不是資料夾"


def in_the_way_kind(file: Path) -> str:
    """What stands at ``file`` where a folder must be (:func:`in_the_way_said`): "loop" (a link that loops), "link" (a
    link to nothing there: a drive not mounted) or "file". What the host can do depends on it: "make it a folder
    again" was said of a file that never was one, and of a drive not plugged in (a change review)."""
    try:
        os.stat(file)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "loop"
        if e.errno == errno.ENOENT and os.path.islink(file):
            return "link"
    return "file"


def file_in_the_way(folder: Path) -> Path | None:
    """The file (anything but a folder) that stands where a folder must be for ``folder`` to be one: ``folder``
    itself or the nearest folder above it that is there, where that is no folder; or the link that loops (leads back
    to itself, so no folder is ever reached through it) nearest the top on the way to ``folder``. None where it is a
    folder (a folder not there yet is no file in the way)."""
    looping: Path | None = None
    for p in (folder, *folder.parents):
        try:
            mode = os.stat(p).st_mode
        except OSError as e:  # not there (ENOENT), or below a file (ENOTDIR): the one above says; a link that loops,
            if e.errno == errno.ELOOP:  # or a path through one (ELOOP): the one above may be it
                looping = p
            continue
        return looping if stat.S_ISDIR(mode) else p
    return looping


def make_folder(folder: Path, mode: int = 0o777) -> None:
    """``folder`` made with the folders above it, as ``mkdir(parents=True, exist_ok=True)`` makes them; a file (or a
    link that loops) in its way is a :class:`NotAFolderError` naming it (the system's "File exists", "Not a
    directory" or "Too many levels of symbolic links" named neither the file nor why)."""
    try:
        folder.mkdir(mode=mode, parents=True, exist_ok=True)
    except OSError as e:
        blocker = file_in_the_way(folder) if e.errno in _IN_THE_WAY else None
        if blocker is None and e.errno == errno.EEXIST:
            blocker = _dangling_link(folder)
        if blocker is None:
            raise
        raise NotAFolderError(blocker, folder) from None


def folder_blocker(folder: Path) -> Path | None:
    """What :func:`make_folder` would refuse ``folder`` for, found without making anything: a file (or a link that
    loops) in its way (:func:`file_in_the_way`), or a link on the way to it that leads to nothing there; None where it
    is a folder or can be made. ``companion app`` took a data folder that is a link to nothing for one it could make,
    and its first entry was then refused (a change review)."""
    return file_in_the_way(folder) or _dangling_link(folder)


def _dangling_link(folder: Path) -> Path | None:
    """The link on the way to ``folder`` (``folder`` itself or a folder above it) that leads to nothing there (a
    synced folder not mounted), nearest the top; None where there is none. A folder is not made through it (it was
    said "File exists" in both languages, naming nothing: a change review)."""
    for p in (*reversed(folder.parents), folder):
        if os.path.islink(p) and not os.path.exists(p):
            return p
    return None


def number_too_long(e: json.JSONDecodeError) -> bool:
    """Whether :func:`loads_json`'s error is a number too long to read (rather than a mistake in the JSON)."""
    return e.msg.endswith("too long to read")


def json_error_zh(e: json.JSONDecodeError) -> str:
    """What is wrong at the error's column, in Chinese (after 第 N 個字元起)."""
    return "的數字太長，無法讀取" if number_too_long(e) else "有誤"


_JSON_REASONS = (  # the JSON reader's reasons (json's own words: e.msg), in plain words (English, Chinese)
    ("Unterminated string", "a text is not closed by its double quote \"", "字串少了結尾的雙引號 \""),
    ("Expecting property name", "a key must be a text in double quotes, as \"key\": …",
     "鍵要用雙引號括起來，例如 \"key\": …"),
    ("Expecting ':'", "a colon : is missing after a key", "鍵的後面少了冒號 :"),
    ("Expecting ','", "a comma , is missing between two items (or a bracket that closes them)",
     "兩項之間少了逗號 ,（或收尾的括號）"),
    ("Expecting value", "a value is missing here, or is not one JSON takes (a text in double quotes, a number, "
                        "true, false, null, a list [...] or an object {...})",
     "這裡少了值，或寫的不是 JSON 的值（雙引號括起的文字、數字、true、false、null、清單 [...] 或物件 {...}）"),
    ("Extra data", "more follows where the JSON ended (one JSON object a line)", "JSON 結束後還有別的內容（一行只能一個 JSON 物件）"),
    ("Invalid control character", "a text holds a tab or a line break, which JSON writes as \\t or \\n",
     "字串裡有 Tab 或換行，JSON 要寫成 \\t 或 \\n"),
    ("Invalid \\", "a backslash \\ in a text that JSON does not read (write \\\\ for one)",
     "字串裡的反斜線 \\ 寫法不對（要寫成 \\\\）"),
    ("Illegal trailing comma", "a comma , before the closing bracket", "收尾的括號前多了逗號 ,"),
)


def json_error_said(e: json.JSONDecodeError) -> tuple[str, str]:
    """Where and what is wrong in a text that is not JSON, in plain words (English, Chinese): ``at column 66: a text
    is not closed by its double quote "``, the line too where the text has several; never the reader's own sentence
    ("Unterminated string starting at: line 1 column 66 (char 65)" reached the player: a review)."""
    one_line = "\n" not in str(e.doc).strip()
    where_en = f"at column {e.colno}" if one_line else f"at line {e.lineno}, column {e.colno}"
    where_zh = f"第 {e.colno} 個字元" if one_line else f"第 {e.lineno} 行第 {e.colno} 個字元"
    if number_too_long(e):
        return f"{where_en}: {e.msg}", f"{where_zh}起{json_error_zh(e)}"
    en, zh = next(((en, zh) for start, en, zh in _JSON_REASONS if e.msg.startswith(start)),
                  ("not written as JSON is", "不是 JSON 的寫法"))
    return f"{where_en}: {en}", f"{where_zh}：{zh}"


def loads_json(text: str) -> Any:
    """``json.loads``, but a number too long for Python to read (more than ``sys.get_int_max_str_digits()`` digits,
    4300 by default) is a ``JSONDecodeError`` at that number, as any other bad JSON is: it was a bare ValueError
    that the readers of JSON lines, table files and options let through as a traceback (a review)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError as e:
        # (a number stands after a bracket, a comma, a colon, a minus or a space: not the digits of a string)
        long = rf"(?<![^\s\[,:\-])\d{{{sys.get_int_max_str_digits() + 1},}}"
        found = re.search(long, text) if isinstance(text, str) else None
        if found is None:
            raise
        raise json.JSONDecodeError(f"a number of {len(found[0])} digits, too long to read", text,
                                   found.start()) from e


def what_stands_at(path: Path) -> str:
    """What stands at ``path`` where a file must be read: ``"file"``, ``"folder"``, ``"loop"`` (a link that loops
    back on itself, or a path through one), ``"dangling"`` (a link to something not there), ``"other"`` (no plain
    file: a pipe, a device) or ``"gone"`` (nothing there). A refusal says which one, where it listed all three (a
    change review)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "loop"
        return "dangling" if os.path.islink(path) else "gone"
    except RuntimeError:  # (a loop, as some Pythons' path resolution says it)
        return "loop"
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


class NotPlainFileError(OSError):
    """A pipe, a device or a socket where a file must be read: refused before a byte is read, as reading a pipe waits
    for a writer that never comes (a review: the Settings list hung on a rule set's file made a FIFO). Said in
    English (``strerror``) and in Chinese (``zh``); ``filename`` is the path."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "it is a special file, such as a pipe or a device, not a plain file", str(path))
        self.zh = "它是管道、裝置之類的特殊檔案，不是一般的檔案"


def read_plain_text(path: Path) -> str:
    """The UTF-8 text of the plain file at ``path`` (:func:`read_plain_bytes`), its line ends as
    :meth:`Path.read_text` reads them."""
    return read_plain_bytes(path).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def read_plain_bytes(path: Path) -> bytes:
    """The bytes of the plain file at ``path``; a folder raises :class:`IsADirectoryError`, a pipe or a device
    :class:`NotPlainFileError`, without waiting on it (opened without blocking, then checked: no gap where one
    could be swapped in after a check)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotPlainFileError(path)
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)
