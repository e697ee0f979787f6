"""The brewbalance command line (DESIGN.md §9). Wires sim, analysis and reports together.

Data goes to stdout, progress and messages to stderr. Exit codes: 0 success, 2 usage error,
1 other failure. Every failure prints one line, never a traceback (unless --debug).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from brewbalance import failures, sheets
from brewbalance.options import (
    SEED_DEFAULT,
    budget_sets,
    check_alpha,
    check_band,
    check_jobs,
    parse_faction_options,
    parse_players,
    parse_policies,
    say,
)
from brewbalance.outputs import FORMAT_HELP, output_formats, write_outputs
from brewbalance.verify import open_run
from sim.core import config as cfg
from sim.core import runfolder as rf
from sim.core import runner
from sim.core.errors import BrewError, UsageError, choices

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Game-balance analytics for brewing board games.")

DEBUG = {"on": False}  # set by the global --debug flag; read by main()
NoVerifyOpt = Annotated[bool, typer.Option("--no-verify", help="Skip checking the run's Parquet parts "
                                           "against the sha256 recorded in run.json.")]


@app.callback()
def _global_options(
    debug: Annotated[bool, typer.Option("--debug", help="Show the Python traceback of an error "
                                        "instead of the one-line message.")] = False,
) -> None:
    """Game-balance analytics for brewing board games."""
    DEBUG["on"] = debug





def default_out(game_id: str, variant: str, seed: int, n_games: int) -> Path:
    return Path("runs") / f"{game_id}_{variant}_seed{seed}_{n_games}"


@app.command()
def games(
    columns: Annotated[bool, typer.Option("--columns", help="Also list each game's output tables: every column's type and meaning.")] = False,
) -> None:
    """List games, their factions, variants, player counts and bots."""
    from sim.registry import games as all_games

    for game in all_games().values():
        data = cfg.load_game_data(game.id)
        conf = game.build(data)
        factions = game.factions(conf)
        typer.echo(f"{game.id}: {game.title}")
        typer.echo(f"  players:  {choices(game.player_counts)}")
        typer.echo(f"  variants: {choices(game.variants(data))}")
        typer.echo(f"  policies: {choices(game.policies(conf))}")
        typer.echo(f"  factions: {'none (symmetric)' if factions == ['none'] else choices(factions)}")
        if columns:
            for table in (game.schema.GAMES, game.schema.PLAYERS, game.schema.EVENTS):
                typer.echo(f"  {table.name} table:")
                for c in table.describe():
                    typer.echo(f"    {c['name']:24s} {c['type']:8s} {c['meaning']}")


@app.command()
def simulate(
    game: Annotated[str | None, typer.Argument(help="Game id (see `brewbalance games`).")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100_000,
    players: Annotated[str | None, typer.Option(help="Player counts, e.g. 2,3,4 (games cycle through them).")] = None,
    variant: Annotated[str, typer.Option(help="Rule variant.")] = "base",
    policy: Annotated[str | None, typer.Option(help="One bot for every seat.")] = None,
    policies: Annotated[str | None, typer.Option(help="Bots P1,P2,..; rotated across seats game by game.")] = None,
    override: Annotated[list[Path] | None, typer.Option(help="TOML file of parameter/card overrides.")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="KEY=VALUE override, e.g. dwarfest.brawl_limit=4.")] = None,
    data_sheet: Annotated[Path | None, typer.Option("--data", help="Game data edited in a spreadsheet: FILE.xlsx or a folder of .csv (from `data export`); changed cells are overrides.")] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = SEED_DEFAULT,
    jobs: Annotated[int | None, typer.Option(help="Parallel jobs (default: all cores).")] = None,
    out: Annotated[Path | None, typer.Option(help="Run folder to write.")] = None,
    shard_size: Annotated[int, typer.Option(help="Games per shard file.")] = runner.DEFAULT_SHARD,
    resume: Annotated[Path | None, typer.Option(help="Resume the interrupted run in this folder.")] = None,
    force: Annotated[bool, typer.Option(help="Replace a run already in --out.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    check: Annotated[bool, typer.Option(help="Assert the game's invariants after every phase.")] = False,
    factions: Annotated[str | None, typer.Option(help="Limit the faction pool, e.g. dwarf,elf,orc,human (games with factions).")] = None,
    lineup: Annotated[str | None, typer.Option(help="Play only these factions, e.g. dwarf,elf (games with factions); rotated across seats game by game.")] = None,
    fixed_seats: Annotated[bool, typer.Option(help="With --lineup: seat s always gets the s-th listed faction (faction and seat effects can then not be separated).")] = False,
    until_decided: Annotated[bool, typer.Option(help="Add shards until every faction/seat is decided inside or outside --band (sequential test; --games unused).")] = False,
    band: Annotated[float, typer.Option(help="With --until-decided: fairness band around 1/n, e.g. 0.03 = +/-3 pp.")] = 0.03,
    max_games: Annotated[int, typer.Option(help="With --until-decided: stop undecided at this many games.")] = 1_000_000,
    alpha: Annotated[float, typer.Option(help="With --until-decided: family-wise error of all decisions.")] = 0.05,
    rule: Annotated[str, typer.Option(help="With --until-decided: gsprt (two SPRTs per band edge, stops near an edge) or bonferroni (Wilson intervals at 1 - alpha/(looks x hypotheses)).")] = "gsprt",
    indifference: Annotated[float, typer.Option(help="With --until-decided --rule gsprt: half-width of the indifference zone around each band edge, e.g. 0.005 = +/-0.5 pp.")] = 0.005,
    engine: Annotated[str, typer.Option(help="local (threads) or dask (dask.distributed tasks; same files).")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster of --jobs processes).")] = None,
) -> None:
    """Simulate seeded games with bots and write a run folder (Parquet + run.json)."""
    from sim.registry import game_ids, get_game

    check_jobs(jobs)
    if resume is not None:
        return _resume(resume, jobs, quiet, check, engine, scheduler)
    if game is None:
        raise UsageError("missing GAME; choose from " + choices(sorted(game_ids())))
    g = get_game(game)
    if seed < 0 or seed >= 2**63:
        raise UsageError(f"--seed must be in 0..2**63-1, got {seed}")
    check_band(band)  # used by --until-decided only, but refused when wrong either way
    check_alpha(alpha)
    imported = sheets.read(game, data_sheet) if data_sheet is not None else None
    policy, policies, budget = budget_sets(game, policy, policies)
    data = cfg.prepare(game, variant, [*(imported.sets() if imported else []), *(set_ or []), *budget],
                       override or [])
    conf = g.build(data)
    counts = parse_players(players, g)
    pols = parse_policies(policy, policies, g.policies(conf))
    options = parse_faction_options(g, conf, factions, lineup, counts, fixed_seats)
    seq = None
    if until_decided:  # imported only here: its statistics pull in scipy (about 1 s at start-up)
        from brewbalance import until_decided as ud

        seq = ud.settings(band, alpha, max_games, shard_size, ud.count_hypotheses(g.factions(conf), counts, options),
                          rule, indifference)
    if seq is not None and engine != "local":
        raise UsageError("--until-decided runs on the local engine only (drop --engine dask)")
    out = out or default_out(game, variant, seed, n_games)
    runner.check_out_folder(out, resume=False, force=force)
    plan = runner.new_plan(g, data, conf, n_games=n_games, shard_size=shard_size, seed=seed,
                           player_counts=counts, policies=pols, command=runner.command_line(), options=options)
    sheets.record(plan, data, imported)
    if seq is not None:
        return _until_decided(g, conf, ud.start_plan(plan, seq), out, jobs, quiet, check)
    _execute(g, conf, plan, out, jobs, quiet, check, engine, scheduler)


def _execute(g, conf, plan, out: Path, jobs, quiet, check=False, engine="local", scheduler=None) -> None:
    import time

    start = time.perf_counter()
    try:
        runner.execute(g, conf, plan, out, jobs or runner.default_jobs(), quiet=quiet, check=check,
                       engine=engine, scheduler=scheduler)
    except KeyboardInterrupt:
        say(f"interrupted: completed shards are kept; resume with: brewbalance simulate --resume {out}")
        raise typer.Exit(1) from None
    dt = time.perf_counter() - start
    say(f"{plan['n_games']:,} games in {dt:.1f} s ({plan['n_games'] / dt:,.0f} games/s)")
    typer.echo(str(out))


def _resume(out: Path, jobs, quiet, check=False, engine="local", scheduler=None) -> None:
    from sim.registry import get_game

    runner.check_out_folder(out, resume=True, force=False)
    try:
        plan = json.loads((out / rf.PLAN).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise BrewError(f"{out / rf.PLAN}: cannot read the run plan: {exc}") from None
    g = get_game(plan["game"])
    data = cfg.replay_overrides(plan["game"], plan["variant"], plan["overrides"])
    if data.hashes != plan["data_hashes"]:
        changed = sorted(k for k in set(data.hashes) | set(plan["data_hashes"])
                         if data.hashes.get(k) != plan["data_hashes"].get(k))
        raise BrewError(f"cannot resume {out}: data files changed since it started: {choices(changed)}")
    if plan.get("until_decided"):
        return _until_decided(g, g.build(data), plan, out, jobs, quiet, check)
    _execute(g, g.build(data), plan, out, jobs, quiet, check, engine, scheduler)


def _until_decided(g, conf, plan: dict, out: Path, jobs, quiet, check=False) -> None:
    """Run looks of `simulate --until-decided` and print what was decided (stdout)."""
    from brewbalance import until_decided as ud

    try:
        lines = ud.run(g, conf, plan, out, jobs, quiet, say, check)
    except KeyboardInterrupt:
        say(f"interrupted: completed shards are kept; resume with: brewbalance simulate --resume {out}")
        raise typer.Exit(1) from None
    typer.echo("\n".join(lines))
    typer.echo(str(out))


@app.command()
def report(
    run: Annotated[Path, typer.Argument(help="Run folder.")],
    format: Annotated[str, typer.Option("--format", help=FORMAT_HELP)] = "both",
    out: Annotated[Path | None, typer.Option(help="Output file (extension replaced per format).")] = None,
    band: Annotated[float, typer.Option(help="Fairness band around the fair share, e.g. 0.03 = ±3 pp.")] = 0.03,
    no_verify: NoVerifyOpt = False,
    sensitivity: Annotated[Path | None, typer.Option(help="A `sensitivity` output folder of the same game and "
                                                     "variant: label each verdict with the estimates it rests on.")] = None,
    ladder: Annotated[Path | None, typer.Option(help="A `robustness --ladder` output folder of the same game and "
                                                "variant: mark each verdict 'holds across skill' or 'depends on skill'.")] = None,
) -> None:
    """Write the balance report of a run as HTML, PDF and/or JSON (every verdict and table)."""
    import analysis
    import reports
    from brewbalance import causal_cli
    from reports import jsonout

    suffixes = output_formats(format)
    check_band(band)
    if causal_cli.is_causal_folder(run):  # a `cards` or `powers` folder: its own report
        return causal_cli.write_report(run, suffixes, out)
    open_run(run, not no_verify, say)
    base = out or (Path(run) / "report.html")
    _check_writable(base.parent)
    with failures.reading(run, no_verify=no_verify):
        result = analysis.analyze(run, band=band)
        if sensitivity is not None:
            from analysis.sensitivity import attach_labels, read_marker

            result = attach_labels(result, read_marker(sensitivity))
        if ladder is not None:
            from analysis.ladder import attach_marks, read_ladder_marker

            result = attach_marks(result, read_ladder_marker(ladder))
        written = write_outputs(base, suffixes,
                                lambda html, pdf: reports.write_report(result, html_path=html, pdf_path=pdf),
                                lambda: jsonout.run_document(result))
    typer.echo("\n".join(str(p) for p in written))




@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="First run folder (e.g. base).")],
    run_b: Annotated[Path, typer.Argument(help="Second run folder (e.g. epic).")],
    out: Annotated[Path | None, typer.Option(help="Output file (.html; a .pdf is written beside it).")] = None,
    band: Annotated[float, typer.Option(help="Fairness band.")] = 0.03,
    format: Annotated[str, typer.Option("--format", help=FORMAT_HELP)] = "both",
    no_verify: NoVerifyOpt = False,
) -> None:
    """Compare two runs metric by metric, with the difference and its 95% interval."""
    import analysis
    import reports
    from reports import jsonout

    suffixes = output_formats(format)
    check_band(band)
    open_run(run_a, not no_verify, say)
    open_run(run_b, not no_verify, say)
    base = out or Path(run_b) / f"compare_{Path(run_a).name}_vs_{Path(run_b).name}.html"
    _check_writable(base.parent)
    with failures.reading(run_a, run_b, no_verify=no_verify):
        result = analysis.compare(run_a, run_b, band=band)
        written = write_outputs(base, suffixes,
                                lambda html, pdf: reports.write_compare(result, html_path=html, pdf_path=pdf),
                                lambda: jsonout.compare_document(result))
    typer.echo("\n".join(str(p) for p in written))


@app.command()
def replay(
    run: Annotated[Path, typer.Argument(help="Run folder.")],
    game_id: Annotated[int, typer.Argument(help="Game id (the game_id column).")],
    no_verify: NoVerifyOpt = False,
) -> None:
    """Replay one game of a run from its seed, turn by turn."""
    from sim.registry import get_game

    manifest = open_run(run, not no_verify, say)
    if not 0 <= game_id < manifest["n_games"]:
        raise UsageError(f"game id {game_id} is not in this run (0..{manifest['n_games'] - 1})")
    try:
        g = get_game(manifest["game"])
        data = cfg.replay_overrides(manifest["game"], manifest["variant"], manifest["overrides"])
    except UsageError as exc:  # the run names a game, variant or key this version does not know
        raise BrewError(f"{Path(run) / 'run.json'}: cannot replay this run: {exc}") from None
    if data.hashes != manifest.get("data_hashes"):
        say("warning: data files changed since this run; the replay uses today's data")
    extra = {"options": manifest["options"]} if manifest.get("options") else {}
    with failures.reading(run, no_verify=no_verify):
        lines = g.replay(g.build(data), manifest["seed"], game_id, manifest["player_counts"],
                         manifest["policies"], **extra)
    typer.echo("\n".join(lines))


@app.command()
def demo(
    n_games: Annotated[int, typer.Option("--games", "-n", help="Games per game.")] = 200_000,
    out: Annotated[Path, typer.Option(help="Folder for the demo runs and reports.")] = Path("demo"),
    jobs: Annotated[int | None, typer.Option(help="Parallel jobs.")] = None,
) -> None:
    """Simulate every game at a default size and write its HTML and PDF reports."""
    from sim.core.warm import Warmer
    from sim.registry import games as all_games

    order = list(all_games().values())
    # the child compiles the last games while this process plays the first; greedy bots only,
    # so only the kernels without search
    warmer = Warmer([g.id for g in order[2:]], search=False)
    try:
        for g in order:
            warmer.wait_for(g.id)
            _demo_game(g, n_games, out, jobs)
    finally:
        warmer.stop()


def _demo_game(g, n_games: int, out: Path, jobs: int | None) -> None:
    """Simulate one game's base variant with greedy bots, then write its HTML and PDF report."""
    import analysis
    import reports

    data = cfg.prepare(g.id, "base", [], [])
    conf = g.build(data)
    run = out / f"{g.id}_base"
    runner.check_out_folder(run, resume=False, force=True)
    plan = runner.new_plan(g, data, conf, n_games=n_games, shard_size=runner.DEFAULT_SHARD,
                           seed=SEED_DEFAULT, player_counts=list(g.player_counts),
                           policies=["greedy"], command=runner.command_line())
    _execute(g, conf, plan, run, jobs, quiet=False)
    result = analysis.analyze(run)
    html, pdf = out / f"{g.id}_report.html", out / f"{g.id}_report.pdf"
    reports.write_report(result, html_path=html, pdf_path=pdf)
    say(f"{g.title} report: {html.resolve()}")
    say(f"{g.title} report: {pdf.resolve()}")


