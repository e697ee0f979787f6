"""Build the page model (reports.model) from analysis results.

Reports know analysis results only: RunAnalysis / Comparison dataclasses holding
polars DataFrames. Section order is the contract of a report: verdict first, then
evidence, then provenance, estimated data values, and the note on bots.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import polars as pl

from analysis.ratings import FINISHING_ORDER, WINNER
from reports import charts
from reports import glance as gl
from reports.formatting import pct, pp, signed
from reports.model import Bullets, Chart, Column, Grid, Group, Page, Paragraph, Section, Table

if TYPE_CHECKING:
    from analysis import Comparison, RunAnalysis

BOTS_NOTE = (
    "Bots are not people. Every figure in this report describes games played by scripted "
    "bots with the policies listed under Provenance. A scripted bot is not a human player: "
    "people plan, bluff, learn and make mistakes that these bots do not, so a seat or "
    "faction that is fair for bots may not be fair at a real table, and the other way round. "
    "Use these results to find where to look, then playtest."
)


def _ci(lo, hi, formatter=pct) -> str:
    return f"{formatter(lo)} to {formatter(hi)}"


def _rows(df: pl.DataFrame, **derived) -> list[dict]:
    """Rows as dicts, plus derived text columns computed from each row."""
    rows = df.to_dicts()
    for row in rows:
        for key, fn in derived.items():
            row[key] = fn(row)
    return rows


# ---------------------------------------------------------------- glance
def _grid_cell(lo: float, mid: float, hi: float, verdict: str) -> tuple[str, str]:
    return f"{100 * mid:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]", verdict


def glance_grid(g: gl.Glance) -> Grid:
    """Units x player counts, each cell the deviation [verdict interval] in pp."""
    rows = []
    for unit in g.units:
        row = [(g.names[unit], None)]
        for n in g.player_counts:
            c = g.cell(unit, n)
            row.append(_grid_cell(c.lo, c.deviation, c.hi, c.verdict) if c else ("", None))
        rows.append(row)
    return Grid([g.unit_kind] + [f"{n} players" for n in g.player_counts], rows,
                caption="Win rate minus fair share 1/n, in percentage points [the interval the "
                        "verdict was decided on]. Red: outside the fairness band; blue: undecided; "
                        "green: inside. Sorted by the mean over player counts, largest first.")


def first_player_grid(g: gl.Glance) -> Grid:
    rows = [[(f"{f.n_players} players", None), _grid_cell(f.lo, f.advantage, f.hi, f.verdict)]
            for f in g.first_player]
    return Grid(["going first", "advantage, pp"], rows,
                caption="Seat 0's win rate minus 1/n [verdict interval]; the same test as seat 0.")


def glance_blocks(g: gl.Glance) -> list:
    """What changed, the figure, the grid with the first-player advantage beside it, and the
    plain sentences: the first screen of a run report."""
    blocks = [Paragraph(gl.changed_summary(g), emphasis=True)]
    if g.changes:
        blocks.append(Bullets(gl.change_lines(g.changes, gl.MAX_CHANGES_SHOWN), css="changes"))
    below = [first_player_grid(g)] if g.first_player else []
    return blocks + [Group([Chart(charts.glance(g), charts.GLANCE_CAPTION), glance_grid(g)], [0.42, 0.58]),
                     Group(below + [Bullets(g.sentences, css="verdicts")], [0.3, 0.7] if below else [])]


def glance_section(a: RunAnalysis) -> Section:
    g = gl.build(a)
    return Section("Verdict at a glance", "glance", glance_blocks(g))


CHANGES_CAPTION = ("Every value of this run's data that differs from the data shipped with "
                   "brewbalance for this game and variant (file.card.field; a parameter as "
                   "params.NAME). Source: sheet = read from the --data spreadsheet; override = "
                   "--set or --override (or an experiment arm's set=). '?' = not recorded "
                   "(a run made before changes were recorded).")


def changes_rows(changes: list[dict]) -> list[dict]:
    return [{"key": c["key"], "shipped": gl.value_text(c["shipped"]), "value": gl.value_text(c["value"]),
             "source": c["source"]} for c in changes]


def changes_section(manifest: dict, title: str = "What changed", anchor: str = "changes") -> Section:
    """Every value that differs from the shipped data, file.card.field old -> new."""
    changes = gl.changes_of(manifest)
    sheet = manifest.get("data_sheet")
    blocks = []
    if sheet:
        blocks.append(Paragraph(f"Data read from the {sheet['format']} sheet {sheet['path']} "
                                f"(sha256 {sheet['sha256']}); {sheet['changed_values']} cell(s) differ "
                                "from the shipped data."))
    if not changes:
        blocks.append(Paragraph("No value differs from the shipped data of this game and variant."))
    else:
        blocks.append(Table([Column("key", "file.card.field"), Column("shipped", "shipped"),
                             Column("value", "this run"), Column("source", "source")],
                            changes_rows(changes), caption=CHANGES_CAPTION))
    return Section(title, anchor, blocks)


# ---------------------------------------------------------------- verdict
def verdict_section(a: RunAnalysis) -> Section:
    from analysis.core import FAMILY_DEFINITION

    band = f"{100 * a.band:.1f} percentage points"
    how = (f"Fairness band: each seat's fair share is 1/n for n players, plus or minus {band}. "
           "A seat (or faction) is outside when its whole interval lies outside the band, "
           "inside when its whole interval lies within it, and undecided otherwise. "
           "The interval a verdict is decided on is wider than the 95% interval shown in the "
           f"tables: {FAMILY_DEFINITION}")
    blocks = [Paragraph(f"{a.game}, variant {a.manifest.get('variant', 'n/a')}: "
                        f"{a.n_games:,} games analysed.", emphasis=True),
              Bullets(list(a.verdicts), css="verdicts"), Paragraph(how)]
    return Section("Verdict in detail", "verdict", blocks + sequential_blocks(a.manifest), level=3)


def sequential_blocks(manifest: dict) -> list:
    """The sequential test's own decisions (simulate --until-decided), when the run has them."""
    outcome = (manifest.get("until_decided") or {}).get("outcome") or {}
    rows = outcome.get("verdicts") or []
    if not rows:
        return []
    return [Table([
        Column("n_players", "players", "int"), Column("kind", "unit"), Column("unit", "id"),
        Column("games", "n", "int"), Column("rate", "win rate", "pct"), Column("verdict", "sequential verdict"),
    ], rows, caption="Decisions of the sequential test that stopped this run (n = games for a seat, "
                     "seats for a faction, at the look where it decided or stopped). The intervals "
                     "elsewhere in this report are fixed-sample ones recomputed on the stopped sample, "
                     "not the stopping rule's.")]


