"""`brewbalance replay`: replay one Dwarfest game from its seed into a readable log."""

from __future__ import annotations

from . import constants as C
from .schema import PLAYERS
from .state import view


def replay_game(game, config, seed, game_id, player_counts, policies) -> list[str]:
    state, players = game.play_traced(config, seed, game_id, player_counts, policies)
    P = PLAYERS.at
    names = config.cards.names
    seat_pol = [config.policy_ids[row[P.policy]] for row in players]
    lines = [f"Dwarfest game {game_id} (seed {seed}), {len(players)} players: "
             + ", ".join(f"seat {s} {p}" for s, p in enumerate(seat_pol))]
    for row in state.trace[: view(state).game.trace]:
        lines.append(describe(row, names))
    lines.append("Result: " + ", ".join(
        f"seat {s} {row[P.score]} Nuggets (rank {row[P.rank]})" for s, row in enumerate(players)))
    return lines


def describe(row, names) -> str:
    code, evening, seat, a, b, c, d, e = (int(x) for x in row)
    who = f"  seat {seat}"
    if code == C.TR_EVENING:
        return f"Evening {a}: seat {seat} deals"
    if code == C.TR_BUY:
        return f"{who} buys {a} Tables, {b} Barrels, {c} Dancers (till now {d})"
    if code == C.TR_PLAY:
        where = "own Tavern" if b == seat else f"seat {b}'s Tavern"
        if e == 0:
            return f"{who} could not play {names[a]} in {where}; {c} Nuggets lost"
        sips = f" and {d} sips" if d else ""
        return f"{who} plays {names[a]} in {where} for {c} Nuggets{sips}"
    if code == C.TR_EVENT:
        sips = f" and {d} sips" if d else ""
        return f"{who} plays Event {names[a]} on seat {b} for {c} Nuggets{sips}"
    if code == C.TR_CANCEL:
        return f"{who} cancels seat {b}'s {names[c]} with {names[a]}"
    if code == C.TR_DRAW:
        return f"{who} (Fame {c}) draws {a} Customer cards: {b} dwarves"
    if code == C.TR_REFUSE:
        return f"{who} refuses a card of {a} dwarves (-Fame, +Brawl)"
    if code == C.TR_TAKE:
        return f"{who} takes a refused card of {a} dwarves"
    if code == C.TR_SERVE:
        return (f"{who} serves {a} dwarves from {b} Barrels: {c} at Tables, {d} landed at the Bar, "
                f"{e // 1000} wasted, {e % 1000} without Beer")
    if code == C.TR_BRAWL:
        return f"{who} BRAWL! Brawl {a} is above the limit of {b}"
    if code == C.TR_SACRIFICE:
        return f"{who} sacrifices a {names[a]}; Brawl now {b}"
    if code == C.TR_SIPS:
        return f"{who} drinks {a} sips to calm the Brawl; now {b}"
    if code == C.TR_LOSS:
        return f"{who} loses {a} Tables, {b} Barrels, {c} Dancers; Brawl now {d}"
    if code == C.TR_DESTROYED:
        return f"{who} TAVERN DESTROYED: {a} Nuggets lost, starts over"
    if code == C.TR_CASHIN:
        return f"{who} cashes in: {a} Nuggets, Fame {b}"
    return f"{who} code {code} {a} {b} {c} {d} {e}"
