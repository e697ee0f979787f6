"""The causal commands (issue 14): `cards` (what a card is worth: injection and removal arms,
plus the randomised-offer contrast of the untreated run) and `powers` (what a faction's power
is worth: one power-off arm per faction, restricted play).

Both run an untreated arm and one treated arm per (mode, card) or faction on the same seed
through experiment_cli.run_all (plan and ETA first, progress, --resume, --engine dask), analyse
them with analysis.causal and write OUT/report.{html,pdf,json}. OUT/causal.json records the
command's settings so `brewbalance report OUT` can render the folder again.
Registered on the main Typer app by `register(app)`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from brewbalance import arms as A
from brewbalance import experiment_cli as X
from brewbalance import failures
from brewbalance.options import SEED_DEFAULT, check_band
from brewbalance.outputs import output_formats
from sim.core import config as cfg
from sim.core.errors import BrewError, UsageError, choices

MARKER = "causal.json"
REFERENCE = "untreated"
CARD_MODES = ("inject", "remove")
ALL = "all"

PoliciesOpt = Annotated[str | None, typer.Option(help="Bots P1,P2,.. of every arm (default greedy).")]


def treatable(game_id: str, variant: str, sets: list[str]) -> tuple[object, dict]:
    """The game and what it can treat under these data (UsageError for an unknown game)."""
    from sim.registry import get_game

    g = get_game(game_id)
    return g, g.treatable(g.build(cfg.prepare(game_id, variant, sets, [])))


def pick(text: str, valid: list[str], what: str) -> list[str]:
    """`all` or ID,ID,.. checked against `valid`; UsageError naming the choices."""
    if text.strip() == ALL:
        return list(valid)
    items = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in valid]
    if bad or not items:
        raise UsageError(f"{what} '{','.join(bad) or text}': unknown; choose from {ALL} or {choices(valid)}")
    return list(dict.fromkeys(items))


def card_arms(kinds: dict, cards_text: str, modes_text: str) -> list[A.Arm]:
    """Untreated, then one arm per (mode, card): inject_ID, remove_ID. Inject mode always adds
    inject_neutral (the game's blank card, analysis.causal.BLANK), the reference that takes
    the worth of one more card out of every injection value."""
    modes = [m.strip() for m in modes_text.split(",") if m.strip()]
    bad = [m for m in modes if m not in CARD_MODES]
    if bad or not modes:
        raise UsageError(f"--modes '{modes_text}': choose from {choices(CARD_MODES)}")
    missing = [m for m in modes if not kinds.get(m)]
    if missing:
        raise UsageError(f"--modes {','.join(missing)}: this game cannot do that; it can "
                         f"{choices([m for m in CARD_MODES if kinds.get(m)]) or 'neither'}")
    valid = list(dict.fromkeys(c for m in modes for c in kinds[m]))
    from analysis.causal import BLANK

    cards = pick(cards_text, valid, "--cards")
    if "inject" in modes and BLANK in kinds["inject"]:
        cards = [c for c in cards if c != BLANK] + [BLANK]
    return [A.Arm(REFERENCE)] + [A.Arm(A.check_name(f"{m}_{c}"), treatment={"kind": m, "target": c})
                                 for m in modes for c in cards if c in kinds[m]]


def games_with_factions() -> list[str]:
    from sim.registry import games

    return [gid for gid, g in games().items()
            if g.factions(g.build(cfg.prepare(gid, "base" if gid != "homebrewers" else "characters", [], [])))
            != ["none"]]


def power_arms(game, kinds: dict, factions_text: str, pool_text: str | None = None) -> list[A.Arm]:
    """Untreated, then one power_off arm per faction; with `pool_text` every arm draws its
    factions from that pool only (then `all` means every faction of the pool)."""
    if not kinds.get("power_off"):
        raise UsageError(f"powers: {game.id} has no faction powers to switch off; games with factions: "
                         f"{choices(games_with_factions())}")
    pool = pick(pool_text, kinds["power_off"], "--pool") if pool_text else []
    factions = pick(factions_text, pool or kinds["power_off"], "--factions")
    options = {"factions": pool} if pool else {}
    return [A.Arm(REFERENCE, options=dict(options))] + [
        A.Arm(A.check_name(f"power_off_{f}"), options=dict(options), treatment={"kind": "power_off", "target": f})
        for f in factions]


def write_marker(out: Path, settings: dict) -> None:
    from reports.files import write_atomic

    write_atomic(out / MARKER, (json.dumps(settings, indent=1) + "\n").encode("utf-8"))


def is_causal_folder(folder: Path) -> bool:
    return (Path(folder) / MARKER).is_file()


def analyse_folder(out: Path):
    """Re-read a cards/powers folder (its marker and arms) into a CausalResult."""
    from analysis.causal import TreatedRun, run_causal

    try:
        settings = json.loads((Path(out) / MARKER).read_text())
        arms = settings["arms"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BrewError(f"{out / MARKER}: cannot read the causal command's settings ({exc})") from None
    folder = Path(out) / A.ARMS_FOLDER
    treated = [TreatedRun(a["name"], a["kind"], a["target"], str(folder / a["name"])) for a in arms[1:]]
    folders = [folder / a["name"] for a in arms]
    used = {t.kind for t in treated}  # the report explains only the treatments these arms ran
    notes = {kind: text for kind, text in (settings.get("notes") or {}).items() if kind in used}
    with failures.reading(*folders):
        return run_causal(settings["command"], (arms[0]["name"], str(folders[0])), treated, notes), folders


def write_report(out: Path, suffixes, base: Path | None = None, analysed=None) -> None:
    """OUT's causal report (HTML/PDF/JSON per `suffixes`) beside `base` (default OUT/report);
    `analysed` = (result, folders) of analyse_folder when already at hand."""
    from brewbalance.outputs import write_outputs
    from reports.causal import write_causal
    from reports.jsonout import causal_document

    result, folders = analysed or analyse_folder(out)
    with failures.reading(*folders):
        written = write_outputs(base or Path(out) / "report.html", suffixes,
                                lambda html, pdf: write_causal(result, html_path=html, pdf_path=pdf),
                                lambda: causal_document(result))
    typer.echo("\n".join(str(p) for p in written))


def _summary_rows(result) -> tuple[list[str], list[list[str]]]:
    from analysis.text import pp

    def ci(r, key, show):
        return "" if r.get(key) is None else f"{show(r[key])} [{show(r[key + '_lo'])}, {show(r[key + '_hi'])}]"

    def score(v):
        return "n/a" if v is None or v != v else f"{v:+.2f}"

    if result.command == "cards":
        header = ["card", "players", "vs blank card: win share", "vs blank card: score", "vs untreated: win share",
                  "removal (largest)", "ITT (offered)", "association"]
        rows = [[r["card"], f"{r['n_players']}p", ci(r, "blank_win", pp), ci(r, "blank_score", score),
                 ci(r, "inject_win", pp), ci(r, "removal", pp), ci(r, "itt", pp), ci(r, "assoc", pp)]
                for r in result.cards.to_dicts()]
        return header, rows
    wins = result.powers.filter(result.powers["measure"] == "win")
    rows = [[r["faction"], f"{r['n_players']}p",
             "not estimable" if r["n"] == 0 else f"{pp(r['diff'])} [{pp(r['lo'])}, {pp(r['hi'])}]",
             str(r["n"])] for r in wins.to_dicts()]
    return ["faction", "players", "power value (win rate, untreated - off)", "paired games"], rows


def run_command(command: str, game: str, arms: list[A.Arm], notes: dict, opts: dict) -> None:
    """Run the arms, write the marker and the report, print the short table."""
    suffixes = output_formats(opts["format"])
    check_band(opts["band"])
    base = X.baseline(game, opts["n_games"], opts["players"], opts["variant"], opts["set_"], opts["seed"],
                      opts["policies"])
    out = opts["out"] or Path("runs") / f"{command}_{game}_seed{opts['seed']}"
    X.run_all(base, arms, out, opts["jobs"], opts["quiet"], opts["force"], resume=opts["resume"],
              engine=opts["engine"], scheduler=opts["scheduler"], show_plan=True)
    write_marker(out, {"command": command, "game": game, "variant": opts["variant"], "sets": opts["set_"] or [],
                       "seed": opts["seed"], "n_games": opts["n_games"], "notes": notes,
                       "arms": [{"name": a.name, "kind": (a.treatment or {}).get("kind", "none"),
                                 "target": (a.treatment or {}).get("target")} for a in arms]})
    analysed = analyse_folder(out)
    header, rows = _summary_rows(analysed[0])
    typer.echo(X.table_text(header, rows))
    write_report(out, suffixes, analysed=analysed)


def cards(
    game: X.GameArg,
    cards_: Annotated[str, typer.Option("--cards", help="Card ids ID,ID,.. or all.")] = ALL,
    modes: Annotated[str, typer.Option(help="inject, remove or inject,remove.")] = "inject",
    n_games: X.GamesOpt = 2000, players: X.PlayersOpt = None, variant: X.VariantOpt = "base",
    set_: X.SetOpt = None, policies: PoliciesOpt = None, seed: X.SeedOpt = SEED_DEFAULT,
    jobs: X.JobsOpt = None, out: X.OutOpt = None, force: X.ForceOpt = False, resume: X.ResumeOpt = False,
    engine: X.EngineOpt = "local", scheduler: X.SchedulerOpt = None, format: X.FormatOpt = "both",
    band: X.BandOpt = 0.03, quiet: X.QuietOpt = False,
) -> None:
    """Causal card value: give a seat the card (inject) or take it out of the deck (remove) on
    paired seeds, beside the randomised-offer contrast and the card table's association."""
    output_formats(format)
    g, kinds = treatable(game, variant, set_ or [])
    arms = card_arms(kinds, cards_, modes)
    run_command("cards", game, arms, g.treatment_notes(), locals())


def powers(
    game: X.GameArg,
    factions: Annotated[str, typer.Option(help="Faction ids ID,ID,.. or all.")] = ALL,
    pool: Annotated[str | None, typer.Option(
        help="Draw every arm's factions from these ids F1,F2,.. only (default the game's whole pool).")] = None,
    n_games: X.GamesOpt = 2000, players: X.PlayersOpt = None, variant: X.VariantOpt = "base",
    set_: X.SetOpt = None, policies: PoliciesOpt = None, seed: X.SeedOpt = SEED_DEFAULT,
    jobs: X.JobsOpt = None, out: X.OutOpt = None, force: X.ForceOpt = False, resume: X.ResumeOpt = False,
    engine: X.EngineOpt = "local", scheduler: X.SchedulerOpt = None, format: X.FormatOpt = "both",
    band: X.BandOpt = 0.03, quiet: X.QuietOpt = False,
) -> None:
    """Power value (restricted play): each faction's power switched off on paired seeds; its
    worth in win rate and score per player count."""
    output_formats(format)
    g, kinds = treatable(game, variant, set_ or [])
    arms = power_arms(g, kinds, factions, pool)
    run_command("powers", game, arms, g.treatment_notes(), locals())


def register(app: typer.Typer) -> None:
    app.command()(cards)
    app.command()(powers)