# ---------------------------------------------------------------- evidence
def seat_section(a: RunAnalysis) -> Section:
    table = Table([
        Column("n_players", "players", "int"), Column("seat", "seat", "int"),
        Column("games", "games", "int"), Column("wins", "wins", "num"),
        Column("rate", "win rate", "pct"), Column("ci", "95% interval"),
        Column("deviation", "vs fair", "pp"), Column("verdict", "verdict"),
        Column("vci", "verdict interval"), Column("p_adjusted", "p (band, adj.)", "p"),
        Column("more", "games to decide"), Column("p_holm", "p (Holm)", "p"),
        *_label_column(a.seat_winrate),
    ], _rows(a.seat_winrate, ci=lambda r: _ci(r["lo"], r["hi"]), vci=_verdict_ci,
             more=lambda r: "" if r["verdict"] != "undecided" else f"~{r['more_games']:,.0f}"),
        caption="n = games (one result per seat per game). Wins count 1/k for a k-way shared "
                "victory. 95% interval: Wilson, for display. Verdict interval: the Wilson interval "
                "at the family-wise level the verdict is decided on; p (band, adj.): its "
                "Bonferroni-adjusted p-value. At 2 players seat 1 is the complement of seat 0, not "
                "a second test. p (Holm): two-sided test of the rate against the fair share, "
                "Holm-adjusted across the table (its own family).")
    blocks = [Chart(charts.seat_forest(a.seat_winrate, a.band), charts.FOREST_CAPTION), table] if not a.seat_winrate.is_empty() else [table]
    return Section("Seat win rates", "seats", blocks, level=3)


def first_player_section(a: RunAnalysis) -> Section:
    first = Table([
        Column("n_players", "players", "int"), Column("games", "games", "int"),
        Column("rate", "seat 0 win rate", "pct"), Column("fair", "fair share", "pct"),
        Column("advantage", "advantage", "pp"), Column("ci", "95% interval of advantage"),
    ], _rows(a.first_player, ci=lambda r: _ci(r["lo"] - r["fair"], r["hi"] - r["fair"], pp)))
    balance = Table([
        Column("n_players", "players", "int"), Column("balance", "balance", "num"),
        Column("gap", "largest gap", "pp"), Column("best_seat", "best seat", "int"),
        Column("worst_seat", "worst seat", "int"),
        Column("bci", "simultaneous 95% interval"), Column("gap_null", "gap from noise alone", "pp"),
        Column("gap_excess", "gap net of noise", "pp"),
    ], _rows(a.balance, bci=lambda r: f"{r['balance_lo']:.3f} to {r['balance_hi']:.3f}"),
        caption="Balance = 1 - largest gap between any two seats' win rates (1 is perfect), "
                "n = games. The raw gap is biased up by noise: 'gap from noise alone' is its mean "
                "if every seat were exactly fair (multinomial simulation). The interval is "
                "conservative: from Bonferroni Wilson intervals of every seat.")
    blocks = [Chart(charts.first_player(a.first_player, a.band))] if not a.first_player.is_empty() else []
    return Section("First-player advantage and balance", "first-player", blocks + [first, balance], level=3)


def _label_column(table: pl.DataFrame) -> list[Column]:
    """The sensitivity label of each verdict, when `report --sensitivity` gave one."""
    labels = [Column("estimates_label", "estimates")] if "estimates_label" in table.columns else []
    return labels + ([Column("skill_label", "across skill")] if "skill_label" in table.columns else [])


def faction_section(a: RunAnalysis) -> Section:
    table = Table([
        Column("n_players", "players", "int"), Column("faction", "faction"),
        Column("games", "seats (player-games)", "int"), Column("games_with", "games", "int"),
        Column("wins", "wins", "num"),
        Column("expected", "expected wins", "num"), Column("win_ratio", "wins / expected", "num"),
        Column("rate", "win rate", "pct"), Column("ci", "95% interval"), Column("verdict", "verdict"),
        Column("vci", "verdict interval"), Column("p_adjusted", "p (band, adj.)", "p"),
        *_label_column(a.faction_winrate),
    ], _rows(a.faction_winrate, ci=lambda r: _ci(r["lo"], r["hi"]), vci=_verdict_ci),
        caption="n = seats (player-games): a game fielding two copies of a faction counts twice; "
                "'games' counts the games that field it. Win rate is per seat. Expected wins = sum "
                "of 1/n over the faction's seats; a ratio above 1 means stronger than fair. "
                "Verdict interval: Wilson at the family-wise level the verdict is decided on.")
    return Section("Factions", "factions", [Chart(charts.faction_forest(a.faction_winrate, a.band), charts.FOREST_CAPTION), table], level=3)


