"""The skill ladder: the same paired games played at each rung (every seat plays the rung's
bot, e.g. random, greedy, search:16, search:64), and whether a balance verdict survives skill.

Per rung, player count and faction (or seat): the win rate with its interval and the verdict
label against the fairness band (analysis.robustness.classify): favoured (interval above the
band), disfavoured (below), fair (inside) or undecided. Kendall's tau between rungs as in
`robustness`.

Across skill, per unit the label at the top rung (the last listed) is set against the label at
greedy, with the paired difference top - greedy (same seed: game i deals the same cards at
every rung; a faction's rate is its wins over its seats, paired as a ratio,
analysis.paired.faction_ratio_stats). The status is
  flips        both labels decided and different (favoured under greedy, fair at the top, ...);
  strengthens  not a flip, the top label is favoured or disfavoured, and the paired
               difference is significant away from the fair share;
  weakens      not a flip, the paired difference is significant towards the fair share;
  holds        the same decided label at both, no significant move;
  undecided    a label is undecided and nothing above applies.
For the main report a verdict "holds across skill" when the labels agree (holds, strengthens,
weakens), "depends on skill" when it flips, and is "not decided at both rungs" otherwise.

Power use per rung (games with factions and powers): per faction, the share of its seats that
used its power at least once. Homebrewers records uses per seat (players.powers_used); Dragon
Brew logs each use as an event of kind 'ability'. Neither records the turns on which a power
was legal, so the reason a power goes unused comes from the random rung when the ladder has
one: random takes a legal power at even odds, so a power random seldom uses is "rarely legal";
one random uses but the top bot does not is one the "bot never values"; otherwise "unknown".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import paired as _paired
from analysis.metrics import fair_share
from analysis.robustness import FAIR, STRONG, UNDECIDED, WEAK, Robustness, run_robustness
from analysis.runfolder import connect, to_polars
from sim.core.errors import UsageError

REFERENCE = "greedy"
LABELS = {STRONG: "favoured", WEAK: "disfavoured", FAIR: "fair", UNDECIDED: "undecided"}
HOLDS, DEPENDS, NOT_DECIDED = "holds across skill", "depends on skill", "not decided at both rungs"
POWER_RARE = 0.5  # flag a power used in under half its games at the top rung
POWER_SOURCES = {"homebrewers": "players column powers_used",
                 "dragon_brew": "events of kind 'ability'"}
RARELY_LEGAL_RANDOM = 0.25  # random uses a legal power at even odds: below this it was seldom legal


@dataclass
class Ladder:
    game: str
    variant: str
    kind: str                  # 'faction' or 'seat'
    rungs: list[str]
    band: float
    rates: pl.DataFrame        # rung, n_players, unit, games, wins, rate, lo, hi, rank, verdict, label
    across: pl.DataFrame       # n_players, unit, label_greedy, label_top, diff, lo, hi, p_value, status, mark
    taus: pl.DataFrame
    power: pl.DataFrame        # rung, n_players, faction, seats, used, used_share (empty: none recorded)
    power_flags: pl.DataFrame  # n_players, faction, used_share, reason
    power_note: str = ""
    verdicts: list[str] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)


def check_rungs(rungs: list[str]) -> None:
    """The ladder needs greedy (the reference) and a top rung above it."""
    if REFERENCE not in rungs:
        raise UsageError(f"the ladder must include {REFERENCE} (the reference rung)")
    if rungs[-1] == REFERENCE:
        raise UsageError(f"the last rung is the top one: list a stronger bot after {REFERENCE}")


def unit_rows(players: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Per (game, unit): wins and seats, in faction_rows' shape (a seat is a unit of one copy)."""
    return _paired.faction_rows(players.with_columns(faction=pl.col(kind).cast(pl.String)))


def status(label_a: str, label_b: str, diff: float, lo: float, hi: float, rate_top: float, fair: float) -> str:
    """flips / strengthens / weakens / holds / undecided (see the module docstring)."""
    decided = UNDECIDED not in (label_a, label_b)
    if decided and label_a != label_b:
        return "flips"
    significant = not (lo <= 0 <= hi) and not np.isnan(lo)
    away = significant and np.sign(diff) == np.sign(rate_top - fair)
    if significant and away and label_b in (STRONG, WEAK):
        return "strengthens"
    if significant and not away:
        return "weakens"
    return "holds" if decided else "undecided"


def mark_of(label_a: str, label_b: str, st: str) -> str:
    if st == "flips":
        return DEPENDS
    return HOLDS if label_a == label_b and label_a != UNDECIDED else NOT_DECIDED


