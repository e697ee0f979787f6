"""Verdict lines: what a designer reads first, in plain text.

One line per finding, most important first: an overall count, then each seat or
faction outside the fairness band, then the undecided ones with a rough number of
games that would settle them, then those inside the band.
"""

from __future__ import annotations

import math

import polars as pl

from analysis.stats import INSIDE, OUTSIDE, UNDECIDED
from analysis.text import count, pct, plural, pp, seats


def _band(band: float) -> str:
    return f"{100 * band:.1f} percentage points"


def _who(row: dict, kind: str) -> str:
    return f"seat {row['seat']}" if kind == "seat" else f"faction {row['faction']}"


def _evidence(row: dict) -> str:
    return (f"wins {pct(row['rate'])} (95% CI {pct(row['lo'])} to {pct(row['hi'])}, "
            f"{plural(row['games'], 'game')}) against a fair share of {pct(row['fair'])}")


def _holm(row: dict, family: int) -> str:
    """' Significant / Not significant after Holm across N tests (p = ...).'"""
    if "p_holm" not in row or row["p_holm"] is None or math.isnan(row["p_holm"]):
        return ""
    word = "Significant" if row["significant_holm"] else "Not significant"
    return (f" {word} after Holm across {family} tests against the fair share "
            f"(adjusted {_p(row['p_holm'])}).")


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _outside_line(row: dict, kind: str, family: int = 0) -> str:
    direction = "too strong" if row["deviation"] > 0 else "too weak"
    return (f"{row['n_players']} players: {_who(row, kind)} is OUTSIDE the fairness band "
            f"({direction}, {pp(row['deviation'])}): {_evidence(row)}.{_holm(row, family)}")


def _undecided_line(row: dict, kind: str, family: int = 0) -> str:
    more = row["more_games"]
    # Past ~100x the current sample the 1/sqrt(n) extrapolation means "practically never".
    if math.isinf(more) or math.isnan(more) or more > 100 * row["games"]:
        settle = "its rate sits almost on the band edge, so more games may never settle it"
    else:
        unit = plural(more, "more game") + ("" if kind == "seat" else " with this faction")
        settle = f"roughly {unit} at this player count would decide it"
    return (f"{row['n_players']} players: {_who(row, kind)} is undecided: {_evidence(row)}; "
            f"{settle}.{_holm(row, family)}")


def _holm_summary(rows: list[dict], kind: str) -> list[str]:
    """How many rows differ from their fair share after Holm, named."""
    if not rows or "significant_holm" not in rows[0]:
        return []
    hits = [r for r in rows if r["significant_holm"]]
    names = "; ".join(f"{_who(r, kind)} at {r['n_players']}p ({pp(r['deviation'])})" for r in hits)
    plural = "seats" if kind == "seat" else "factions"
    return [f"{plural.capitalize()} that differ from the fair share: {len(hits)} of {len(rows)}, "
            f"significant after Holm across {len(rows)} tests (family-wise error 5%)"
            + (f": {names}." if hits else ".")]


def _inside_line(n_players: int, rows: list[dict], kind: str, band: float) -> str:
    if kind == "seat":
        names = seats([r["seat"] for r in rows])
    else:
        names = "factions " + ", ".join(str(r["faction"]) for r in rows)
    return (f"{n_players} players: {names} inside the fairness band "
            f"(within ± {_band(band)} of fair, 95% confidence).")


DETAIL_LIMIT = 12  # above this many rows of one verdict, one compact line per player count


def _compact_lines(rows: list[dict], kind: str, what: str) -> list[str]:
    """'3 players, outside the fairness band: too strong tree_men +27.7 pp, ...; too weak ...'
    (the evidence table gives each row's interval and games)."""
    lines = []
    for n_players in sorted({r["n_players"] for r in rows}):
        group = sorted((r for r in rows if r["n_players"] == n_players), key=lambda r: -r["deviation"])
        strong = [f"{_who(r, kind).split(' ', 1)[1]} {pp(r['deviation'])}" for r in group if r["deviation"] > 0]
        weak = [f"{_who(r, kind).split(' ', 1)[1]} {pp(r['deviation'])}" for r in group if r["deviation"] <= 0]
        parts = ([f"above fair: {', '.join(strong)}"] if strong else []) + \
                ([f"below fair: {', '.join(weak)}"] if weak else [])
        lines.append(f"{n_players} players, {len(group)} {kind}s {what}: {'; '.join(parts)} "
                     "(intervals and games in the table below).")
    return lines


