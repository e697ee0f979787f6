"""Brewin' USA game flow: rounds of Auction, Launch and Brewfests (then income) for a batch of
games. `run_chunk` is the compiled entry point (sim/core/driver.py's loop over `play` and
`record`); sim/brewin_usa/__init__.py wraps it. A run none of whose bots searches plays on
`run_chunk_without_search`, the same flow without the search bot's launch decision, so it
compiles none of the search code.
"""

import numpy as np

from sim.core.driver import Counters, flag_violation, play_chunk, record_to_compile
from sim.core.jit import jit, jit_inline
from sim.core.ranking import rank_seats
from sim.core.rng import STREAM_DECKS, STREAM_DICE, STREAM_POLICY, STREAM_SEARCH, stream_seed
from sim.core.rounds import record_round
from sim.core.schedule import position, seat_bots
from sim.core.treatment import T_INJECT, T_REMOVE, treated_seat

from . import constants as C
from . import invariants as inv
from . import policies as pol
from . import rules as ru
from . import search as se
from .schema import GAMES, PLAYERS

G, P = GAMES.at, PLAYERS.at  # output column indices by name


@jit_inline
def seed_streams(S, seed, game_id):
    for s in range(1 + 3 * C.MAX_PLAYERS):  # one call site: a single compiled signature
        stream, sub = STREAM_DECKS, 0
        if s >= 1 + 2 * C.MAX_PLAYERS:
            stream, sub = STREAM_SEARCH, s - 1 - 2 * C.MAX_PLAYERS
        elif s >= 1 + C.MAX_PLAYERS:
            stream, sub = STREAM_POLICY, s - 1 - C.MAX_PLAYERS
        elif s >= 1:
            stream, sub = STREAM_DICE, s - 1
        S.rng[s] = stream_seed(seed, game_id, stream, sub)


@jit_inline
def decided(S):
    S.g[C.G_DECISIONS] += 1


# --- setup -----------------------------------------------------------------------------------------

@jit_inline
def redraws(S, R, n, pols, game_id):
    """Each player may swap up to redraw_max beer cards for new ones (drawn after discarding)."""
    for s in range(n):
        swapped = 0
        for b in range(C.BEER_SLOTS):
            if swapped >= ru.param(R, C.P_REDRAW_MAX):
                break
            if S.beer[b, C.B_LOC] != C.LOC_HAND or S.beer[b, C.B_OWNER] != s:
                continue
            decided(S)
            if pol.wants_redraw(S, R, s, pols[s], b):
                S.seats[C.ROW_TMP, swapped] = b
                swapped += 1
        for i in range(swapped):
            ru.discard_beer(S, S.seats[C.ROW_TMP, i])
        for _ in range(swapped):
            ru.draw_beer(S, s)


# --- auction -----------------------------------------------------------------------------------------

@jit_inline
def seat_after(s, k, n):
    """(s + k) % n for seats 0 <= s < n and 0 <= k <= n, without a division (its latency
    weighed on every bid)."""
    o = s + k
    return o - n if o >= n else o


@jit_inline
def next_without_batch(S, n, after):
    for k in range(1, n + 1):
        s = seat_after(after, k, n)
        if S.pl[s, C.HAS_BATCH] == 0:
            return s
    return -1


@jit_inline
def bidding(S, R, n, pols, b, opener, open_bid):
    """Clockwise bidding on batch b from the opener's bid; returns the winner, price in S.g[G_POT]-free
    form as (winner, price)."""
    for s in range(n):
        S.pl[s, C.PASSED] = 0
    leader, high, s = opener, open_bid, opener
    while True:
        nxt = -1
        for k in range(1, n):
            o = seat_after(s, k, n)
            if o != leader and S.pl[o, C.HAS_BATCH] == 0 and S.pl[o, C.PASSED] == 0:
                nxt = o
                break
        if nxt < 0:
            return leader, high
        s = nxt
        decided(S)
        bid = pol.raise_to(S, R, s, pols[s], b, high)
        if bid > high and bid <= S.pl[s, C.BANK]:
            leader, high = s, bid
        else:
            S.pl[s, C.PASSED] = 1


