"""Arms: several ordinary runs of one game that differ in one chosen way and share a seed.

An arm is a named set of changes to a common baseline (the game, variant, player counts,
bots and seed given once on the command line). Every arm is written as an ordinary run
folder under `<out>/arms/<name>/`, so `report`, `compare` and `replay` work on it. Arms
that share the seed and the player-count list deal the same cards and roll the same dice
in game i (separate RNG streams, DESIGN.md §4): comparing them game by game is a paired,
common-random-numbers comparison.

Arm spec (the part after `NAME:` in `--arm NAME:SPEC`): changes separated by `;`, each
`KIND=VALUE`:

    set=KEY=VALUE        one data override, as `simulate --set` (repeatable)
    lineup=F1,F2,..      play only these factions, rotated across seats (games with factions)
    seats=fixed          with lineup: seat s always gets the s-th listed faction
    factions=F1,F2,..    limit the faction pool (games with factions)
    policies=P1,P2,..    bots rotated across seats, as `simulate --policies` (search:N gives the
                         search bot's budget, as --set policies.search.budget=N)

An empty spec (`--arm base:`) is the baseline itself.

An interrupted multi-arm command resumes arm by arm (`--resume`): finished arms are kept
(their shards re-checked against their hashes), an interrupted arm resumes its shards, and
the arms not started run; every arm keeps the plan it was started with, so the result is
the run folders an uninterrupted command writes.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from brewbalance.options import parse_faction_options, parse_players, parse_policies, split_budgets
from sim.core import config as cfg
from sim.core import runfolder as rf
from sim.core import runner
from sim.core.errors import BrewError, UsageError, choices

ARM_KINDS = ("set", "lineup", "seats", "factions", "policies")
SEAT_MODES = ("rotate", "fixed")
ARMS_FOLDER = "arms"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+=-]{0,63}$")  # never "." or ".."
# Plan entries that make an arm what it is: a resumed arm must match them all.
PLAN_KEYS = ("game", "variant", "overrides", "policies", "player_counts", "seed", "n_games",
             "shard_size", "data_hashes", "options")


@dataclass
class Baseline:
    """What every arm shares: given once on the command line."""

    game: str
    variant: str = "base"
    players: str | None = None
    policies: list[str] | None = None  # None: the game's default bot (greedy)
    sets: list[str] = field(default_factory=list)
    seed: int = 20261129
    n_games: int = 2000
    shard_size: int = runner.DEFAULT_SHARD


@dataclass
class Arm:
    """One arm: a name and its changes to the baseline."""

    name: str
    sets: list[str] = field(default_factory=list)
    options: dict = field(default_factory=dict)   # {"lineup": [...]} or {"factions": [...]}
    policies: list[str] | None = None
    seats: str = "rotate"                         # "fixed": the lineup keeps its seats
    treatment: dict | None = None                 # {"kind", "target"} (sim/core/treatment.py)

    def describe(self) -> str:
        parts = [f"set {s}" for s in self.sets]
        parts += [f"{k} {','.join(v)}" for k, v in self.options.items()]
        if self.seats == "fixed":
            parts.append("seats fixed")
        if self.policies:
            parts.append(f"policies {','.join(self.policies)}")
        if self.treatment:
            parts.append(f"{self.treatment['kind']} {self.treatment['target']}")
        return "; ".join(parts) or "baseline (no change)"


def check_name(name: str) -> str:
    if not NAME_PATTERN.match(name):
        raise UsageError(f"arm name '{name}': use 1-64 letters, digits or _ . + = -, starting "
                         "with a letter, digit or _ (it becomes a folder name)")
    return name


def parse_arm(text: str) -> Arm:
    """`NAME:KIND=VALUE;KIND=VALUE..` -> Arm (see the module docstring)."""
    if ":" not in text:
        raise UsageError(f"--arm '{text}': expected NAME:SPEC, e.g. cheap:set=KEY=VALUE "
                         "(an empty SPEC, 'base:', is the baseline)")
    name, spec = text.split(":", 1)
    arm = Arm(check_name(name.strip()))
    for item in (x.strip() for x in spec.split(";")):
        if not item:
            continue
        kind, _, value = item.partition("=")
        kind, value = kind.strip(), value.strip()
        if kind not in ARM_KINDS or not value:
            raise UsageError(f"--arm {name}: '{item}' is not KIND=VALUE with KIND one of "
                             f"{choices(ARM_KINDS)}")
        if kind == "set":
            arm.sets.append(value)
        elif kind == "policies":
            arm.policies = [p.strip() for p in value.split(",") if p.strip()]
        elif kind == "seats":
            if value not in SEAT_MODES:
                raise UsageError(f"--arm {name}: seats={value}; choose from {choices(SEAT_MODES)}")
            arm.seats = value
        else:
            if arm.options:
                raise UsageError(f"--arm {name}: give lineup or factions once, not both")
            arm.options = {kind: [f.strip() for f in value.split(",") if f.strip()]}
    if arm.seats == "fixed" and "lineup" not in arm.options:
        raise UsageError(f"--arm {name}: seats=fixed applies to a lineup=F1,F2,.. arm")
    return arm


def parse_arms(texts: list[str] | None) -> list[Arm]:
    """All `--arm` values; at least two, with distinct names."""
    arms = [parse_arm(t) for t in texts or []]
    if len(arms) < 2:
        raise UsageError("give at least two --arm NAME:SPEC (the first is the reference), "
                         "e.g. --arm base: --arm cheap:set=KEY=VALUE")
    names = [a.name for a in arms]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise UsageError(f"arm names must differ; repeated: {choices(dupes)}")
    return arms


@dataclass
class PreparedArm:
    """An arm checked against the game and ready to run: its data, config and plan."""

    arm: Arm
    game: object
    config: object
    plan: dict
    folder: Path


def prepare_arm(base: Baseline, arm: Arm, out: Path, command: str) -> PreparedArm:
    """Check an arm fully (data keys, bots, factions) without writing anything."""
    from sim.registry import get_game

    g = get_game(base.game)
    pols, budget = split_budgets(base.game, arm.policies or base.policies or [])
    data = cfg.prepare(base.game, base.variant, [*base.sets, *arm.sets, *budget], [])
    conf = g.build(data)
    counts = parse_players(base.players, g)
    pols = parse_policies(None, ",".join(pols) if pols else None, g.policies(conf))
    options = {}
    if arm.options:
        (key, items), = arm.options.items()
        options = parse_faction_options(g, conf, ",".join(items) if key == "factions" else None,
                                        ",".join(items) if key == "lineup" else None, counts,
                                        fixed_seats=arm.seats == "fixed")
        if hasattr(g, "check_counts"):  # games that check their options while simulating
            g.check_counts(counts, options)
    if arm.treatment:
        options = g.check_options(conf, counts, {**options, "treatment": arm.treatment})
    plan = runner.new_plan(g, data, conf, n_games=base.n_games, shard_size=base.shard_size,
                           seed=base.seed, player_counts=counts, policies=pols, command=command,
                           options=options)
    return PreparedArm(arm, g, conf, plan, Path(out) / ARMS_FOLDER / arm.name)


def check_experiment_folder(out: Path, force: bool, resume: bool = False) -> None:
    """An experiment folder must be new or empty, unless --force replaces it or --resume
    continues the interrupted command that wrote it."""
    out = Path(out)
    if resume and force:
        raise UsageError("give --resume or --force, not both")
    if resume:
        if not (out / ARMS_FOLDER).is_dir():
            raise UsageError(f"--resume: {out} holds no arms to resume (no {ARMS_FOLDER}/ folder)")
        return
    if out.exists() and any(out.iterdir()):
        if not force:
            raise UsageError(f"{out} exists and is not empty; continue an interrupted run with --resume, "
                             "choose another --out or pass --force")
        shutil.rmtree(out / ARMS_FOLDER, ignore_errors=True)  # arms of an earlier experiment


def started_plan(p: PreparedArm) -> dict | None:
    """The plan an arm was started with, if it was; UsageError if that plan differs from
    the arm asked for now (the resumed command must be the interrupted one)."""
    path = p.folder / rf.PLAN
    if not path.is_file():
        return None
    try:
        stored = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise BrewError(f"{path}: cannot read the arm's plan ({exc}); start over with --force") from None
    differ = [k for k in PLAN_KEYS if not isinstance(stored, dict) or stored.get(k) != p.plan.get(k)]
    if differ:
        raise UsageError(f"--resume: arm {p.arm.name} in {p.folder} was started with other settings "
                         f"({choices(differ)}); repeat the interrupted command with --resume, or --force")
    return stored


def run_arms(prepared: list[PreparedArm], jobs: int | None, quiet: bool, force: bool,
             resume: bool = False, engine: str = "local", scheduler: str | None = None,
             seconds: dict | None = None) -> list[Path]:
    """Simulate every arm into its own run folder; returns the folders, in arm order.
    With `resume`, arms already started continue from their own plans. `engine` and
    `scheduler` as `simulate --engine/--scheduler` (the files are the same on either).
    `seconds`, if given, receives each arm's simulation wall time by arm name."""
    import time

    folders = []
    for p in prepared:
        plan = started_plan(p) if resume else None
        if plan is None:
            if resume and p.folder.is_dir() and not any(f.is_file() for f in p.folder.rglob("*")):
                shutil.rmtree(p.folder)  # killed while creating its folders: nothing to keep
            runner.check_out_folder(p.folder, resume=False, force=force)
            plan = p.plan
        start = time.perf_counter()
        runner.execute(p.game, p.config, plan, p.folder, jobs or runner.default_jobs(), quiet=quiet,
                       engine=engine, scheduler=scheduler)
        if seconds is not None:
            seconds[p.arm.name] = time.perf_counter() - start
        folders.append(p.folder)
    return folders