def across_skill(rates: pl.DataFrame, players: dict[str, pl.DataFrame], kind: str, top: str) -> pl.DataFrame:
    """Top rung against greedy per (player count, unit), with the paired difference."""
    diffs = _paired.faction_ratio_stats(unit_rows(players[REFERENCE], kind), unit_rows(players[top], kind))
    diffs = diffs.rename({"faction": "unit"}).select("n_players", "unit", "diff", "lo", "hi", "p_value")
    pick = rates.select("rung", "n_players", "unit", "verdict", "rate")
    joined = (pick.filter(pl.col("rung") == REFERENCE).drop("rung", "rate").rename({"verdict": "verdict_greedy"})
              .join(pick.filter(pl.col("rung") == top).drop("rung").rename({"verdict": "verdict_top",
                                                                           "rate": "rate_top"}),
                    on=["n_players", "unit"])
              .join(diffs, on=["n_players", "unit"], how="left").sort("n_players", "unit"))
    rows = []
    for r in joined.to_dicts():
        st = status(r["verdict_greedy"], r["verdict_top"], r["diff"], r["lo"], r["hi"], r["rate_top"],
                    float(fair_share(r["n_players"])))
        rows.append({"n_players": r["n_players"], "unit": r["unit"], "label_greedy": LABELS[r["verdict_greedy"]],
                     "label_top": LABELS[r["verdict_top"]], "diff": r["diff"], "lo": r["lo"], "hi": r["hi"],
                     "p_value": r["p_value"], "status": st,
                     "mark": mark_of(r["verdict_greedy"], r["verdict_top"], st)})
    schema = {"n_players": pl.Int64, "unit": pl.String, "label_greedy": pl.String, "label_top": pl.String,
              "diff": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "p_value": pl.Float64,
              "status": pl.String, "mark": pl.String}
    return pl.DataFrame(rows, schema=schema)


def read_power_use(run_dir: str | Path, game: str) -> pl.DataFrame | None:
    """Per seat: game_id, n_players, faction, used (1 when its power was used); None when the
    game records no power use."""
    if game not in POWER_SOURCES:
        return None
    uses = ("SELECT game_id, seat, powers_used AS n FROM players" if game == "homebrewers" else
            "SELECT game_id, seat, count(*) AS n FROM events WHERE kind = 'ability' GROUP BY game_id, seat")
    con = connect(run_dir)
    try:
        return to_polars(con.execute(
            "SELECT p.game_id, g.n_players, p.faction, CAST(coalesce(u.n, 0) > 0 AS INTEGER) AS used "
            f"FROM players p JOIN games g USING (game_id) LEFT JOIN ({uses}) u "
            "ON u.game_id = p.game_id AND u.seat = p.seat"))
    finally:
        con.close()