@jit
def auction(S, R, n, pols, game_id):
    for b in range(n):
        ru.build_batch(S, R, b)
        packed = 0  # the cards, 6 bits each, for the replay log
        for i in range(S.batch[b, C.BT_N]):
            packed |= S.batch[b, i] << (6 * i)
        ru.trace(S, C.TR_BATCH, -1, b, S.batch[b, C.BT_N], S.batch[b, C.BT_HIDDEN], packed, 0)
        ru.offer_batch(S, R, b, n, game_id)
    for s in range(n):
        S.pl[s, C.HAS_BATCH] = 0
    pol.forget_auction_values(S)
    S.g[C.G_POT] = 0
    dealer = S.g[C.G_DEALER]
    nominator = (dealer + 1) % n
    for k in range(n):
        if k == n - 1:  # the last batch is free
            for b in range(n):
                if S.batch[b, C.BT_OWNER] < 0:
                    ru.give_batch(S, R, nominator, b, np.int64(0), game_id)
            break
        decided(S)
        b = pol.nominate(S, R, nominator, pols[nominator], n)
        decided(S)
        open_bid = min(max(pol.opening_bid(S, R, nominator, pols[nominator], b), ru.param(R, C.P_MIN_OPEN)),
                       S.pl[nominator, C.BANK])
        winner, price = bidding(S, R, n, pols, b, nominator, open_bid)
        ru.give_batch(S, R, winner, b, price, game_id)
        nominator = next_without_batch(S, n, winner)
    pot = S.g[C.G_POT]
    S.g[C.G_POT] = 0
    spread_pile(S, R, dealer, pols[dealer], pot)


@jit_inline
def spread_pile(S, R, seat, p, caps):
    """`seat` spreads `caps` caps of Market Demand one at a time onto free cities (the bag when
    there is none)."""
    for i in range(caps):
        decided(S)
        c = pol.pile_city(S, R, seat, p, i == 0)
        ru.add_demand(S, c, 1)
        ru.trace(S, C.TR_DEMAND, seat, c, 1, 0, 0, 0)


# --- launch ----------------------------------------------------------------------------------------

@jit_inline
def adjunct_action(S, R, n, pols, seat, kind):
    S.pl[seat, C.ST_ADJUNCTS] += 1
    p = pols[seat]
    a = 0
    b = 0
    if kind == C.COFFEE:
        a = ru.coffee(S, R, seat, n)
    elif kind == C.PUMPKIN:
        a = ru.pumpkin(S, R, seat)
    elif kind == C.CITRUS:
        decided(S)
        mv = pol.citrus_beer(S, R, seat, p)
        a = mv
        if mv >= 0:
            left = S.beer[mv, C.B_CITY] if S.beer[mv, C.B_LOC] == C.LOC_CITY else -1
            ru.lift_beer(S, mv)
            if left >= 0:  # a move goes to a new location: the city just left is no choice
                S.city[left, C.CT_ACTIVE] = 0
            decided(S)
            c = pol.choose_target(S, R, seat, p, mv)
            if left >= 0:
                S.city[left, C.CT_ACTIVE] = 1
            ru.place_beer(S, mv, seat, c)
            b = c
    else:
        decided(S)
        pol.berry_pair(S, R, seat, p)
        a, b = S.seats[C.ROW_TMP, 0], S.seats[C.ROW_TMP, 1]
        ru.berry(S, a, b)
    ru.trace(S, C.TR_ADJUNCT, seat, kind, a, b, 0, 0)


@jit_inline
def refill_beers(S, R, seat, pols, game_id):
    """Draw, then discard down to the beer hand: the beers in hand are found once (in S.vals,
    slot order) and each discard leaves that list."""
    for _ in range(ru.param(R, C.P_BEERS_DRAWN)):
        ru.draw_beer(S, seat)
    k = ru.seat_beers(S.beer, seat, ru.IN_HAND, S.vals)
    while k > ru.param(R, C.P_BEER_HAND):
        decided(S)
        i = pol.discard_choice(S, R, seat, pols[seat], k)
        ru.discard_beer(S, np.int64(S.vals[i]))
        k -= 1
        for j in range(i, k):
            S.vals[j] = S.vals[j + 1]


