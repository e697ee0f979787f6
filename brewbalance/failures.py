"""One error path: whatever goes wrong while a command reads, analyses or writes becomes one
line `error: <file or input>: <what>; <what to do>` and exit code 1. A traceback is shown
only with the global `--debug` flag (brewbalance.cli.main).

`reading(run)` wraps the analysis of run folders, so an error deep inside DuckDB, polars or
a report names the run it came from; `describe(exc)` is the last resort for anything else.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from sim.core.errors import BrewError, one_line

MAX_DETAIL = 240  # characters of an underlying library message kept in the one line


def printable(text: str) -> str:
    """TEXT as one terminal line: every character that is not printable (newlines, carriage
    returns, form feeds and other control characters, some from a user's own input) is shown
    escaped, as Python writes it in a string literal (\\n, \\x1e)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def summary(exc: BaseException) -> str:
    """The first line of an exception's message (libraries print pages), shortened."""
    text = str(exc).strip()
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    detail = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return one_line(detail if len(detail) <= MAX_DETAIL else detail[:MAX_DETAIL - 3] + "...")


@contextmanager
def reading(*runs: Path | str, no_verify: bool = False):
    """Turn any failure while analysing `runs` into one BrewError naming them. BrewErrors and
    errors a user can fix (`user_error`) already say what went wrong and pass through."""
    try:
        yield
    except (BrewError, KeyboardInterrupt):
        raise
    except Exception as exc:
        if getattr(exc, "user_error", False):
            raise
        names = ", ".join(str(r) for r in runs)
        hint = ("run again without --no-verify to check its files" if no_verify else
                "it is not a run folder this version can read; re-create it with the command in its run.json")
        raise BrewError(f"{names}: cannot analyse the run: {summary(exc)}; {hint} "
                        "(--debug shows the traceback)") from exc


def describe(exc: BaseException) -> str:
    """One line for an exception no command turned into a BrewError: name the file when the
    exception carries one, and say what to do."""
    if isinstance(exc, OSError):
        where = exc.filename or "a file"
        return f"{where}: {exc.strerror or exc}; check the path, its permissions and the free disk space"
    if isinstance(exc, json.JSONDecodeError):
        return f"malformed JSON input: {summary(exc)}; check the file named on the command line"
    return (f"internal error: {summary(exc)}; this is a bug, please report it with the output "
            "of the same command run with --debug")

