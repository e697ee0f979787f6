"""Causal card value and restricted play (issue 14): what a card or a faction power does to
winning, measured by intervening in the simulation rather than by watching who wins.

Every treated arm is an ordinary run on the untreated arm's seed, so game i of both deals the
same cards and rolls the same dice (common random numbers); the difference game by game is
the treatment's effect on that game. Four estimates, each a Verdict record:

* injection (`inject` arm): the treated seat's win share and score minus the same seat in the
  same game of the untreated arm. One treated seat per game, so the game is the unit: a paired
  t interval over games.
* injection against the blank card (the headline): an injection adds a card, and one more card
  is worth something by itself (it holds a hand slot, or a bot plays it instead of a better one).
  The `inject neutral` arm gives the same seat of the same game the game's blank card instead;
  inject X minus inject blank is what card X itself is worth. treated_seat depends only on the
  game's place in the schedule, so both arms treat the same seat of game i.
* removal (`remove` arm): every faction's per-seat win rate (a ratio over games, paired) and
  every seat's win rate, remove arm minus untreated.
* power value (`power_off` arm): untreated minus power-off, on the faction's per-seat win rate
  and its seats' mean score; not estimable at a player count where it never sat.
* randomised offer (ITT, from any run): seats offered the card by the deal, before any
  decision (offer events with amount 1), minus seats not offered; seats of one game share its
  win, so the interval is game-clustered (analysis/clustered.py).

Beside them stands the card table's association (holders minus non-holders, analysis/core.py),
which mixes the card's effect with who ends up holding it. Holm runs across the cards (or
factions) of one player count and one measure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analysis import runfolder
from analysis.clustered import card_records, count_differences
from analysis.core import card_cells_of, card_value
from analysis.metrics import holm_family, significant
from analysis.paired import (
    GAME_KEYS,
    Units,
    faction_ratio_stats,
    faction_rows,
    load_units,
    numeric,
    paired_stats,
    seat_rows,
    shares_deals,
)
from analysis.records import NOT_SIGNIFICANT, SIGNIFICANT, Verdict, not_estimable
from analysis.runfolder import query, query_coded
from analysis.stats import group_sums
from analysis.text import pp

BLANK = "neutral"  # the id every game gives its blank card, the last of its inject targets
INJECTION = "causal (injection on paired seeds)"
INJECTION_VS_BLANK = "causal (injection against the blank card on paired seeds)"
REFERENCES = {"blank": "inject card - inject blank card", "untreated": "inject card - untreated"}
REMOVAL = "causal (removal on paired seeds)"
POWER = "causal (power switched off on paired seeds)"
ITT = "causal ITT (randomised offer)"
ASSOCIATION = "association"
NO_FACTION = "none"
MEASURES = {"win": "win share", "score": "score"}
STAT_COLUMNS = ["n", "value_a", "value_b", "diff", "lo", "hi", "p_value"]


@dataclass
class TreatedRun:
    """One arm of a cards/powers command: its name, treatment and run folder."""

    name: str
    kind: str      # inject / remove / power_off
    target: str    # card or faction id
    run_dir: str


@dataclass
class CausalResult:
    """Everything a cards/powers report shows. Differences: inject/remove arm minus
    untreated; power value: untreated minus power-off; ITT: offered minus not offered."""

    command: str                      # cards / powers
    game: str
    reference: str                    # name of the untreated arm
    manifests: list[tuple[str, dict]]  # (arm name, run.json), untreated first
    injection: pl.DataFrame           # card, reference (blank/untreated), n_players, measure, n (games), value_a/b, diff, lo, hi, p_value, p_holm
    removal: pl.DataFrame             # card, n_players, unit_kind (seat/faction), unit, n (games), ...
    powers: pl.DataFrame              # faction, n_players, measure, n (games with it), ...
    itt: pl.DataFrame                 # card, n_players, offered (seats), games, rate_offered, rate_not, diff, lo, hi, p_holm
    association: pl.DataFrame         # card, n_players, players_with, diff, diff_lo, diff_hi, p_holm
    cards: pl.DataFrame               # one row per studied card and player count: every value side by side
    notes: dict[str, str] = field(default_factory=dict)  # treatment kind -> what it does here
    records: list[Verdict] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)
    paired: bool = True


# ---------------------------------------------------------------- shared pieces
def with_holm(df: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """p_holm (Holm within each `by` group) and significant (p_holm < 0.05)."""
    if df.is_empty():
        return df.with_columns(p_holm=pl.lit(None, pl.Float64), significant=pl.lit(None, pl.Boolean))
    df = df.with_row_index("_row")
    parts = []
    for g in df.partition_by(by, maintain_order=True):
        adjusted = holm_family(g["p_value"].to_numpy())
        parts.append(g.with_columns(p_holm=pl.Series(adjusted, dtype=pl.Float64),
                                    significant=pl.Series(significant(adjusted))))
    return pl.concat(parts).sort("_row").drop("_row")


def _stat_frame(rows: list[dict], keys: dict) -> pl.DataFrame:
    schema = {**keys, **{c: (pl.Int64 if c == "n" else pl.Float64) for c in STAT_COLUMNS}}
    return pl.DataFrame(rows, schema=schema)


def _paired(a: pl.DataFrame, b: pl.DataFrame, keys: list[str], by: list[str], value: str) -> pl.DataFrame:
    return paired_stats(a, b, keys, by, value).select(*by, *STAT_COLUMNS)


# ---------------------------------------------------------------- injection
def treated_rows(units: Units, seats: pl.DataFrame) -> pl.DataFrame:
    """game_id, n_players, win, score of the seat `seats` names (game_id, seat) in each game."""
    players = units.players.with_columns(pl.col("seat").cast(pl.Int64))
    return players.join(seats, on=["game_id", "seat"]).select(
        *GAME_KEYS, numeric("win").alias("win"), numeric("score").alias("score"))


def injection_effect(reference: Units, arm: Units) -> pl.DataFrame:
    """Per (n_players, measure): the treated seat in the inject arm minus the same seat in the
    same game of `reference` (the untreated arm, or the arm injecting the blank card), paired
    over games (n = games)."""
    seats = (arm.games.filter(pl.col("treated_seat") >= 0)
             .select("game_id", pl.col("treated_seat").cast(pl.Int64).alias("seat")))
    a, b = treated_rows(reference, seats), treated_rows(arm, seats)
    return pl.concat([_paired(a, b, GAME_KEYS, ["n_players"], m).with_columns(measure=pl.lit(m))
                      for m in MEASURES])


def injection_table(base: Units, arms: dict[str, Units]) -> pl.DataFrame:
    """injection_effect of every card (arms: card -> its inject arm) against the untreated arm
    and, when the blank card's arm is among them, against it (reference "blank"); Holm across
    cards within each reference, player count and measure."""
    blank = arms.get(BLANK)
    parts = []
    for c, u in arms.items():
        parts.append(injection_effect(base, u).with_columns(card=pl.lit(c), reference=pl.lit("untreated")))
        if blank is not None and c != BLANK:
            parts.append(injection_effect(blank, u).with_columns(card=pl.lit(c), reference=pl.lit("blank")))
    df = pl.concat(parts) if parts else _stat_frame([], {"n_players": pl.Int64}).with_columns(
        measure=pl.lit(None, pl.String), card=pl.lit(None, pl.String), reference=pl.lit(None, pl.String))
    return with_holm(df.select("card", "reference", "n_players", "measure", *STAT_COLUMNS),
                     ["reference", "n_players", "measure"])


# ---------------------------------------------------------------- removal
def removal_effect(base: Units, arm: Units) -> pl.DataFrame:
    """Per (n_players, seat) and, in games with factions, per (n_players, faction): win rate in
    the remove arm minus untreated, paired over games."""
    seats = _paired(seat_rows(base.players), seat_rows(arm.players), [*GAME_KEYS, "seat"],
                    ["n_players", "seat"], "win")
    parts = [seats.with_columns(unit_kind=pl.lit("seat"), unit=pl.col("seat").cast(pl.String)).drop("seat")]
    if set(base.players["faction"].unique()) != {NO_FACTION}:
        fac = faction_ratio_stats(faction_rows(base.players), faction_rows(arm.players))
        parts.append(fac.select("n_players", pl.col("faction").alias("unit"), *STAT_COLUMNS)
                     .with_columns(unit_kind=pl.lit("faction")))
    # paired_stats counts games as UInt32, faction_ratio_stats as Int64: one type to stack them
    return pl.concat([p.select("n_players", "unit_kind", "unit", *STAT_COLUMNS).cast({"n": pl.Int64})
                      for p in parts])


def removal_table(base: Units, arms: dict[str, Units]) -> pl.DataFrame:
    """removal_effect of every card, Holm across cards (and their seats or factions) within
    each player count and kind of unit."""
    parts = [removal_effect(base, u).with_columns(card=pl.lit(c)) for c, u in arms.items()]
    if not parts:
        return with_holm(_stat_frame([], {"card": pl.String, "n_players": pl.Int64, "unit_kind": pl.String,
                                          "unit": pl.String}), ["n_players"])
    df = pl.concat(parts).select("card", "n_players", "unit_kind", "unit", *STAT_COLUMNS)
    return with_holm(df.with_columns(pl.col("n_players").cast(pl.Int64)), ["n_players", "unit_kind"])


# ---------------------------------------------------------------- power value
def faction_scores(players: pl.DataFrame, faction: str) -> pl.DataFrame:
    """game_id, n_players, score: the mean score of the faction's seats in each game it sat in."""
    return (players.filter(pl.col("faction") == faction).group_by(GAME_KEYS)
            .agg(numeric("score").mean().alias("score")))