@jit_inline
def launch_new(S, R, n, pols, seat, b, target, game_id):
    """Launch beer card b from hand: spend the fitted cards (and a bought quality), optionally an
    adjunct, mark it with a colored cap, claim or challenge city `target` (-1: the bot chooses),
    act, draw two beers, discard to 3. Inlined into its one caller, launch_beer: a compiled call
    copies every array of S and R."""
    p = pols[seat]
    use = S.scratch[C.SC_USE]
    can_buy = S.pl[seat, C.BANK] >= ru.param(R, C.P_QUALITY_COST)
    ru.match_recipe(S, R, S.hand[seat], use, S.beer[b, C.B_TYPE], can_buy)
    paid = 0
    if S.g[C.G_BUY_SLOT] >= 0:
        paid = ru.param(R, C.P_QUALITY_COST)
        S.pl[seat, C.ST_QUALITY_BOUGHT] += 1
    kind = R.beer[S.beer[b, C.B_TYPE], C.BF_ADJ]
    if kind < 0:
        decided(S)
        kind = pol.choose_adjunct(S, R, seat, p, use, n)
        if kind >= 0:
            use[ru.lowest_available(R, S.hand[seat], use, kind, np.int64(1))] += 1
    ru.spend_cards(S, seat, use)
    S.pl[seat, C.BANK] -= paid
    S.pl[seat, C.ST_CAPS_SPENT] += paid
    S.g[C.G_BAG] += paid
    S.pl[seat, C.COLORED] -= 1
    S.pl[seat, C.LAUNCHED] += 1
    decided(S)
    c = pol.choose_target(S, R, seat, p, b) if target < 0 else target
    ru.place_beer(S, b, seat, c)
    ru.log_event(S, game_id, seat, ru.beer_code(R, S.beer[b, C.B_TYPE]), C.LOG_PLAY, paid, c)
    ru.trace(S, C.TR_LAUNCH, seat, b, c, paid, S.city[c, C.CT_FEST], kind)
    if kind >= 0:
        ru.log_event(S, game_id, seat, ru.adjunct_code(R, kind), C.LOG_ADJUNCT, 0, c)
        adjunct_action(S, R, n, pols, seat, kind)
    refill_beers(S, R, seat, pols, game_id)


@jit_inline
def relaunch(S, R, seat, pols, b, target, game_id):
    cost = ru.param(R, C.P_RELAUNCH_COST)
    S.pl[seat, C.BANK] -= cost
    S.pl[seat, C.ST_CAPS_SPENT] += cost
    S.pl[seat, C.ST_RELAUNCHES] += 1
    S.g[C.G_BAG] += cost
    decided(S)
    c = pol.choose_target(S, R, seat, pols[seat], b) if target < 0 else target
    ru.place_beer(S, b, seat, c)
    ru.log_event(S, game_id, seat, ru.beer_code(R, S.beer[b, C.B_TYPE]), C.LOG_RELAUNCH, cost, c)
    ru.trace(S, C.TR_RELAUNCH, seat, b, c, cost, S.city[c, C.CT_FEST], 0)


@jit_inline
def launch(S, R, n, pols, seat, b, target, game_id):
    """The turn's launch decision carried out: beer b (-1: stop launching this turn) to city
    `target` (-1: the bot chooses); moves the resume point (S.g[G_TURN], S.g[G_TURN_LAUNCH]) on.
    Stopping, most of the decisions, is done here: a compiled call copies every array of S and R."""
    if b < 0:
        S.g[C.G_TURN] += 1
        S.g[C.G_TURN_LAUNCH] = 0
    else:
        launch_beer(S, R, n, pols, seat, b, target, game_id)