@app.command()
def bench(
    signature: Annotated[bool, typer.Option(help="Print one hash per game of a fixed set of seeded games.")] = False,
    write: Annotated[bool, typer.Option(help="With --signature: update tests/golden/signatures.json.")] = False,
) -> None:
    """Bench helpers. Throughput, compile time and memory: `make bench` (bench/bench.py)."""
    from sim.core.signature import signatures

    if not signature:
        raise UsageError("nothing to do: pass --signature (throughput benchmarks: make bench)")
    sigs = signatures()
    for game_id, sig in sigs.items():
        typer.echo(f"{game_id} {sig}")
    if write:
        path = Path(__file__).resolve().parents[1] / "tests" / "golden" / "signatures.json"
        path.write_text(json.dumps(sigs, indent=2) + "\n")
        say(f"wrote {path}")


data_app = typer.Typer(no_args_is_help=True, help="Game data in and out of spreadsheets.")
app.add_typer(data_app, name="data")


@data_app.command("export")
def data_export(
    game: Annotated[str, typer.Argument(help="Game id (see `brewbalance games`).")],
    to: Annotated[Path, typer.Option("--to", help="FILE.xlsx (one sheet per data file) or a folder (one .csv per data file).")],
) -> None:
    """Write every card and parameter table of a game's shipped data to a spreadsheet."""
    from sim.registry import get_game

    get_game(game)  # an unknown game stops here, naming the valid ones
    written = sheets.export(game, to)
    typer.echo(str(to))
    say(f"wrote {len(written)} file(s); edit values, then: brewbalance simulate {game} --data {to}")


