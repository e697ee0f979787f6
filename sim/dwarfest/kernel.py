"""Dwarfest game flow: one Evening after another, phases in rulebook order, for a batch of
games. `run_chunk` is the compiled entry point; sim/dwarfest/__init__.py wraps it.

Output columns are preallocated by the caller. A chunk stops early (returning the number of
games completed) when the event buffer could overflow, so nothing is ever truncated.
"""

from sim.core.errors import STATUS_FULL, STATUS_OK, STATUS_OVERFLOW, STATUS_VIOLATION
from sim.core.jit import jit, jit_inline
from sim.core.rng import STREAM_DECKS, STREAM_DICE, STREAM_POLICY, stream_seed
from sim.core.rounds import record_round
from sim.core.schedule import position, seat_bots

from . import constants as C
from . import invariants as inv
from . import policies as pol
from . import rules as ru


@jit
def seed_streams(S, seed, game_id):
    S.rng[0] = stream_seed(seed, game_id, STREAM_DECKS, 0)
    for s in range(C.MAX_PLAYERS):
        S.rng[1 + s] = stream_seed(seed, game_id, STREAM_DICE, s)
        S.rng[1 + C.MAX_PLAYERS + s] = stream_seed(seed, game_id, STREAM_POLICY, s)


@jit_inline
def decided(S):
    S.g[C.G_DECISIONS] += 1


# --- Events with their cancel chain ------------------------------------------------------------

@jit
def opponent_of(S, R, n, seats_pol, actor, target, card, cancelling):
    """The first player (clockwise from the actor) who answers the pending card with a cancel,
    or -1. A harmful Event is answered by its target; a helpful one by any rival; a cancel by
    the player whose Event it cancels."""
    for k in range(1, n + 1):
        s = (actor + k) % n
        if s == actor:
            continue
        if ru.find_cancel(S, R, s) < 0:
            continue
        if not cancelling and pol.is_harmful(R.card[card, C.CF_EVENT]) and s != target:
            continue
        decided(S)
        if pol.wants_cancel(S, R, s, seats_pol[s], card, actor, target, cancelling):
            return s
    return -1


@jit
def payment_sips(S, R, seat, p, card):
    """Sips `seat` pays `card` with: the bot's preference if it can then afford the Nuggets,
    else whichever way it can pay; -1 if it cannot pay at all."""
    sips = pol.choose_sips(S, R, seat, p, card)
    if S.pl[seat, C.TILL] >= ru.nugget_price(R, card, sips):
        return sips
    return ru.affordable(S, R, seat, card)


@jit
def play_event(S, R, n, seats_pol, seat, card, target, game_id):
    """Play Event `card`, let rivals cancel it (and cancels be cancelled), then resolve it."""
    sips = payment_sips(S, R, seat, seats_pol[seat], card)
    if sips < 0:
        return
    paid = ru.pay_card(S, R, seat, card, sips, game_id, target, C.LOG_PLAY)
    ru.trace(S, C.TR_EVENT, seat, card, target, paid, sips, 0)
    pending_actor, pending_card, pending_target = seat, card, target
    alive = True  # whether the original Event will take effect
    cancelling = False
    while True:
        answer = opponent_of(S, R, n, seats_pol, pending_actor, pending_target, pending_card, cancelling)
        if answer < 0:
            break
        cancel = ru.find_cancel(S, R, answer)
        csips = payment_sips(S, R, answer, seats_pol[answer], cancel)
        ru.pay_card(S, R, answer, cancel, csips, game_id, pending_actor, C.LOG_PLAY)
        ru.log_event(S, game_id, pending_actor, pending_card, C.LOG_CANCELLED, 0, answer)
        ru.discard_tavern_card(S, pending_card)
        ru.trace(S, C.TR_CANCEL, answer, cancel, pending_actor, pending_card, 0, 0)
        alive = not alive
        pending_target = pending_actor
        pending_actor, pending_card = answer, cancel
        cancelling = True
    if alive:
        ru.apply_event(S, R, seat, card, target)
    ru.discard_tavern_card(S, pending_card)