@jit
def launch_beer(S, R, n, pols, seat, b, target, game_id):
    """launch of beer b (b >= 0)."""
    if S.beer[b, C.B_LOC] == C.LOC_HAND:
        launch_new(S, R, n, pols, seat, b, target, game_id)
    else:
        relaunch(S, R, seat, pols, b, target, game_id)
    if S.g[C.G_LAST_ROUND] < 0 and S.pl[seat, C.LAUNCHED] >= ru.param(R, C.P_END_BEERS):
        S.g[C.G_LAST_ROUND] = S.g[C.G_ROUND] + ru.param(R, C.P_EXTRA_ROUNDS)
        ru.trace(S, C.TR_TRIGGER, seat, S.pl[seat, C.LAUNCHED], 0, 0, 0, 0)
    S.g[C.G_TURN_LAUNCH] += 1


@jit
def launch_phase(S, R, n, pols, game_id):
    """Each seat from the left of the dealer launches up to launches_per_round beers, from the
    resume point on. Stops before a search bot's launch decision in the live game (False; the
    search decides and calls `launch`, then the phase goes on); True once every turn is over."""
    dealer = S.g[C.G_DEALER]
    while S.g[C.G_TURN] < n:
        seat = (dealer + 1 + S.g[C.G_TURN]) % n
        if S.g[C.G_TURN_LAUNCH] >= ru.param(R, C.P_LAUNCHES):
            launch(S, R, n, pols, seat, np.int64(-1), np.int64(-1), game_id)
            continue
        if se.searches(S, R, pols, seat):
            return False
        decided(S)
        launch(S, R, n, pols, seat, pol.choose_launch(S, R, seat, pols[seat]), np.int64(-1), game_id)
    return True


# --- brewfests -----------------------------------------------------------------------------------------

@jit_inline
def in_fest(S, seat, c):
    b = S.city[c, C.CT_BEER]
    if b >= 0 and S.beer[b, C.B_OWNER] == seat:
        return True
    for x in range(C.BEER_SLOTS):
        if S.beer[x, C.B_LOC] == C.LOC_FEST and S.beer[x, C.B_CITY] == c and S.beer[x, C.B_OWNER] == seat:
            return True
    return False


@jit
def brewfest(S, R, n, pols, c, game_id):
    """Resolve the Brewfest at city c (see rules.py)."""
    ru.fest_setup(S, c, n)
    for s in range(n):
        if S.fest[s, C.F_IN]:
            decided(S)
            pol.commit_cards(S, R, s, pols[s])
    for s in range(n):  # every participant chooses its victim before anything is revealed
        if S.fest[s, C.F_IN]:
            decided(S)
            S.seats[C.ROW_TMP, s] = pol.fest_victim(S, R, s, pols[s], n)
    for s in range(n):
        if S.fest[s, C.F_IN]:
            v = S.seats[C.ROW_TMP, s]
            i = pol.blind_pick(S, s, v)
            if i >= 0:
                ru.discard_committed(S, v, i)
    winner = ru.fest_winner(S, R, c, n)
    for s in range(n):
        if S.fest[s, C.F_IN]:
            ru.trace(S, C.TR_FEST_SCORE, s, c, S.fest[s, C.F_BEER], S.fest[s, C.F_SCORE], S.fest[s, C.F_NC], 0)
    ru.return_commits(S, n)
    pile = ru.settle_fest(S, R, c, n, winner, game_id)
    decided(S)
    keep = min(max(pol.pile_to_leave(S, R, winner, pols[winner], c, pile), 0), pile)
    S.city[c, C.CT_DEMAND] += keep
    S.pl[winner, C.BANK] += pile - keep
    ru.trace(S, C.TR_FEST_END, winner, c, pile, keep, 0, 0)
    for s in range(n):
        if S.fest[s, C.F_IN] and s != winner:
            spread_pile(S, R, s, pols[s], S.fest[s, C.F_SCORE])
    S.g[C.G_FESTS] += 1