def _check_writable(folder: Path) -> None:
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BrewError(f"output folder {folder} cannot be created: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise BrewError(f"output folder {folder} is not writable")


def _register_multi_arm_commands() -> None:
    """`experiment`, `sweep`, `robustness` (experiment_cli), `cards`, `powers` (causal_cli) and
    `sensitivity` (sensitivity_cli) live in their own modules."""
    from brewbalance import causal_cli, experiment_cli, ladder_cli, sensitivity_cli

    experiment_cli.register(app)
    ladder_cli.register(app)
    causal_cli.register(app)
    sensitivity_cli.register(app)


_register_multi_arm_commands()


def main() -> None:
    """Run the CLI. Typer returns (not raises) the exit code in non-standalone mode.

    Every exception ends here as one `error:` line: BrewError (exit 1, or 2 for usage),
    errors a user can fix (`user_error`), parser usage errors, and, as a last resort,
    anything else (exit 1). With --debug the traceback is shown instead."""
    try:
        code = app(standalone_mode=False)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        say("interrupted")
        sys.exit(130)
    except Exception as exc:
        # Usage errors of the command-line parser (click, vendored by typer) arrive here in
        # non-standalone mode; recognised by their interface, not by an import of click.
        if hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int):
            message = exc.format_message()
            if message:  # empty when the help text was shown instead (no arguments)
                say(f"error: {failures.printable(message)}")
            sys.exit(exc.exit_code)
        if DEBUG["on"]:
            raise
        if isinstance(exc, BrewError) or getattr(exc, "user_error", False):
            say(f"error: {failures.printable(str(exc))}")
            sys.exit(getattr(exc, "exit_code", 1))
        say(f"error: {failures.printable(failures.describe(exc))}")
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
