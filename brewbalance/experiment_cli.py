"""The multi-arm commands: `experiment`, `sweep` and `robustness`.

Each runs several arms of one game on the same seed (brewbalance.arms: every arm an
ordinary run folder under <out>/arms/), analyses them together and writes
<out>/report.html and <out>/report.pdf; a short table goes to stdout.
Registered on the main Typer app by `register(app)`.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Annotated

import typer

from brewbalance import arms as A
from brewbalance import failures, sheets
from brewbalance.options import SEED_DEFAULT, check_band, check_jobs, say
from brewbalance.outputs import FORMAT_HELP, output_formats, write_outputs
from sim.core import config as cfg
from sim.core import runner
from sim.core.errors import UsageError

MAX_SWEEP_ARMS = 25

GameArg = Annotated[str, typer.Argument(help="Game id (see `brewbalance games`).")]
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="Games per arm.")]
PlayersOpt = Annotated[str | None, typer.Option(help="Player counts, e.g. 2,3,4 (shared by every arm).")]
VariantOpt = Annotated[str, typer.Option(help="Rule variant (shared by every arm).")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="KEY=VALUE override shared by every arm.")]
SeedOpt = Annotated[int, typer.Option(help="Run seed, shared by every arm (that is what pairs them).")]
JobsOpt = Annotated[int | None, typer.Option(help="Parallel jobs (default: all cores).")]
OutOpt = Annotated[Path | None, typer.Option(help="Folder for the arms and the report.")]
ForceOpt = Annotated[bool, typer.Option(help="Replace the arms of an earlier run in --out.")]
QuietOpt = Annotated[bool, typer.Option(help="No progress bar.")]
BandOpt = Annotated[float, typer.Option(help="Fairness band around 1/n, e.g. 0.03 = +/-3 pp.")]
FormatOpt = Annotated[str, typer.Option("--format", help=FORMAT_HELP)]
DataOpt = Annotated[Path | None, typer.Option("--data", help="Game data edited in a spreadsheet (FILE.xlsx or a folder of .csv, from `data export`), shared by every arm.")]
ShardOpt = Annotated[int, typer.Option(help="Games per shard file of every arm (the unit of --resume).")]
EngineOpt = Annotated[str, typer.Option(help="local (threads) or dask (dask.distributed tasks; same files).")]
SchedulerOpt = Annotated[str | None, typer.Option(help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster of --jobs processes).")]
ResumeOpt = Annotated[bool, typer.Option(help="Continue the interrupted command in --out arm by arm "
                                         "(same arguments; finished arms are kept).")]


def baseline(game, n_games, players, variant, sets, seed, policies=None, imported=None,
             shard_size: int = runner.DEFAULT_SHARD) -> A.Baseline:
    """The shared setup of every arm; a --data sheet's changes come before the --set values."""
    if n_games < 2:
        raise UsageError(f"--games must be at least 2 per arm (paired intervals need 2), got {n_games}")
    if seed < 0 or seed >= 2**63:
        raise UsageError(f"--seed must be in 0..2**63-1, got {seed}")
    pols = [p.strip() for p in policies.split(",") if p.strip()] if policies else None
    sheet_sets = imported.sets() if imported is not None else []
    shared = [*sheet_sets, *(sets or [])]
    # checked on their own: an arm that sets the same key (a sweep's range) must not hide a
    # value the game refuses
    cfg.prepare(game, variant, shared, [])
    return A.Baseline(game=game, variant=variant, players=players, policies=pols,
                      sets=shared, seed=seed, n_games=n_games, shard_size=shard_size)


def run_all(base: A.Baseline, arms: list[A.Arm], out: Path, jobs, quiet, force, imported=None,
            resume=False, engine="local", scheduler=None, show_plan=False, seconds=None) -> list[Path]:
    """Check every arm before writing anything, then run them one after another. Each arm's
    run.json records what it changes from the shipped data (and the --data sheet, if any).
    With `show_plan`, first print the plan (arms x games) and its ETA."""
    check_jobs(jobs)
    runner.check_engine(engine, scheduler)  # before the plan line: a bad engine prints nothing else
    command = runner.command_line()
    prepared = [A.prepare_arm(base, arm, out, command) for arm in arms]
    for p in prepared:
        data = cfg.replay_overrides(base.game, p.plan["variant"], p.plan["overrides"])
        sheets.record(p.plan, data, imported)
    A.check_experiment_folder(out, force, resume)
    if show_plan:
        say(A.plan_text(prepared, jobs))
    try:
        folders = A.run_arms(prepared, jobs, quiet, force, resume, engine, scheduler, seconds)
    except KeyboardInterrupt:
        say(f"interrupted: finished arms and shards are kept in {out / A.ARMS_FOLDER}; "
            "continue with the same command and --resume")
        raise typer.Exit(1) from None
    say(f"{len(folders)} arms x {base.n_games:,} games on seed {base.seed} in {out / A.ARMS_FOLDER}")
    return folders


