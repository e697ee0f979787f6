"""Errors a user can cause. The CLI prints their message on one line, never a traceback."""


class BrewError(Exception):
    """A failure the user can fix (bad data file, unwritable folder...). Exit code 1.

    The message is always one line: line breaks inside user-supplied names (a data key, an
    override) are shown escaped."""

    exit_code = 1

    def __init__(self, message: str = ""):
        super().__init__(one_line(str(message)))


def one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


class UsageError(BrewError):
    """A bad command-line choice (unknown game, variant, bot, player count...). Exit code 2."""

    exit_code = 2


def choices(values) -> str:
    """Format valid choices for an error message."""
    return ", ".join(str(v) for v in values)


class InvariantViolation(BrewError):
    """A game broke one of its invariants under `simulate --check`: a rules bug."""

    def __init__(self, game: str, seed: int, game_id: int, rule: str, phase: str):
        self.game, self.seed, self.game_id, self.rule, self.phase = game, seed, game_id, rule, phase
        super().__init__(
            f"{game} game {game_id} (seed {seed}) broke an invariant after {phase}: {rule}; "
            f"replay it with: brewbalance replay RUN {game_id}"
        )

    def __reduce__(self):  # picklable, so a Dask worker can send it back to the driver
        return type(self), (self.game, self.seed, self.game_id, self.rule, self.phase)


# What a numba kernel's run_chunk returns as its status (shared by every numba game).
STATUS_OK, STATUS_FULL, STATUS_OVERFLOW, STATUS_VIOLATION = range(4)


def raise_for_chunk(game: str, seed: int, game_id: int, overflowed: bool, violated: bool,
                    rule: str, phase: str) -> None:
    """The one way a game wrapper reports a kernel chunk that stopped early: a buffer overflow
    (a bug) or, under --check, the first game that broke an invariant."""
    if overflowed:
        raise BrewError(f"{game}: a kernel buffer overflowed in game {game_id} (seed {seed}); "
                        "this is a bug, please report it")
    if violated:
        raise InvariantViolation(game, seed, game_id, rule, phase)
