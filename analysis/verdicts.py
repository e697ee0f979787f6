"""Verdict lines: what a designer reads first, in plain text.

One line per finding, most important first: an overall count, then each seat or
faction outside the fairness band, then the undecided ones with a rough number of
games that would settle them, then those inside the band.
"""

from __future__ import annotations

import math

import polars as pl

from analysis.factions import ALIASED_NOTE, fitted_note, pooled_note, strength_kind
from analysis.ratings import FINISHING_ORDER, WINNER
from analysis.stats import INSIDE, OUTSIDE, UNDECIDED
from analysis.text import count, pct, plural, pp, seats


def _band(band: float) -> str:
    return f"{100 * band:.1f} percentage points"


def _who(row: dict, kind: str) -> str:
    return f"seat {row['seat']}" if kind == "seat" else f"faction {row['faction']}"


def _n(row: dict) -> str:
    """What n counts: games for a seat; seats (player-games) for a faction, which a game
    fielding two copies counts twice."""
    if "games_with" in row:
        return f"{plural(row['games'], 'seat')} in {plural(row['games_with'], 'game')}"
    return plural(row["games"], "game")


def _evidence(row: dict) -> str:
    decided = ""
    if "verdict_lo" in row:
        decided = (f"; decided on the family-wise interval {pct(row['verdict_lo'])} to "
                   f"{pct(row['verdict_hi'])}, adjusted {_p(row['p_adjusted'])}")
    return (f"wins {pct(row['rate'])} (95% CI {pct(row['lo'])} to {pct(row['hi'])}, "
            f"{_n(row)}{decided}) against a fair share of {pct(row['fair'])}")


def _holm(row: dict, family: int) -> str:
    """' Significant / Not significant after Holm across N tests (p = ...).'"""
    if "p_holm" not in row or row["p_holm"] is None or math.isnan(row["p_holm"]):
        return ""
    word = "Significant" if row["significant_holm"] else "Not significant"
    return (f" Point-null test: {word.lower()} after Holm across this table's {family} tests "
            f"against the fair share (adjusted {_p(row['p_holm'])}).")


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
        unit = plural(more, "more game") + ("" if kind == "seat" else " fielding this faction")
        settle = f"roughly {unit} at this player count would decide it"
    return (f"{row['n_players']} players: {_who(row, kind)} is undecided: {_evidence(row)}; "
            f"{settle}.{_holm(row, family)}")


def _holm_summary(rows: list[dict], kind: str) -> list[str]:
    """How many rows differ from their fair share after Holm, named."""
    if not rows or "significant_holm" not in rows[0]:
        return []
    tested = [r for r in rows if r.get("family") != "complement of seat 0"]
    hits = [r for r in tested if r["significant_holm"]]
    names = "; ".join(f"{_who(r, kind)} at {r['n_players']}p ({pp(r['deviation'])})" for r in hits)
    plural = "seats" if kind == "seat" else "factions"
    return [f"{plural.capitalize()} that differ from the fair share at all (point null, not the "
            f"band): {len(hits)} of {len(tested)}, significant after Holm across {len(tested)} "
            f"tests (family-wise error 5% within this table, a family of its own)"
            + (f": {names}." if hits else ".")]


def _inside_line(n_players: int, rows: list[dict], kind: str, band: float) -> str:
    if kind == "seat":
        names = seats([r["seat"] for r in rows])
    else:
        names = "factions " + ", ".join(str(r["faction"]) for r in rows)
    return (f"{n_players} players: {names} inside the fairness band "
            f"(within ± {_band(band)} of fair, on the family-wise intervals).")


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
        f"(band: fair share 1/n ± {_band(band)}, decided on family-wise intervals)."
        + (" At 2 players seat 1 mirrors seat 0 (its rate is 1 minus seat 0's) and is not a "
           "separate test." if kind == "seat" and any(r.get("family") == "complement of seat 0"
                                                       for r in rows) else "")
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
        f"(95% CI {pp(r['lo'] - r['fair'])} to {pp(r['hi'] - r['fair'])}; seat 0's band verdict "
        f"above, {r['verdict']})."
        for r in first.to_dicts()
    ]


def balance_line(balance: pl.DataFrame) -> list[str]:
    """Ludii-style balance, 1 minus the largest seat gap, one figure per player count, with
    its conservative simultaneous interval and the gap noise alone would give."""
    if balance.is_empty():
        return []
    parts = [f"{r['n_players']}p {r['balance']:.3f} ({r['balance_lo']:.3f} to {r['balance_hi']:.3f}; "
             f"noise alone gives a gap of {pp(r['gap_null'])}, net gap {pp(r['gap_excess'])})"
             for r in balance.to_dicts()]
    return ["Balance (1 - largest gap between seat win rates; 1 is perfect; simultaneous 95% "
            "interval; the raw gap is biased up by noise): " + ", ".join(parts) + "."]