def power_effect(base: Units, arm: Units, faction: str, player_counts: list[int]) -> pl.DataFrame:
    """Per player count and measure: untreated minus power-off for `faction`, on its per-seat
    win rate (ratio over games) and its mean score (n = games it sat in). A player count where
    it never sat gets a row with n = 0 and no numbers."""
    wins = faction_ratio_stats(faction_rows(arm.players), faction_rows(base.players))
    wins = wins.filter(pl.col("faction") == faction).select("n_players", *STAT_COLUMNS)
    scores = _paired(faction_scores(arm.players, faction), faction_scores(base.players, faction),
                     GAME_KEYS, ["n_players"], "score")
    rows = []
    for measure, df in (("win", wins), ("score", scores)):
        found = {r["n_players"]: r for r in df.to_dicts()}
        for n in player_counts:
            r = found.get(n) or {"n": 0, **{c: None for c in STAT_COLUMNS[1:]}}
            rows.append({**r, "n_players": n, "measure": measure, "faction": faction})
    return _stat_frame(rows, {"faction": pl.String, "n_players": pl.Int64, "measure": pl.String})


def power_table(base: Units, arms: dict[str, Units], player_counts: list[int]) -> pl.DataFrame:
    """power_effect of every faction, Holm across factions within player count and measure."""
    parts = [power_effect(base, u, f, player_counts) for f, u in arms.items()]
    df = pl.concat(parts) if parts else _stat_frame([], {"faction": pl.String, "n_players": pl.Int64,
                                                         "measure": pl.String})
    return with_holm(df.select("faction", "n_players", "measure", *STAT_COLUMNS), ["n_players", "measure"])