@jit
def event_window(S, R, n, seats_pol, window, game_id):
    """From the Dealer, each player may play the Events bots keep for this moment."""
    for k in range(n):
        seat = S.seats[C.ROW_ORDER, k]
        for t in range(R.card.shape[0]):
            if R.card[t, C.CF_EVENT] == C.EV_NONE or S.hand[seat, t] == 0 or pol.event_window(R.card[t, C.CF_EVENT]) != window:
                continue
            if ru.affordable(S, R, seat, t) < 0:
                continue
            decided(S)
            target = pol.event_target(S, R, seat, n, seats_pol[seat], t)
            if target >= 0:
                play_event(S, R, n, seats_pol, seat, t, target, game_id)


# --- the four phases and Cash-in ------------------------------------------------------------------

@jit
def restocking(S, R, n, seats_pol, game_id):
    for seat in range(n):  # hidden, simultaneous choices
        decided(S)
        pol.choose_restock(S, R, seat, n, seats_pol[seat])
    for k in range(n):  # revealed and carried out from the Dealer
        ru.carry_out_restock(S, R, S.seats[C.ROW_ORDER, k], game_id)
    event_window(S, R, n, seats_pol, C.WIN_RESTOCK, game_id)


@jit
def opening(S, R, n):
    ru.fame_order(S, n, S.g[C.G_DEALER], S.seats[C.ROW_BY_FAME])
    for k in range(n):
        seat = S.seats[C.ROW_BY_FAME][k]
        cards = ru.customer_cards_for(S, R, seat)
        got = ru.give_customer_cards(S, seat, cards)
        ru.trace(S, C.TR_DRAW, seat, cards, got, S.pl[seat, C.FAME], 0, 0)


@jit_inline
def service_row(R):
    """Turn order of Table Service: the Opening's Fame order by default, since the worked
    example (4, then 3, then 2 Customer cards) has players decide in the order they drew."""
    if R.p[C.P_SERVICE_ORDER] == C.SERVICE_BY_FAME:
        return C.ROW_BY_FAME
    return C.ROW_ORDER


@jit
def table_service(S, R, n, seats_pol):
    refuse, take = S.picks[C.PICK_REFUSE], S.picks[C.PICK_TAKE]
    row = service_row(R)
    for k in range(n):
        seat = S.seats[row, k]
        p = seats_pol[seat]
        decided(S)
        nr, nt = pol.choose_service(S, R, seat, p, refuse, take)
        for i in range(nt):  # descending pool indices, taken before own refusals join the pool
            ru.take_from_pool(S, seat, take[i])
        for i in range(nr):
            ru.refuse_card(S, R, seat, refuse[i])
        decided(S)
        barrels = pol.choose_barrels(S, R, seat, p)
        ru.serve(S, R, seat, barrels, R.pol_w[p, C.W_BAR_SKILL])
    ru.clear_pool(S)


@jit
def brawls(S, R, n, seats_pol, game_id):
    limit = ru.param(R, C.P_BRAWL_LIMIT)
    for k in range(n):
        seat = S.seats[C.ROW_ORDER, k]
        if S.pl[seat, C.BRAWL] <= limit:
            continue
        S.st[seat, C.ST_BRAWLS] += 1
        ru.trace(S, C.TR_BRAWL, seat, S.pl[seat, C.BRAWL], limit, 0, 0, 0)
        if R.p[C.P_ALCOHOLIC] > 0 and S.pl[seat, C.SIPS] > 0:
            decided(S)
            ru.calm_with_sips(S, R, seat, pol.choose_brawl_sips(S, R, seat, seats_pol[seat]))
        fight(S, R, seat, seats_pol[seat], game_id)