@jit_inline
def brewfests(S, R, n, pols, game_id):
    """One at a time, starting with the Brewfests of the first participant left of the dealer
    (a player in two resolves them in city order)."""
    dealer = S.g[C.G_DEALER]
    for k in range(n):
        seat = (dealer + 1 + k) % n
        for c in range(C.N_CITIES):
            if S.city[c, C.CT_FEST] and in_fest(S, seat, c):
                ru.trace(S, C.TR_FEST, seat, c, 0, 0, 0, 0)
                brewfest(S, R, n, pols, c, game_id)


# --- the game ----------------------------------------------------------------------------------------

@jit_inline
def verify(S, R, n, check, phase):
    """With `check`, assert the invariants after `phase`; a violation stops the game (True)."""
    return check and flag_violation(S.g, C.G_VIOLATION, C.G_PHASE, inv.check_state(S, R, n), phase)


@jit
def play_on(S, R, n, pols, game_id, check):
    """Play from the resume point (round S.g[G_ROUND]; S.g[G_TURN] < 0: from its start, else
    from that launch turn) to the end of the game: OUT_DONE (S.g[G_ROUND] = rounds played),
    OUT_ABORTED (an invariant broke or a buffer overflowed), or, in the live game, OUT_SEARCH
    before a search bot's launch decision (the resume point is then that decision)."""
    while True:
        r = S.g[C.G_ROUND]
        if S.g[C.G_TURN] < 0:
            S.g[C.G_DEALER] = r % n
            ru.trace(S, C.TR_ROUND, r % n, r + 1, 0, 0, 0, 0)
            auction(S, R, n, pols, game_id)
            if verify(S, R, n, check, 1):
                return C.OUT_ABORTED
            S.g[C.G_TURN] = 0
            S.g[C.G_TURN_LAUNCH] = 0
        if not launch_phase(S, R, n, pols, game_id):
            return C.OUT_SEARCH
        if verify(S, R, n, check, 2):
            return C.OUT_ABORTED
        brewfests(S, R, n, pols, game_id)
        if verify(S, R, n, check, 3):
            return C.OUT_ABORTED
        ru.income(S, R, n)
        if verify(S, R, n, check, 4) or S.g[C.G_VIOLATION] or S.g[C.G_OVERFLOW]:
            return C.OUT_ABORTED
        if S.g[C.G_ROLLOUT] == 0:
            record_standing(S, R, n, game_id, r + 1)
        S.g[C.G_TURN] = -1
        if S.g[C.G_LAST_ROUND] >= 0 and r >= S.g[C.G_LAST_ROUND]:
            S.g[C.G_END_REASON] = C.END_THIRD
            S.g[C.G_ROUND] = r + 1
            return C.OUT_DONE
        if r + 1 >= ru.param(R, C.P_MAX_ROUNDS):
            S.g[C.G_END_REASON] = C.END_LIMIT
            S.g[C.G_ROUND] = r + 2  # as this game has always counted a game stopped by the limit
            return C.OUT_DONE
        S.g[C.G_ROUND] = r + 1


# --- the search bot (docs/games/brewin_usa.md, Search bot; search.py) ---------------------------------

@jit
def rollout(S, T, R, n, seat, game_id, b, c, sample):
    """One rollout: T := a determinised copy of the live game S (search.determinise, seeded by
    `sample`), seat's option (b, c) carried out in it, then every seat plays the search bot's own
    heuristic (greedy's weights) to the end. Returns the result's value to seat; S is only read."""
    p = S.seats[C.ROW_POLICY, seat]
    se.copy_state(S, T)
    se.determinise(T, seat, n, sample)
    pols = T.seats[C.ROW_POLICY]
    for s in range(n):
        pols[s] = p
    launch(T, R, n, pols, seat, b, c, game_id)
    if play_on(T, R, n, pols, game_id, False) != C.OUT_DONE:
        return 0.0
    return se.rollout_value(T, R, n, seat, R.pol_w[p, C.W_SCORE_MARGIN])


