"""Errors a user can cause. The CLI prints their message on one line, never a traceback."""


class BrewError(Exception):
    """A failure the user can fix (bad data file, unwritable folder...). Exit code 1."""

    exit_code = 1


class UsageError(BrewError):
    """A bad command-line choice (unknown game, variant, bot, player count...). Exit code 2."""

    exit_code = 2


def choices(values) -> str:
    """Format valid choices for an error message."""
    return ", ".join(str(v) for v in values)
