"""The token a table's server on the network asks of its visitors (``?t=…``), kept per table file.

It was made anew each run: a review's phones, which had joined with the printed address, were all turned away (403)
once the laptop restarted the app. Now it is kept in the user's data folder, one small file per table file (named by
a hash of the table file's full path, so two tables on one laptop keep their own), written whole and readable by its
owner only, and used again at each start; ``new=True`` (``companion app --new-token``) makes a new one, which turns
away every phone that had the old address.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import secrets
from pathlib import Path

from companion.files import make_folder, write_whole

__all__ = ["table_token", "token_lasts", "token_path"]

log = logging.getLogger(__name__)
_TOKEN = re.compile(r"[A-Za-z0-9_-]{12,64}")


def token_path(table: Path, folder: Path | None = None) -> Path:
    """Where the token of ``table`` is kept: ``tokens/<hash of its full path>`` in the data folder."""
    if folder is None:
        from companion.rules.profiles._store import data_dir

        folder = data_dir()
    digest = hashlib.sha256(os.path.realpath(table).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return folder / "tokens" / digest


def table_token(table: Path | None, new: bool = False, folder: Path | None = None) -> tuple[str, bool]:
    """The token for ``table`` and whether it was kept from an earlier run: the one kept, or (none kept, one that
    cannot be read, ``new``) a new one, kept for the next run. A token that cannot be kept (a read-only data
    folder) still serves this run: logged, not refused."""
    if table is None:
        return secrets.token_urlsafe(9), False
    path = token_path(table, folder)
    kept = None if new else _read(path)
    if kept is not None:
        with contextlib.suppress(OSError):
            if not os.stat(path).st_mode & 0o077:
                return kept, True
        # others could read it (a change review found it used as it was)
        log.warning("the table's token in %s was readable by other users: a new one is made / 牌局的通行碼檔 %s "
                    "其他使用者也讀得到：改用新的通行碼", path, path)
    token = secrets.token_urlsafe(9)
    try:
        _write_private(path, token)
    except OSError as err:
        from companion.rules.profiles import os_error_zh

        log.warning("the table's token could not be kept in %s (%s): it lasts this run only / 牌局的通行碼無法存在 %s"
                    "（%s）：只用於這次執行", path, err.strerror or err, path, os_error_zh(err))
    return token, False


def token_lasts(table: Path, token: str) -> bool:
    """Whether ``token`` is the one kept for ``table`` (so a restart serves it again)."""
    return _read(token_path(table)) == token


def _read(path: Path) -> str | None:
    """The well-formed token kept in ``path``, or None."""
    try:
        kept = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return kept if _TOKEN.fullmatch(kept) else None


def _write_private(path: Path, text: str) -> None:
    """``text`` into ``path``, whole or not at all (:func:`companion.files.write_whole`), readable and writable by its
    owner only, in a folder only its owner may enter."""
    make_folder(path.parent, mode=0o700)  # (a file in the way is named: the system's "File exists" named none)
    os.chmod(path.parent, 0o700)
    write_whole(path, (text + "\n").encode("utf-8"))
    os.chmod(path, 0o600)  # (a file replaced keeps the old one's mode; a new one gets the umask's)