@jit
def fight(S, R, seat, p, game_id):
    """Wreck step by step until the Brawl is back at the limit. A Bouncer may be sacrificed
    at any moment, so the player is asked before every step, the last one included."""
    while S.pl[seat, C.BRAWL] > ru.param(R, C.P_BRAWL_LIMIT):
        if ru.bouncers_of(S, R, seat) > 0:
            decided(S)
            if pol.wants_bouncer(S, R, seat, p):
                ru.sacrifice_bouncer(S, R, seat, game_id)
                continue
        if not ru.wreck_step(S, R, seat, game_id):
            return


@jit
def cash_in(S, R, n, seats_pol, game_id, last):
    for k in range(n):
        seat = S.seats[C.ROW_ORDER, k]
        ru.cash_in(S, seat)
        ru.trace(S, C.TR_CASHIN, seat, S.pl[seat, C.TILL], S.pl[seat, C.FAME], 0, 0, 0)
    if last:
        return
    for k in range(n):
        seat = S.seats[C.ROW_ORDER, k]
        decided(S)
        card = pol.choose_discard(S, R, seat, seats_pol[seat])
        if card >= 0:
            ru.discard_from_hand(S, seat, card, game_id)
        ru.refill_hand(S, R, seat)
    for seat in range(n):
        S.pl[seat, C.BRAWL] = ru.starting_brawl(S, R, seat)


@jit_inline
def record_evening(S, n, game_id, evening):
    """Every seat's Nuggets at the end of this Evening (1-based) -> the rounds buffer."""
    at = record_round(S.rnd, S.g[C.G_ROUNDS], game_id, evening, S.pl, C.TILL, n)
    if at < 0:
        S.g[C.G_OVERFLOW] = 1
    else:
        S.g[C.G_ROUNDS] = at


@jit
def verify(S, R, n, check, phase):
    """With `check`, assert the invariants; a violation stops the game (returns True)."""
    if not check:
        return False
    code = inv.check_state(S, R, n)
    if code != inv.OK:
        S.g[C.G_VIOLATION] = code
        S.g[C.G_PHASE] = phase
        return True
    return False


@jit
def play_game(S, R, n, seats_pol, seed, game_id, check):
    """Play one whole game; the result is left in S.pl / S.st."""
    kept_events, kept_trace, kept_rounds = S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS]
    S.g[:] = 0
    S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS] = kept_events, kept_trace, kept_rounds  # rows of earlier games stay
    S.g[C.G_N] = n
    seed_streams(S, seed, game_id)
    ru.setup_decks(S, R)
    ru.setup_players(S, R, n)
    if verify(S, R, n, check, 0):
        return
    evenings = ru.param(R, C.P_EVENINGS)
    for e in range(evenings):
        S.g[C.G_EVENING] = e
        S.g[C.G_DEALER] = e % n
        ru.set_dealer_order(S, n, e % n)
        ru.trace(S, C.TR_EVENING, e % n, e + 1, 0, 0, 0, 0)
        restocking(S, R, n, seats_pol, game_id)
        if verify(S, R, n, check, 1):
            return
        opening(S, R, n)
        if verify(S, R, n, check, 2):
            return
        event_window(S, R, n, seats_pol, C.WIN_OPENING, game_id)
        if verify(S, R, n, check, 3):
            return
        table_service(S, R, n, seats_pol)
        if verify(S, R, n, check, 4):
            return
        event_window(S, R, n, seats_pol, C.WIN_BRAWL, game_id)
        if verify(S, R, n, check, 5):
            return
        brawls(S, R, n, seats_pol, game_id)
        if verify(S, R, n, check, 6):
            return
        cash_in(S, R, n, seats_pol, game_id, e == evenings - 1)
        record_evening(S, n, game_id, e + 1)
        if verify(S, R, n, check, 7):
            return


