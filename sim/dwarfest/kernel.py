"""Dwarfest game flow: one Evening after another, phases in rulebook order, for a batch of
games. `run_chunk` is the compiled entry point; sim/dwarfest/__init__.py wraps it. A run none
of whose bots searches plays on `run_chunk_without_search`, the same flow with the search bot's
decisions replaced by the scripts', so it compiles none of the search code.

The search bot (search.py) plays rollouts with the same phases: `finish_game` resumes a
copied state at the Restocking reveal (every hidden choice made) or inside Table Service (at
the next seat of the service order) and plays it to the end. The real game's flow
(`play_game`) calls the searching versions of those two decisions; a rollout never does, so
no search runs inside a search.

Output columns are preallocated by the caller. A chunk stops early (returning the number of
games completed) when the event buffer could overflow, so nothing is ever truncated.
"""

from sim.core.driver import Counters, flag_violation, play_chunk, record_to_compile
from sim.core.jit import jit, jit_inline
from sim.core.ranking import rank_seats
from sim.core.rng import (
    STREAM_DECKS,
    STREAM_DICE,
    STREAM_POLICY,
    STREAM_SEARCH,
    next_u64,
    stream_seed,
)
from sim.core.rounds import record_round
from sim.core.schedule import position, seat_bots
from sim.core.treatment import T_INJECT, T_REMOVE, treated_seat

from . import constants as C
from . import invariants as inv
from . import policies as pol
from . import rules as ru
from . import search as sr
from .schema import GAMES, PLAYERS

G, P = GAMES.at, PLAYERS.at  # output column indices by name


@jit
def seed_streams(S, seed, game_id):
    S.rng[0] = stream_seed(seed, game_id, STREAM_DECKS, 0)
    for s in range(C.MAX_PLAYERS):
        S.rng[1 + s] = stream_seed(seed, game_id, STREAM_DICE, s)
        S.rng[1 + C.MAX_PLAYERS + s] = stream_seed(seed, game_id, STREAM_POLICY, s)
        S.rng[sr.search_stream(s)] = stream_seed(seed, game_id, STREAM_SEARCH, s)


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
def choose_restocks(S, R, n, seats_pol):
    for seat in range(n):  # hidden, simultaneous choices
        decided(S)
        pol.choose_restock(S, R, seat, n, seats_pol[seat])


@jit
def reveal_restocks(S, R, n, seats_pol, game_id):
    for k in range(n):  # revealed and carried out from the Dealer
        ru.carry_out_restock(S, R, S.seats[C.ROW_ORDER, k], game_id)
    event_window(S, R, n, seats_pol, C.WIN_RESTOCK, game_id)


@jit_inline
def restocking(S, R, n, seats_pol, game_id):
    choose_restocks(S, R, n, seats_pol)
    reveal_restocks(S, R, n, seats_pol, game_id)


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
def apply_picks(S, R, seat, nr, nt):
    """Carry out a bot's Table Service picks (S.picks rows PICK_REFUSE, PICK_TAKE)."""
    for i in range(nt):  # descending pool indices, taken before own refusals join the pool
        ru.take_from_pool(S, seat, S.picks[C.PICK_TAKE, i])
    for i in range(nr):
        ru.refuse_card(S, R, seat, S.picks[C.PICK_REFUSE, i])


@jit
def pour(S, R, seat, p):
    """Open the Barrels the bot asks for and serve the dwarves it kept."""
    decided(S)
    barrels = pol.choose_barrels(S, R, seat, p)
    ru.serve(S, R, seat, barrels, R.pol_w[p, C.W_BAR_SKILL])


@jit
def serve_seat(S, R, seat, p):
    decided(S)
    nr, nt = pol.choose_service(S, R, seat, p, S.picks[C.PICK_REFUSE], S.picks[C.PICK_TAKE])
    apply_picks(S, R, seat, nr, nt)
    pour(S, R, seat, p)


@jit
def serve_from(S, R, n, seats_pol, k0):
    """Table Service from the k0-th seat of the service order on (0: the whole phase)."""
    row = service_row(R)
    for k in range(k0, n):
        seat = S.seats[row, k]
        serve_seat(S, R, seat, seats_pol[seat])
    ru.clear_pool(S)


@jit
def table_service(S, R, n, seats_pol):
    serve_from(S, R, n, seats_pol, 0)


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
    record_round(S.rnd, S.g, C.G_ROUNDS, C.G_OVERFLOW, game_id, evening, S.pl, C.TILL, n)