def game_shape_section(a: RunAnalysis) -> Section:
    """One compact row per player count: the shape of a typical game."""
    table = Table([
        Column("n_players", "players", "int"), Column("games", "games", "int"),
        Column("balance", "balance", "num"),
        Column("first_player_advantage", "first-player advantage", "pp"),
        Column("tie_rate", "tie rate", "pct"), Column("mean_rounds", "mean rounds", "num"),
        Column("mean_decisions", "mean decisions", "num"),
        Column("mean_margin", "mean winning margin", "num"),
    ] + _round_shape_columns(a.game_shape), a.game_shape.to_dicts(),
        caption="Balance = 1 - largest gap between seat win rates (1 is perfect). Winning "
                "margin = winner's score minus runner-up's. Details and intervals below.")
    return Section("Game shape", "game-shape", [table], level=3)


def _round_shape_columns(shape: pl.DataFrame) -> list[Column]:
    """Game-shape columns from the rounds table, when the run has it."""
    if "mean_lead_changes" not in shape.columns:
        return []
    return [Column("mean_lead_changes", "mean lead changes", "num"),
            Column("first_leader_wins", "round-1 leader wins", "pct")]


ROUNDS_MISSING = ("This run predates the per-round score table (rounds/ in the run folder), so "
                  "lead changes and comeback odds cannot be computed. Rerun the simulation with "
                  "this version to get them.")


def lead_section(a: RunAnalysis) -> Section:
    """Lead changes, leader-wins rates and comeback odds by deficit (the rounds table)."""
    title, anchor = "Lead changes and comebacks", "comebacks"
    r = a.rounds
    if not r.available:
        return Section(title, anchor, [Paragraph(ROUNDS_MISSING)], level=3)
    intro = Paragraph(
        "Scores are read at the end of every round (see the game's page in docs/games for "
        "what a round is). The leader after a round is the one player with the top score; a "
        "shared top score means no leader. A lead change is a round whose leader differs from "
        "the last round that had one, so a lead that passes through a tie counts once. Deficit "
        "buckets are this run's quartiles of points behind the leader."
        + (f" Computed on the first {r.max_game:,} games of this run's {a.n_games:,}."
           if r.max_game < a.n_games else ""))
    leads = Table([
        Column("n_players", "players", "int"), Column("games", "games", "int"),
        Column("mean", "mean lead changes", "num"), Column("sd", "sd", "num"),
        Column("max", "max", "int"), Column("any_rate", "games with a lead change", "pct"),
        Column("ci", "95% interval"),
    ], _rows(a.rounds.lead_changes, ci=lambda row: _ci(row["any_lo"], row["any_hi"])))
    leader = Table([
        Column("n_players", "players", "int"), Column("round", "after round", "int"),
        Column("games", "games with a sole leader", "int"), Column("rate", "leader wins", "pct"),
        Column("ci", "95% interval"),
    ], _rows(r.leader_wins, ci=lambda row: _ci(row["lo"], row["hi"])),
        caption="Rounds before each game's last. Wins count 1/k for a k-way shared victory.")
    pooled = Table([
        Column("n_players", "players", "int"), Column("deficit", "points behind"),
        Column("players", "player-rounds", "int"), Column("games", "games", "int"),
        Column("rate", "went on to win", "pct"),
        Column("ci", "95% interval"),
    ], _rows(r.comeback_pooled, ci=lambda row: _ci(row["lo"], row["hi"])),
        caption="All rounds before each game's last pooled: n counts player-rounds (a player "
                "once per round), so the interval is clustered by game (Wilson at the "
                "game-clustered effective size); by round below.")
    by_round = r.comeback.filter(pl.col("players") >= 30)
    detail = Table([
        Column("n_players", "players", "int"), Column("round", "after round", "int"),
        Column("deficit", "points behind"), Column("players", "players", "int"),
        Column("rate", "went on to win", "pct"), Column("ci", "95% interval"),
    ], _rows(by_round, ci=lambda row: _ci(row["lo"], row["hi"])),
        caption="Comeback odds by round; n counts players, interval clustered by game; rows "
                "from fewer than 30 players are left out.")
    blocks = [intro]
    if not r.lead_change_hist.is_empty():
        blocks.append(Chart(charts.histogram(r.lead_change_hist, "lead_changes", "games",
                                             "Lead changes per game (share of games)", "lead changes")))
    blocks.append(leads)
    if not by_round.is_empty():
        blocks.append(Chart(charts.comeback(r.comeback, r.deficit_labels), charts.COMEBACK_CAPTION))
    return Section(title, anchor, blocks + [leader, pooled, detail], level=3)


def _verdict_ci(row: dict) -> str:
    return _ci(row["verdict_lo"], row["verdict_hi"]) if "verdict_lo" in row else ""


def _decide_text(games) -> str:
    return "never (on a band edge)" if games is None or not math.isfinite(games) else f"{games:,.0f}"