def _bot_setting(p: PreparedArm) -> str:
    """What decides an arm's speed: its bots and their settings (e.g. a search budget)."""
    bot_sets = [o for o in p.plan["overrides"] if o[0].startswith("policies.")]  # [key, value] pairs
    return json.dumps([p.plan["policies"], bot_sets], default=str)


def _games_per_second(p: PreparedArm, n: int, jobs: int) -> float:
    """Games/s of arm p, timed on n games in this process after one game that compiles it."""
    import time

    kwargs = {"options": p.plan["options"]} if p.plan.get("options") else {}
    p.game.simulate(p.config, p.plan["seed"], 0, 1, p.plan["player_counts"], p.plan["policies"], **kwargs)
    start = time.perf_counter()
    p.game.simulate(p.config, p.plan["seed"], 0, n, p.plan["player_counts"], p.plan["policies"], **kwargs)
    return n / max(time.perf_counter() - start, 1e-9) * jobs


def plan_text(prepared: list[PreparedArm], jobs: int | None, warmup_games: int = 200) -> str:
    """The plan of a multi-arm command (arms x games) with an ETA, printed before it starts.
    Each distinct bot setting (a ladder's rungs, a strength run's budgets) is timed in this
    process: `warmup_games` of the first arm, a tenth as many of the others (a search bot is
    slow), after one game that compiles it, times the jobs."""
    jobs = jobs or runner.default_jobs()
    rates: dict[str, float] = {}
    for i, p in enumerate(prepared):
        key = _bot_setting(p)
        if key not in rates:
            n = min(warmup_games if i == 0 else max(warmup_games // 10, 2), p.plan["n_games"])
            rates[key] = _games_per_second(p, n, jobs)
    total = sum(x.plan["n_games"] for x in prepared)
    eta = sum(x.plan["n_games"] / rates[_bot_setting(x)] for x in prepared)
    when = f"{eta / 60:.1f} min" if eta >= 90 else f"{eta:.0f} s"
    speeds = ", ".join(f"{r:,.0f}" for r in rates.values())
    return (f"plan: {len(prepared)} arms x {prepared[0].plan['n_games']:,} games = {total:,} games; "
            f"ETA about {when} (at {speeds} games/s, timed on warm-up games of each bot setting)")
