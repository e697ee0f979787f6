"""STUB (being replaced by the planner port): the planner bots' memory and choices."""

from collections import namedtuple

import numpy as np

from sim.core.jit import jit

BotState = namedtuple("BotState", "need")


def make_bot_state(cfg, R) -> BotState:
    return BotState(need=np.zeros((4, 10), np.int64))


@jit
def start_turn(S, R, B, seat):
    pass


@jit
def choose(S, R, B, seat, n_moves):
    return 0


@jit
def spend(S, R, B, seat, klass, n, out):
    return 0


@jit
def grains(S, R, B, seat, n, out):
    for k in range(n):
        out[k] = 0


@jit
def magic(S, R, B, seat, n, out):
    for k in range(n):
        out[k] = 6


@jit
def wort(S, R, B, seat):
    return -1


@jit
def wort_any(S, R, B, seat):
    return 3


@jit
def trader_count(S, R, B, seat, mult, cost):
    return 0


@jit
def guild_hire(S, R, B, seat):
    return False


@jit
def scroll_deck(S, R, B, seat):
    return 0


@jit
def pick_free_card(S, R, B, seat, opt_row, opt_slot, n):
    return 0


@jit
def pick_servant(S, R, B, seat, opt_seat, opt_ci, n):
    return 0


@jit
def clear_picks(S, R, B, seat, out_row, out_slot):
    return 0


@jit
def pick_recipe(S, R, B, seat, offer_only):
    return 101


@jit
def brew(S, R, B, seat, maxn, out):
    return 0


@jit
def shadow_swap(S, R, B, seat):
    return -1


@jit
def winter_keep(S, R, B, seat, cap, out):
    for i in range(10):
        out[i] = 0


@jit
def book_keep(S, R, B, seat, m, out):
    for i in range(m):
        out[i] = S.book[seat, i]