def planner_section(a: RunAnalysis) -> Section:
    """Games needed to tell a seat's 1, 2 or 3 pp deviation from its fair share."""
    conf = a.planner["confidence"][0] if not a.planner.is_empty() else 0.95
    power = a.planner["power"][0] if not a.planner.is_empty() else 0.80
    family = int(a.planner["family"][0]) if not a.planner.is_empty() else 1
    band = a.planner["band"][0] if not a.planner.is_empty() else a.band
    table = Table([
        Column("n_players", "players", "int"), Column("fair", "fair share", "pct"),
        Column("deviation_text", "deviation to detect"),
        Column("games_needed", "games needed", "int"), Column("decide", "games to decide the band"),
        Column("faction_decide", "faction: games to decide"),
        Column("games", "games in this run", "int"), Column("enough_text", "enough?"),
    ], _rows(a.planner, enough_text=lambda r: "yes" if r["enough"] else "no",
             deviation_text=lambda r: f"{100 * r['deviation']:g} pp",
             decide=lambda r: _decide_text(r["games_to_decide"]),
             faction_decide=lambda r: ("" if r["faction_games_to_decide"] is None
                                       or math.isnan(r["faction_games_to_decide"])
                                       else _decide_text(r["faction_games_to_decide"]))),
        caption=f"At the report's family-wise level: {100 * conf:.4g}% confidence (1 - 0.05 / "
                f"{family} hypotheses), {100 * power:g}% power, normal approximation. Games "
                "needed: two-sided test of one seat's rate against 1/n, n = (z(1-a/2) sqrt(p0 q0) "
                "+ z(1-b) sqrt(p1 q1))^2 / d^2 with p1 = p0 +/- d. Games to decide the band: the "
                f"one-sided test against the nearer edge of 1/n +/- {100 * band:g} pp, same formula "
                "with p0 = the edge. Every game gives one result per seat, so games = n; a faction "
                "from a pool of K is fielded n/K times a game, so it needs K/n times as many games.")
    return Section("How many games", "how-many-games", [
        Paragraph("How many games at each player count it takes to tell a seat whose win "
                  "rate is off its fair share by 1, 2 or 3 percentage points, and to decide it "
                  "inside or outside the fairness band."), table])


def _summary_table(df: pl.DataFrame, count_key: str, count_header: str) -> Table:
    cols = [Column("n_players", "players", "int"), Column(count_key, count_header, "int")]
    cols += [Column(k, k, "num") for k in ("mean", "sd", "min", "q25", "median", "q75", "max")
             if k in df.columns]
    return Table(cols, df.to_dicts())


def scores_section(a: RunAnalysis) -> Section:
    blocks = []
    if not a.score_hist.is_empty():
        blocks.append(Chart(charts.histogram(a.score_hist, "score", "players",
                                             "Final scores (share of players)", "score")))
    blocks.append(_summary_table(a.scores, "players", "player-games"))
    return Section("Scores", "scores", blocks, level=3)


def margins_section(a: RunAnalysis) -> Section:
    blocks = []
    if not a.margin_hist.is_empty():
        blocks.append(Chart(charts.histogram(a.margin_hist, "margin", "games",
                                             "Winning margin: winner's score minus runner-up's",
                                             "margin")))
    table = _summary_table(a.margins, "games", "games")
    table.columns.append(Column("zero_share", "margin 0", "pct"))
    table.caption = "Margin 0 means first place was shared or settled by a tie-breaker."
    return Section("Winning margins", "margins", blocks + [table], level=3)


def length_section(a: RunAnalysis) -> Section:
    table = Table([
        Column("n_players", "players", "int"), Column("games", "games", "int"),
        Column("mean_rounds", "mean rounds", "num"), Column("min_rounds", "min rounds", "num"),
        Column("max_rounds", "max rounds", "num"), Column("mean_decisions", "mean decisions", "num"),
        Column("sd_decisions", "sd decisions", "num"), Column("median_decisions", "median decisions", "num"),
        Column("max_decisions", "max decisions", "num"),
    ], a.game_length.to_dicts())
    blocks = [Chart(charts.game_length(a.game_length))] if not a.game_length.is_empty() else []
    return Section("Game length", "length", blocks + [table], level=3)


def ties_section(a: RunAnalysis) -> Section:
    table = Table([
        Column("n_players", "players", "int"), Column("games", "games", "int"),
        Column("ties", "shared victories", "int"), Column("rate", "tie rate", "pct"),
        Column("ci", "95% interval"),
    ], _rows(a.tie_rate, ci=lambda r: _ci(r["lo"], r["hi"])))
    blocks = [Chart(charts.rate_bars(a.tie_rate, "rate", "Tie rate: games with a shared victory",
                                     "tie rate"))] if not a.tie_rate.is_empty() else []
    return Section("Tie rate", "ties", blocks + [table], level=3)


def end_section(a: RunAnalysis) -> Section:
    table = Table([
        Column("n_players", "players", "int"), Column("end_reason", "end reason"),
        Column("games", "games", "int"), Column("share", "share", "pct"),
    ], a.end_reasons.to_dicts())
    blocks = [Chart(charts.end_reasons(a.end_reasons))] if not a.end_reasons.is_empty() else []
    return Section("How games end", "end-reasons", blocks + [table], level=3)


def cards_section(a: RunAnalysis) -> Section:
    if a.card_value.is_empty():
        return Section("Card value", "cards", [Paragraph(f"No card was {a.card_basis} in this run's log.")], level=3)
    verb = a.card_basis
    table = Table([
        Column("n_players", "players", "int"), Column("name", "card"),
        Column("players_with", f"players who {verb} it", "int"),
        Column("game_share", f"games where it was {verb}", "pct"),
        Column("plays_per_game", "events per game", "num"),
        Column("with", f"win rate when {verb}"), Column("without", "win rate otherwise"),
        Column("difference", "difference (95% interval)"), Column("p_holm", "p (Holm)", "p"),
    ], _rows(a.card_value,
             **{"with": lambda r: f"{pct(r['rate_with'])} ({_ci(r['with_lo'], r['with_hi'])})",
                "without": lambda r: f"{pct(r['rate_without'])} ({_ci(r['without_lo'], r['without_hi'])})",
                "difference": lambda r: f"{pp(r['diff'])} ({_ci(r['diff_lo'], r['diff_hi'], pp)})"}),
        caption="Association, not cause: taking or playing a card is a choice, so a difference "
                "shows association with winning, not the card's causal effect. Compared within "
                "the same player count; n counts player-games (players who took the card). Rate "
                "intervals: Wilson over player-games; difference interval and p: clustered by "
                "game (players of one game share its win), Holm-adjusted across every row."
                + (f" Computed on the first {a.card_value_games:,} games of this run's "
                   f"{a.n_games:,} (intervals reflect that)." if 0 < a.card_value_games < a.n_games else ""))
    return Section("Card value", "cards", [Chart(charts.card_value(a.card_value, basis=a.card_basis)), table], level=3)


