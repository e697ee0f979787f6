"""Write output files atomically: a temp file in the target folder, then rename.

A reader never sees a half-written report; on any failure the temp file is removed
and a ReportError names the path and the reason.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class ReportError(Exception):
    """A report could not be written (folder missing and not creatable, unwritable...)."""

    user_error = True  # the CLI prints it as one line, exit 1


def writable_folder(path: Path) -> Path:
    """The folder that will hold `path`, created if missing; ReportError if unusable."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot write {path}: cannot create folder {folder} ({exc.strerror or exc})") from exc
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ReportError(f"cannot write {path}: folder {folder} is not writable")
    return folder


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write data to path via a temp file and rename; returns the final path."""
    path = Path(path)
    folder = writable_folder(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ReportError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a report is meant to be shared
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ReportError(f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