def fairness_lines(table: pl.DataFrame, kind: str, band: float) -> list[str]:
    """Verdict lines for a seat or faction win-rate table with a `verdict` column."""
    if table.is_empty():
        return []
    rows = table.to_dicts()
    by_verdict = {v: [r for r in rows if r["verdict"] == v] for v in (OUTSIDE, UNDECIDED, INSIDE)}
    plural = "seats" if kind == "seat" else "factions"
    lines = [
        f"{plural.capitalize()}: {len(by_verdict[OUTSIDE])} outside the fairness band, "
        f"{len(by_verdict[INSIDE])} inside, {len(by_verdict[UNDECIDED])} undecided "
        f"(band: fair share 1/n ± {_band(band)}, 95% intervals)."
    ]
    if len(by_verdict[OUTSIDE]) <= DETAIL_LIMIT:
        lines += [_outside_line(r, kind, len(rows)) for r in by_verdict[OUTSIDE]]
    else:  # many factions: one line per player count, strongest deviations first
        lines += _compact_lines(by_verdict[OUTSIDE], kind, "outside the fairness band")
    if len(by_verdict[UNDECIDED]) <= DETAIL_LIMIT:
        lines += [_undecided_line(r, kind, len(rows)) for r in by_verdict[UNDECIDED]]
    else:
        lines += _compact_lines(by_verdict[UNDECIDED], kind, "undecided")
    for n_players in sorted({r["n_players"] for r in by_verdict[INSIDE]}):
        group = [r for r in by_verdict[INSIDE] if r["n_players"] == n_players]
        lines.append(_inside_line(n_players, group, kind, band))
    return lines + _holm_summary(rows, kind)


def first_player_lines(first: pl.DataFrame) -> list[str]:
    """One line per player count on the first player's edge over a fair share."""
    return [
        f"{r['n_players']} players: first-player advantage {pp(r['advantage'])} "
        f"(95% CI {pp(r['lo'] - r['fair'])} to {pp(r['hi'] - r['fair'])})."
        for r in first.to_dicts()
    ]


def balance_line(balance: pl.DataFrame) -> list[str]:
    """Ludii-style balance, 1 minus the largest seat gap, one figure per player count."""
    if balance.is_empty():
        return []
    parts = [f"{r['n_players']}p {r['balance']:.3f}" for r in balance.to_dicts()]
    return ["Balance (1 - largest gap between seat win rates; 1 is perfect): "
            + ", ".join(parts) + "."]


def planner_lines(plan: pl.DataFrame, deviation: float = 0.01) -> list[str]:
    """One line per player count: games needed to tell a `deviation` of one seat."""
    rows = plan.filter((pl.col("deviation") - deviation).abs() < 1e-12).to_dicts() \
        if not plan.is_empty() else []
    return [
        f"To tell a {100 * deviation:g} pp deviation of a seat from its fair share at "
        f"{100 * r['confidence']:g}% confidence ({100 * r['power']:g}% power) you need about "
        f"{count(r['games_needed'])} games at {r['n_players']} players; this run has "
        f"{count(r['games'])}."
        for r in rows
    ]


def _strength_name(row: dict) -> str:
    return (str(row["faction"]) if row["kind"] == "faction"
            else f"seat {row['seat']} at {row['n_players']} players")


def _strength_evidence(row: dict) -> str:
    return (f"{row['strength']:+.2f} (95% CI {row['lo']:+.2f} to {row['hi']:+.2f}; "
            f"{math.exp(row['strength']):.2f}x the average odds at each place)")


def strength_lines(strength: pl.DataFrame, games: int) -> list[str]:
    """Plackett-Luce verdict: the strongest and weakest faction after controlling for seat
    and opponents (or, without factions, the seats), and how many differ from average
    after Holm."""
    if strength.is_empty():
        return []
    kind = "faction" if (strength["kind"] == "faction").any() else "seat"
    rows = strength.filter(pl.col("kind") == kind).sort("strength", descending=True).to_dicts()
    what = "after controlling for seat and opponents" if kind == "faction" else \
        "in the finishing order"
    hits = [r for r in rows if r["significant_holm"]]
    names = ", ".join(f"{_strength_name(r)} {r['strength']:+.2f}" for r in hits)
    lines = [f"Plackett-Luce strength ({count(games)} games, log-odds scale, 0 = average "
             f"{kind}): strongest {what} is {_strength_name(rows[0])} "
             f"{_strength_evidence(rows[0])}; weakest is {_strength_name(rows[-1])} "
             f"{_strength_evidence(rows[-1])}.",
             f"{len(hits)} of {len(rows)} {kind}s differ from the average {kind} after Holm "
             f"(family-wise error 5%)" + (f": {names}." if hits else ".")]
    lines += [f"Plackett-Luce: {_strength_name(r)} {'always' if r['strength'] > 0 else 'never'} "
              "placed ahead of the others it met in the fitted games, so its strength is unbounded "
              "and not tested; read its win rate instead." for r in rows if r.get("separated")]
    return lines
