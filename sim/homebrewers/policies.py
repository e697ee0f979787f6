"""Homebrewers bots. Every decision is one function taking (S, R, seat, p, ...) where p is the bot's
row in the policy table (policies.toml); kind = random picks uniformly among legal moves, kind =
heuristic scores the options with the weights W_* (in reputation) and takes the best.

The heuristic ("greedy" and its styles "judge_hunter" and "racer"):
  * a brew of recipe r is worth the levels gained x `quality` (+ `focus` per level when r already
    leads its track for this bot), + `medal` per competitor overtaken (half when drawn level),
    + `lowest` per level lifted off the bot's lowest recipe, + the flavor tops under r and the track
    spaces passed (valued as effects);
  * an effect is worth: money x `money`, reputation x `reputation`, grain x `grain`, a trub removed
    x `sanitize`, a flavor card x `card`, a level on the lowest recipe `quality` + `lowest`;
  * a flavor card played under a recipe is worth `judge` x the rise in judge reputation (judges other
    than the lowest-recipe one) + `progress` x the rise in judge potential (each flavor judge's
    reputation x the squared share of its threshold reached: partial credit on the way to a judge)
    + `top` x its top benefit x the brews still expected on that recipe; played for its bottom
    benefit it is worth the effect; a Flavor action is worth its best use: playing the best card in
    hand, or drawing the best face-up card (or the deck top);
  * a hand of dice is worth what the plan can do with it: brews possible with the grain and clean
    spots (helped by grain and sanitize dice), then the rest at their effect values, never less than
    the $2 of forgoing a die; a trade is accepted when it raises this by `trade_margin`;
  * in the trade phase, holding a pair and an odd die, it pays $1 to match the odd die and re-roll
    the triple when the expected worth of three fresh dice beats the hand by more than the $1;
  * in the action phase the bot resolves its dice in the order flavor, event, sanitize, grain, brew,
    using a die when its action is worth at least the forgo money, else changing it for $1 to the
    most needed action or forgoing it; it buys the extra action when the best action is worth more
    than its $3, and uses its character's power when it pays, at the moment it helps most (Ananya
    and Evie first, Katherine before brewing, Tony and Gabriel last, Andrew on every brew, Colt for
    the best revealed event). Ananya's extra die is used when its action is legal and worth
    anything to the plan, else let go.
Random bots choose uniformly among the legal steps and accept trades at even odds.
"""

from collections import namedtuple

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import randint

from . import constants as C
from . import rules as ru
from .state import RNG_POL0

# A compiled call passes every array of its tuples field by field: with all of S and R, 232
# words pushed on the stack per call, which cost more than many a valuation's own work. The
# hottest valuations take views instead, the few arrays they read (same field names, so the
# helpers they inline read them as they read S and R).
EffectState = namedtuple("EffectState", "g pl board card fl")
EffectRules = namedtuple("EffectRules", "p chars pol_w cards phys events")


@jit_inline
def effect_view(S, R):
    """What valuing effects, brews (best_recipe) and events (event_worth) reads of S and R."""
    return EffectState(S.g, S.pl, S.board, S.card, S.fl), EffectRules(R.p, R.chars, R.pol_w, R.cards, R.phys, R.events)


FlavorState = namedtuple("FlavorState", "g pl board card pile fl rng vals gains")
FlavorRules = namedtuple("FlavorRules", "p pol_kind pol_w chars cards phys judges")


@jit_inline
def flavor_view(S, R):
    """What valuing flavor cards (best_play, draw_choice, flavor_action) reads of S and R:
    134 words a call instead of 232."""
    return FlavorState(S.g, S.pl, S.board, S.card, S.pile, S.fl, S.rng, S.vals, S.gains), \
        FlavorRules(R.p, R.pol_kind, R.pol_w, R.chars, R.cards, R.phys, R.judges)


TradeState = namedtuple("TradeState", "g pl dice rng vals hands")
TradeRules = namedtuple("TradeRules", "p pol_kind pol_w chars")


@jit_inline
def trade_view(S, R):
    """What valuing dice in the trade phase (swap_gains, trade_change, swap_gain) reads of S and
    R: 80 words a call instead of 232."""
    return TradeState(S.g, S.pl, S.dice, S.rng, S.vals, S.hands), TradeRules(R.p, R.pol_kind, R.pol_w, R.chars)


@jit_inline
def is_random(R, p):
    return R.pol_kind[p] == C.KIND_RANDOM


@jit_inline
def w(R, p, i):
    return R.pol_w[p, i]


@jit_inline
def rnd(S, seat, k):
    return randint(S.rng, RNG_POL0 + min(seat, C.MAX_PLAYERS - 1), k)


@jit_inline
def months_left(S):
    return C.MONTHS - 1 - S.g[C.G_MONTH]


@jit_inline
def top_value(S, R, seat, p, top):
    if top == C.T_MONEY:
        return 2.0 * w(R, p, C.W_MONEY)
    if top == C.T_REP:
        return w(R, p, C.W_REP)
    if top == C.T_QUALITY:
        return w(R, p, C.W_QUALITY)
    if top == C.T_ADJACENT:
        return 0.5 * w(R, p, C.W_QUALITY)
    return 0.0  # the neutral card


@jit_inline
def eff_value(S, R, seat, p, e, amt):
    """Worth of effect e, amt times. The effects a track space can have are one-liners worked
    out inline; the others in rare_eff_value. A compiled call passes every array of S and R
    field by field (about 50 ns a call), more than these values cost."""
    if e == C.E_MONEY:
        return amt * w(R, p, C.W_MONEY)
    if e == C.E_REP:
        return amt * w(R, p, C.W_REP)
    if e == C.E_GRAIN:
        return amt * w(R, p, C.W_GRAIN)
    if e == C.E_SANITIZE:
        return min(amt, S.pl[seat, C.COVERED]) * w(R, p, C.W_SANITIZE)
    if e == C.E_DRAW:
        return amt * w(R, p, C.W_CARD) * min(1.0, months_left(S) / 2.0)
    return rare_eff_value(RareState(S.g, S.pl, S.card), RareRules(R.chars, R.pol_w, R.cards, R.phys), seat, p, e, amt)


