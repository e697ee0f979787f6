"""The skill-ladder commands: `strength` (the search bot against an opponent, one arm per
budget) and the arms of `robustness --ladder` (every seat plays one rung's bot).

Both run ordinary arms on one seed (brewbalance.arms), so a budget or rung is compared with
the others game by game. Registered on the main Typer app by `register(app)`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from brewbalance import arms as A
from brewbalance import experiment_cli as X
from brewbalance import failures
from brewbalance.options import BUDGET_POLICY, SEED_DEFAULT, parse_budget, say
from brewbalance.outputs import output_formats
from sim.core.errors import BrewError, UsageError

TIMING = "timing.json"  # per arm: seconds of simulation, summed over resumed invocations


def parse_budgets(text: str) -> list[int]:
    """--budgets '4,16,64' -> distinct whole numbers >= 1, in increasing order."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        raise UsageError(f"--budgets '{text}': give whole numbers of rollouts, at least 1, e.g. 4,16,64")
    if len(set(values)) < len(values):
        raise UsageError(f"--budgets '{text}': a budget is repeated")
    return sorted(values)


def budget_arms(policy: str, against: str, budgets: list[int]) -> list[A.Arm]:
    """One arm per budget seating the candidate and the opponent alternately, rotated game
    by game (the balanced schedule of --policies A,B)."""
    if policy != BUDGET_POLICY:
        raise UsageError(f"--policy '{policy}': the budget belongs to the {BUDGET_POLICY} bot; "
                         f"choose {BUDGET_POLICY}")
    if parse_budget(against)[0] == policy:
        raise UsageError(f"--against '{against}': choose an opponent other than the candidate {policy}")
    return [A.Arm(A.check_name(f"budget-{b}"), policies=[f"{policy}:{b}", against]) for b in budgets]


def add_timing(out: Path, seconds: dict[str, float]) -> dict[str, float]:
    """Add this invocation's simulation seconds per arm to OUT/timing.json; returns the totals."""
    path = Path(out) / TIMING
    try:
        total = json.loads(path.read_text()) if path.is_file() else {}
    except (OSError, json.JSONDecodeError) as exc:
        raise BrewError(f"{path}: cannot read the arm timings ({exc}); start over with --force") from None
    for name, s in seconds.items():
        total[name] = total.get(name, 0.0) + s
    path.write_text(json.dumps(total, indent=1, sort_keys=True) + "\n")
    return total


def strength(
    game: X.GameArg,
    policy: Annotated[str, typer.Option(help="The candidate bot (its budget varies).")] = BUDGET_POLICY,
    budgets: Annotated[str, typer.Option(help="Rollouts per decision, one arm each, e.g. 4,16,64.")] = "4,16,64",
    against: Annotated[str, typer.Option(help="The opponent bot in the other seats.")] = "greedy",
    players: X.PlayersOpt = "2,4", n_games: X.GamesOpt = 2000, variant: X.VariantOpt = "base",
    set_: X.SetOpt = None, seed: X.SeedOpt = SEED_DEFAULT, jobs: X.JobsOpt = None, out: X.OutOpt = None,
    force: X.ForceOpt = False, resume: X.ResumeOpt = False, engine: X.EngineOpt = "local",
    scheduler: X.SchedulerOpt = None, format: X.FormatOpt = "both", quiet: X.QuietOpt = False,
) -> None:
    """Strength of the search bot against an opponent in rotated seats, per budget: win share
    per seat with a game-clustered interval, ratio to fair, speed, where search stops improving."""
    from analysis.strength import run_strength
    from reports.jsonout import strength_document
    from reports.ladder import write_strength

    suffixes = output_formats(format)
    values = parse_budgets(budgets)
    arms = budget_arms(policy, against, values)
    base = X.baseline(game, n_games, players, variant, set_, seed)
    out = out or Path("runs") / f"strength_{game}_seed{seed}"
    seconds: dict[str, float] = {}
    folders = X.run_all(base, arms, out, jobs, quiet, force, resume=resume, engine=engine,
                        scheduler=scheduler, show_plan=True, seconds=seconds)
    total = add_timing(out, seconds)
    with failures.reading(*folders):
        s = run_strength(list(zip(values, map(str, folders), strict=True)), policy, against,
                         {b: total[a.name] for b, a in zip(values, arms, strict=True)})
    rows = [[f"{r['n_players']}p", str(r["budget"]), f"{100 * r['share']:.1f}%",
             f"{100 * r['lo']:.1f} .. {100 * r['hi']:.1f}%", f"{r['ratio']:.2f}",
             f"{r['games_per_s']:,.0f}" if r["games_per_s"] else "-",
             f"{r['rollouts_per_s']:,.0f}" if r["rollouts_per_s"] else "-"] for r in s.share.to_dicts()]
    typer.echo(X.table_text(["players", "budget", "win share/seat", "95% CI", "x fair", "games/s", "rollouts/s"],
                            rows))
    typer.echo("\n".join(line for line in s.verdicts if "stops improving" in line))
    with failures.reading(*folders):
        X.write_pages(write_strength, lambda: strength_document(s), out, suffixes, s)
    say(f"timings: {out / TIMING}")


def register(app: typer.Typer) -> None:
    app.command()(strength)