@jit
def begin_evening(S, n, e):
    S.g[C.G_EVENING] = e
    S.g[C.G_DEALER] = e % n
    ru.set_dealer_order(S, n, e % n)
    ru.trace(S, C.TR_EVENING, e % n, e + 1, 0, 0, 0, 0)


@jit
def close_evening(S, R, n, seats_pol, game_id, last):
    """The Evening after Table Service: the Brawl Events, the Brawls, Cash-in."""
    event_window(S, R, n, seats_pol, C.WIN_BRAWL, game_id)
    brawls(S, R, n, seats_pol, game_id)
    cash_in(S, R, n, seats_pol, game_id, last)


# --- the search bot's rollouts and decisions (search.py) ----------------------------------------

@jit
def finish_game(S, R, n, bots, game_id, stage, k0):
    """Play a rollout's copy from its resume point to the end of the game: from the
    Restocking reveal (STAGE_REVEAL), or from seat k0 of the service order (STAGE_SERVICE)."""
    e = S.g[C.G_EVENING]
    evenings = ru.param(R, C.P_EVENINGS)
    if stage == C.STAGE_REVEAL:
        reveal_restocks(S, R, n, bots, game_id)
        opening(S, R, n)
        event_window(S, R, n, bots, C.WIN_OPENING, game_id)
        k0 = 0
    serve_from(S, R, n, bots, k0)
    close_evening(S, R, n, bots, game_id, e == evenings - 1)
    for later in range(e + 1, evenings):
        begin_evening(S, n, later)
        restocking(S, R, n, bots, game_id)
        opening(S, R, n)
        event_window(S, R, n, bots, C.WIN_OPENING, game_id)
        table_service(S, R, n, bots)
        close_evening(S, R, n, bots, game_id, later == evenings - 1)


@jit_inline
def restock_rollout(S, R, F, n, seat, c, seed, game_id):
    """One rollout of Restocking candidate c: determinise, let the rivals make their hidden
    choices on the sampled state, apply c, play to the end; returns the rollout's score.
    S itself is only read."""
    W = F.scratch
    sr.determinise(W, S, seat, n, seed, F.sizes)
    for s in range(n):
        if s != seat:
            pol.choose_restock(W, R, s, n, F.bots[s])
    sr.apply_restock(W, seat, F.cands[c])
    finish_game(W, R, n, F.bots, game_id, C.STAGE_REVEAL, 0)
    return sr.rollout_score(W, n, seat, R.pol_w[F.bots[seat], C.W_MARGIN_WEIGHT])


@jit_inline
def search_restock(S, R, F, n, seat, p, game_id):
    """Replace greedy's hidden Restocking choice of `seat` by the candidate with the best
    mean rollout score."""
    n_c = sr.restock_candidates(S, R, seat, F.cands, sr.candidate_limit(R, p))
    if n_c < 2:
        return
    sr.rollout_bots(F.bots, p)
    rounds = sr.rounds_for(R, p, n_c)
    F.value[:n_c] = 0.0
    for _ in range(rounds):
        seed = next_u64(S.rng, sr.search_stream(seat))
        for c in range(n_c):
            F.value[c] += restock_rollout(S, R, F, n, seat, c, seed, game_id)
    S.pl[seat, C.SEARCH_ROLLOUTS] += rounds * n_c
    sr.apply_restock(S, seat, F.cands[sr.best_candidate(F.value, n_c)])


@jit_inline
def search_restocks(S, R, F, n, seats_pol, game_id):
    for seat in range(n):
        if sr.is_searching(R, seats_pol[seat]):
            search_restock(S, R, F, n, seat, seats_pol[seat], game_id)


@jit
def apply_service_candidate(S, R, F, seat, c, nr, nt):
    """Candidate 0 is greedy's own picks; the others refuse F.cands[c, 0] cards in greedy's order."""
    if c == 0:
        apply_picks(S, R, seat, nr, nt)
    else:
        sr.apply_refusals(S, R, seat, nt, F.cands[c, 0], F.order)


@jit_inline
def service_rollout(S, R, F, n, k, c, nr, nt, seed, game_id):
    """One rollout of Table Service candidate c of the k-th seat of the service order (S is
    only read)."""
    W = F.scratch
    seat = S.seats[service_row(R), k]
    sr.determinise(W, S, seat, n, seed, F.sizes)
    apply_service_candidate(W, R, F, seat, c, nr, nt)
    pour(W, R, seat, F.bots[seat])
    finish_game(W, R, n, F.bots, game_id, C.STAGE_SERVICE, k + 1)
    return sr.rollout_score(W, n, seat, R.pol_w[F.bots[seat], C.W_MARGIN_WEIGHT])