RareState = namedtuple("RareState", "g pl card")
RareRules = namedtuple("RareRules", "chars pol_w cards phys")


@jit
def rare_eff_value(S, R, seat, p, e, amt):
    """eff_value of the effects no track space has (events' and flavor bottoms'), on the arrays
    it reads (RareState, RareRules): eff_value is inlined in callers that hold S and R or a view."""
    if e == C.E_QUALITY_LOWEST:
        return amt * (w(R, p, C.W_QUALITY) + w(R, p, C.W_LOWEST))
    if e == C.E_BREW:
        if ru.any_brew(S, R, seat):
            return ru.level(S, R, seat) * w(R, p, C.W_QUALITY) + w(R, p, C.W_MEDAL) * 0.5
        return 0.0
    if e == C.E_SAN_GRAIN:
        return w(R, p, C.W_GRAIN) + (w(R, p, C.W_SANITIZE) if S.pl[seat, C.COVERED] > 0 else 0.0)
    if e == C.E_COPY:
        best = 0.0
        for c in range(C.CARD_SLOTS):
            if S.card[c, 0] == C.LOC_RECIPE and S.card[c, 1] == seat:
                best = max(best, top_value(S, R, seat, p, R.cards[R.phys[c], C.CF_TOP]))
        return best
    return 0.0


