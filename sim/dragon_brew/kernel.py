"""Dragon Brew game driver: plays games and fills the rows of the games/players/events tables.

Unlike Dwarfest and Brewin' USA this engine is plain Python (see docs/games/dragon_brew.md,
"Engine"): the game has 19 asymmetric races, five kinds of estate cards and a recursive action
model (Horse Guests, Servant Spell, Spell Book, Black Market, Chaos Spell) that was written for
correctness first. A game is still a pure function of (data, seed, game_id, policies, options).
"""

from __future__ import annotations

from . import constants as C
from .policies import make_bot
from .rules import new_game, play
from .state import Rng, stream_seed


def assign_races(cfg, seed: int, game_id: int, n: int, options: dict | None) -> list[int]:
    """Races for the seats of one game, from their own stream (STREAM_FACTIONS): by default n
    distinct races drawn uniformly and seated in random order; `factions` limits the pool;
    `lineup` fixes the races seat by seat (seat 0 first)."""
    ids = cfg.race_ids
    options = options or {}
    if options.get("lineup"):
        lineup = list(options["lineup"])
        return [ids.index(lineup[s % len(lineup)]) for s in range(n)]
    pool = [ids.index(f) for f in options["factions"]] if options.get("factions") else list(range(len(ids)))
    rng = Rng(stream_seed(seed, game_id, C.STREAM_FACTIONS, 0))
    pool = list(pool)
    rng.shuffle(pool)
    return pool[:n]


def assign_policies(game_id: int, n: int, seat_policies: list[int]) -> list[int]:
    """Rotate the policy list across seats game by game (every bot sits in every seat)."""
    return [seat_policies[(s + game_id) % len(seat_policies)] for s in range(n)]


def play_one(cfg, seed, game_id, n, seat_policies, options=None, check=None, trace=False, races=None):
    races = races if races is not None else assign_races(cfg, seed, game_id, n, options)
    pols = assign_policies(game_id, n, seat_policies)
    g = new_game(cfg, seed, game_id, races, pols)
    g.bots = [make_bot(cfg, pols[s], g.pol_rng[s]) for s in range(n)]
    if trace:
        g.trace = []
        from .rules import judge_text, race_name

        g.trace.append("Seats (turn order of year 1): " + ", ".join(
            f"{p.seat} {race_name(g, p)} [{cfg.policies[p.policy]['id']}] {p.gold} gold {p.own_avail} brewers"
            for p in g.players))
        g.trace.append("Judges: " + "; ".join(judge_text(g, j) for j in g.judges))
    rank, winners = play(g, check)
    return g, rank, winners


def run_games(cfg, seed, first_game, n_games, player_counts, seat_policies, options=None, check=None,
              progress=None):
    """Play games first_game.. and return (games rows, players rows, events rows, rounds rows)
    as lists of tuples; rounds rows are (game_id, seat, year, VP after that year's fall)."""
    games, players, events, rounds = [], [], [], []
    step = 0
    for i in range(n_games):
        game_id = first_game + i
        n = player_counts[game_id % len(player_counts)]
        g, rank, winners = play_one(cfg, seed, game_id, n, seat_policies, options, check)
        games.append((game_id, n, g.cfg.params["years"], g.decisions, 0, len(winners), g.judged, g.turns))
        for p in g.players:
            st = p.stats
            st["ribbons"] = p.ribbons
            st["gold"] = p.gold
            st["estate_size"] = len(p.estate)
            players.append((game_id, p.seat, p.race, p.policy, p.vp, rank[p.seat],
                            1.0 / len(winners) if p.seat in winners else 0.0,
                            *[st[k] for k in C.PLAYER_STATS]))
        for seat, year, card, kind, amount in g.log:
            events.append((game_id, seat, year, card, kind, amount))
        for year, vps in enumerate(g.year_vp, start=1):
            rounds.extend((game_id, seat, year, vp) for seat, vp in enumerate(vps))
        step += 1
        if progress is not None and (step == 64 or i == n_games - 1):
            progress(step)
            step = 0
    return games, players, events, rounds