@jit_inline
def search_service(S, R, F, n, k, p, game_id):
    """The k-th seat's Table Service, its refusals chosen by rollouts among greedy's count
    and its neighbours."""
    seat = S.seats[service_row(R), k]
    decided(S)
    nr, nt = pol.choose_service(S, R, seat, p, S.picks[C.PICK_REFUSE], S.picks[C.PICK_TAKE])
    best = 0
    n_c = sr.service_candidates(nr, S.pl[seat, C.N_DRAWN], F.cands, sr.candidate_limit(R, p))
    if n_c > 1:
        sr.refusal_order(S, R, seat, p, nt, F.order)
        sr.rollout_bots(F.bots, p)
        rounds = sr.rounds_for(R, p, n_c)
        F.value[:n_c] = 0.0
        for _ in range(rounds):
            seed = next_u64(S.rng, sr.search_stream(seat))
            for c in range(n_c):
                F.value[c] += service_rollout(S, R, F, n, k, c, nr, nt, seed, game_id)
        S.pl[seat, C.SEARCH_ROLLOUTS] += rounds * n_c
        best = sr.best_candidate(F.value, n_c)
    apply_service_candidate(S, R, F, seat, best, nr, nt)
    pour(S, R, seat, p)


@jit_inline
def live_table_service(S, R, F, n, seats_pol, game_id):
    """Table Service of the real game: a search bot weighs its refusals by rollouts."""
    row = service_row(R)
    for k in range(n):
        seat = S.seats[row, k]
        if sr.is_searching(R, seats_pol[seat]):
            search_service(S, R, F, n, k, seats_pol[seat], game_id)
        else:
            serve_seat(S, R, seat, seats_pol[seat])
    ru.clear_pool(S)


@jit_inline
def no_restock_search(S, R, F, n, seats_pol, game_id):
    """run_chunk_without_search: no seat searches, so greedy's hidden choices stand."""


@jit_inline
def scripted_table_service(S, R, F, n, seats_pol, game_id):
    """run_chunk_without_search: every seat serves by its own script."""
    table_service(S, R, n, seats_pol)


@jit
def verify(S, R, n, check, phase):
    """With `check`, assert the invariants after `phase`; a violation stops the game (True)."""
    return check and flag_violation(S.g, C.G_VIOLATION, C.G_PHASE, inv.check_state(S, R, n), phase)


@jit
def setup(S, R, X, n, game_id, treated):
    """Shuffle, apply a remove treatment to the shuffled deck, deal (logging the opening
    offers), then give an inject treatment's card to seat `treated`. X = (kind, target) from
    sim.core.treatment.codes, in X.codes); the target index is the card type."""
    codes = X.codes
    ru.setup_decks(S, R)
    if codes[0] == T_REMOVE:
        ru.replace_in_deck(S, codes[1], ru.neutral_card(R))
    ru.setup_players(S, R, n)
    ru.log_opening_offers(S, n, game_id)
    if codes[0] == T_INJECT:
        ru.inject_card(S, treated, codes[1])


@jit_inline
def play_game(S, R, X, n, seats_pol, seed, game_id, check, treated, restock_search, service):
    """Play one whole game (treated: the inject seat, or -1); the result is left in S.pl / S.st.
    `restock_search` and `service` are the search bot's decisions (search_restocks,
    live_table_service) or, in the kernel without search, no_restock_search and
    scripted_table_service."""
    kept_events, kept_trace, kept_rounds = S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS]
    S.g[:] = 0
    S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS] = kept_events, kept_trace, kept_rounds  # rows of earlier games stay
    S.g[C.G_N] = n
    seed_streams(S, seed, game_id)
    setup(S, R, X, n, game_id, treated)
    if verify(S, R, n, check, 0):
        return
    evenings = ru.param(R, C.P_EVENINGS)
    for e in range(evenings):
        begin_evening(S, n, e)
        choose_restocks(S, R, n, seats_pol)
        restock_search(S, R, X.search, n, seats_pol, game_id)
        reveal_restocks(S, R, n, seats_pol, game_id)
        if verify(S, R, n, check, 1):
            return
        opening(S, R, n)
        if verify(S, R, n, check, 2):
            return
        event_window(S, R, n, seats_pol, C.WIN_OPENING, game_id)
        if verify(S, R, n, check, 3):
            return
        service(S, R, X.search, n, seats_pol, game_id)
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


