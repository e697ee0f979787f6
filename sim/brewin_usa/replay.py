"""`brewbalance replay`: replay one Brewin' USA game from its seed into a readable log."""

from __future__ import annotations

from . import constants as C
from .schema import PLAYERS

TRACE_ROWS = 50000


def replay_game(game, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
    state, players = game.play_traced(config, seed, game_id, player_counts, policies, options, TRACE_ROWS)
    P = PLAYERS.at
    seat_pol = [config.policy_ids[row[P.policy]] for row in players]
    lines = [f"Brewin' USA game {game_id} (seed {seed}), {len(players)} players: "
             + ", ".join(f"seat {s} {p}" for s, p in enumerate(seat_pol))]
    lines += trace_lines(state.trace[: state.g[C.G_TRACE]], config, state)
    # the state after the game holds what record() copied into the games row
    lines.append(f"End: {C.END_REASONS[state.g[C.G_END_REASON]]} after {state.g[C.G_ROUND]} rounds")
    lines.append("Result: " + ", ".join(
        f"seat {s} {row[P.score]} VP (rank {row[P.rank]})" for s, row in enumerate(players)))
    return lines


def trace_lines(rows, config, state) -> list[str]:
    """One line per trace row, except Market Demand (one row per cap): a run of placements by one
    seat becomes one line, and a new seat starts a new line (after a Brewfest each loser places
    its own pile)."""
    lines: list[str] = []
    demand: dict[str, int] = {}
    who = -1
    for row in rows:
        placing = row[0] == C.TR_DEMAND
        if demand and not (placing and int(row[2]) == who):
            lines.append(f"  seat {who} places Market Demand: " + ", ".join(f"{k} +{v}" for k, v in demand.items()))
            demand = {}
        if placing:
            key = config.city_names[row[3]] if row[3] >= 0 else "the bag"
            demand[key] = demand.get(key, 0) + int(row[4])
            who = int(row[2])
            continue
        lines.append(describe(row, config, state))
    if demand:
        lines.append(f"  seat {who} places Market Demand: " + ", ".join(f"{k} +{v}" for k, v in demand.items()))
    return lines


def beer_name(config, state, b) -> str:
    """Physical beer card b by the type it had in this game (a removed card's place: blank)."""
    t = state.beer[b, C.B_TYPE]
    return config.beer_names[t] if t < len(config.beer_names) else "a blank beer card"


def describe(row, config, state) -> str:
    code, rnd, seat, a, b, c, d, e = (int(x) for x in row)
    who = f"  seat {seat}"
    cities = config.city_names

    def city(i):
        return cities[i] if i >= 0 else "the bag"

    if code == C.TR_SETUP:
        return f"Setup: {cities[a]} is left out"
    if code == C.TR_ROUND:
        return f"Round {a}: seat {seat} deals"
    if code == C.TR_BATCH:
        cards = [config.ing_names[(d >> (6 * i)) & 63] + (" (face down)" if i == c else "") for i in range(b)]
        return f"  batch {a}: " + ", ".join(cards)
    if code == C.TR_BUY:
        return f"{who} buys batch {a} ({c} cards) for {b} caps"
    if code == C.TR_DEMAND:
        return f"{who} puts {b} Market Demand on {city(a)}"
    if code in (C.TR_LAUNCH, C.TR_RELAUNCH):
        verb = "launches" if code == C.TR_LAUNCH else "relaunches"
        how = "challenges" if d else "claims"
        extra = f", paying {c} caps" if c else ""
        adj = f" with {C.KINDS[e]}" if code == C.TR_LAUNCH and e >= 0 else ""
        return f"{who} {verb} {beer_name(config, state, a)}{adj} and {how} {cities[b]}{extra}"
    if code == C.TR_ADJUNCT:
        kind = C.KINDS[a]
        if a == C.COFFEE:
            return f"{who} Coffee: takes {b} caps from rivals"
        if a == C.PUMPKIN:
            return f"{who} Pumpkin: draws {b} ingredient cards"
        if a == C.CITRUS:
            return f"{who} Citrus: moves {beer_name(config, state, b)} to {cities[c]}" if b >= 0 else f"{who} Citrus: no move"
        return f"{who} {kind.title()}: swaps Market Demand of {cities[b]} and {cities[c]}"
    if code == C.TR_TRIGGER:
        return f"{who} has launched {a} beers: the end is triggered"
    if code == C.TR_FEST:
        return f"  Brewfest at {cities[a]}"
    if code == C.TR_FEST_SCORE:
        return f"  {who.strip()} {beer_name(config, state, b)} scores {c} with {d} cards committed"
    if code == C.TR_FEST_END:
        return f"{who} wins {cities[a]}; winner's pile {b}, {c} left on the city"
    if code == C.TR_SCORE:
        return f"{who} scores cities {a} + regions {b} + beers {c} + bank {d} = {e} VP"
    return f"{who} code {code} {a} {b} {c} {d} {e}"