# ---------------------------------------------------------------- randomised offer (ITT)
def itt_from_cells(offered: pl.DataFrame, cells: pl.DataFrame) -> pl.DataFrame:
    """Offered minus not-offered win rate per (card, n_players), game-clustered, Holm across
    cards within a player count.

    offered: card, game_id, n_players, n1 (seats offered it), s1 (their wins);
    cells: game_id, n_players, N (seats), S (wins) for every game."""
    schema = {"card": pl.String, "n_players": pl.Int64, "offered": pl.Float64, "games": pl.Int64,
              "rate_offered": pl.Float64, "rate_not": pl.Float64, "diff": pl.Float64, "lo": pl.Float64,
              "hi": pl.Float64, "p_value": pl.Float64}
    if offered.is_empty():
        return with_holm(pl.DataFrame(schema=schema), ["n_players"])
    offered = offered.with_columns(pl.col("n_players").cast(pl.Int64))
    cells = cells.with_columns(pl.col("n_players").cast(pl.Int64))
    diffs = count_differences(offered, cells)
    totals = group_sums(cells, ["n_players"], N="N", S="S").join(
        cells.group_by("n_players").agg(games=pl.col("game_id").n_unique()), on="n_players")
    counts = group_sums(offered, ["card", "n_players"], offered="n1", won="s1")
    df = (diffs.join(counts, on=["card", "n_players"]).join(totals, on="n_players")
          .with_columns(rate_offered=pl.col("won") / pl.col("offered"),
                        rate_not=(pl.col("S") - pl.col("won")) / (pl.col("N") - pl.col("offered")),
                        games=pl.col("games").cast(pl.Int64))
          .select(list(schema)).cast(schema).sort("n_players", "card"))
    return with_holm(df, ["n_players"])