@jit_inline
def seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, restock_search, service):
    """Seat game `game_id` by the seat schedule and play it. X is the run's treatment
    (sim.core.treatment.codes); an inject goes to the balanced treated seat."""
    n = counts[game_id % counts.shape[0]]
    k = position(game_id, counts)
    seat_bots(k, n, seat_policies, S.seats[C.ROW_POLICY])
    treated = treated_seat(k, n, seat_policies.shape[0]) if X.codes[0] == T_INJECT else -1
    play_game(S, R, X, n, S.seats[C.ROW_POLICY], seed, game_id, check, treated, restock_search, service)
    return n


@jit_inline
def play(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play`, every bot."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, search_restocks, live_table_service)


@jit_inline
def play_without_search(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play` for a run none of whose bots searches."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, no_restock_search,
                         scripted_table_service)


@jit
def record(S, R, X, game_id, n, game_row, player_rows, win_rows):
    """Rank by Nuggets (ties share the win) and fill the game's output rows (schema.py)."""
    ranks = S.seats[C.ROW_RANK]
    winners = rank_seats(S.pl, n, (C.TILL,), ranks, win_rows)
    total_brawls = 0
    total_destroyed = 0
    for s in range(n):
        total_brawls += S.st[s, C.ST_BRAWLS]
        total_destroyed += S.st[s, C.ST_DESTROYED]
        row = player_rows[s]
        row[P.game_id] = game_id
        row[P.seat] = s
        row[P.policy] = S.seats[C.ROW_POLICY, s]
        row[P.score] = S.pl[s, C.TILL]
        row[P.rank] = ranks[s]
        row[P.fame] = S.pl[s, C.FAME]
        row[P.tables] = S.pl[s, C.TABLES]
        row[P.barrels] = S.pl[s, C.BARRELS]
        row[P.dancers] = S.pl[s, C.DANCERS]
        row[P.search_rollouts] = S.pl[s, C.SEARCH_ROLLOUTS]
        for k in range(C.N_ST):
            row[P.brawls_broken + k] = S.st[s, k]
    game_row[G.game_id] = game_id
    game_row[G.n_players] = n
    game_row[G.rounds] = ru.param(R, C.P_EVENINGS)
    game_row[G.decisions] = S.g[C.G_DECISIONS]
    game_row[G.end_reason] = 0
    game_row[G.n_winners] = winners
    game_row[G.brawls] = total_brawls
    game_row[G.taverns_destroyed] = total_destroyed
    game_row[G.treated_seat] = S.g[C.G_TREATED] if S.g[C.G_INJECTED] > 0 else -1


COUNTERS = Counters(C.G_EVENTS, C.G_ROUNDS, C.G_OVERFLOW, C.G_VIOLATION)


@jit
def run_chunk(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
              events_per_game_max, rounds_per_game_max, check):
    """The compiled entry point: sim/core/driver.py's loop over Dwarfest's play and record."""
    return play_chunk(play, record, COUNTERS, S, R, X, seed, first_game, n_games, counts, seat_policies,
                      games, players, wins, events_per_game_max, rounds_per_game_max, check)



@jit
def run_chunk_without_search(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
                             events_per_game_max, rounds_per_game_max, check):
    """run_chunk for a run none of whose bots searches: the same games, without compiling the
    search bot (its rollouts replay the whole game, so it is about half the cold compile)."""
    return play_chunk(play_without_search, record, COUNTERS, S, R, X, seed, first_game, n_games, counts,
                      seat_policies, games, players, wins, events_per_game_max, rounds_per_game_max, check)


def compile_ahead(S, R, X):
    """The big functions of this kernel's call tree, in the order it reaches them (callees
    first), with arguments of the types it passes: a cold compile shares them between two
    processes (sim/core/ahead.py)."""
    pols = S.seats[C.ROW_POLICY]
    return [(setup, (S, R, X, 0, 0, 0)),
            (verify, (S, R, 0, False, 0)),
            (choose_restocks, (S, R, 0, pols)),
            (play_event, (S, R, 0, pols, 0, 0, 0, 0)),
            (reveal_restocks, (S, R, 0, pols, 0)),
            (serve_seat, (S, R, 0, 0)),
            (table_service, (S, R, 0, pols)),
            (brawls, (S, R, 0, pols, 0)),
            (cash_in, (S, R, 0, pols, 0, False)),
            (close_evening, (S, R, 0, pols, 0, False)),
            record_to_compile(record, S, R, X, GAMES, PLAYERS)]
