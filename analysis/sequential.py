"""Sequential stopping: add games until every faction's (or seat's) deviation from its fair
share 1/n is decided inside or outside the fairness band.

Two rules, both planned in advance with m hypotheses, one per (player count, faction) or
(player count, seat), counted from the game's factions (or seats) and player counts, and
a look after every batch of `batch` games (at most K = ceil(max_games / batch) looks):

* 'gsprt' (default; fishtest-style). Per hypothesis and per band edge e (fair - band and
  fair + band) a Wald SPRT of "rate = e - d" against "rate = e + d", d the indifference
  half-width (default 0.5 pp), on the Bernoulli log-likelihood ratio
  LLR = W log(p1 / p0) + (N - W) log((1 - p1) / (1 - p0)), with alpha = beta =
  alpha_total / (2 m). An edge is passed ("above") when LLR >= log((1 - beta) / alpha),
  refused ("below") when LLR <= log(beta / (1 - alpha)); once passed or refused it stays.
  'outside' = above the upper edge or below the lower one; 'inside' = above the lower and
  below the upper. A wrong verdict needs a wrong edge decision, and each edge is wrong
  with probability <= alpha_total / (2 m) when the true rate is at least d from it, so
  all m verdicts are right with probability >= 1 - alpha_total (union bound; looks only
  every batch games make Wald's bounds conservative). Rates within d of an edge are the
  indifference zone: either answer there is acceptable, and the test still stops.
* 'bonferroni' (the original rule). At every look, each hypothesis gets a two-sided
  Wilson interval at level 1 - alpha / (K m); inside / outside when the interval lies
  within / beyond the band. By the union bound all K m intervals cover at once with
  probability >= 1 - alpha, whatever the dependence. Valid but slow near an edge and
  never stops on one.

Each observation is a game's win indicator of one seat or faction (1/k for a k-way shared
victory, counted as that fraction in W). Its variance is at most p(1 - p), the Bernoulli
variance both rules assume, so shared victories only make them conservative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis.metrics import fair_share
from analysis.records import Verdict
from analysis.stats import INSIDE, OUTSIDE, UNDECIDED, fairness_verdict, wilson

GSPRT, BONFERRONI = "gsprt", "bonferroni"
RULES = (GSPRT, BONFERRONI)
DEFAULT_INDIFFERENCE = 0.005
ABOVE, BELOW, OPEN = 1, -1, 0  # state of one band edge's SPRT


@dataclass(frozen=True)
class Plan:
    """The planned looks, the rule and the error split they imply."""

    band: float
    alpha: float
    batch: int
    max_games: int
    hypotheses: int
    rule: str = GSPRT
    indifference: float = DEFAULT_INDIFFERENCE

    def edge_alpha(self) -> float:
        """GSPRT: alpha = beta of each edge's SPRT, alpha / (2 m)."""
        return self.alpha / (2 * max(1, self.hypotheses))

    @property
    def looks(self) -> int:
        return math.ceil(self.max_games / self.batch)

    def confidence(self) -> float:
        """Confidence of each interval: 1 - alpha / (looks x hypotheses)."""
        return 1.0 - self.alpha / (self.looks * max(1, self.hypotheses))


def hypotheses(players: pl.DataFrame) -> pl.DataFrame:
    """One row per hypothesis with wins and games so far: per (n_players, faction) in a
    game with factions, per (n_players, seat) in a symmetric game.

    `players` needs n_players, seat, faction and win (one row per game and seat)."""
    return look_tables(players.with_columns(game_id=pl.lit(0)), batch=1)[0]


WIN_UNITS = 60  # least common multiple of the tie shares 1/2 .. 1/6