# ---------------------------------------------------------------- ratings and card detail
def _strength_who(r: dict, kind: str) -> str:
    return r["faction"] if kind == "faction" else f"{r['n_players']}p seat {r['seat']}"


def _strength_cells(r: dict) -> dict:
    """Text cells of one strength row; a not-estimable row gets words, never numbers."""
    if not r["estimable"]:
        return {"value": "not estimable", "ci": "aliased with seat", "odds": "", "p": "",
                "flag": ""}
    return {"value": f"{r['strength']:+.2f}", "ci": f"{r['lo']:+.2f} to {r['hi']:+.2f}",
            "odds": f"{math.exp(r['strength']):.2f}", "p": _p_text(r["p_holm"]),
            "flag": "yes" if r["significant_holm"] else "no"}


def _p_text(p: float) -> str:
    return "" if p is None or math.isnan(p) else ("< 0.001" if p < 0.001 else f"{p:.3f}")


STRENGTH_COLUMNS = [Column("who", "unit"), Column("value", "strength"), Column("ci", "95% interval"),
                    Column("odds", "odds vs average"), Column("p", "p (Holm)"),
                    Column("flag", "differs from average")]


def _strength_table(rows: pl.DataFrame, kind: str, caption: str, fit_check: bool) -> Table:
    columns = [Column("who", kind)] + STRENGTH_COLUMNS[1:]
    if fit_check:
        columns += [Column("observed", "observed win rate"), Column("implied", "model-implied win"),
                    Column("fit", "fit check")]
    body = []
    for r in rows.to_dicts():
        cells = {"who": _strength_who(r, kind), **_strength_cells(r),
                 "observed": "", "implied": "", "fit": ""}
        if fit_check and r.get("implied_win") is not None:
            cells.update(observed=pct(r["observed_win"]), implied=pct(r["implied_win"]),
                         fit="disagrees" if r["fit_disagrees"] else "ok")
        body.append(cells)
    return Table(columns, body, caption=caption)


def strength_section(a: RunAnalysis) -> Section:
    """Strength: the winner model (who wins) first, with its forest plot; then the
    finishing-order model with its fit check. Not-estimable strengths are words."""
    kind = a.strength_kind
    mine = a.strength.filter(pl.col("kind") == kind)
    winner = mine.filter(pl.col("model") == WINNER).sort("strength", descending=True, nulls_last=True)
    order = mine.filter(pl.col("model") == FINISHING_ORDER).sort("strength", descending=True,
                                                                  nulls_last=True)
    context = " ".join(x[0].upper() + x[1:] + "." for x in a.strength_notes)
    n_note = f" n counts games. {context}"
    aliased = ("" if winner["estimable"].all() else
               " 'not estimable': in every fitted game this faction sat in the same seat(s) as "
               "the others it is compared with, so its strength and the seat effects cannot be "
               "separated; no number is shown rather than an arbitrary split.")
    how = ("Strengths are centred (factions sum to 0; seats sum to 0 within a player count), so "
           "when one faction is strong the fair ones sit below 0. Interval: 95% Wald interval from "
           "a game-clustered robust (sandwich) standard error; p: the Wald test of strength 0 with "
           f"the same standard error, Holm-adjusted across the {kind}s.")
    blocks = []
    if winner["estimable"].any():
        blocks.append(Chart(charts.strength_forest(winner),
                            "Dot = strength in who wins; bar = 95% interval; red = differs from the "
                            "average after Holm."))
    blocks.append(_strength_table(
        winner, kind, "Who wins: conditional logit on the winner of each game, P(i wins) "
        "proportional to exp(faction strength + seat effect), so a faction is credited net of its "
        "opponents and seat; a shared victory counts the winners tied first. Log-odds of winning; "
        "odds vs average = exp(strength). " + how + aliased + n_note, fit_check=False))
    blocks.append(_strength_table(
        order, kind, "Finishing-order strength (Plackett-Luce over the whole order; ties by "
        "Breslow's approximation): each place is won with probability proportional to exp(strength "
        "+ seat effect), which assumes the same odds at every place. Fit check: observed win rate "
        "(wins / seats, 1/k for a k-way shared victory) against the win probability the model "
        "implies (softmax of the fitted strengths over each table the unit sat at, averaged); "
        "'disagrees' = differs beyond sampling error (Holm across the units). Where it disagrees, "
        "read the who-wins table. " + how + aliased + n_note, fit_check=True))
    return Section(f"{kind.capitalize()} strength (who wins, and finishing order)", "strength",
                   blocks, level=3)


def _rate_cell(r: dict, n_key: str) -> str:
    """'31% [28-35] 420': a rate, its 95% interval and its sample size, in whole percent."""
    return f"{100 * r['rate']:.0f}% [{100 * r['lo']:.0f}-{100 * r['hi']:.0f}] {r[n_key]:,}"