@jit_inline
def move_value(S, R, seat, p, r, amt):
    """Worth of moving recipe r up by amt (capped by the lock rule), with medals and the lowest judge."""
    q = S.pl[seat, C.Q0 + r]
    target = min(q + amt, ru.cap_for(S, seat, r))
    if target <= q:
        return 0.0
    n = S.g[C.G_N]
    v = (target - q) * w(R, p, C.W_QUALITY)
    leader = True
    lowest = True
    second = C.MAX_Q + 1
    for o in range(C.N_ROWS):
        if o == seat or (o >= n and not (o == C.CHARLIE and n == 2)):
            continue
        qo = S.pl[o, C.Q0 + r]
        if qo > q:
            leader = False
        if qo >= q and qo < target:
            v += w(R, p, C.W_MEDAL)
        elif qo == target:
            v += 0.5 * w(R, p, C.W_MEDAL)
    for k in range(C.N_RECIPES):
        if k != r:
            if S.pl[seat, C.Q0 + k] < q:
                lowest = False
            second = min(second, S.pl[seat, C.Q0 + k])
    if leader:
        v += (target - q) * w(R, p, C.W_FOCUS)
    if lowest:
        v += (min(target, second) - q) * w(R, p, C.W_LOWEST)
    for lv in range(q + 1, target + 1):
        b = S.board[r, lv]
        if b > 0:
            v += eff_value(S, R, seat, p, b // 8, b % 8)
    if target == C.MAX_Q:
        v += 2.0 * w(R, p, C.W_MEDAL)
    return v


@jit_inline
def brew_value(S, R, seat, p, r, amt, under):
    """Worth of brewing recipe r at level amt; `under` is the set of seat's cards under its
    recipes (ru.cards_of; 0 will do when no flavored card lies under r). Inline in best_recipe,
    its one caller, which compares it over the recipes: a compiled call per recipe would cost
    more than the value (it passes all of S and R)."""
    v = move_value(S, R, seat, p, r, amt)
    # The flavor tops under r, in card order. S.fl counts the flavored cards there, so the walk
    # stops after the last of them: a neutral card after it has no top (top_value 0.0) and
    # would leave v as it is.
    left = S.fl[seat, r, 0] + S.fl[seat, r, 1] + S.fl[seat, r, 2]
    m = under
    while left > 0 and m != 0:
        k = ru.first_card(m)
        m = ru.drop_first(m)
        if S.card[k, 2] == r:
            v += top_value(S, R, seat, p, R.cards[R.phys[k], C.CF_TOP])
            if R.cards[R.phys[k], C.CF_KIND] < C.N_KINDS:
                left -= 1
    return v


# Which recipes best_recipe compares, and how (see its callers).
AMONG_BREWABLE, AMONG_ALL_PER_GRAIN, AMONG_LOWEST = 0, 1, 2


@jit
def best_recipe(S, R, seat, p, among, lv):
    """The recipe whose brew_value at level lv is highest (-1 if none beats the floor) and that
    value: among the brewable ones (floor -1), all per grain held (grain to take), or the lowest
    movable ones. Compiled once for its four callers: brew_value and move_value, inlined in each,
    were typed and optimised four times, a tenth of Homebrewers' cold compile."""
    best, arg = (-1.0 if among == AMONG_BREWABLE else -1e9), -1
    lo = ru.lowest_q(S, seat) if among == AMONG_LOWEST else 0
    # seat's cards under its recipes, found in one pass for all four (none to find without a flavor)
    under = ru.cards_of(S, C.LOC_RECIPE, seat) if S.fl[seat].sum() > 0 else np.int64(0)
    for r in range(C.N_RECIPES):
        if among == AMONG_BREWABLE:
            if not ru.can_brew(S, R, seat, r):
                continue
        elif among == AMONG_LOWEST:
            if not (S.pl[seat, C.Q0 + r] == lo and ru.can_move(S, seat, r)):
                continue
        v = brew_value(S, R, seat, p, r, lv, under)
        if among == AMONG_ALL_PER_GRAIN:
            v = v / (1.0 + 1.5 * S.pl[seat, C.GRAIN0 + r])
        if v > best:
            best, arg = v, r
    return arg, best


@jit_inline
def choose_brew(S, R, seat, p):
    """Recipe to brew (must be brewable), or -1."""
    if is_random(R, p):
        return random_brew(S, R, seat, p)
    return brew_choice(S, R, seat, p)[0]


@jit_inline
def brew_choice(S, R, seat, p):
    """The heuristic's recipe to brew (-1 if none is brewable) and its brew_value."""
    V, VR = effect_view(S, R)
    return best_recipe(V, VR, seat, p, AMONG_BREWABLE, ru.level(S, R, seat))


@jit
def random_brew(S, R, seat, p):
    """A random bot's recipe to brew: uniform over the brewable ones (-1 if none)."""
    k = 0
    for r in range(C.N_RECIPES):
        if ru.can_brew(S, R, seat, r):
            k += 1
    if k == 0:
        return -1
    x = rnd(S, seat, k)
    for r in range(C.N_RECIPES):
        if ru.can_brew(S, R, seat, r):
            if x == 0:
                return r
            x -= 1
    return -1


@jit_inline
def choose_grain(S, R, seat, p):
    if is_random(R, p):
        return rnd(S, seat, C.N_RECIPES)
    V, VR = effect_view(S, R)
    r = best_recipe(V, VR, seat, p, AMONG_ALL_PER_GRAIN, max(ru.level(S, R, seat), 2))[0]
    return r if r >= 0 else 0  # no value above the -1e9 floor: the first recipe


@jit_inline
def progress(have, need):
    """Squared share of a threshold reached: 0 with nothing, 1 once met, rising faster near it."""
    f = min(have, need) / max(need, 1)
    return f * f


@jit_inline
def top_k_sum(a, b, c, d, k):
    """Sum of the k largest of four values (without allocating)."""
    tot = a + b + c + d
    if k >= 4:
        return tot
    smallest = min(min(a, b), min(c, d))
    if k == 3:
        return tot - smallest
    largest = max(max(a, b), max(c, d))
    if k == 1:
        return largest
    return tot - smallest - min(max(min(a, b), min(c, d)), min(max(a, b), max(c, d)))


@jit_inline
def kind_count(fl, k):
    """Flavors of kind k under all recipes (fl: one seat's S.fl)."""
    return fl[0, k] + fl[1, k] + fl[2, k] + fl[3, k]


@jit_inline
def recipe_count(fl, r):
    """Flavors of any kind under recipe r (fl: one seat's S.fl)."""
    return fl[r, 0] + fl[r, 1] + fl[r, 2]


@jit
def judge_potential(fl, in_play, judges):
    """What the flavor judges in play would pay for one seat's flavors under recipes (fl, its
    S.fl), with partial credit: each judge's reputation x progress() towards its threshold (per
    recipe for the per-recipe judges). Equals the real judge reputation once every threshold is
    met. in_play is S.board's judges row, judges R.judges: work_out_gains calls this 13 times,
    and passing three arrays costs far less than passing all of S and R."""
    tot = 0.0
    for i in range(C.N_JUDGES_IN_PLAY):
        j = in_play[i]
        kind, fk, mn, rep = judges[j, C.JF_KIND], judges[j, C.JF_FLAVOR], judges[j, C.JF_MIN], judges[j, C.JF_REP]
        if kind == C.J_LOWEST:
            continue
        if kind == C.J_TOTAL:
            tot += rep * progress(kind_count(fl, 0) + kind_count(fl, 1) + kind_count(fl, 2), mn)
        elif kind == C.J_EACH_KIND:
            got = 0
            for k in range(C.N_KINDS):
                got += min(kind_count(fl, k), mn)
            tot += rep * progress(got, C.N_KINDS * mn)
        elif kind == C.J_TOTAL_KIND:
            tot += rep * progress(kind_count(fl, fk), mn)
        elif kind == C.J_SPREAD:
            k = judges[j, C.JF_RECIPES]
            m = np.int64(mn)
            got = top_k_sum(min(recipe_count(fl, 0), m), min(recipe_count(fl, 1), m), min(recipe_count(fl, 2), m),
                            min(recipe_count(fl, 3), m), k)
            tot += rep * progress(got, k * mn)
        else:
            for r in range(C.N_RECIPES):
                if kind == C.J_RECIPE_ALL_KINDS:
                    have = min(fl[r, 0], 1) + min(fl[r, 1], 1) + min(fl[r, 2], 1)
                    tot += rep * progress(have, C.N_KINDS)
                elif kind == C.J_RECIPE_KIND:
                    tot += rep * progress(fl[r, fk], mn)
                else:
                    tot += rep * progress(recipe_count(fl, r), mn)
    return tot


@jit_inline
def gains_current(S, seat):
    """S.gains[seat] was worked out from seat's flavors under recipes and the judges now in play."""
    g = S.gains[seat]
    for r in range(C.N_RECIPES):
        for k in range(C.N_KINDS):
            if g[r * C.N_KINDS + k] != S.fl[seat, r, k]:
                return False
    for i in range(C.N_JUDGES_IN_PLAY):
        if g[C.N_RECIPES * C.N_KINDS + i] != S.board[C.B_JUDGES, i]:
            return False
    return True


@jit_inline
def judge_gains(S, R, seat):
    """Bring S.gains[seat] up to date (work_out_gains), checked inline: most calls find it
    current, and a compiled call costs more than the check."""
    if not gains_current(S, seat):
        work_out_gains(S, R, seat)


@jit
def work_out_gains(S, R, seat):
    """Work out S.gains[seat]: for each recipe and flavor kind, the rise of seat's judge
    total and judge potential (judges other than the lowest-recipe one) were one more flavor of
    that kind under that recipe. They depend only on seat's flavors under recipes and the judges,
    which change when a card is played under a recipe, so they are worked out again only when
    those differ from the key they were worked out from (a key, not a hook in every move: tests
    and the search's scratch copy set flavors directly)."""
    g = S.gains[seat]
    fl, in_play = S.fl[seat], S.board[C.B_JUDGES]
    before, pot_before = ru.judges_total(S, R, seat, True), judge_potential(fl, in_play, R.judges)
    for r in range(C.N_RECIPES):
        for k in range(C.N_KINDS):
            S.fl[seat, r, k] += 1
            after = ru.judges_total(S, R, seat, True)
            pot_after = judge_potential(fl, in_play, R.judges)
            S.fl[seat, r, k] -= 1
            at = C.GAIN_KEY + 2 * (r * C.N_KINDS + k)
            g[at] = after - before
            g[at + 1] = pot_after - pot_before
            g[r * C.N_KINDS + k] = S.fl[seat, r, k]
    for i in range(C.N_JUDGES_IN_PLAY):
        g[C.N_RECIPES * C.N_KINDS + i] = S.board[C.B_JUDGES, i]


@jit
def play_top_value(S, R, seat, p, c, r):
    """Worth of card c under recipe r; S.gains[seat] must be current (judge_gains: the caller
    brings it up to date once for all the cards and recipes it compares)."""
    kind = R.cards[R.phys[c], C.CF_KIND]
    rise, pot_rise = 0.0, 0.0  # the neutral card has no flavor: no judge counts it
    if kind < C.N_KINDS:
        at = C.GAIN_KEY + 2 * (r * C.N_KINDS + kind)
        rise, pot_rise = S.gains[seat, at], S.gains[seat, at + 1]
    brews = months_left(S) * (0.6 if S.pl[seat, C.GRAIN0 + r] > 0 else 0.35) + 0.3
    # a flat judge bonus for any flavor under a recipe; the neutral card has no flavor, so none
    flavor_bonus = 0.15 * w(R, p, C.W_JUDGE) if kind < C.N_KINDS else 0.0
    return w(R, p, C.W_JUDGE) * rise + w(R, p, C.W_PROGRESS) * pot_rise + \
        w(R, p, C.W_TOP) * brews * top_value(S, R, seat, p, R.cards[R.phys[c], C.CF_TOP]) + \
        flavor_bonus


@jit
def best_play(S, R, seat, p, hand):
    """Best card of `hand` (seat's cards in hand, ru.cards_of) to play and where: (card * 8 +
    target) with target 0..3 a recipe, 4 the bottom; S.vals[0] gets its value. -1 when the hand
    is empty."""
    if is_random(R, p):
        k = 0
        m = hand
        while m != 0:
            k += 5
            m = ru.drop_first(m)
        if k == 0:
            S.vals[0] = -1e9
            return -1
        x = rnd(S, seat, k)
        m = hand
        for _ in range(x // 5):
            m = ru.drop_first(m)
        S.vals[0] = 0.0
        return ru.first_card(m) * 8 + x % 5
    best, arg = -1e9, -1
    judge_gains(S, R, seat)
    m = hand
    while m != 0:
        c = ru.first_card(m)
        m = ru.drop_first(m)
        for t in range(5):
            if t < 4:
                v = play_top_value(S, R, seat, p, c, t)
            else:
                v = eff_value(S, R, seat, p, R.cards[R.phys[c], C.CF_BOTTOM], R.cards[R.phys[c], 4])
            if v > best:
                best, arg = v, c * 8 + t
    S.vals[0] = best
    return arg


@jit_inline
def gains_for_draws(S, R, seat):
    """Bring S.gains[seat] up to date for card_draw_value, once for all the cards it compares
    (it reads them only while months are left to play a card)."""
    if months_left(S) > 0:
        judge_gains(S, R, seat)


@jit
def card_draw_value(S, R, seat, p, c):
    """Worth of drawing card c (-1 the deck top); S.gains[seat] must be current (gains_for_draws)."""
    v = w(R, p, C.W_CARD) * min(1.0, months_left(S) / 2.0)
    if c >= 0 and months_left(S) > 0:
        best = 0.0
        for r in range(C.N_RECIPES):
            best = max(best, play_top_value(S, R, seat, p, c, r))
        v += 0.3 * best
    return v


@jit_inline
def choose_draw(S, R, seat, p):
    """0..3 a face-up card, 4 the deck top; + 8 to pay for a refresh of the row first."""
    V, VR = flavor_view(S, R)
    return draw_choice(V, VR, seat, p)


@jit
def draw_choice(S, R, seat, p):
    """choose_draw, on flavor_view's arrays."""
    if is_random(R, p):
        x = rnd(S, seat, 5)
        if S.pl[seat, C.MONEY] >= ru.param(R, C.P_REFRESH) and rnd(S, seat, 2) == 1:
            x += 8
        return x
    gains_for_draws(S, R, seat)
    best, arg = card_draw_value(S, R, seat, p, -1), 4
    for i in range(C.ROW):
        c = S.pile[C.PILE_ROW, i]
        if c >= 0:
            v = card_draw_value(S, R, seat, p, c)
            if v > best:
                best, arg = v, i
    return arg


# A Flavor action's move (flavor_action): best_play's code (card * 8 + target) to play a card, or
# DRAW_MOVE + choose_draw's choice (0..3 a face-up card, 4 the deck top) to draw one.
DRAW_MOVE = 8 * C.CARD_SLOTS


@jit
def flavor_action(S, R, seat, p):
    """Worth of a Flavor action to the heuristic, the better of drawing (the best face-up card or
    the deck top) and playing the best card in hand, and the move it makes: it plays when the
    card is worth at least a blind draw from the deck (or no month is left to draw for), else
    draws the best card. One call values the action and chooses it, so a Flavor die used at
    once (need_of_use) is not valued twice."""
    gains_for_draws(S, R, seat)
    blind = card_draw_value(S, R, seat, p, -1)
    best, arg = blind, 4
    for i in range(C.ROW):
        c = S.pile[C.PILE_ROW, i]
        if c >= 0:
            v = card_draw_value(S, R, seat, p, c)
            if v > best:
                best, arg = v, i
    move = DRAW_MOVE + arg
    hand = ru.cards_of(S, C.LOC_HAND, seat)
    if hand != 0:
        code = best_play(S, R, seat, p, hand)
        if S.vals[0] >= blind or months_left(S) == 0:
            move = code
        best = max(best, S.vals[0])
    return best, move


@jit_inline
def flavor_value(S, R, seat, p):
    """flavor_action's worth, on flavor_view's arrays."""
    V, VR = flavor_view(S, R)
    return flavor_action(V, VR, seat, p)[0]


@jit_inline
def choose_flavor(S, R, seat, p):
    """A Flavor action's move (see DRAW_MOVE); -1 for a random bot's draw, chosen by choose_draw."""
    V, VR = flavor_view(S, R)
    if is_random(R, p):
        hand = ru.cards_of(S, C.LOC_HAND, seat)
        if hand != 0 and rnd(S, seat, 2) == 1:
            return best_play(V, VR, seat, p, hand)
        return -1
    return flavor_action(V, VR, seat, p)[1]


@jit_inline
def event_bottom(S, R, seat, p, ev):
    cost = ru.param(R, C.P_EVENT_BOTTOM)
    if S.pl[seat, C.MONEY] < cost:
        return False
    if is_random(R, p):
        return rnd(S, seat, 2) == 1
    top = eff_value(S, R, seat, p, R.events[ev, C.EV_TOP], R.events[ev, C.EV_TOP_N])
    bot = eff_value(S, R, seat, p, R.events[ev, C.EV_BOT], R.events[ev, C.EV_BOT_N]) + \
        eff_value(S, R, seat, p, R.events[ev, C.EV_BOT2], R.events[ev, C.EV_BOT2_N])
    return bot - cost * w(R, p, C.W_MONEY) > top


@jit_inline
def month_event_worth(S, R, seat, p):
    """event_worth of this month's event."""
    V, VR = effect_view(S, R)
    return event_worth(V, VR, seat, p, S.board[C.B_EVENTS, S.g[C.G_MONTH]])


@jit
def event_worth(S, R, seat, p, ev):
    top = eff_value(S, R, seat, p, R.events[ev, C.EV_TOP], R.events[ev, C.EV_TOP_N])
    if S.pl[seat, C.MONEY] >= ru.param(R, C.P_EVENT_BOTTOM):
        bot = eff_value(S, R, seat, p, R.events[ev, C.EV_BOT], R.events[ev, C.EV_BOT_N]) + \
            eff_value(S, R, seat, p, R.events[ev, C.EV_BOT2], R.events[ev, C.EV_BOT2_N]) - \
            ru.param(R, C.P_EVENT_BOTTOM) * w(R, p, C.W_MONEY)
        top = max(top, bot)
    return top


@jit
def best_revealed_event(S, R, seat, p):
    """Colt: the revealed month whose top action is worth most (S.vals[0] its value)."""
    best, arg = -1.0, 0
    for m in range(S.g[C.G_MONTH] + 1):
        ev = S.board[C.B_EVENTS, m]
        v = eff_value(S, R, seat, p, R.events[ev, C.EV_TOP], R.events[ev, C.EV_TOP_N])
        if is_random(R, p):
            v = np.float64(rnd(S, seat, 100))
        if v > best:
            best, arg = v, m
    S.vals[0] = best
    return arg


@jit_inline
def need(S, R, seat, p, a):
    """How much taking action a now is worth to the heuristic. Inline: sanitize and grain are
    worked out here, the others by one compiled call each (a call passes all of S and R)."""
    if a == C.SANITIZE:
        cov = S.pl[seat, C.COVERED]
        if cov == 0:
            return 0.0
        lv = ru.level(S, R, seat)
        v = w(R, p, C.W_SANITIZE) * (1.0 + 0.25 * cov)
        if S.dice[seat, C.BREW] > 0:  # the next brew starts from a higher spot
            v += (R.chars[S.pl[seat, C.FACTION], C.CH_LEVEL + cov - 1] - lv) * w(R, p, C.W_QUALITY)
        return v
    if a == C.GRAIN:
        g = 0
        for r in range(C.N_RECIPES):
            if ru.can_move(S, seat, r):
                g += S.pl[seat, C.GRAIN0 + r]
        v = w(R, p, C.W_GRAIN)
        if g >= 2 + S.dice[seat, C.BREW]:
            v *= 0.5
        if months_left(S) == 0 and S.dice[seat, C.BREW] == 0:
            v = 0.0
        return v
    if a == C.BREW:  # the value of the recipe choose_brew would brew
        r, v = brew_choice(S, R, seat, p)
        return v if r >= 0 else 0.0
    if a == C.FLAVOR:
        return flavor_value(S, R, seat, p)
    return month_event_worth(S, R, seat, p)


@jit_inline
def prep_trade(S, R, seat, p):
    """Values dice_value needs that do not change while dice change hands (a flavor action, the
    month's event), cached in S.vals[10 + seat] and S.vals[20 + seat]; the hands valued in the
    last trade phase are forgotten (the plan has moved on since)."""
    if is_random(R, p):
        return
    S.vals[10 + seat] = flavor_value(S, R, seat, p)
    S.vals[20 + seat] = month_event_worth(S, R, seat, p)
    for k in range(C.N_HANDS):
        S.hands[seat, k] = -np.inf


@jit_inline
def hand_key(d):
    """A hand of three dice as 25x + 5y + z, its faces x <= y <= z; -1 for any other number of dice."""
    key, k = 0, 0
    for a in range(C.N_ACTIONS):
        for _ in range(d[a]):
            key = 5 * key + a
            k += 1
    return key if k == 3 else -1


@jit_inline
def dice_value(S, R, seat, p, row):
    """Worth of the dice in S.dice[row] to seat's plan (used to value trades). Nothing but the dice
    changes from prep_trade to the end of the trade phase, so each hand is valued once (S.hands)
    for all the swaps, re-rolls and changes compared in it. Inline: a hand found in S.hands
    costs no compiled call."""
    key = hand_key(S.dice[row])
    if key < 0:
        return hand_value(S, R, seat, p, row)
    if S.hands[seat, key] == -np.inf:
        S.hands[seat, key] = hand_value(S, R, seat, p, row)
    return S.hands[seat, key]


@jit
def hand_value(S, R, seat, p, row):
    """dice_value worked out from the plan: brews possible with the grain and clean spots, then
    the rest at their effect values, never less than the forgo money."""
    d = S.dice[row]
    return hand_worth(S, R, seat, p, hand_plan(S, R, seat, p),
                      d[C.BREW], d[C.GRAIN], d[C.SANITIZE], d[C.FLAVOR], d[C.EVENT])


@jit_inline
def hand_plan(S, R, seat, p):
    """What a hand is valued against, apart from its dice: (grain on recipes that can still
    move, covered spots, free spots, level of a brew, forgo money)."""
    gr = 0
    for r in range(C.N_RECIPES):
        if ru.can_move(S, seat, r):
            gr += S.pl[seat, C.GRAIN0 + r]
    cov = S.pl[seat, C.COVERED]
    free = ru.n_slots(S, R, seat) - cov
    lv = max(ru.level(S, R, seat), 1)
    forgo = ru.param(R, C.P_FORGO) * w(R, p, C.W_MONEY)
    return gr, cov, free, lv, forgo


@jit_inline
def hand_worth(S, R, seat, p, plan, brew, grain, sanitize, flavor, event):
    """hand_value of a hand with these numbers of dice per action, against hand_plan's `plan`."""
    gr, cov, free, lv, forgo = plan
    san_use = min(sanitize, cov)
    brews = min(brew, gr + grain, free + san_use)
    v = brews * max(lv * w(R, p, C.W_QUALITY) + w(R, p, C.W_MEDAL), forgo)
    v += (brew - brews) * forgo
    v += grain * max(w(R, p, C.W_GRAIN) * (1.0 if gr + grain <= 3 else 0.4), forgo)
    v += san_use * max(w(R, p, C.W_SANITIZE) * (1.0 + 0.25 * cov), forgo) + (sanitize - san_use) * forgo
    fv = max(S.vals[10 + seat], forgo)  # set by prep_trade (they do not depend on the dice)
    v += min(flavor, 2) * fv + max(flavor - 2, 0) * forgo
    ev = max(S.vals[20 + seat], forgo)
    v += min(event, 1) * ev + max(event - 1, 0) * forgo
    return v


@jit
def swap_gains(S, R, seat, p, out):
    """swap_gain_from for every swap of a die seat holds for one showing another face, into
    out[give * N_ACTIONS + get] (other cells untouched). Open trading needs most of a seat's
    swaps each round: one compiled call instead of one per swap (a call passes every array of
    S and R), and the plan of the hands not valued yet is worked out once, not per hand."""
    plan = hand_plan(S, R, seat, p)
    before = planned_dice_value(S, R, seat, p, plan)
    for give in range(C.N_ACTIONS):
        if S.dice[seat, give] == 0:
            continue
        for get in range(C.N_ACTIONS):
            if get == give:
                continue
            S.dice[seat, give] -= 1
            S.dice[seat, get] += 1
            out[give * C.N_ACTIONS + get] = planned_dice_value(S, R, seat, p, plan) - before
            S.dice[seat, give] += 1
            S.dice[seat, get] -= 1


@jit_inline
def planned_dice_value(S, R, seat, p, plan):
    """dice_value of seat's own dice, valuing a new hand against `plan` (hand_plan's)."""
    d = S.dice[seat]
    key = hand_key(d)
    if key >= 0 and S.hands[seat, key] != -np.inf:
        return S.hands[seat, key]
    v = hand_worth(S, R, seat, p, plan, d[C.BREW], d[C.GRAIN], d[C.SANITIZE], d[C.FLAVOR], d[C.EVENT])
    if key >= 0:
        S.hands[seat, key] = v
    return v


@jit
def swap_gain(S, R, seat, p, give, get):
    return swap_gain_from(S, R, seat, p, give, get, dice_value(S, R, seat, p, seat))


@jit
def swap_gain_from(S, R, seat, p, give, get, before):
    """Rise of seat's dice value if it gives a die showing `give` for one showing `get`."""
    S.dice[seat, give] -= 1
    S.dice[seat, get] += 1
    after = dice_value(S, R, seat, p, seat)
    S.dice[seat, give] += 1
    S.dice[seat, get] -= 1
    return after - before


@jit
def accepts(S, R, seat, p, give, get):
    if is_random(R, p):
        return rnd(S, seat, 2) == 1
    V, VR = trade_view(S, R)
    return swap_gain(V, VR, seat, p, give, get) > w(R, p, C.W_TRADE_MARGIN)


@jit
def wants_reroll(S, R, seat, p, row):
    """Re-roll a triple (own dice, or Charlie's when row == CHARLIE)?"""
    if is_random(R, p):
        return rnd(S, seat, 2) == 1
    for a in range(C.N_ACTIONS):
        if S.dice[row, a] == 3:
            if row == C.CHARLIE:
                return a != C.BREW
            if a == C.BREW and S.pl[seat, C.GRAIN0] + S.pl[seat, C.GRAIN0 + 1] + S.pl[seat, C.GRAIN0 + 2] + \
                    S.pl[seat, C.GRAIN0 + 3] >= 2:
                return False
            return True
    return False


@jit_inline
def dice_showing(x, y, z, a):
    """How many of the three faces x, y, z show action a."""
    return np.int64(x == a) + np.int64(y == a) + np.int64(z == a)


@jit
def fresh_roll_value(S, R, seat, p):
    """Expected dice_value of three freshly rolled dice (over the 35 multisets of faces, weighted
    by the die's faces). Each hand's worth comes from, and goes to, dice_value's cache (S.hands);
    the part of the plan that does not depend on the dice is worked out once, not per hand."""
    plan = hand_plan(S, R, seat, p)
    ev = 0.0
    for x in range(C.N_ACTIONS):
        for y in range(x, C.N_ACTIONS):
            for z in range(y, C.N_ACTIONS):
                orders = 6.0 if x != y and y != z else (1.0 if x == z else 3.0)
                pr = orders * R.p[C.P_FACE0 + x] * R.p[C.P_FACE0 + y] * R.p[C.P_FACE0 + z] / 216.0
                if pr > 0.0:
                    key = 25 * x + 5 * y + z  # hand_key of the faces x <= y <= z
                    if S.hands[seat, key] == -np.inf:
                        S.hands[seat, key] = hand_worth(
                            S, R, seat, p, plan, dice_showing(x, y, z, C.BREW), dice_showing(x, y, z, C.GRAIN),
                            dice_showing(x, y, z, C.SANITIZE), dice_showing(x, y, z, C.FLAVOR),
                            dice_showing(x, y, z, C.EVENT))
                    ev += pr * S.hands[seat, key]
    return ev


@jit
def trade_change(S, R, seat, p):
    """Trade phase: the odd die to turn into the pair's face (paying $1) so as to re-roll the
    triple, as odd_face * 8 + pair_face; -1 for no change. Needs exactly a pair and the money."""
    pair, odd = -1, -1
    for a in range(C.N_ACTIONS):
        if S.dice[seat, a] == 2:
            pair = a
        elif S.dice[seat, a] == 1:
            odd = a
    if pair < 0 or odd < 0 or S.pl[seat, C.MONEY] < ru.param(R, C.P_CHANGE):
        return -1
    if is_random(R, p):
        return odd * 8 + pair if rnd(S, seat, 2) == 1 else -1
    gain = fresh_roll_value(S, R, seat, p) - dice_value(S, R, seat, p, seat)
    if gain - ru.param(R, C.P_CHANGE) * w(R, p, C.W_MONEY) > w(R, p, C.W_TRADE_MARGIN):
        return odd * 8 + pair
    return -1


@jit
def extra_die_use(S, R, seat, p, a):
    """Ananya's extra die showing a: 1 to use it, 0 to let it go (it is lost either way if illegal)."""
    if not legal_use(S, R, seat, a):
        return 0
    if is_random(R, p):
        return rnd(S, seat, 2)
    return 1 if need(S, R, seat, p, a) > 0.0 else 0


@jit_inline
def charlie_trade(S, R, seat, p):
    """Trade with Charlie: give * 8 + get, or -1 to pass."""
    if is_random(R, p):
        if rnd(S, seat, 2) == 0:
            return -1
        x = rnd(S, seat, 3)
        give = 0
        for a in range(C.N_ACTIONS):
            if x < S.dice[seat, a]:
                give = a
                break
            x -= S.dice[seat, a]
        y = rnd(S, seat, 3)
        get = 0
        for a in range(C.N_ACTIONS):
            if y < S.dice[C.CHARLIE, a]:
                get = a
                break
            y -= S.dice[C.CHARLIE, a]
        if give == get:
            return -1
        return give * 8 + get
    best, arg = w(R, p, C.W_TRADE_MARGIN), -1
    for give in range(C.N_ACTIONS):
        if S.dice[seat, give] == 0:
            continue
        for get in range(C.N_ACTIONS):
            if get == give or S.dice[C.CHARLIE, get] == 0:
                continue
            V, VR = trade_view(S, R)
            v = swap_gain(V, VR, seat, p, give, get)
            if v > best:
                best, arg = v, give * 8 + get
    return arg


@jit_inline
def power_step(S, R, seat, p, phase):
    """Use the character power now? phase 0 = start of turn, 1 = before a brew, 2 = end of turn.
    Checked inline first: mostly the power is used or unaffordable, and a call costs more."""
    if S.pl[seat, C.POWER_USED] or not ru.has_power(S, R, seat) or S.pl[seat, C.MONEY] < ru.param(R, C.P_POWER):
        return False
    V, VR = power_view(S, R)
    return power_now(V, VR, seat, p, phase)


PowerState = namedtuple("PowerState", "g pl board card rng vals")
PowerRules = namedtuple("PowerRules", "p pol_kind pol_w chars cards phys events")


@jit_inline
def power_view(S, R):
    """What power_now and best_revealed_event read of S and R: 105 words a call instead of 232
    (113 calls a game)."""
    return PowerState(S.g, S.pl, S.board, S.card, S.rng, S.vals), \
        PowerRules(R.p, R.pol_kind, R.pol_w, R.chars, R.cards, R.phys, R.events)


@jit
def power_now(S, R, seat, p, phase):
    """power_step for a power that is in play, unused and affordable (on power_view's arrays)."""
    ch = S.pl[seat, C.FACTION]
    if ch == C.ANDREW:
        return False  # used inside a brew
    if is_random(R, p):
        return rnd(S, seat, 3) == 0
    cost = ru.param(R, C.P_POWER) * w(R, p, C.W_MONEY)
    if ch == C.ANANYA:
        return phase == 0
    if ch == C.EVIE:  # a card is worth it only with money left to act and months left to play it
        return phase == 0 and S.pl[seat, C.MONEY] >= 3 and months_left(S) > 0
    if ch == C.COLT:
        if phase != 2:
            return False
        best_revealed_event(S, R, seat, p)
        return S.vals[0] > cost
    if ch == C.KATHERINE:
        return phase == 1 and S.pl[seat, C.COVERED] >= 1
    if ch == C.TONY or ch == C.GABRIEL:
        if phase != 2:
            return False
        for r in range(C.N_RECIPES):
            if S.pl[seat, C.Q0 + r] == ru.lowest_q(S, seat) and ru.can_move(S, seat, r):
                return True
    return False


@jit_inline
def andrew_keeps(S, R, seat, p):
    if S.pl[seat, C.POWER_USED] or not ru.has_power(S, R, seat) or S.pl[seat, C.FACTION] != C.ANDREW:
        return False
    if S.pl[seat, C.MONEY] < ru.param(R, C.P_POWER):
        return False
    if is_random(R, p):
        return rnd(S, seat, 2) == 1
    return True


@jit_inline
def lowest_choice(S, R, seat, p):
    """Among the lowest recipes that can move, the one to raise (Tony, Gabriel, events)."""
    if is_random(R, p):
        return random_lowest(S, R, seat, p)
    V, VR = effect_view(S, R)
    return best_recipe(V, VR, seat, p, AMONG_LOWEST, 1)[0]


@jit
def random_lowest(S, R, seat, p):
    """A random bot's lowest movable recipe to raise: the highest of a random draw for each."""
    lo = ru.lowest_q(S, seat)
    best, arg = -1e9, -1
    for r in range(C.N_RECIPES):
        if S.pl[seat, C.Q0 + r] == lo and ru.can_move(S, seat, r):
            v = np.float64(rnd(S, seat, 100))
            if v > best:
                best, arg = v, r
    return arg


@jit_inline
def evie_keep(S, R, seat, p, a, b):
    if is_random(R, p) or b < 0:
        return a if (b < 0 or rnd(S, seat, 2) == 0) else b
    V, VR = flavor_view(S, R)
    gains_for_draws(V, VR, seat)
    return a if card_draw_value(V, VR, seat, p, a) >= card_draw_value(V, VR, seat, p, b) else b


@jit_inline
def copy_choice(S, R, seat, p):
    """Card under one of seat's recipes whose top to copy, or -1."""
    best, arg = -1.0, -1
    for c in range(C.CARD_SLOTS):
        if S.card[c, 0] == C.LOC_RECIPE and S.card[c, 1] == seat:
            v = top_value(S, R, seat, p, R.cards[R.phys[c], C.CF_TOP]) if not is_random(R, p) \
                else np.float64(rnd(S, seat, 100))
            if v > best:
                best, arg = v, c
    return arg


@jit_inline
def marginal_ok(S, R, seat, b):
    """Changing a die to b is only worth it if the dice already showing b leave work for it."""
    if b == C.BREW:
        g = 0
        for r in range(C.N_RECIPES):
            if ru.can_move(S, seat, r):
                g += S.pl[seat, C.GRAIN0 + r]
        return S.dice[seat, C.BREW] < g + S.dice[seat, C.GRAIN]
    if b == C.SANITIZE:
        return S.dice[seat, C.SANITIZE] < S.pl[seat, C.COVERED]
    if b == C.EVENT:
        return S.dice[seat, C.EVENT] == 0
    return True


ORDER = (C.FLAVOR, C.EVENT, C.SANITIZE, C.GRAIN, C.BREW)


@jit_inline
def need_of_use(S, R, seat, p, a):
    """need(a), and the choice a step that uses a die (or the extra action) of face a carries
    (+ 1; 0 for none): for Brew the recipe choose_brew would brew, for Flavor the move
    choose_flavor would make. take_action then acts on it without valuing the options again
    (nothing they read changes in between: the extra action's $3 is not read)."""
    if a == C.BREW:
        r, v = brew_choice(S, R, seat, p)
        return (v if r >= 0 else 0.0), r + 1
    if a == C.FLAVOR:
        V, VR = flavor_view(S, R)
        v, move = flavor_action(V, VR, seat, p)
        return v, move + 1
    return need(S, R, seat, p, a), 0


@jit_inline
def next_step(S, R, seat, p):
    """The next step of seat's action turn, encoded choice * STEP_CHOICE + kind * 64 + a * 8 + b
    (see STEP_*)."""
    money = S.pl[seat, C.MONEY]
    change = ru.param(R, C.P_CHANGE)
    if is_random(R, p):
        return random_step(S, R, seat, p)
    if power_step(S, R, seat, p, 0):
        return C.STEP_POWER * 64
    if S.pl[seat, C.EXTRA_DIE] >= 0:
        a = S.pl[seat, C.EXTRA_DIE]
        return C.STEP_EXTRA_DIE * 64 + a * 8 + extra_die_use(S, R, seat, p, a)
    forgo = ru.param(R, C.P_FORGO) * w(R, p, C.W_MONEY)
    for k in range(5):
        a = ORDER[k]
        if S.dice[seat, a] == 0:
            continue
        if a == C.BREW and power_step(S, R, seat, p, 1):
            return C.STEP_POWER * 64
        va, choice = need_of_use(S, R, seat, p, a)
        if va >= forgo and va > 0:
            return choice * C.STEP_CHOICE + C.STEP_USE * 64 + a * 8
        best, arg = forgo, -1
        if money >= change:
            for b in range(C.N_ACTIONS):
                if b == a:
                    continue
                if not marginal_ok(S, R, seat, b):
                    continue
                vb = need(S, R, seat, p, b) - change * w(R, p, C.W_MONEY)
                if vb > best:
                    best, arg = vb, b
        if arg >= 0:
            return C.STEP_CHANGE * 64 + a * 8 + arg
        return C.STEP_FORGO * 64 + a * 8
    if power_step(S, R, seat, p, 2):
        return C.STEP_POWER * 64
    cost = ru.param(R, C.P_EXTRA)
    if S.pl[seat, C.EXTRA_USED] == 0 and money >= cost:
        best, arg, carry = cost * w(R, p, C.W_MONEY) + 0.5, -1, 0
        for b in range(C.N_ACTIONS):
            vb, choice = need_of_use(S, R, seat, p, b)
            if vb > best:
                best, arg, carry = vb, b, choice
        if arg >= 0:
            return carry * C.STEP_CHOICE + C.STEP_EXTRA * 64 + arg * 8
    return C.STEP_DONE * 64


@jit_inline
def legal_use(S, R, seat, a):
    if a == C.SANITIZE:
        return S.pl[seat, C.COVERED] > 0
    if a == C.BREW:
        return ru.any_brew(S, R, seat)
    return True


@jit
def random_step(S, R, seat, p):
    """Uniform over the legal steps: for each die face held: use (if legal), forgo, change to each
    other face ($1); the power; the extra action for each legal face; done once no dice are left."""
    money = S.pl[seat, C.MONEY]
    if S.pl[seat, C.EXTRA_DIE] >= 0:
        a = S.pl[seat, C.EXTRA_DIE]
        return C.STEP_EXTRA_DIE * 64 + a * 8 + extra_die_use(S, R, seat, p, a)
    k = 0
    x = -1
    for pass_ in range(2):
        if pass_ == 1:
            if k == 0:
                return C.STEP_DONE * 64
            x = rnd(S, seat, k)
        idx = 0
        for a in range(C.N_ACTIONS):
            if S.dice[seat, a] == 0:
                continue
            if legal_use(S, R, seat, a):
                if pass_ == 1 and idx == x:
                    return C.STEP_USE * 64 + a * 8
                idx += 1
            if pass_ == 1 and idx == x:
                return C.STEP_FORGO * 64 + a * 8
            idx += 1
            if money >= ru.param(R, C.P_CHANGE):
                for b in range(C.N_ACTIONS):
                    if b != a and legal_use(S, R, seat, b):
                        if pass_ == 1 and idx == x:
                            return C.STEP_CHANGE * 64 + a * 8 + b
                        idx += 1
        if (not S.pl[seat, C.POWER_USED]) and ru.has_power(S, R, seat) and money >= ru.param(R, C.P_POWER) \
                and S.pl[seat, C.FACTION] != C.ANDREW:
            if pass_ == 1 and idx == x:
                return C.STEP_POWER * 64
            idx += 1
        if S.pl[seat, C.EXTRA_USED] == 0 and money >= ru.param(R, C.P_EXTRA):
            for b in range(C.N_ACTIONS):
                if legal_use(S, R, seat, b):
                    if pass_ == 1 and idx == x:
                        return C.STEP_EXTRA * 64 + b * 8
                    idx += 1
        if ru.dice_left(S, seat) == 0:
            if pass_ == 1 and idx == x:
                return C.STEP_DONE * 64
            idx += 1
        k = idx
    return C.STEP_DONE * 64