def itt_table(run_dir: str | Path) -> pl.DataFrame:
    """itt_from_cells from a run folder's setup offers (any run, no extra simulation)."""
    con = runfolder.connect(run_dir)
    try:
        if "kind" not in runfolder.columns(con, "events"):
            return itt_from_cells(pl.DataFrame(), pl.DataFrame())
        offered = query_coded(con, "offer_holder_cells", {"card": query(con, "offer_names")["card"].to_list()})
        cells = query(con, "card_game_cells", max_game=2**62)
    finally:
        con.close()
    return itt_from_cells(offered, cells)


def association_table(run_dir: str | Path) -> pl.DataFrame:
    """The card table's observational value (analysis.core.card_value) of a run."""
    manifest = runfolder.load_manifest(Path(run_dir))
    con = runfolder.connect(run_dir)
    try:
        df = card_value(con, manifest, card_cells_of(con, manifest))
    finally:
        con.close()
    if df.is_empty():
        return pl.DataFrame(schema={"card": pl.String, "n_players": pl.Int64, "players_with": pl.Int64,
                                    "diff": pl.Float64, "diff_lo": pl.Float64, "diff_hi": pl.Float64,
                                    "p_holm": pl.Float64})
    return df.select("card", pl.col("n_players").cast(pl.Int64), "players_with", "diff", "diff_lo",
                     "diff_hi", "p_holm")


# ---------------------------------------------------------------- side by side
def _measure(df: pl.DataFrame, measure: str, prefix: str) -> pl.DataFrame:
    return df.filter(pl.col("measure") == measure).select(
        "card", "n_players", **{f"{prefix}_n": "n", prefix: "diff", f"{prefix}_lo": "lo",
                                f"{prefix}_hi": "hi", f"{prefix}_p_holm": "p_holm"})


def _largest_removal(removal: pl.DataFrame) -> pl.DataFrame:
    """Per (card, n_players): the seat or faction whose win rate removal moves most."""
    return (removal.filter(pl.col("diff").is_not_null()).sort(pl.col("diff").abs(), descending=True)
            .group_by("card", "n_players", maintain_order=True).first()
            .select("card", "n_players",
                    removal_unit=pl.format("{} {}", "unit_kind", "unit"), removal="diff",
                    removal_lo="lo", removal_hi="hi", removal_p_holm="p_holm"))


def cards_summary(cards: list[str], player_counts: list[int], injection: pl.DataFrame,
                  removal: pl.DataFrame, itt: pl.DataFrame, association: pl.DataFrame) -> pl.DataFrame:
    """One row per studied card and player count: injection value against the blank card
    (blank_win, blank_score) and against the untreated game (inject_win, inject_score), the
    largest removal effect, ITT and association, each with its interval (null where not run)."""
    grid = pl.DataFrame({"card": [c for c in cards for _ in player_counts],
                         "n_players": [n for _ in cards for n in player_counts]},
                        schema={"card": pl.String, "n_players": pl.Int64})
    against = {ref: injection.filter(pl.col("reference") == ref) for ref in REFERENCES}
    pieces = [_measure(against["blank"], "win", "blank_win"), _measure(against["blank"], "score", "blank_score"),
              _measure(against["untreated"], "win", "inject_win"),
              _measure(against["untreated"], "score", "inject_score"),
              _largest_removal(removal),
              itt.select("card", "n_players", itt_offered="offered", itt="diff", itt_lo="lo", itt_hi="hi",
                         itt_p_holm="p_holm"),
              association.select("card", "n_players", assoc_players="players_with", assoc="diff",
                                 assoc_lo="diff_lo", assoc_hi="diff_hi", assoc_p_holm="p_holm")]
    for piece in pieces:
        grid = grid.join(piece.with_columns(pl.col("n_players").cast(pl.Int64)), on=["card", "n_players"],
                         how="left")
    return grid.sort("card", "n_players")


# ---------------------------------------------------------------- records
def _record(kind: str, unit, r: dict, n_unit: str, metric: str, family: str, note: str) -> Verdict:
    if r["n"] == 0 or r["p_holm"] is None or r["p_holm"] != r["p_holm"]:
        return not_estimable(kind, unit, r["n_players"], r["n"], n_unit,
                             note + ("; never seated at this player count" if r["n"] == 0
                                     else "; no spread over games"), family=family)
    return Verdict(kind=kind, unit=unit, n_players=r["n_players"], estimate=r["diff"], ci_low=r["lo"],
                   ci_high=r["hi"], n=r["n"], n_unit=n_unit,
                   verdict=SIGNIFICANT if r["p_holm"] < 0.05 else NOT_SIGNIFICANT,
                   p_adjusted=r["p_holm"], family=family, metric=metric, note=note)