def _wide(df: pl.DataFrame, keys: list[str], across: str, n_key: str) -> tuple[list[dict], list]:
    """Pivot a long rate table: one row per `keys`, one text cell per value of `across`."""
    values = sorted(df[across].unique())
    rows = {}
    for r in df.sort(keys).to_dicts():
        row = rows.setdefault(tuple(r[k] for k in keys), {**{k: r[k] for k in keys},
                                                          **{f"{across}_{v}": "" for v in values}})
        row[f"{across}_{r[across]}"] = _rate_cell(r, n_key)
    return list(rows.values()), values


def faction_seat_section(a: RunAnalysis) -> Section:
    """One row per (player count, faction), one column per seat."""
    rows, seats = _wide(a.faction_seat, ["n_players", "faction"], "seat", "games")
    table = Table([Column("n_players", "players", "int"), Column("faction", "faction")]
                  + [Column(f"seat_{s}", f"seat {s}") for s in seats], rows,
                  caption="Each cell: the faction's win rate in that seat [95% Wilson interval] "
                          "and games. Wins count 1/k for a k-way shared victory.")
    return Section("Faction by seat", "faction-seat", [table], level=3)


H2H_ROWS = 40  # the head-to-head table lists the pairs furthest from fair; the heatmap has all


def copresence_section(a: RunAnalysis) -> Section:
    table = Table([
        Column("faction", "faction"), Column("opponent", "opponent at the table"),
        Column("games", "games", "int"), Column("seats", "seats", "int"),
        Column("rate", "win rate", "pct"),
        Column("ci", "95% interval"), Column("fair", "fair share", "pct"),
        Column("deviation", "vs fair", "pp"),
    ], _rows(a.copresence.sort(pl.col("deviation").abs(), descending=True).head(H2H_ROWS),
             ci=lambda r: _ci(r["lo"], r["hi"])),
        caption="Win rate per seat of the faction in games where the opponent faction was also "
                "at the table, pooled over player counts; games = games with both, seats = the "
                "faction's seats there (n); interval: Wilson clustered by game (a faction seated "
                "twice shares one win); fair share = mean of 1/n over those seats. "
                + (f"The {H2H_ROWS} pairs furthest from fair of {len(a.copresence):,}; the heatmap "
                   "shows every pair. " if len(a.copresence) > H2H_ROWS else "")
                + (f"Computed on the first {a.copresence_games:,} of {a.n_games:,} games."
                   if 0 < a.copresence_games < a.n_games else ""))
    return Section("Head to head", "head-to-head",
                   [Chart(charts.copresence_heatmap(a.copresence)), table], level=3)


def convergence_section(a: RunAnalysis) -> Section:
    what = "faction (all player counts pooled)" if not a.faction_seat.is_empty() else "seat"
    return Section("Convergence", "convergence", [
        Chart(charts.convergence(a.convergence),
              f"Cumulative win rate of each {what} (x: its games so far) after each twentieth of "
              "the run (by game id); band: 95% Wilson interval; dashed: fair share. Lines that settle inside their band show the run is "
              "long enough for that rate.")], level=3)


def _card_subset(a: RunAnalysis) -> str:
    """The 'first N of M games' note of the card tables (empty when every game is used)."""
    return (f" Computed on the first {a.card_value_games:,} of {a.n_games:,} games."
            if 0 < a.card_value_games < a.n_games else "")


def card_detail_section(a: RunAnalysis) -> Section:
    """Card value adjusted for faction, by round acquired, and cards acquired but unused."""
    blocks = []
    if not a.card_adjusted.is_empty():
        blocks.append(Table([
            Column("name", "card"), Column("players_with", f"players who {a.card_basis} it", "int"),
            Column("strata", "strata", "int"), Column("adj_diff", "adjusted difference", "pp"),
            Column("ci", "95% interval"), Column("adj_p_holm", "p (Holm)", "p"),
            Column("flag", "differs from 0"),
        ], _rows(a.card_adjusted, ci=lambda r: _ci(r["adj_lo"], r["adj_hi"], pp),
                 flag=lambda r: "yes" if r["adj_significant_holm"] else "no"),
            caption="Association, not cause. Win rate with the card minus without, Mantel-Haenszel "
                    "weighted within strata of player count x faction, so a card is not credited "
                    "for the factions that take it; n counts player-games; interval and p "
                    "clustered by game. Holm across cards." + _card_subset(a)))
    if not a.card_by_round.is_empty():
        rows, rounds = _wide(a.card_by_round, ["card"], "round", "players")
        fair = a.card_by_round["expected"].sum() / a.card_by_round["players"].sum()
        blocks.append(Table([Column("card", "card")]
                            + [Column(f"round_{r}", f"round {r}") for r in rounds], rows,
            caption="Association, not cause. Win rate [95% interval, clustered by game] and "
                    f"players (player-games), by the round the player first {a.card_basis} the "
                    f"card, pooled over player counts (fair share overall {pct(fair)})."
                    + _card_subset(a)))
    if a.card_unused.is_empty():
        blocks.append(Paragraph(f"Acquired but unused: not available for {a.game}: its event log "
                                "does not record both acquiring a card and using it."))
    else:
        blocks.append(Table([
            Column("card", "card"), Column("acquired", "acquisitions", "int"),
            Column("unused", "never used", "int"), Column("share", "share unused", "pct"),
            Column("ci", "95% interval"),
        ], _rows(a.card_unused, ci=lambda r: _ci(r["lo"], r["hi"])),
            caption="Association, not cause. Of the players who acquired the card in a game, the "
                    "share who never used it in that game; n counts acquisitions (player-games), "
                    "interval clustered by game." + _card_subset(a)))
    return Section("Card value in detail", "card-detail", blocks, level=3)