def write_pages(writer, document, out: Path, suffixes, *args) -> None:
    """OUT/report.{html,pdf,json} as --format asks: pages by `writer`, JSON from `document()`."""
    written = write_outputs(out / "report.html", suffixes,
                            lambda html, pdf: writer(*args, html_path=html, pdf_path=pdf), document)
    typer.echo("\n".join(str(p) for p in written))


def _row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def table_text(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    return "\n".join(_row([str(c) for c in r], widths) for r in [header, *rows])


# ---------------------------------------------------------------- experiment
def experiment(
    game: GameArg,
    arm: Annotated[list[str] | None, typer.Option("--arm", help="NAME:SPEC; SPEC = KIND=VALUE;.. with KIND "
                                                  "set, lineup, factions or policies. First arm = reference.")] = None,
    n_games: GamesOpt = 2000, players: PlayersOpt = None, variant: VariantOpt = "base",
    set_: SetOpt = None,
    policies: Annotated[str | None, typer.Option(help="Bots P1,P2,.. of every arm (default greedy).")] = None,
    seed: SeedOpt = SEED_DEFAULT, jobs: JobsOpt = None, out: OutOpt = None, force: ForceOpt = False,
    quiet: QuietOpt = False, band: BandOpt = 0.03, format: FormatOpt = "both", data_sheet: DataOpt = None,
    resume: ResumeOpt = False, shard_size: ShardOpt = runner.DEFAULT_SHARD,
) -> None:
    """Paired experiment: arms on the same seeds, each compared game by game with the first."""
    from analysis.experiment import arm_lines, run_experiment
    from analysis.text import pp
    from reports.experiments import write_experiment
    from reports.jsonout import experiment_document

    suffixes = output_formats(format)
    check_band(band)
    arms = A.parse_arms(arm)
    imported = sheets.read(game, data_sheet) if data_sheet is not None else None
    base = baseline(game, n_games, players, variant, set_, seed, policies, imported, shard_size)
    out = out or Path("runs") / f"experiment_{game}_seed{seed}"
    folders = run_all(base, arms, out, jobs, quiet, force, imported, resume)
    with failures.reading(*folders):
        e = run_experiment((arms[0].name, arms[0].describe(), folders[0]),
                           [(a.name, a.describe(), f) for a, f in zip(arms[1:], folders[1:], strict=True)], band)
    rows = []
    for r in e.arms:
        for x in r.key_rows.filter(r.key_rows["metric"] != "first-player advantage").to_dicts():
            show = pp if x["kind"] == "rate" else (lambda v: f"{v:+.2f}")
            rows.append([r.name, x["metric"], x["group"], show(x["diff"]), f"{show(x['lo'])} .. {show(x['hi'])}",
                         f"{x['variance_reduction']:.2f}"])
    typer.echo(table_text(["arm", "metric", "group", "arm - ref", "95% CI", "var. reduction"], rows))
    typer.echo("\n".join(f"{r.name}: {line.strip()}" for r in e.arms for line in arm_lines(r)
                         if "variance reduction" in line))
    with failures.reading(*folders):
        write_pages(write_experiment, lambda: experiment_document(e), out, suffixes, e)


# ---------------------------------------------------------------- sweep
def _number(text: str, what: str, spec: str):
    try:
        value = tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"--set-range '{spec}': {what} '{text}' is not a number")
    return value


def parse_range(spec: str) -> tuple[str, list]:
    """KEY=LO..HI[:STEP] -> (KEY, [LO, LO+STEP, .., <= HI]); ints stay ints."""
    key, sep, rng = spec.partition("=")
    if not sep or ".." not in rng or not key.strip():
        raise UsageError(f"--set-range '{spec}': expected KEY=LO..HI[:STEP], e.g. brawl_limit=2..6:1")
    lo_text, _, rest = rng.partition("..")
    hi_text, _, step_text = rest.partition(":")
    lo, hi = _number(lo_text, "LO", spec), _number(hi_text, "HI", spec)
    step = _number(step_text, "STEP", spec) if step_text.strip() else 1
    if lo > hi:
        raise UsageError(f"--set-range '{spec}': LO ({lo}) is greater than HI ({hi})")
    if step <= 0:
        raise UsageError(f"--set-range '{spec}': STEP must be positive, got {step}")
    count = int((hi - lo) / step + 1e-9) + 1
    if count > MAX_SWEEP_ARMS:
        raise UsageError(f"--set-range '{spec}': {count} values; at most {MAX_SWEEP_ARMS} arms (raise STEP)")
    if count < 2:
        raise UsageError(f"--set-range '{spec}': only one value; a sweep needs LO < HI")
    ints = all(isinstance(v, int) for v in (lo, hi, step))
    values = [lo + i * step if ints else round(lo + i * step, 10) for i in range(count)]
    return key.strip(), values