def injection_records(df: pl.DataFrame) -> list[Verdict]:
    """kind card_injection_vs_blank_* (against the blank card, the card's own value) or
    card_injection_* (against the untreated game, the card plus one more card in hand)."""
    out = []
    for r in df.to_dicts():
        blank = r["reference"] == "blank"
        kind = f"card_injection{'_vs_blank' if blank else ''}_{r['measure']}"
        out.append(_record(kind, r["card"], r, "paired games",
                           f"treated seat's {MEASURES[r['measure']]}, {REFERENCES[r['reference']]} "
                           "(same seat, same game)",
                           f"card injection vs {r['reference']} ({MEASURES[r['measure']]}): cards at "
                           f"{r['n_players']}p", INJECTION_VS_BLANK if blank else INJECTION))
    return out


def removal_records(df: pl.DataFrame) -> list[Verdict]:
    return [_record(f"card_removal_{r['unit_kind']}", f"{r['card']}: {r['unit_kind']} {r['unit']}", r,
                    "paired games", f"{r['unit_kind']} win rate, remove - untreated",
                    f"card removal ({r['unit_kind']}s): cards x {r['unit_kind']}s at {r['n_players']}p", REMOVAL)
            for r in df.to_dicts()]


def power_records(df: pl.DataFrame) -> list[Verdict]:
    return [_record(f"power_{r['measure']}", r["faction"], r, "paired games",
                    f"faction {'per-seat win rate' if r['measure'] == 'win' else 'mean score'}, "
                    "untreated - power off",
                    f"power value ({MEASURES[r['measure']]}): factions at {r['n_players']}p", POWER)
            for r in df.to_dicts()]


def itt_records(df: pl.DataFrame) -> list[Verdict]:
    return [_record("card_itt", r["card"], {**r, "n": r["games"]}, "games",
                    "win rate, offered at setup - not offered", f"card ITT: cards at {r['n_players']}p",
                    ITT + "; game-clustered interval")
            for r in df.to_dicts()]


def association_records(df: pl.DataFrame, games: int) -> list[Verdict]:
    """The card table's records (kind "card", labelled association) of the studied cards."""
    table = df.with_columns(name=pl.col("card"))
    return card_records(table, None, games, games)


# ---------------------------------------------------------------- verdict lines
def _interval(r: dict, key: str, scale=pp) -> str:
    return f"{scale(r[key])} (95% CI {scale(r[key + '_lo'])} to {scale(r[key + '_hi'])})"


def _score(x: float | None) -> str:
    return "n/a" if x is None or x != x else f"{x:+.2f}"


def blank_line(r: dict) -> str:
    """What one more card in hand is worth: the blank card's own injection value."""
    return (f"{BLANK} (the blank card) at {r['n_players']}p: one more card that does nothing changes the "
            f"treated seat's win share by {_interval(r, 'inject_win')} against the untreated game; that "
            "part of every injection value comes from the extra card, not from the card itself.")


def card_lines(cards: pl.DataFrame) -> list[str]:
    """Per studied card and player count: the causal values (headline: injection against the
    blank card) beside the association."""
    lines = []
    for r in cards.to_dicts():
        if r["card"] == BLANK:
            if r.get("inject_win") is not None:
                lines.append(blank_line(r))
            continue
        parts = []
        if r.get("blank_win") is not None:
            parts.append(f"against the blank card {_interval(r, 'blank_win')} win share, "
                         f"{_interval(r, 'blank_score', _score)} score")
        if r.get("inject_win") is not None:
            parts.append(f"against the untreated game {_interval(r, 'inject_win')} win share, "
                         f"{_interval(r, 'inject_score', _score)} score")
        if r.get("removal") is not None:
            parts.append(f"removal moves {r['removal_unit']} most, {_interval(r, 'removal')}")
        if r.get("itt") is not None:
            parts.append(f"ITT {_interval(r, 'itt')}")
        if r.get("assoc") is not None:
            parts.append(f"association {_interval(r, 'assoc')}")
        if parts:
            lines.append(f"{r['card']} at {r['n_players']}p: " + "; ".join(parts) + ".")
    return lines