def _auto_columns(df: pl.DataFrame) -> list[Column]:
    """Columns of a game-specific table, formatted from their names and types."""
    cols = []
    for name, dtype in df.schema.items():
        if name in ("lo", "hi") or name.endswith("rate") or name.endswith("share"):
            fmt = "pct"
        elif dtype.is_integer():
            fmt = "int"
        elif dtype.is_float():
            fmt = "num"
        else:
            fmt = "text"
        cols.append(Column(name, name.replace("_", " "), fmt))
    return cols


def _rate_column(df: pl.DataFrame) -> str | None:
    """The proportion an extras table carries an interval for, if any."""
    if not {"n_players", "lo", "hi"} <= set(df.columns):
        return None
    return next((c for c in df.columns if c == "rate" or c.endswith("_rate")), None)


def extras_sections(a: RunAnalysis) -> list[Section]:
    sections = []
    for i, (title, df) in enumerate(a.extras.items()):
        blocks = []
        rate = _rate_column(df)
        if rate and not df.is_empty():
            blocks.append(Chart(charts.rate_bars(df, rate, title, rate.replace("_", " "))))
        blocks.append(Table(_auto_columns(df), df.to_dicts()))
        sections.append(Section(title, f"extra-{i}", blocks, level=3))
    if sections:
        sections.insert(0, Section(f"Game-specific: {a.game}", "extras", [], level=2))
    return sections


# ---------------------------------------------------------------- provenance
def _joined(values) -> str:
    return ", ".join(str(v) for v in values or []) or "n/a"


def provenance_rows(manifest: dict, n_found: int | None = None) -> list[dict]:
    """Key/value rows describing what was run."""
    overrides = "; ".join(f"{k} = {v}" for k, v in (manifest.get("overrides") or [])) or "none"
    versions = _joined(f"{k} {v}" for k, v in (manifest.get("versions") or {}).items())
    rows = [
        ("game", manifest.get("game", "n/a")), ("variant", manifest.get("variant", "n/a")),
        ("overrides", overrides), ("policies", _joined(manifest.get("policies"))),
        ("player counts", _joined(manifest.get("player_counts"))),
        ("seed", manifest.get("seed", "n/a")), ("games (manifest)", manifest.get("n_games", "n/a")),
    ]
    if n_found is not None:
        rows.append(("games (found in data)", f"{n_found:,}"))
    rows += [
        ("shards", len(manifest.get("shards") or [])), ("command", manifest.get("command", "n/a")),
        ("created", manifest.get("created", "n/a")), ("package versions", versions),
    ]
    return [{"item": k, "value": str(v)} for k, v in rows]


def hash_rows(manifest: dict) -> list[dict]:
    return [{"file": f, "sha256": h} for f, h in sorted((manifest.get("data_hashes") or {}).items())]


def provenance_section(manifest: dict, title: str = "Provenance", anchor: str = "provenance",
                       n_found: int | None = None) -> Section:
    blocks = [Table([Column("item", "item"), Column("value", "value")],
                    provenance_rows(manifest, n_found))]
    hashes = hash_rows(manifest)
    if hashes:
        blocks.append(Table([Column("file", "data file"), Column("sha256", "sha256")], hashes,
                            caption="Data-file hashes: rerun with identical files to reproduce."))
    return Section(title, anchor, blocks)


def estimates_section(estimates: list[dict], title: str = "Estimated data values",
                      anchor: str = "estimates", influence: list[dict] | None = None) -> Section:
    n = len(estimates)
    if not n:
        return Section(title, anchor, [Paragraph(
            "The manifest lists no estimated data values: every number came from the rulebook "
            "(or the run predates estimate tracking).")])
    return Section(title, anchor, [
        Paragraph(f"{n} data value{'s are' if n != 1 else ' is'} estimated rather than printed "
                  "in the rulebook. These results rest on them; replace them with the real "
                  "card values and rerun.", emphasis=True),
        Table([Column("file", "file"), Column("entry", "entry"), Column("why", "why this value")],
              [{k: e.get(k, "") for k in ("file", "entry", "why")} for e in estimates]),
        *_influence_blocks(influence or []),
    ])


def _influence_blocks(influence: list[dict]) -> list:
    if not influence:
        return []
    return [Paragraph("Ranked by influence (from the sensitivity run given with --sensitivity): the "
                      "largest effect of moving each estimate from its low to its high value on any "
                      "faction or seat verdict, and how many verdicts rest on it."),
            Table([Column("rank", "rank", "int"), Column("estimate", "estimate"),
                   Column("verdicts_resting", "verdicts resting on it", "int"),
                   Column("max_effect", "largest |effect|", "pp")], influence)]


def bots_section() -> Section:
    return Section("Bots are not people", "bots", [Paragraph(BOTS_NOTE)])


def run_page(a: RunAnalysis) -> Page:
    """The full page of a single-run report."""
    evidence = [verdict_section(a), game_shape_section(a), seat_section(a), first_player_section(a)]
    if a.has_factions:
        evidence.append(faction_section(a))
    if not a.faction_seat.is_empty():
        evidence += [faction_seat_section(a), copresence_section(a)]
    if not a.strength.is_empty():
        evidence.append(strength_section(a))
    if not a.convergence.is_empty():
        evidence.append(convergence_section(a))
    evidence += [scores_section(a), margins_section(a), lead_section(a), length_section(a),
                 ties_section(a), end_section(a), cards_section(a)]
    if not a.card_value.is_empty():
        evidence.append(card_detail_section(a))
    evidence += extras_sections(a)
    sections = ([glance_section(a), Section("Evidence", "evidence", [])] + evidence
                + [planner_section(a), changes_section(a.manifest),
                   provenance_section(a.manifest, n_found=a.n_games),
                   estimates_section(a.estimates, influence=a.estimate_influence), bots_section()])
    title = f"Balance report: {a.game} ({a.manifest.get('variant', 'n/a')})"
    return Page(title, f"Run folder: {a.run_dir}", sections)