def look_tables(players: pl.DataFrame, batch: int) -> list[pl.DataFrame]:
    """The hypothesis table (see `hypotheses`) after each look, cumulative: look k (from 1)
    covers games 0 .. k * batch - 1. `players` also needs game_id."""
    unit = "seat" if players["faction"].n_unique() == 1 else "faction"
    # Wins are summed exactly, in sixtieths: a tie among k <= 6 players shares 1/k, a multiple
    # of 1/60. A float sum would depend on the order polars adds the rows in, so a resumed
    # run could differ from an uninterrupted one in the last bit.
    per_look = (players.group_by((pl.col("game_id") // batch).alias("look"), "n_players",
                                 pl.col(unit).cast(pl.String).alias("unit"))
                .agg(sixtieths=(pl.col("win") * WIN_UNITS).round().cast(pl.Int64).sum(), games=pl.len()))
    looks = int(per_look["look"].max()) + 1 if per_look.height else 0
    return [per_look.filter(pl.col("look") <= k).group_by("n_players", "unit")
            .agg(pl.col("sixtieths").sum(), pl.col("games").sum())
            .with_columns(kind=pl.lit(unit), wins=pl.col("sixtieths") / WIN_UNITS)
            .select("n_players", "kind", "unit", "wins", "games")
            .sort("n_players", "unit") for k in range(looks)]


def step(wins, games, fair, plan: Plan, previous=None):
    """One look of the procedure on arrays (any shape, element by element): Wilson
    intervals at the per-interval confidence and the verdicts, keeping any verdict
    already decided in `previous` (same shape; UNDECIDED where still open).
    Returns (lo, hi, verdict)."""
    lo, hi = wilson(wins, games, plan.confidence())
    verdict = fairness_verdict(lo, hi, fair, plan.band)
    if previous is not None:
        previous = np.asarray(previous)
        verdict = np.where(previous != UNDECIDED, previous, verdict)
    return lo, hi, verdict


def edge_llr(wins, games, edge, indifference: float) -> np.ndarray:
    """Bernoulli log-likelihood ratio of rate = edge + d against rate = edge - d for
    (possibly fractional) wins out of games."""
    w, n, e = (np.asarray(x, dtype=float) for x in (wins, games, edge))
    p0 = np.clip(e - indifference, 1e-9, 1 - 1e-9)
    p1 = np.clip(e + indifference, 1e-9, 1 - 1e-9)
    return w * np.log(p1 / p0) + (n - w) * np.log((1 - p1) / (1 - p0))


def gsprt_step(wins, games, fair, plan: Plan, low_state=None, high_state=None, previous=None):
    """One look of the GSPRT on arrays (element by element): the two edge SPRTs, keeping
    edges (and verdicts, in `previous`) already decided. Returns (verdict, low_state,
    high_state), the states ABOVE / BELOW / OPEN."""
    a = plan.edge_alpha()
    upper, lower = np.log((1 - a) / a), np.log(a / (1 - a))
    fair = np.broadcast_to(np.asarray(fair, dtype=float), np.shape(wins))
    states = []
    for edge, before in ((fair - plan.band, low_state), (fair + plan.band, high_state)):
        llr = edge_llr(wins, games, edge, plan.indifference)
        now = np.where(llr >= upper, ABOVE, np.where(llr <= lower, BELOW, OPEN))
        before = np.zeros(np.shape(wins), dtype=int) if before is None else np.asarray(before)
        states.append(np.where(before != OPEN, before, now))
    low, high = states
    verdict = np.where((high == ABOVE) | (low == BELOW), OUTSIDE,
                       np.where((low == ABOVE) & (high == BELOW), INSIDE, UNDECIDED))
    if previous is not None:
        previous = np.asarray(previous)
        verdict = np.where(previous != UNDECIDED, previous, verdict)
    return verdict, low, high


def _previous(previous: dict | None, keys: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Verdicts and edge states of an earlier look (a bare verdict string has open edges)."""
    got = [(previous or {}).get(k, UNDECIDED) for k in keys]
    got = [g if isinstance(g, tuple) else (g, OPEN, OPEN) for g in got]
    return (np.array([g[0] for g in got], dtype=object), np.array([g[1] for g in got], dtype=int),
            np.array([g[2] for g in got], dtype=int))


def decide(table: pl.DataFrame, plan: Plan, previous: dict | None = None) -> pl.DataFrame:
    """Add rate, lo, hi, fair, confidence, verdict (and for the GSPRT low_edge, high_edge:
    the edge states) to a hypothesis table.

    lo, hi: the Bonferroni rule's Wilson interval at its per-interval confidence; under
    the GSPRT, for display only, the Wilson interval at 1 - alpha / m (the GSPRT decides
    on likelihood ratios, not intervals). `previous` maps (n_players, unit) -> a verdict
    (or (verdict, low_edge, high_edge)) reached at an earlier look: a decided hypothesis
    or edge keeps its decision (the procedure stops monitoring it)."""
    wins, games = table["wins"].to_numpy(), table["games"].to_numpy()
    fair = fair_share(table["n_players"].to_numpy())
    keys = list(zip(table["n_players"].to_list(), table["unit"].to_list(), strict=True))
    before, low, high = _previous(previous, keys)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = wins / games
    if plan.rule == BONFERRONI:
        conf = plan.confidence()
        lo, hi, verdict = step(wins, games, fair, plan, before)
        extra = {}
    else:
        conf = 1 - plan.alpha / max(1, plan.hypotheses)
        lo, hi = wilson(wins, games, conf)
        verdict, low, high = gsprt_step(wins, games, fair, plan, low, high, before)
        extra = {"low_edge": pl.Series(low, dtype=pl.Int64), "high_edge": pl.Series(high, dtype=pl.Int64)}
    return table.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi),
                              fair=pl.Series(fair), confidence=pl.lit(conf),
                              verdict=pl.Series(verdict, dtype=pl.String), **extra)


def verdict_map(decided: pl.DataFrame) -> dict:
    """(n_players, unit) -> verdict, or (verdict, low_edge, high_edge) under the GSPRT."""
    if "low_edge" in decided.columns:
        return {(n, u): (v, lo, hi) for n, u, v, lo, hi in
                decided.select("n_players", "unit", "verdict", "low_edge", "high_edge").iter_rows()}
    return {(n, u): v for n, u, v in decided.select("n_players", "unit", "verdict").iter_rows()}


def all_decided(decided: pl.DataFrame) -> bool:
    return bool((decided["verdict"] != UNDECIDED).all())


def summary_lines(decided: pl.DataFrame, plan: Plan, n_games: int, stopped: bool) -> list[str]:
    """What the procedure concluded, in words."""
    kind = decided["kind"][0] if decided.height else "seat"
    head = (f"Decided after {n_games:,} games: every {kind} is inside or outside the band "
            f"of +/-{100 * plan.band:g} pp around 1/n" if stopped else
            f"Not decided: stopped at the limit of {plan.max_games:,} games with "
            f"{int((decided['verdict'] == UNDECIDED).sum())} {kind}(s) still undecided")
    if plan.rule == BONFERRONI:
        per = 1 - decided["confidence"][0]
        how = (f" (Bonferroni rule, family-wise error <= {plan.alpha:g}: {plan.looks} planned looks "
               f"of {plan.batch:,} games x {plan.hypotheses} hypotheses, each interval at error {per:.2g}).")
    else:
        how = (f" (GSPRT rule, family-wise error <= {plan.alpha:g} outside the indifference zones: "
               f"two SPRTs per hypothesis, one per band edge, each at alpha = beta = "
               f"{plan.edge_alpha():.2g} over {plan.hypotheses} hypotheses; rates within "
               f"+/-{100 * plan.indifference:g} pp of an edge may be called either way; looks every "
               f"{plan.batch:,} games).")
    lines = [head + how]
    for verdict in (OUTSIDE, INSIDE, UNDECIDED):
        rows = decided.filter(pl.col("verdict") == verdict)
        if rows.height:
            names = ", ".join(f"{r['kind']} {r['unit']} at {r['n_players']}p "
                              f"({100 * (r['rate'] - r['fair']):+.1f} pp, n {r['games']:,} "
                              f"{'games' if r['kind'] == 'seat' else 'seats'})"
                              for r in rows.to_dicts())
            lines.append(f"{verdict} the band: {names}")
    return lines


def run_sequence(looks: list[pl.DataFrame], plan: Plan) -> tuple[pl.DataFrame, int]:
    """Apply the procedure to cumulative tables, one per look (for tests and replays of
    a finished run). Returns the final decision table and the 1-based look it stopped at
    (len(looks) when it never stopped)."""
    previous: dict = {}
    decided = None
    for k, table in enumerate(looks, start=1):
        decided = decide(table, plan, previous)
        previous = verdict_map(decided)
        if all_decided(decided):
            return decided, k
    return decided, len(looks)


def sequential_records(until_decided: dict) -> list:
    """The decisions stored in run.json's `until_decided` (settings + outcome) as records of
    kind sequential_seat / sequential_faction. Under the GSPRT there is no interval (the
    decision rests on likelihood ratios): ci_low / ci_high are None; under the Bonferroni
    rule they are the per-look Wilson interval the decision used."""
    outcome = (until_decided or {}).get("outcome") or {}
    rule = until_decided.get("rule", BONFERRONI)
    family = (f"sequential ({rule}): {until_decided.get('hypotheses')} hypotheses, "
              f"alpha {until_decided.get('alpha')}")
    note = ("GSPRT decision (no interval); rates within the indifference zone of "
            f"+/-{100 * until_decided.get('indifference', DEFAULT_INDIFFERENCE):g} pp of an edge "
            "may go either way" if rule == GSPRT else "Bonferroni over looks and hypotheses")
    out = []
    for r in outcome.get("verdicts") or []:
        interval = rule == BONFERRONI
        out.append(Verdict(kind=f"sequential_{r['kind']}", unit=r["unit"], n_players=r["n_players"],
                           estimate=r["rate"], ci_low=r["lo"] if interval else None,
                           ci_high=r["hi"] if interval else None, n=r["games"],
                           n_unit="games" if r["kind"] == "seat" else "seats",
                           verdict=r["verdict"], family=family, metric="win rate", note=note))
    return out


def simulate_stream(rate: float, fair: float, plan: Plan, replicates: int, seed: int):
    """Synthetic check of a rule: `replicates` independent Bernoulli streams of one
    hypothesis with true win rate `rate`, looked at every plan.batch games up to
    plan.max_games (the error split still uses plan.hypotheses). Returns (verdict, games):
    each replicate's final verdict and the games it took (max_games when never decided).
    Used by the tests and by the rule comparison in docs/experiments.md."""
    rng = np.random.default_rng(seed)
    wins = np.zeros(replicates)
    verdict = np.full(replicates, UNDECIDED, dtype=object)
    low = np.zeros(replicates, dtype=int)
    high = np.zeros(replicates, dtype=int)
    games = np.full(replicates, plan.max_games)
    for k in range(1, plan.looks + 1):
        open_ = verdict == UNDECIDED
        if not open_.any():
            break
        n = min(k * plan.batch, plan.max_games)
        wins = wins + rng.binomial(n - min((k - 1) * plan.batch, plan.max_games), rate, replicates)
        if plan.rule == BONFERRONI:
            _, _, new = step(wins, np.full(replicates, n), fair, plan, verdict)
        else:
            new, low, high = gsprt_step(wins, np.full(replicates, n), fair, plan, low, high, verdict)
        games[open_ & (new != UNDECIDED)] = n
        verdict = new
    return verdict, games