@jit
def rank_players(S, n, out_rank, out_win):
    """Rank 1 = most Nuggets; tied players share a rank and split the win."""
    best = -1
    for s in range(n):
        best = max(best, S.pl[s, C.TILL])
    winners = 0
    for s in range(n):
        if S.pl[s, C.TILL] == best:
            winners += 1
    for s in range(n):
        better = 0
        for o in range(n):
            if S.pl[o, C.TILL] > S.pl[s, C.TILL]:
                better += 1
        out_rank[s] = better + 1
        out_win[s] = 1.0 / winners if S.pl[s, C.TILL] == best else 0.0
    return winners


@jit
def run_chunk(S, R, seed, first_game, n_games, player_counts, seat_policies, games, players, wins_out,
              events_per_game_max, check):
    """Play games first_game .. first_game + n_games - 1 and fill the output columns.

    games:   int64[n_games, 8]  game_id, n_players, rounds, decisions, end_reason, n_winners,
                                Brawls, Taverns destroyed
    players: int64[n_games * 6, 10 + N_ST]  game_id, seat, policy, score, rank, n_players,
                                fame, tables, barrels, dancers, then the N_ST statistics
    wins_out: float64[n_games * 6]  1/k for a k-way shared win, else 0
    Rounds rows of the games played are left in S.rnd[:S.g[G_ROUNDS]] (sim/core/rounds.py).
    Returns (games done, player rows, event rows, status): status STATUS_OK, STATUS_FULL (the
    event or rounds buffer is nearly full: call again for the rest), STATUS_OVERFLOW (a bug), or
    STATUS_VIOLATION (with `check`: game first_game + games done broke an invariant, S.g holds
    the code and phase)."""
    seats_pol, ranks, wins = S.seats[C.ROW_POLICY], S.seats[C.ROW_RANK], S.wins
    S.g[C.G_EVENTS] = 0
    S.g[C.G_ROUNDS] = 0  # rounds rows of this call: S.rnd[:S.g[G_ROUNDS]] when it returns
    rounds_per_game_max = C.MAX_PLAYERS * ru.param(R, C.P_EVENINGS)
    ev_rows = 0
    prow = 0
    for i in range(n_games):
        if S.ev.shape[0] - ev_rows < events_per_game_max or S.rnd.shape[0] - S.g[C.G_ROUNDS] < rounds_per_game_max:
            return i, prow, ev_rows, STATUS_FULL
        game_id = first_game + i
        n = player_counts[game_id % player_counts.shape[0]]
        seat_bots(position(game_id, player_counts), n, seat_policies, seats_pol)
        play_game(S, R, n, seats_pol, seed, game_id, check)
        if S.g[C.G_OVERFLOW]:
            return i, prow, ev_rows, STATUS_OVERFLOW
        if S.g[C.G_VIOLATION]:
            return i, prow, ev_rows, STATUS_VIOLATION
        ev_rows = S.g[C.G_EVENTS]
        winners = rank_players(S, n, ranks, wins)
        total_brawls = 0
        total_destroyed = 0
        for s in range(n):
            total_brawls += S.st[s, C.ST_BRAWLS]
            total_destroyed += S.st[s, C.ST_DESTROYED]
            row = players[prow]
            row[0] = game_id
            row[1] = s
            row[2] = seats_pol[s]
            row[3] = S.pl[s, C.TILL]
            row[4] = ranks[s]
            row[5] = n
            wins_out[prow] = wins[s]
            row[6] = S.pl[s, C.FAME]
            row[7] = S.pl[s, C.TABLES]
            row[8] = S.pl[s, C.BARRELS]
            row[9] = S.pl[s, C.DANCERS]
            for k in range(C.N_ST):
                row[10 + k] = S.st[s, k]
            prow += 1
        g = games[i]
        g[0] = game_id
        g[1] = n
        g[2] = ru.param(R, C.P_EVENINGS)
        g[3] = S.g[C.G_DECISIONS]
        g[4] = 0
        g[5] = winners
        g[6] = total_brawls
        g[7] = total_destroyed
    return n_games, prow, ev_rows, STATUS_OK