def power_lines(powers: pl.DataFrame) -> list[str]:
    lines = []
    wins = powers.filter(pl.col("measure") == "win")
    for r in wins.sort("n_players", "faction").to_dicts():
        if r["n"] == 0:
            lines.append(f"{r['faction']} at {r['n_players']}p: not estimable (never seated).")
            continue
        s = powers.filter((pl.col("measure") == "score") & (pl.col("faction") == r["faction"])
                          & (pl.col("n_players") == r["n_players"])).to_dicts()[0]
        sig = "significant after Holm" if r["significant"] else "not significant after Holm"
        lines.append(f"{r['faction']} at {r['n_players']}p: its power is worth {pp(r['diff'])} win rate "
                     f"(95% CI {pp(r['lo'])} to {pp(r['hi'])}, {sig}) and {_score(s['diff'])} score "
                     f"(95% CI {_score(s['lo'])} to {_score(s['hi'])}), over {r['n']:,} paired games.")
    return lines


def significant_itt_lines(itt: pl.DataFrame) -> list[str]:
    hits = itt.filter(pl.col("significant").fill_null(False))
    if itt.is_empty():
        return []
    head = (f"Randomised offer (ITT): {hits.height} of {itt.height} card x player-count values differ "
            "from 0 after Holm across cards.")
    return [head] + [f"  {r['card']} at {r['n_players']}p: offered at setup {pp(r['diff'])} "
                     f"(95% CI {pp(r['lo'])} to {pp(r['hi'])})." for r in hits.sort("diff").to_dicts()]


# ---------------------------------------------------------------- entry point
def run_causal(command: str, reference: tuple[str, str], arms: list[TreatedRun],
               notes: dict[str, str] | None = None) -> CausalResult:
    """Analyse a cards/powers command's arms: `reference` = (name, folder) of the untreated
    arm, `arms` the treated ones; `notes` say what each treatment kind does in this game."""
    ref_name, ref_dir = reference
    base = load_units(ref_dir)
    manifests = [(ref_name, runfolder.load_manifest(Path(ref_dir)))]
    units: dict[str, Units] = {}
    for a in arms:
        manifests.append((a.name, runfolder.load_manifest(Path(a.run_dir))))
        units[a.name] = load_units(a.run_dir)
    paired = all(shares_deals(manifests[0][1], m) for _, m in manifests[1:])
    counts = [int(n) for n in manifests[0][1].get("player_counts") or sorted(base.games["n_players"].unique())]

    def of_kind(kind):
        return {a.target: units[a.name] for a in arms if a.kind == kind}

    injection = injection_table(base, of_kind("inject"))
    removal = removal_table(base, of_kind("remove"))
    powers = power_table(base, of_kind("power_off"), counts)
    itt = itt_table(ref_dir) if command == "cards" else itt_from_cells(pl.DataFrame(), pl.DataFrame())
    association = association_table(ref_dir) if command == "cards" else pl.DataFrame(
        schema={"card": pl.String, "n_players": pl.Int64})
    studied = list(dict.fromkeys(a.target for a in arms if a.kind in ("inject", "remove") and a.target != BLANK))
    studied += [BLANK] if BLANK in of_kind("inject") else []  # the blank's own value, last
    summary = cards_summary(studied, counts, injection, removal, itt, association) if command == "cards" \
        else pl.DataFrame()
    in_study = pl.col("card").is_in(studied)
    records = (injection_records(injection) + removal_records(removal) + power_records(powers)
               + itt_records(itt))
    if command == "cards" and not association.is_empty():
        records += association_records(association.filter(in_study), base.games.height)
    lines = [f"Reference arm: {ref_name} (untreated); {len(arms)} treated arms on its seed, "
             f"{base.games.height:,} games each."]
    if not paired:
        lines.append("Warning: some arms do not share the reference's seed and player counts; the "
                     "game-by-game pairing these estimates rest on does not hold.")
    lines += card_lines(summary) if command == "cards" else power_lines(powers)
    lines += significant_itt_lines(itt)
    return CausalResult(command=command, game=manifests[0][1].get("game", "?"), reference=ref_name,
                        manifests=manifests, injection=injection, removal=removal, powers=powers,
                        itt=itt, association=association, cards=summary, notes=dict(notes or {}),
                        records=records, verdicts=lines, paired=paired)