def sweep(
    game: GameArg,
    set_range: Annotated[str, typer.Option("--set-range", help="KEY=LO..HI[:STEP], e.g. brawl_limit=2..6:1.")],
    n_games: GamesOpt = 2000, players: PlayersOpt = None, variant: VariantOpt = "base",
    set_: SetOpt = None,
    policies: Annotated[str | None, typer.Option(help="Bots P1,P2,.. of every arm (default greedy).")] = None,
    seed: SeedOpt = SEED_DEFAULT, jobs: JobsOpt = None, out: OutOpt = None, force: ForceOpt = False,
    quiet: QuietOpt = False, format: FormatOpt = "both", data_sheet: DataOpt = None,
    resume: ResumeOpt = False, shard_size: ShardOpt = runner.DEFAULT_SHARD,
) -> None:
    """Parameter sweep: one paired arm per value of KEY; charts against the parameter."""
    from analysis.sweep import run_sweep
    from analysis.text import pp
    from reports.experiments import write_sweep
    from reports.jsonout import sweep_document

    suffixes = output_formats(format)
    key, values = parse_range(set_range)
    arms = [A.Arm(A.check_name(f"{key}={v}"), sets=[f"{key}={v}"]) for v in values]
    imported = sheets.read(game, data_sheet) if data_sheet is not None else None
    base = baseline(game, n_games, players, variant, set_, seed, policies, imported, shard_size)
    out = out or Path("runs") / f"sweep_{game}_{key}_seed{seed}"
    folders = run_all(base, arms, out, jobs, quiet, force, imported, resume)
    with failures.reading(*folders):
        s = run_sweep(key, list(zip(values, folders, strict=True)))
    rows = [[str(r["value"]), f"{r['n_players']}p", pp(r["spread"]), f"{r['het_p_holm']:.3g}",
             pp(r["fpa"]), f"{pp(r['fpa_lo'])} .. {pp(r['fpa_hi'])}"] for r in s.shape_table().to_dicts()]
    typer.echo(table_text([key, "players", f"{s.kind} spread", "p differ (Holm)", "first-player adv.",
                           "95% CI"], rows))
    with failures.reading(*folders):
        write_pages(write_sweep, lambda: sweep_document(s), out, suffixes, s)