# ---------------------------------------------------------------- comparison
def _metric_rows(metrics: pl.DataFrame) -> list[dict]:
    def show(row, key, formatter_rate, formatter_mean):
        return (formatter_rate if row["kind"] == "rate" else formatter_mean)(row[key])

    return _rows(
        metrics,
        a=lambda r: show(r, "value_a", pct, lambda x: f"{x:,.2f}"),
        b=lambda r: show(r, "value_b", pct, lambda x: f"{x:,.2f}"),
        d=lambda r: show(r, "diff", pp, signed),
        ci=lambda r: (_ci(r["lo"], r["hi"], pp) if r["kind"] == "rate"
                      else _ci(r["lo"], r["hi"], signed)),
        sig=lambda r: "yes" if r["significant"] else "",
        holm=lambda r: ("" if r["significant_holm"] is None
                        else "yes" if r["significant_holm"] else "no"),
    )


def _metrics_caption(c: Comparison) -> str:
    holm = ("Holm: adjusted across the seat and faction win-rate rows as one family "
            "(family-wise error 5%).")
    if c.paired:
        return (f"Paired: {c.n_paired:,} games shared by both runs (same seed and player "
                "counts) compared game by game (n = paired games), t interval of the mean "
                "difference; faction win rate = wins / seats per run, its difference with a "
                "linearised (delta-method) paired interval; "
                "variance reduction = unpaired variance of the difference / paired variance. "
                + holm)
    return ("Independent runs. Rates: Newcombe hybrid score interval (n = seats or games). "
            "Means: Welch t interval over games (mean score and per-player extras are "
            "per-game means, since the seats of one game are correlated). " + holm)


def _changes_by_key(manifest: dict) -> dict[str, dict]:
    return {ch["key"]: ch for ch in gl.changes_of(manifest)}


def compare_change_rows(c: Comparison) -> list[dict]:
    """One row per value either run changed from the shipped data: shipped, A, B."""
    a, b = _changes_by_key(c.manifest_a), _changes_by_key(c.manifest_b)
    rows = []
    for key in list(a) + [k for k in b if k not in a]:
        first = a.get(key) or b[key]
        rows.append({"key": key, "shipped": gl.value_text(first["shipped"]),
                     "a": gl.value_text(a[key]["value"]) if key in a else "shipped",
                     "b": gl.value_text(b[key]["value"]) if key in b else "shipped"})
    return rows


def compare_changes_blocks(c: Comparison) -> list:
    """The first lines of a comparison: which data values the two runs changed."""
    rows = compare_change_rows(c)
    if not rows:
        return [Paragraph("Data: both runs use the shipped data of their game and variant; no value "
                          "changed.", emphasis=True)]
    lines = [f"{r['key']}: shipped {r['shipped']}; A {r['a']}; B {r['b']}" for r in rows[:gl.MAX_CHANGES_SHOWN]]
    if len(rows) > gl.MAX_CHANGES_SHOWN:
        lines.append(f"... and {len(rows) - gl.MAX_CHANGES_SHOWN} more (see 'What changed')")
    return [Paragraph(f"Data: {len(rows)} value{'s' if len(rows) != 1 else ''} differ from the "
                      "shipped data in run A or B.", emphasis=True), Bullets(lines, css="changes")]


def compare_changes_section(c: Comparison) -> Section:
    rows = compare_change_rows(c)
    if not rows:
        return Section("What changed", "changes", [Paragraph(
            "Neither run changes a value of the shipped data.")])
    return Section("What changed", "changes", [Table(
        [Column("key", "file.card.field"), Column("shipped", "shipped"), Column("a", "run A"),
         Column("b", "run B")], rows, caption=CHANGES_CAPTION)])


def compare_page(c: Comparison) -> Page:
    """The full page of a two-run comparison."""
    metrics = Table([
        Column("metric", "metric"), Column("group", "group"), Column("a", "A"), Column("b", "B"),
        Column("d", "B - A"), Column("ci", "95% interval"), Column("sig", "significant"),
        Column("p_value", "p", "p"), Column("p_holm", "p (Holm)", "p"),
        Column("holm", "Holm sig."),
        Column("variance_reduction", "variance reduction", "ratio"),
    ], _metric_rows(c.metrics), caption=_metrics_caption(c))
    seat = c.metrics.filter(pl.col("metric") == "seat win rate")
    evidence = [Section("Evidence", "evidence", [], level=2)]
    if not seat.is_empty():
        evidence.append(Section("Seat win rate change", "seat-change",
                                [Chart(charts.difference_forest(seat))], level=3))
    evidence.append(Section("All metrics", "metrics", [metrics], level=3))
    sections = ([Section("Verdict", "verdict", compare_changes_blocks(c)
                         + [Bullets(list(c.verdicts), css="verdicts")])]
                + evidence
                + [compare_changes_section(c)]
                + [provenance_section(c.manifest_a, "Provenance of run A", "provenance-a"),
                   provenance_section(c.manifest_b, "Provenance of run B", "provenance-b"),
                   estimates_section(c.estimates_a, "Estimated data values, run A", "estimates-a"),
                   estimates_section(c.estimates_b, "Estimated data values, run B", "estimates-b"),
                   bots_section()])
    title = f"Comparison: {c.manifest_a.get('game', '?')} ({c.manifest_a.get('variant', '?')}) vs " \
            f"{c.manifest_b.get('game', '?')} ({c.manifest_b.get('variant', '?')})"
    return Page(title, f"A = {c.run_a}; B = {c.run_b}", sections)
