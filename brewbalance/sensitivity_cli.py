"""`brewbalance sensitivity GAME`: which estimated numbers each verdict rests on.

Runs the untreated arm and, per estimate (sim/core/estimates.py), a low and a high arm on
the same seed (brewbalance.arms; every arm an ordinary run folder under OUT/arms/), then
analyses them (analysis.sensitivity) and writes OUT/report.{html,pdf,json} and the marker
OUT/sensitivity.json that `report RUN --sensitivity OUT` reads. With many estimates
(--screen grouped, or auto above MAX_ONE_AT_A_TIME) the groups (data files) are screened
first and the members of the groups that pass are run one at a time in a second stage into
the same OUT; --resume continues either stage.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer

from brewbalance import arms as A
from brewbalance import experiment_cli as X
from brewbalance import failures
from brewbalance.options import SEED_DEFAULT, check_band, say, split_budgets
from brewbalance.outputs import output_formats
from sim.core import config as cfg
from sim.core.errors import BrewError, UsageError, choices
from sim.core.estimates import Estimate, game_estimates, select

MARKER = "sensitivity.json"
SCREENS = ("auto", "oat", "grouped")
MAX_ONE_AT_A_TIME = 16  # above this many estimates, auto screens groups first
BASE_ARM = "base"
ENDS = ("low", "high")


def arm_name(ident: str, end: str) -> str:
    """A folder-safe arm name for an estimate (or group) id and an end."""
    name = f"{ident.replace('*', 'all')}_{end}"
    if len(name) > 64 or not A.NAME_PATTERN.match(name):
        name = f"est_{hashlib.sha256(ident.encode()).hexdigest()[:12]}_{end}"
    return name


def end_arms(ident: str, sets_of) -> list[A.Arm]:
    return [A.Arm(arm_name(ident, end), sets=sets_of(end)) for end in ENDS]


def runnable(base: A.Baseline, estimates: list[Estimate], out: Path) -> tuple[list[Estimate], list[str]]:
    """The estimates whose low and high arms the game accepts (its own data checks, e.g. a
    deck total); the others are left out, with the game's reason."""
    kept, dropped = [], []
    for e in estimates:
        try:
            for arm in end_arms(e.id, e.sets):
                A.prepare_arm(base, arm, out, "check")
            kept.append(e)
        except BrewError as exc:
            dropped.append(f"{e.id}: the game refuses its range ({exc})")
    return kept, dropped


def group_sets(members: list[Estimate]):
    return lambda end: [s for e in members for s in e.sets(end)]


def _effects(folders: dict[str, Path], pairs: dict[str, tuple[str, str]]) -> dict:
    from analysis.paired import load_units
    from analysis.sensitivity import verdict_effects

    units = {}

    def unit(name):
        if name not in units:
            units[name] = load_units(folders[name])
        return units[name]

    return {ident: verdict_effects(unit(lo), unit(hi)) for ident, (lo, hi) in pairs.items()}


def _estimate_rows(estimates: list[Estimate]) -> list[dict]:
    return [{"id": e.id, "group": e.group, "paths": e.paths, "base": e.base[0] if len(e.base) == 1 else
             f"{len(e.base)} values", "low": e.summary("low"), "high": e.summary("high"), "why": e.why,
             "range_source": e.range_source, "range_why": e.range_why} for e in estimates]


def _print(s) -> None:
    for r in s.labels.to_dicts():
        typer.echo(f"{r['kind']}, {r['n_players']}p, {r['unit']}: {r['label']}"
                   f"  (top: {', '.join(r['top'][:3])})")


def write_marker(out: Path, s, settings: dict) -> Path:
    """OUT/sensitivity.json: what `report --sensitivity` reads (settings, labels, influence)."""
    from reports.files import write_atomic

    doc = {"kind": "brewbalance sensitivity", **settings,
           "labels": s.labels.to_dicts(), "influence": s.influence.to_dicts(),
           "estimates": s.estimates, "screened_out": s.screened_out, "skipped": s.skipped}
    return write_atomic(out / MARKER, (json.dumps(doc, indent=1, default=str) + "\n").encode())


