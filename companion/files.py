"""Files written whole or not at all, for every layer: a saved profile, a calibration, a simulated log, the app's
forms begun. A crash, a full disk or Ctrl+C while one is written leaves the file that was there, never half of one
(a review lost a kept log to a ``simulate --out`` it stopped)."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


@contextmanager
def whole_file(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: a temporary file beside it, synced and renamed over ``path`` when
    the block ends, removed when it raises (the old file kept). The new file gets the old one's mode, or what
    ``open`` would have given it (``mkstemp`` makes it the owner's alone). ``OSError`` as ``open`` gives it: a
    folder that is not there, a folder where the file would go."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_whole(path: Path, data: bytes) -> None:
    """``data`` into ``path``, whole or not at all (:func:`whole_file`)."""
    with whole_file(path) as f:
        f.write(data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