def planner_lines(plan: pl.DataFrame, deviation: float = 0.01) -> list[str]:
    """One line per player count: games needed to tell a `deviation` of one seat at the
    report's family-wise level, and games to decide it inside the band."""
    rows = plan.filter((pl.col("deviation") - deviation).abs() < 1e-12).to_dicts() \
        if not plan.is_empty() else []
    lines = []
    for r in rows:
        decide = ("" if "games_to_decide" not in r or not math.isfinite(r["games_to_decide"]) else
                  f"; to decide such a seat inside the ±{100 * r['band']:g} pp band, about "
                  f"{count(r['games_to_decide'])} games"
                  + ("" if math.isnan(r["faction_games_to_decide"]) else
                     f" (a faction: about {count(r['faction_games_to_decide'])} games)"))
        lines.append(
            f"To tell a {100 * deviation:g} pp deviation of a seat from its fair share at "
            f"{_conf(r['confidence'])} confidence ({100 * r['power']:g}% power; the report's "
            f"family-wise level over {r.get('family', 1)} hypotheses) you need about "
            f"{count(r['games_needed'])} games at {r['n_players']} players{decide}; this run has "
            f"{count(r['games'])}.")
    return lines


def _conf(confidence: float) -> str:
    return f"{100 * confidence:.4g}%"


def family_line(m: int, band: float, alpha: float = 0.05, strength_flags: int = 0) -> list[str]:
    """What the lead family is and what its error rate means."""
    flags = (f", with the winner-model strength flags of {strength_flags} factions," if strength_flags
             else "")
    what = "hypothesis" if m == 1 else "hypotheses"
    return [f"Error control: the seat and faction band verdicts below{flags} are one family of {m} "
            f"{what} (Bonferroni, each decided at level {_conf(1 - alpha / max(1, m))}); "
            f"the chance that any of them is wrong is at most {100 * alpha:g}%. Point-null "
            "Holm lines, cards, strength detail and comparisons are separate families."]


def sequential_lines(manifest: dict, band: float) -> list[str]:
    """The decisions of `simulate --until-decided`, when the run stopped by that rule, and
    the warning that the fixed-sample intervals after them are not the stopping rule's."""
    seq = manifest.get("until_decided") or {}
    outcome = seq.get("outcome")
    if not outcome:
        return []
    rule = seq.get("rule", "bonferroni")
    lines = [f"Sequential test (simulate --until-decided, rule {rule}): " + s
             for s in outcome.get("summary", [])]
    if abs(float(seq.get("band", band)) - band) > 1e-12:
        lines.append(f"The sequential test used a band of ±{100 * float(seq['band']):g} pp; this report "
                     f"uses ±{100 * band:g} pp.")
    lines.append("Warning: this run stopped when the sequential test decided. The fixed-sample "
                 "intervals and verdicts below are recomputed on the stopped sample; they are not "
                 "the stopping rule's and their stated confidence is only approximate. The "
                 "sequential decisions above are the ones with guaranteed error control.")
    return lines


def _strength_name(row: dict) -> str:
    return (str(row["faction"]) if row["kind"] == "faction"
            else f"seat {row['seat']} at {row['n_players']} players")


def _strength_evidence(row: dict, what: str) -> str:
    return (f"{row['strength']:+.2f} (95% CI {row['lo']:+.2f} to {row['hi']:+.2f}; "
            f"{math.exp(row['strength']):.2f}x the average {what})")


def _model_rows(strength: pl.DataFrame, model: str, kind: str) -> list[dict]:
    return (strength.filter((pl.col("model") == model) & (pl.col("kind") == kind))
            .sort("strength", descending=True, nulls_last=True).to_dicts())


def _not_estimable_lines(rows: list[dict], kind: str, fitted: str) -> list[str]:
    """Say which strengths the data cannot give (faction and seat aliased), with no numbers."""
    lost = [r for r in rows if not r["estimable"]]
    if not lost:
        return []
    if len(lost) == len(rows):
        return [f"Strength ({fitted}): {ALIASED_NOTE}; no strengths are shown. Read the "
                "faction-by-seat table, or rotate the lineup across seats."]
    names = ", ".join(_strength_name(r) for r in lost)
    return [f"Strength of {names}: {ALIASED_NOTE} for these {kind}s (their seats and factions "
            "coincide in every fitted game); the other strengths are estimable and shown, centred "
            f"on the average of the estimable {kind}s only."]