def power_table(per_rung: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """rung, n_players, faction, seats, used, used_share."""
    return pl.concat([
        df.group_by("n_players", "faction").agg(seats=pl.len(), used=pl.col("used").sum().cast(pl.Int64))
        .with_columns(rung=pl.lit(rung), used_share=pl.col("used") / pl.col("seats"))
        .select("rung", "n_players", "faction", "seats", "used", "used_share")
        for rung, df in per_rung.items()]).sort("rung", "n_players", "faction")


def power_reason(random_share: float | None) -> str:
    if random_share is None or np.isnan(random_share):
        return "unknown (no random rung to tell how often it is legal)"
    if random_share < RARELY_LEGAL_RANDOM:
        return f"rarely legal (random, which takes a legal power at even odds, uses it in {100 * random_share:.0f}%)"
    return f"bot never values it (random uses it in {100 * random_share:.0f}% of its games)"


def power_flags(power: pl.DataFrame, top: str) -> pl.DataFrame:
    """Powers used in under half the games at the top rung, with the likely reason."""
    random = {(r["n_players"], r["faction"]): r["used_share"]
              for r in power.filter(pl.col("rung") == "random").to_dicts()}
    rows = [{"n_players": r["n_players"], "faction": r["faction"], "used_share": r["used_share"],
             "reason": power_reason(random.get((r["n_players"], r["faction"])))}
            for r in power.filter((pl.col("rung") == top) & (pl.col("used_share") < POWER_RARE)).to_dicts()]
    return pl.DataFrame(rows, schema={"n_players": pl.Int64, "faction": pl.String, "used_share": pl.Float64,
                                      "reason": pl.String})


def run_ladder(rungs: list[tuple[str, str]], band: float = 0.03) -> Ladder:
    """Analyse [(rung name, run folder)] in order of skill (the last is the top rung)."""
    names = [n for n, _ in rungs]
    check_rungs(names)
    rob: Robustness = run_robustness(rungs, band)
    rates = rob.rates.rename({"arm": "rung"}).with_columns(
        label=pl.col("verdict").replace_strict(LABELS, return_dtype=pl.String))
    players = {n: _paired.load_units(d).players for n, d in rungs}
    across = across_skill(rates, players, rob.kind, names[-1])
    manifest = rob.manifests[0]
    game = manifest.get("game", "?")
    power_rows = {n: read_power_use(d, game) for n, d in rungs}
    if any(v is None for v in power_rows.values()):
        power = pl.DataFrame(schema={"rung": pl.String, "n_players": pl.Int64, "faction": pl.String,
                                     "seats": pl.Int64, "used": pl.Int64, "used_share": pl.Float64})
        note = (f"{game} records no power use: it has no faction powers"
                if game not in ("homebrewers", "dragon_brew") else f"{game}: power use not found")
    else:
        power = power_table(power_rows)
        note = f"power use read from the {POWER_SOURCES[game]}; the run does not record when a power was legal"
    ladder = Ladder(game, manifest.get("variant", "?"), rob.kind, names, band, rates, across,
                    rob.taus.rename({"arm_a": "rung_a", "arm_b": "rung_b"}), power,
                    power_flags(power, names[-1]), note, manifests=rob.manifests)
    ladder.verdicts = ladder_lines(ladder)
    return ladder


def ladder_lines(lad: Ladder) -> list[str]:
    """Flips first, then strengthening and weakening, then a count of what holds; power flags."""
    top = lad.rungs[-1]
    lines = []
    for st, plural in (("flips", "flip"), ("strengthens", "strengthen"), ("weakens", "weaken")):
        rows = lad.across.filter(pl.col("status") == st).to_dicts()
        if rows:
            said = f"verdict {st}" if len(rows) == 1 else f"verdicts {plural}"
            lines.append(f"{len(rows)} {lad.kind} {said} between {REFERENCE} and {top}: "
                         + "; ".join(f"{r['unit']} at {r['n_players']}p {r['label_greedy']} -> {r['label_top']} "
                                     f"({100 * r['diff']:+.1f} pp, {100 * r['lo']:+.1f} to {100 * r['hi']:+.1f})"
                                     for r in rows) + ".")
    held = lad.across.filter(pl.col("mark") == HOLDS).height
    lines.append(f"{held} of {lad.across.height} {lad.kind} verdicts hold across skill ({REFERENCE} vs {top}); "
                 f"{lad.across.filter(pl.col('mark') == NOT_DECIDED).height} are not decided at both rungs.")
    for r in lad.power_flags.to_dicts():
        lines.append(f"Power of {r['faction']} at {r['n_players']}p used in {100 * r['used_share']:.0f}% of its "
                     f"games at {top} (under half): {r['reason']}.")
    if lad.power.is_empty():
        lines.append(f"Power use: {lad.power_note}.")
    return lines


def ladder_marker(lad: Ladder) -> dict:
    """What `report RUN --ladder` needs: game, variant, the rungs and each unit's mark."""
    return {"game": lad.game, "variant": lad.variant, "kind": lad.kind, "rungs": lad.rungs,
            "marks": lad.across.select("n_players", "unit", "mark", "status").to_dicts()}


def read_ladder_marker(folder) -> dict:
    """OUT/ladder.json of a `robustness --ladder` run; BrewError if there is none."""
    from analysis.runfolder import read_marker

    return read_marker(folder, "ladder.json", "ladder", lambda d: "marks" in d)


def attach_marks(result, marker: dict):
    """A RunAnalysis whose seat or faction verdicts carry `skill_label` ("holds across skill" /
    "depends on skill" / ...); UsageError if the ladder is of another game or variant."""
    for key in ("game", "variant"):
        if marker.get(key) != result.manifest.get(key):
            raise UsageError(f"--ladder: that ladder is of {key} {marker.get(key)!r}, this run of "
                             f"{result.manifest.get(key)!r}; give a ladder of the same game and variant")
    marks = {(r["n_players"], str(r["unit"])): r["mark"] for r in marker["marks"]}
    kind = marker.get("kind")
    table = result.seat_winrate if kind == "seat" else result.faction_winrate
    if not table.is_empty():
        keys = zip(table["n_players"].to_list(), table[kind].cast(pl.String).to_list(), strict=True)
        table = table.with_columns(skill_label=pl.Series([marks.get(k, "not in the ladder") for k in keys],
                                                         dtype=pl.String))
    if kind == "seat":
        result.seat_winrate = table
    else:
        result.faction_winrate = table
    return result
