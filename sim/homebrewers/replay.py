"""`brewbalance replay`: replay one Homebrewers game from its seed into a readable log."""

from __future__ import annotations

from . import constants as C
from .schema import PLAYERS


def replay_game(game, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
    state, players = game.play_traced(config, seed, game_id, player_counts, policies, options)
    rules, _ = game.kernel_inputs(config, game.check_options(config, player_counts, options))
    names = list(config.card_names) + ["a neutral card"]
    card_names = [names[t] for t in rules.phys]  # of each physical card, under the run's treatment
    P = PLAYERS.at
    lines = [f"Homebrewers game {game_id} (seed {seed}), {len(players)} players: "
             + ", ".join(f"seat {s} {config.policy_ids[row[P.policy]]} ({C.FACTIONS[row[P.faction]]})"
                         for s, row in enumerate(players))]
    for row in state.trace[: state.g[C.G_TRACE]]:
        lines.append(describe(row, config, card_names))
    lines.append("Result: " + ", ".join(
        f"seat {s} {row[P.score]} reputation (rank {row[P.rank]})" for s, row in enumerate(players)))
    return lines


def who(seat) -> str:
    return "  Charlie" if seat == C.CHARLIE else f"  seat {seat}"


def dice(vals) -> str:
    return ", ".join(f"{v} {C.ACTIONS[a]}" for a, v in enumerate(vals) if v) or "none"


def describe(row, config, card_names) -> str:
    """One trace row in words; card_names[k] names physical card k."""
    code, month, seat, a, b, c, d, e = (int(x) for x in row)
    w = who(seat)

    def cname(k):
        return card_names[k]

    if code == C.TR_SETUP:
        return "Setup: judges " + ", ".join(config.judge_names[j] for j in (a, b, c, d)) + " + " + config.judge_names[0]
    if code == C.TR_INJECT:
        return f"{w} is given an extra {cname(a)} (inject treatment)"
    if code == C.TR_MONTH:
        return f"{C.MONTH_NAMES[a]}: seat {seat} starts; event {config.event_names[b]}"
    if code == C.TR_ROLL:
        return f"{w} rolls {dice((a, b, c, d, e))}"
    if code == C.TR_REROLL:
        return f"{w} re-rolls a triple: {dice((a, b, c, d, e))}"
    if code == C.TR_TRADE:
        return f"{w} trades {C.ACTIONS[b]} for {C.ACTIONS[c]} with {who(a).strip()}"
    if code == C.TR_CHARLIE:
        q = (c, d, e // 16, e % 16)
        how = " (cannot move: +1 on the other recipes)" if b else ""
        return f"  Charlie reveals {config.charlie_ids[a]}{how}: " + ", ".join(
            f"{r} {x}" for r, x in zip(C.RECIPES, q, strict=True))
    if code == C.TR_DIE:
        if b:
            return f"{w} {'lets the extra die go' if c else 'uses the extra die'}: {C.ACTIONS[a]}"
        return f"{w} uses a die: {C.ACTIONS[a]}"
    if code == C.TR_CHANGE:
        when = " in the trade phase, to re-roll the triple" if c else ""
        return f"{w} pays to change {C.ACTIONS[a]} to {C.ACTIONS[b]}{when}"
    if code == C.TR_FORGO:
        return f"{w} forgoes {C.ACTIONS[a]} for money"
    if code == C.TR_SANITIZE:
        return f"{w} sanitizes ({a} spots covered)"
    if code == C.TR_GRAIN:
        return f"{w} puts grain on {C.RECIPES[a]}"
    if code == C.TR_DRAW:
        src = "the deck" if b % 8 >= 4 else "the row"
        return f"{w} draws {cname(a)} from {src}"
    if code == C.TR_REFRESH:
        return f"{w} pays to refresh the flavor row"
    if code == C.TR_PLAY_TOP:
        return f"{w} plays {cname(a)} under {C.RECIPES[b]}"
    if code == C.TR_PLAY_BOTTOM:
        return f"{w} discards {cname(a)} for its bottom benefit"
    if code == C.TR_EVENT:
        return f"{w} takes the {'bottom' if b else 'top'} of {config.event_names[a]}"
    if code == C.TR_BREW:
        how = " (Contender: quality 1)" if d else (" (keeps the grain)" if e else "")
        return f"{w} brews {C.RECIPES[a]} +{b} -> {c}{how}"
    if code == C.TR_GAIN:
        return f"{w} gets {C.EFFECTS[a]} {b} from {C.RECIPES[c]} level {d}"
    if code == C.TR_POWER:
        return f"{w} uses {C.CHARACTERS[a]}'s power ({b})"
    if code == C.TR_EXTRA:
        return f"{w} buys an extra action: {C.ACTIONS[a]}"
    if code == C.TR_MEDAL:
        place = ("gold", "silver", "bronze", "honorable mention")[b]
        return f"{w} {C.RECIPES[a]} {place} at {d}" + (f" (tied x{e})" if e > 1 else "") + f": {c} reputation"
    if code == C.TR_JUDGE:
        return f"{w} judges: {a} reputation"
    if code == C.TR_SCORE:
        return f"{w} final {a} reputation (Summerfest {b}, Octoberfest medals {c}, judges {d}); ${e} left"
    return f"{w} code {code} {a} {b} {c} {d} {e}"
