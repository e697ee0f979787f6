"""The command-line options several commands share, parsed and checked in one place, so every
command refuses the same values with the same line (NaN included: it fails every comparison).
cli.py, experiment_cli.py and arms.py import from here, never from each other."""

from __future__ import annotations

import typer

from sim.core.errors import UsageError, choices

SEED_DEFAULT = 20261129


def say(msg: str) -> None:
    """A line for the user on stderr (stdout carries results)."""
    typer.echo(msg, err=True)


def parse_players(text: str | None, game) -> list[int]:
    """--players "2,3,4" as legal player counts of `game` (None: its default counts)."""
    if text is None:
        return list(game.default_players)
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--players '{text}': expected numbers like 2,3,4") from None
    bad = [n for n in counts if n not in game.player_counts]
    if bad or not counts:
        raise UsageError(f"impossible player count {bad or text} for {game.id}; choose from "
                         f"{choices(game.player_counts)}")
    return counts


def parse_policies(policy: str | None, policies: str | None, valid: list[str]) -> list[str]:
    """--policy NAME or --policies A,B,.. (one bot per seat pattern) as known bot names; greedy by default."""
    if policy and policies:
        raise UsageError("give --policy or --policies, not both")
    names = [p.strip() for p in (policies or policy or "greedy").split(",") if p.strip()]
    for p in names:
        if p not in valid:
            raise UsageError(f"unknown policy '{p}'; choose from {choices(valid)}")
    return names


# The search bot's budget (rollouts per decision) as `search:N` in a bot list: sugar for
# `--set policies.search.budget=N` (the contract every game's search policy follows).
BUDGET_POLICY = "search"
BUDGET_KEY = f"policies.{BUDGET_POLICY}.budget"


def shipped_policy_ids(game_id: str) -> list[str]:
    """The bot ids a game ships in its policies.toml (before any override)."""
    from sim.core import config as cfg

    return [p["id"] for p in cfg.load_game_data(game_id).tree.get("policies", {}).get("policy", [])]


def parse_budget(name: str) -> tuple[str, int | None]:
    """'search:64' -> ('search', 64); a plain name -> (name, None)."""
    policy, sep, text = name.partition(":")
    if not sep:
        return name, None
    if policy != BUDGET_POLICY:
        raise UsageError(f"'{name}': only the {BUDGET_POLICY} bot takes a budget ({BUDGET_POLICY}:N, "
                         "N rollouts per decision)")
    try:
        budget = int(text)
    except ValueError:
        budget = 0
    if budget < 1:
        raise UsageError(f"'{name}': the budget must be a whole number of rollouts, at least 1, "
                         f"e.g. {BUDGET_POLICY}:64")
    return policy, budget


def split_budgets(game_id: str, names: list[str]) -> tuple[list[str], list[str]]:
    """Bot names that may carry a budget -> (plain names, the --set that gives the budget).
    One budget per run: two differ -> UsageError (compare budgets as arms instead)."""
    parsed = [parse_budget(n.strip()) for n in names]
    budgets = sorted({b for _, b in parsed if b is not None})
    if not budgets:
        return [p for p, _ in parsed], []
    if len(budgets) > 1:
        raise UsageError(f"one search budget per run, got {choices([str(b) for b in budgets])}; compare "
                         "budgets as arms: `brewbalance strength` or `robustness --ladder`")
    shipped = shipped_policy_ids(game_id)
    if BUDGET_POLICY not in shipped:
        raise UsageError(f"{game_id} has no {BUDGET_POLICY} bot to take a budget; choose from {choices(shipped)}")
    return [p for p, _ in parsed], [f"{BUDGET_KEY}={budgets[0]}"]


def budget_sets(game_id: str, policy: str | None, policies: str | None) -> tuple[str | None, str | None, list[str]]:
    """--policy / --policies with any `search:N` taken out: (policy, policies, extra --set).
    Both given pass through untouched, for parse_policies to refuse."""
    text = policies or policy
    if not text or (policy and policies):
        return policy, policies, []
    names, sets = split_budgets(game_id, [x for x in text.split(",") if x.strip()])
    plain = ",".join(names)
    return (None, plain, sets) if policies else (plain, None, sets)


def parse_faction_options(g, conf, factions: str | None, lineup: str | None, counts,
                          fixed_seats: bool = False) -> dict:
    """--factions / --lineup / --fixed-seats as the game's `options`, checked against its factions
    (the game may check more through `check_options`); {} when none is given."""
    if fixed_seats and lineup is None:
        raise UsageError("--fixed-seats applies to a --lineup (drawn factions always rotate)")
    if factions is None and lineup is None:
        return {}
    known = g.factions(conf)
    if known == ["none"]:
        raise UsageError(f"{g.id} has no factions; --factions and --lineup apply to games with factions")
    if factions is not None and lineup is not None:
        raise UsageError("give --factions or --lineup, not both")
    key, text = ("factions", factions) if factions is not None else ("lineup", lineup)
    items = [x.strip() for x in text.split(",") if x.strip()]
    if not items:
        raise UsageError(f"--{key}: give faction ids separated by commas")
    for x in items:
        if x not in known:
            raise UsageError(f"--{key}: unknown faction '{x}'; choose from {choices(known)}")
    if key == "factions" and len(set(items)) < max(counts):
        raise UsageError(f"--factions lists {len(set(items))} factions, fewer than {max(counts)} players: "
                         "they cannot seat every player (factions are distinct in a game)")
    if key == "lineup" and len(items) < max(counts):
        raise UsageError(f"--lineup names {len(items)} factions, fewer than {max(counts)} players")
    options = {key: items}
    if fixed_seats:
        options["seats"] = "fixed"
    if hasattr(g, "check_options"):
        g.check_options(conf, counts, options)
    return options


def check_band(band: float) -> float:
    """--band: a fairness band strictly between 0 and 0.5 (a share of the fair win rate)."""
    if not 0 < band < 0.5:
        raise UsageError(f"--band must be between 0 and 0.5 (a share, e.g. 0.03 = 3 pp), got {band}")
    return band


def check_alpha(alpha: float) -> float:
    """--alpha: a family-wise error rate strictly between 0 and 1."""
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, e.g. 0.05, got {alpha}")
    return alpha


def check_jobs(jobs: int | None) -> int | None:
    """--jobs: at least 1 (None: all cores)."""
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (leave it out for all cores), got {jobs}")
    return jobs
