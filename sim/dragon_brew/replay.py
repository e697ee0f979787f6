"""`brewbalance replay`: replay one Dragon Brew game from its seed into a readable log: the
seats, then every move in order with the events it logged (drafts, race powers, beers, judges,
bribes), the VP after each year, and the result."""

from __future__ import annotations

import numpy as np

from sim.core import treatment

from . import constants as C
from .data import NEUTRAL_ID
from .kernel import start_game
from .schema import PLAYERS
from .state import make_rules, make_state, view

TRACE_ROWS = 4000


def card_name(cfg, key: int) -> str:
    if key < C.KEY_ABILITY:
        return C.COMMON[key].replace("_", " ").title()
    if key < C.KEY_BREWERY:
        return cfg.abilities[C.ABILITIES[key - C.KEY_ABILITY]]["name"]
    t = key - C.KEY_BREWERY
    return cfg.brewery[t]["name"] if t < len(cfg.brewery) else NEUTRAL_ID.title()


def judge_text(cfg, j: int) -> str:
    J = cfg.judges[j]
    sec = "bribe" if J["corrupt"] else f"{J['secondary_dir']} {J['secondary']}"
    return f"{J['name']} ({J['primary_dir']} {J['primary']}, then {sec}; {J['vp']} VP)"


def move_text(cfg, row) -> str | None:
    seat, kind, a, b = int(row[0]), int(row[2]), int(row[3]), int(row[4])
    who = f"  seat {seat}"
    if kind == C.M_END:
        return None
    if kind == C.M_BREWER:
        return f"{who} brewer -> {card_name(cfg, a)}" + (" (from Gnome Housing)" if b == 1 else "")
    if kind == C.M_PASS:
        return f"{who} passes a brewer"
    if kind == C.M_GUEST:
        return f"{who} Horse Guests -> seat {a}'s {card_name(cfg, b)}"
    if kind == C.M_SERVANT:
        return f"{who} Servant Spell -> seat {a}'s {card_name(cfg, b)}"
    if kind == C.M_SPELLBOOK:
        return f"{who} Spell Book casts seat {a}'s {card_name(cfg, b)}"
    if kind == C.M_SACRIFICE:
        return f"{who} Dark Sacrifice of {card_name(cfg, a)}"
    if kind == C.M_OGRE:
        return f"{who} Ogre-Rules {cfg.judges[a]['name']}"
    if kind == C.M_BRIBE:
        return f"{who} bribes {cfg.judges[a]['name']} with {b} gold"
    if kind in (C.M_SPELL, C.M_FREE):
        return f"{who} {'casts' if kind == C.M_SPELL else 'uses'} {card_name(cfg, a)}"
    if kind == C.M_DRAFT:
        return None  # the draft_* event says what was drafted and for how much
    if kind == C.M_CLEAR:
        return None  # logged as a clear_draft event
    if kind == C.M_HOUSE:
        return f"{who} moves a gnome into Gnome Housing"
    return f"{who} {C.MOVE_NAMES[kind]}"


EVENT_TEXT = {
    "draft_brewery": "drafts {card} for {amount} gold",
    "draft_event": "drafts {card} for {amount} gold",
    "ability": "race power {card} ({amount})",
    "judge_won": "wins judge {card}: +{amount} VP",
    "judge_split": "shares judge {card}: +{amount} VP",
    "bribe": "bribes {card} with {amount} gold",
    "beer": "presents a beer on {card} (characteristics {amount})",
    "clear_draft": "clears the draft",
    "research": "takes {amount} recipes at the Study",
    "sacrifice_card": "sacrifices {card}",
}


def event_text(card_ids, row) -> str:
    kind = C.LOG_KINDS[int(row[4])]
    return f"  seat {int(row[1])} " + EVENT_TEXT[kind].format(card=card_ids[int(row[3])], amount=int(row[5]))


def dealt_game(game, cfg, seed, game_id, player_counts, policies, options):
    """The state right after the deal of game `game_id` (seats, races, starting gold and
    brewers, the judges of year 1), which the replay shows before the moves."""
    pool, lineup, rotate = game.race_arrays(cfg, options)
    S = make_state(2 * C.MAX_ROW, 1)  # only the dealt state is read: room for the opening offers alone
    start_game(S, make_rules(cfg), np.uint64(seed), game_id, np.array(player_counts, np.int64),
               game.policy_indices(cfg, policies), pool, lineup, rotate,
               treatment.codes(game.treatable(cfg), options))
    return S


def replay_game(game, cfg, seed, game_id, player_counts, policies, options) -> list[str]:
    n = player_counts[game_id % len(player_counts)]
    dealt = view(dealt_game(game, cfg, seed, game_id, player_counts, policies, options))
    lines = [f"Dragon Brew game {game_id} (seed {seed}), {n} players",
             "Seats (turn order of year 1): " + ", ".join(
                 f"{s} {cfg.races[p.race]['name']} [{cfg.policies[p.policy]['id']}] {p.gold} gold {p.own_avail} brewers"
                 for s, p in enumerate(dealt.seats(n))),
             "Judges of year 1: " + "; ".join(judge_text(cfg, int(j)) for j in dealt.piles.judges[:dealt.game.n_judges])]
    S, players = game.play_traced(cfg, seed, game_id, player_counts, policies, options, TRACE_ROWS)
    v = view(S)
    P = PLAYERS.at
    card_ids = cfg.card_ids()
    fall_kinds = {C.LOG_KINDS.index(k) for k in ("beer", "judge_won", "judge_split")}
    state = {"shown": 0, "fall": 0}

    offer = C.LOG_KINDS.index("offer")

    def events_until(end):
        while state["shown"] < end:
            row = S.ev[state["shown"]]
            if int(row[4]) == offer:  # offers (ten rows a draft) would bury the moves
                state["shown"] += 1
                continue
            if int(row[4]) in fall_kinds and state["fall"] < int(row[2]):
                state["fall"] = int(row[2])
                lines.append(f"Year {state['fall']} fall")
            lines.append(event_text(card_ids, row))
            state["shown"] += 1

    year = 0
    for row in S.trace[:v.game.trace]:
        events_until(row[7])
        if row[1] != year:
            year = int(row[1])
            lines.append(f"Year {year} spring")
        text = move_text(cfg, row)
        if text:
            lines.append(text)
    events_until(v.game.events)
    rounds = S.rnd[:v.game.rounds]
    for r in rounds:
        if r[1] == 0:
            lines.append(f"VP after year {int(r[2])}: " + ", ".join(
                f"seat {int(x[1])} {int(x[3])}" for x in rounds if x[2] == r[2]))
    lines.append("Result: " + ", ".join(
        f"seat {s} {cfg.races[int(row[P.faction])]['name']} {int(row[P.score])} VP "
        f"{int(row[P.ribbons])} ribbons {int(row[P.gold])} gold (rank {int(row[P.rank])})"
        for s, row in enumerate(players)))
    lines.append("Winner: " + ", ".join(f"seat {s}" for s, row in enumerate(players) if row[P.rank] == 1))
    return lines