# ---------------------------------------------------------------- robustness
def parse_settings(text: str) -> list[A.Arm]:
    """'greedy,random,greedy+random' -> one arm per bot setting; '+' joins a mix rotated
    across seats."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    if len(names) < 2:
        raise UsageError(f"--policies '{text}': give at least two bot settings, e.g. greedy,random "
                         "(a mix joins bots with +, e.g. greedy+random)")
    if len(set(names)) != len(names):
        raise UsageError(f"--policies '{text}': a bot setting is repeated")
    return [A.Arm(A.check_name(arm_name(n)), policies=n.split("+")) for n in names]


def arm_name(setting: str) -> str:
    """A bot setting as a folder name: 'search:64' -> 'search-64' (':' is not allowed in names)."""
    return setting.replace(":", "-")


def existing_runs(text: str, verify: bool = True) -> tuple[str, list[tuple[str, str]]]:
    """`--runs DIR,DIR,..`: finished runs of one game, variant, overrides and player counts
    (they may differ only in their bots), each checked against its hashes unless not
    `verify`. Returns the game and [(name, folder)]."""
    from brewbalance.verify import open_run

    folders = [Path(t.strip()) for t in text.split(",") if t.strip()]
    if len(folders) < 2:
        raise UsageError(f"--runs '{text}': give at least two run folders separated by commas")
    manifests = [open_run(f, verify, say) for f in folders]
    for key in ("game", "variant", "overrides", "player_counts"):
        values = {json_key(m.get(key)) for m in manifests}
        if len(values) > 1:
            raise UsageError(f"--runs: the runs differ in {key}, not only in their bots; "
                             "robustness compares one setup under different bots")
    names = [f"{f.name}" for f in folders]
    if len(set(names)) < len(names):
        names = [str(f) for f in folders]
    return manifests[0]["game"], list(zip(names, map(str, folders), strict=True))


def json_key(value) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def robustness(
    game: Annotated[str | None, typer.Argument(help="Game id (not with --runs).")] = None,
    policies: Annotated[str | None, typer.Option(help="Bot settings to compare, e.g. greedy,random,greedy+random.")] = None,
    runs: Annotated[str | None, typer.Option(help="Instead of simulating: finished runs DIR,DIR,.. that differ only in their bots.")] = None,
    n_games: GamesOpt = 2000, players: PlayersOpt = None, variant: VariantOpt = "base",
    set_: SetOpt = None, seed: SeedOpt = SEED_DEFAULT, jobs: JobsOpt = None, out: OutOpt = None,
    force: ForceOpt = False, quiet: QuietOpt = False, band: BandOpt = 0.03, format: FormatOpt = "both",
    resume: ResumeOpt = False, shard_size: ShardOpt = runner.DEFAULT_SHARD,
    no_verify: Annotated[bool, typer.Option("--no-verify", help="With --runs: skip checking their Parquet "
                                            "parts against the sha256 in run.json.")] = False,
    ladder: Annotated[str | None, typer.Option(help="Skill ladder in order, e.g. random,greedy,search:16,search:64: "
                                               "every seat plays the rung's bot; verdicts by rung.")] = None,
) -> None:
    """Robustness to bots: rank factions (or seats) under each bot setting; Kendall's tau;
    warn about conclusions that flip with the bot."""
    from analysis.robustness import run_robustness
    from reports.experiments import write_robustness
    from reports.jsonout import robustness_document

    suffixes = output_formats(format)
    check_band(band)
    if ladder is not None:
        if policies is not None or runs is not None:
            raise UsageError("give --ladder or --policies / --runs, not both")
        if game is None:
            raise UsageError("missing GAME for --ladder")
        base = baseline(game, n_games, players, variant, set_, seed, shard_size=shard_size)
        return run_ladder_command(base, ladder, out, jobs, quiet, force, resume, band, suffixes)
    if (runs is None) == (policies is None):
        raise UsageError("give GAME --policies SETTING,SETTING (simulate the arms) or --runs DIR,DIR "
                         "(use finished runs), not both and not neither")
    if runs is not None:
        if game is not None:
            raise UsageError("--runs takes the game from the runs; do not give GAME")
        if resume:
            raise UsageError("--resume applies to simulated arms; with --runs nothing is simulated")
        game, named = existing_runs(runs, verify=not no_verify)
        out = out or Path("runs") / f"robustness_{game}_runs"
        A.check_experiment_folder(out, force)
    else:
        if game is None:
            raise UsageError("missing GAME (or use --runs DIR,DIR)")
        arms = parse_settings(policies)
        base = baseline(game, n_games, players, variant, set_, seed, shard_size=shard_size)
        out = out or Path("runs") / f"robustness_{game}_seed{seed}"
        folders = run_all(base, arms, out, jobs, quiet, force, resume=resume)
        named = [(a.name, str(f)) for a, f in zip(arms, folders, strict=True)]
    with failures.reading(*(f for _, f in named), no_verify=no_verify):
        r = run_robustness(named, band)
        typer.echo("\n".join(r.verdicts))
        write_pages(write_robustness, lambda: robustness_document(r, named), out, suffixes, r, named)


LADDER_MARKER = "ladder.json"  # what `report RUN --ladder OUT` reads


def parse_ladder(text: str) -> tuple[list[str], list[A.Arm]]:
    """--ladder 'random,greedy,search:16' -> rung names and one arm per rung (every seat the
    rung's bot); greedy must be listed, and a stronger rung after it."""
    from analysis.ladder import check_rungs

    rungs = [t.strip() for t in text.split(",") if t.strip()]
    if len(rungs) < 2 or len(set(rungs)) < len(rungs):
        raise UsageError(f"--ladder '{text}': give at least two distinct rungs in order of skill, "
                         "e.g. random,greedy,search:16,search:64")
    check_rungs(rungs)
    return rungs, [A.Arm(A.check_name(arm_name(r)), policies=[r]) for r in rungs]


def run_ladder_command(base: A.Baseline, text: str, out: Path | None, jobs, quiet, force, resume,
                       band: float, suffixes) -> None:
    """`robustness GAME --ladder ...`: the arms, the ladder analysis, its pages and OUT/ladder.json."""
    from analysis.ladder import ladder_marker, run_ladder
    from reports.jsonout import ladder_document
    from reports.ladder import write_ladder

    rungs, arms = parse_ladder(text)
    out = out or Path("runs") / f"ladder_{base.game}_seed{base.seed}"
    folders = run_all(base, arms, out, jobs, quiet, force, resume=resume, show_plan=True)
    named = list(zip(rungs, map(str, folders), strict=True))
    with failures.reading(*folders):
        lad = run_ladder(named, band)
        typer.echo("\n".join(lad.verdicts))
        write_pages(write_ladder, lambda: ladder_document(lad, named), out, suffixes, lad)
    (out / LADDER_MARKER).write_text(json.dumps(ladder_marker(lad), indent=1) + "\n")
    typer.echo(str(out / LADDER_MARKER))


def register(app: typer.Typer) -> None:
    for command in (experiment, sweep, robustness):
        app.command()(command)