@jit
def search_launch(S, R, X, n, pols, game_id):
    """The launch decision of the search bot at the resume point: greedy's top options
    (search.launch_candidates), `budget` rollouts dealt round-robin over them, the same
    determinisation for each option of a round (common random numbers); the best mean is
    launched in S. A forced choice (one option) takes no rollout."""
    seat = (S.g[C.G_DEALER] + 1 + S.g[C.G_TURN]) % n
    p = pols[seat]
    decided(S)
    cand = X.cand
    k = se.launch_candidates(S, R, seat, p, cand)
    todo = se.budget(R, p) if k > 1 else 0
    done = 0
    while done < todo:
        sample = se.next_sample(S, seat)
        for i in range(k):
            if done == todo:
                break
            v = rollout(S, X.scratch, R, n, seat, game_id, np.int64(cand[i, se.CAND_BEER]),
                        np.int64(cand[i, se.CAND_CITY]), sample)
            cand[i, se.CAND_SUM] += v
            cand[i, se.CAND_N] += 1.0
            done += 1
    S.pl[seat, C.ST_ROLLOUTS] += done
    i = se.best_candidate(cand, k)
    launch(S, R, n, pols, seat, np.int64(cand[i, se.CAND_BEER]), np.int64(cand[i, se.CAND_CITY]), game_id)


@jit_inline
def record_standing(S, R, n, game_id, rnd):
    """VP each seat would score if the game ended after this round (final scoring is a pure
    function of the board, recomputed from scratch each time) -> the rounds buffer."""
    ru.final_score(S, R, n)
    record_round(S.rnd, S.g, C.G_ROUNDS, C.G_OVERFLOW, game_id, rnd, S.pl, C.SCORE, n)


@jit_inline
def setup(S, R, X, n, pols, game_id, treated):
    """Decks, cities and players, the run's treatment (X = treatment.codes: kind, target beer
    type) applied where it leaves every draw as in the untreated game, then the redraws."""
    ru.setup_decks(S, R, n)
    if X.codes[0] == T_REMOVE:
        ru.remove_beer_type(S, R, X.codes[1])
    ru.setup_players(S, R, n, game_id)
    if treated >= 0:
        ru.inject_beer(S, X.codes[1], treated)
    redraws(S, R, n, pols, game_id)


@jit
def play_game(S, R, X, n, pols, seed, game_id, check, treated, search):
    """Play one whole game; the result is left in S.pl. `treated`: the seat given the injected
    beer card, or -1. `search` is X, or None in the kernel without search: numba then drops the
    search branch before typing it, so none of the search code is compiled (and with no
    search bot, play_on never stops for one)."""
    kept_events, kept_trace, kept_rounds = S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS]
    S.g[:] = 0
    S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS] = kept_events, kept_trace, kept_rounds
    S.g[C.G_N] = n
    S.g[C.G_LAST_ROUND] = -1
    S.g[C.G_TREATED] = treated
    for s in range(C.MAX_PLAYERS):
        for t in range(S.hand.shape[1]):
            S.hand[s, t] = 0
    seed_streams(S, seed, game_id)
    setup(S, R, X, n, pols, game_id, treated)
    if verify(S, R, n, check, 0):
        return
    S.g[C.G_TURN] = -1
    while True:
        out = play_on(S, R, n, pols, game_id, check)
        if out == C.OUT_ABORTED:
            return
        if out == C.OUT_DONE:
            break
        if search is not None:
            search_launch(S, R, search, n, pols, game_id)
    ru.final_score(S, R, n)
    for s in range(n):
        ru.trace(S, C.TR_SCORE, s, S.pl[s, C.VP_CITIES], S.pl[s, C.VP_REGIONS], S.pl[s, C.VP_BEERS],
                 S.pl[s, C.VP_BANK], S.pl[s, C.SCORE])