def sensitivity(
    game: X.GameArg,
    estimates: Annotated[str | None, typer.Option(help="Only the estimates whose id matches GLOB "
                                                  "(fnmatch; comma-separated), e.g. 'races.*'.")] = None,
    n_games: X.GamesOpt = 2000, players: X.PlayersOpt = None, variant: X.VariantOpt = "base",
    set_: X.SetOpt = None,
    policies: Annotated[str | None, typer.Option(help="Bots P1,P2,.. of every arm (default greedy).")] = None,
    seed: X.SeedOpt = SEED_DEFAULT, jobs: X.JobsOpt = None, out: X.OutOpt = None, force: X.ForceOpt = False,
    resume: X.ResumeOpt = False, engine: X.EngineOpt = "local", scheduler: X.SchedulerOpt = None,
    format: X.FormatOpt = "both", band: X.BandOpt = 0.03, quiet: X.QuietOpt = False,
    screen: Annotated[str, typer.Option(help="auto (grouped above 16 estimates), oat (one at a time) "
                                        "or grouped (screen data files, then their members).")] = "auto",
) -> None:
    """Estimate sensitivity: move each estimated number to its low and high value on paired
    seeds; rank the estimates per verdict (tornado chart) and label each verdict."""
    from analysis.sensitivity import analyse
    from analysis.sensitivity import screen as screen_groups
    from reports.jsonout import sensitivity_document
    from reports.sensitivity import write_sensitivity

    suffixes = output_formats(format)
    check_band(band)
    if screen not in SCREENS:
        raise UsageError(f"--screen '{screen}': choose from {choices(SCREENS)}")
    if engine not in ("local", "dask"):
        raise UsageError(f"--engine '{engine}': choose from local, dask")
    base = X.baseline(game, n_games, players, variant, set_, seed, policies)
    out = out or Path("runs") / f"sensitivity_{game}_seed{seed}"
    names, budget = split_budgets(game, base.policies or ["greedy"])
    data = cfg.prepare(game, variant, [*(set_ or []), *budget], [])
    listed = game_estimates(data, names)
    chosen, dropped = runnable(base, select(listed.estimates, estimates), out)
    if not chosen:
        raise UsageError(f"no estimate of {game} can be varied ({choices(dropped[:3])})")
    mode = screen if screen != "auto" else ("grouped" if len(chosen) > MAX_ONE_AT_A_TIME else "oat")
    groups: dict[str, list[Estimate]] = {}
    for e in chosen:
        groups.setdefault(e.group, []).append(e)
    if mode == "grouped":  # a group of one is its own member: no screen needed
        first = [(f"group.{g}", group_sets(m)) for g, m in groups.items() if len(m) > 1]
        first += [(m[0].id, m[0].sets) for m in groups.values() if len(m) == 1]
    else:
        first = [(e.id, e.sets) for e in chosen]
    stage1 = [A.Arm(BASE_ARM), *(a for ident, sets in first for a in end_arms(ident, sets))]
    folders = dict(zip([a.name for a in stage1], X.run_all(base, stage1, out, jobs, quiet, force, resume=resume,
                                                          engine=engine, scheduler=scheduler, show_plan=True),
                       strict=True))
    pairs = {ident: (arm_name(ident, "low"), arm_name(ident, "high")) for ident, _ in first}
    with failures.reading(*folders.values()):
        effects = _effects(folders, pairs)
    screened_out = []
    if mode == "grouped":
        group_effects = {g: effects.pop(g) for g in list(effects) if g.startswith("group.")}
        passed = screen_groups(group_effects, band)
        screened_out = [g for g in group_effects if g not in passed]
        effects.update({g: group_effects[g] for g in screened_out})  # stand-ins for their members
        follow = [e for g in passed for e in groups[g.removeprefix("group.")]]
        say(f"screen: {len(passed)} of {len(group_effects)} groups pass ({', '.join(passed) or 'none'}); "
            f"{len(follow)} estimates follow up one at a time")
        if follow:
            stage2 = [a for e in follow for a in end_arms(e.id, e.sets)]
            names = [a.name for a in stage2]
            folders.update(zip(names, X.run_all(base, stage2, out, jobs, quiet, False, resume=True, engine=engine,
                                                scheduler=scheduler, show_plan=True), strict=True))
            with failures.reading(*folders.values()):
                effects.update(_effects(folders, {e.id: (arm_name(e.id, "low"), arm_name(e.id, "high"))
                                                  for e in follow}))
    s = analyse(game, data.variant, band, mode, n_games, _estimate_rows(chosen), effects, screened_out,
                [*listed.skipped, *dropped])
    _print(s)
    settings = {"game": game, "variant": data.variant, "overrides": [list(o) for o in data.overrides],
                "seed": seed, "n_games": n_games, "player_counts": players, "band": band, "screen": mode,
                "policies": base.policies or ["greedy"]}
    X.write_pages(write_sensitivity, lambda: sensitivity_document(s, settings), out, suffixes, s)
    typer.echo(str(write_marker(out, s, settings)))


def register(app: typer.Typer) -> None:
    app.command()(sensitivity)