def _headline(rows: list[dict], kind: str, context: str) -> list[str]:
    """Strongest, weakest and the Holm count of the winner model."""
    ok = [r for r in rows if r["estimable"]]
    if not ok:
        return []
    hits = [r for r in ok if r.get("significant", r["significant_holm"])]
    names = ", ".join(f"{_strength_name(r)} {r['strength']:+.2f}" for r in hits)
    odds = f"{kind}'s odds of winning"
    family = ("in the lead family above (Bonferroni)" if "family" in ok[0] else "after Holm")
    return [f"Strength by who wins (conditional logit on the winner, seat as covariate; "
            f"{context}; log-odds, 0 = average {kind}): strongest is {_strength_name(ok[0])} "
            f"{_strength_evidence(ok[0], odds)}; weakest is {_strength_name(ok[-1])} "
            f"{_strength_evidence(ok[-1], odds)}.",
            f"{len(hits)} of {len(ok)} {kind}s differ from the average {kind} in who wins "
            f"{family} (family-wise error 5%)" + (f": {names}." if hits else ".")
            + f" 0 is the average of these {kind}s, so when one is strong the fair ones sit "
            "below 0."]


def _finishing_order_lines(rows: list[dict], kind: str) -> list[str]:
    """The finishing-order model as a second opinion, with its fit check."""
    ok = [r for r in rows if r["estimable"]]
    if not ok:
        return []
    hits = [r for r in ok if r["significant_holm"]]
    lines = [f"Finishing-order strength (Plackett-Luce over the whole order, which assumes the "
             f"same odds at every place): strongest {_strength_name(ok[0])} "
             f"{_strength_evidence(ok[0], f'{kind} odds at each place')}, weakest "
             f"{_strength_name(ok[-1])} {ok[-1]['strength']:+.2f}; {len(hits)} of {len(ok)} "
             "differ after Holm."]
    bad = sorted((r for r in ok if r.get("fit_disagrees")),
                 key=lambda r: -abs(r["observed_win"] - r["implied_win"]))
    if bad:
        parts = "; ".join(f"{_strength_name(r)} wins {pct(r['observed_win'])} of its seats, the "
                          f"model implies {pct(r['implied_win'])} (Holm {_p(r['fit_p_holm'])})"
                          for r in bad)
        lines.append(f"Warning: the finishing-order model does not fit who wins: {parts}. Read "
                     "the winner model and the win rates for who wins.")
    return lines


def _disagreement_lines(winner: list[dict], order: list[dict]) -> list[str]:
    """Units that the two models put on opposite sides of average, one of them flagged."""
    other = {_strength_name(r): r for r in order if r["estimable"]}
    clash = [(w, other[_strength_name(w)]) for w in winner if w["estimable"]
             and _strength_name(w) in other
             and w["strength"] * other[_strength_name(w)]["strength"] < 0
             and (w["significant_holm"] or other[_strength_name(w)]["significant_holm"])]
    if not clash:
        return []
    parts = "; ".join(f"{_strength_name(w)} {w['strength']:+.2f} by who wins, "
                      f"{o['strength']:+.2f} by finishing order" for w, o in clash)
    return [f"Warning: the winner and finishing-order models rank these differently: {parts}."]


def strength_lines(strength: pl.DataFrame, games_total: int | None = None) -> list[str]:
    """Strength verdict: the winner model (who wins, net of seat and opponents) leads; the
    finishing-order model follows with its fit check and any disagreement; strengths the
    data cannot separate from seats are said to be not estimable, with no numbers.
    Without factions the same is said of the seats. Counts come from the table."""
    if strength.is_empty():
        return []
    kind = strength_kind(strength)
    total = games_total if games_total is not None else \
        (int(strength["games_total"][0]) if "games_total" in strength.columns else None)
    context = "; ".join(n for n in (fitted_note(int(strength["games"][0]), total),
                                    pooled_note(str(strength["player_counts"][0]))) if n)
    winner = _model_rows(strength, WINNER, kind)
    order = _model_rows(strength, FINISHING_ORDER, kind)
    lines = (_not_estimable_lines(winner, kind, context) + _headline(winner, kind, context)
             + _finishing_order_lines(order, kind) + _disagreement_lines(winner, order))
    lines += [f"Strength: {_strength_name(r)} {'always' if r['strength'] > 0 else 'never'} won "
              "the fitted games it played, so its strength is unbounded and not tested; read its "
              "win rate instead." for r in winner if r["estimable"] and r.get("separated")]
    return lines