@jit_inline
def seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, search):
    """Seat game `game_id` by the seat schedule and play it."""
    n = counts[game_id % counts.shape[0]]
    k = position(game_id, counts)
    seat_bots(k, n, seat_policies, S.seats[C.ROW_POLICY])
    treated = treated_seat(k, n, seat_policies.shape[0]) if X.codes[0] == T_INJECT else np.int64(-1)
    play_game(S, R, X, n, S.seats[C.ROW_POLICY], seed, game_id, check, treated, search)
    return n


@jit_inline
def play(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play`, every bot."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, X)


@jit_inline
def play_without_search(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play` for a run none of whose bots searches."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, None)


@jit
def record(S, R, X, game_id, n, game_row, player_rows, win_rows):
    """Rank by VP (the rulebook gives no tie-breaker, so tied players share the win) and fill
    the game's output rows (schema.py)."""
    ranks = S.seats[C.ROW_RANK]
    winners = rank_seats(S.pl, n, (C.SCORE,), ranks, win_rows)
    for s in range(n):
        row = player_rows[s]
        row[P.game_id] = game_id
        row[P.seat] = s
        row[P.policy] = S.seats[C.ROW_POLICY, s]
        row[P.score] = S.pl[s, C.SCORE]
        row[P.rank] = ranks[s]
        row[P.beers_launched] = S.pl[s, C.LAUNCHED]
        for k in range(C.VP_CITIES, C.SCORE):  # the VP parts; the score is in P.score already
            row[P.vp_cities + k - C.VP_CITIES] = S.pl[s, k]
        for k in range(C.ST_FESTS_WON, C.ST_CITIES + 1):
            row[P.brewfests_won + k - C.ST_FESTS_WON] = S.pl[s, k]
        row[P.search_rollouts] = S.pl[s, C.ST_ROLLOUTS]
    demand = 0
    for c in range(C.N_CITIES):
        demand += S.city[c, C.CT_DEMAND]
    game_row[G.game_id] = game_id
    game_row[G.n_players] = n
    game_row[G.rounds] = S.g[C.G_ROUND]
    game_row[G.decisions] = S.g[C.G_DECISIONS]
    game_row[G.end_reason] = S.g[C.G_END_REASON]
    game_row[G.n_winners] = winners
    game_row[G.brewfests] = S.g[C.G_FESTS]
    game_row[G.market_demand_left] = demand
    game_row[G.caps_in_bag] = S.g[C.G_BAG]
    game_row[G.treated_seat] = S.g[C.G_TREATED]


COUNTERS = Counters(C.G_EVENTS, C.G_ROUNDS, C.G_OVERFLOW, C.G_VIOLATION)


@jit
def run_chunk(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
              events_per_game_max, rounds_per_game_max, check):
    """The compiled entry point: sim/core/driver.py's loop over Brewin' USA's play and record."""
    return play_chunk(play, record, COUNTERS, S, R, X, seed, first_game, n_games, counts, seat_policies,
                      games, players, wins, events_per_game_max, rounds_per_game_max, check)


@jit
def run_chunk_without_search(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
                             events_per_game_max, rounds_per_game_max, check):
    """run_chunk for a run none of whose bots searches: the same games, without compiling the
    search bot's rollouts."""
    return play_chunk(play_without_search, record, COUNTERS, S, R, X, seed, first_game, n_games, counts,
                      seat_policies, games, players, wins, events_per_game_max, rounds_per_game_max, check)


def compile_ahead(S, R, X):
    """The big functions of this kernel's call tree, in the order it reaches them (callees
    first), with arguments of the types it passes: a cold compile shares them between two
    processes (sim/core/ahead.py)."""
    pols = S.seats[C.ROW_POLICY]
    return [(ru.setup_decks, (S, R, 0)),
            (ru.deal_beer, (S, R, 0, 0)),
            (inv.check_state, (S, R, 0)),
            (auction, (S, R, 0, pols, 0)),
            (launch_phase, (S, R, 0, pols, 0)),
            (brewfest, (S, R, 0, pols, 0, 0)),
            (ru.final_score, (S, R, 0)),
            (play_on, (S, R, 0, pols, 0, False)),
            record_to_compile(record, S, R, X, GAMES, PLAYERS)]
