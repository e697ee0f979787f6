"""Homebrewers rules, scenario by scenario, including the rulebook's worked examples.

Chance is forced: states are built by hand (tests/homebrewers_state.py), dice are set, not rolled.
"""

from collections import Counter

import numpy as np
import pytest
from homebrewers_state import blank, config, hand_size, quality, under

from sim.core.config import prepare
from sim.core.errors import BrewError
from sim.core.rows import output_rows
from sim.homebrewers import GAME
from sim.homebrewers import constants as C
from sim.homebrewers import kernel as K
from sim.homebrewers import policies as pol
from sim.homebrewers import rules as ru
from sim.homebrewers.schema import GAMES, PLAYERS
from sim.homebrewers.state import RNG_DICE0, make_rules, view

ALE, PORTER, STOUT, IPA = range(4)


def medals(S, R, n, fest):
    out = np.zeros(C.N_ROWS, np.int64)
    ru.award_medals(S, R, n, fest, out)
    return out


# --- the rulebook's worked examples -------------------------------------------------------------

def test_trade_example_both_sides_gain():
    """Trade example (rulebook L114): Jenn rolls two grain and a flavor and wants to sanitize;
    Chris rolls two sanitize and a brew and wants grain. They swap one grain for one sanitize,
    and that single trade is all that happens."""
    cfg, R, S, pols = blank(2)
    jenn, chris = 0, 1
    view(S).seat(jenn).covered = 3  # dirty garage, plenty of grain already
    view(S).seat(jenn).grain.ale = 3
    view(S).seat(chris).covered = 1  # one trub only, no grain to brew
    view(S).seat(jenn).dice = 0
    view(S).seat(chris).dice = 0
    view(S).seat(jenn).dice.grain, view(S).seat(jenn).dice.flavor = 2, 1
    view(S).seat(chris).dice.sanitize, view(S).seat(chris).dice.brew = 2, 1
    for s in range(2):
        pol.prep_trade(S, R, s, pols[s])
    K.player_trades(S, R, 2, pols)
    assert list(view(S).seat(jenn).dice) == [1, 0, 1, 1, 0]  # sanitize, event, grain, flavor, brew
    assert list(view(S).seat(chris).dice) == [1, 0, 1, 0, 1]
    assert view(S).game.trades == 1 and view(S).seat(jenn).stats.trades == 1 and view(S).seat(chris).stats.trades == 1


def test_mark_action_phase_example():
    """Action-phase example (rulebook L167-174), on the standard tile it is printed for: Mark has a
    grain on Ale and two uncovered spaces, the leftmost at 2; Chocolate (+1 quality) and Raspberry
    (+1 reputation) lie under Ale. He puts a grain on IPA, brews Ale +2, the grain turns trub on
    that spot, the flavors give +1 quality and 1 reputation, he takes the $1 he passed on the
    track, and forgoes his last die (the event) for $2."""
    cfg, R, S, pols = blank(4)  # seat 0 plays the standard tile
    mark = 0
    view(S).seat(mark).covered = 2
    view(S).seat(mark).grain.ale = 1
    under(cfg, S, mark, "chocolate", "ale")
    under(cfg, S, mark, "raspberry", "ale")
    assert ru.n_slots(S, R, mark) - view(S).seat(mark).covered == 2 and ru.level(S, R, mark) == 2
    view(S).seat(mark).grain.ipa += 1  # 1st action: where the grain goes is his choice
    K.brew(S, R, mark, pols, ALE, False)  # 2nd action
    assert view(S).seat(mark).quality.ale == 3  # +2 from the garage, +1 from Chocolate
    assert view(S).seat(mark).rep == 1  # Raspberry
    assert view(S).seat(mark).money == 1  # the $1 space passed on the track
    assert view(S).seat(mark).covered == 3
    assert view(S).seat(mark).grain.ale == 0 and view(S).seat(mark).grain.ipa == 1
    view(S).seat(mark).dice = 0
    view(S).seat(mark).dice.event = 1
    K.resolve_step(S, R, mark, pols, C.STEP_FORGO * 64 + C.EVENT * 8)  # last die: the event, forgone
    assert view(S).seat(mark).money == 1 + 2 and sum(view(S).seat(mark).dice) == 0 and view(S).seat(mark).stats.dice_forgone == 1


def test_porter_tie_split_four_players():
    """Tie example (rulebook L272), 4 players at Octoberfest: Porter 9, 9, 3, 0 -> 6 and 6 (8 + 5
    = 13 split, no silver), bronze 2, and nothing for level 0."""
    cfg, R, S, pols = blank(4)
    for s, q in enumerate((9, 9, 3, 0)):
        quality(S, s, porter=q)
    out = medals(S, R, 4, 1)
    assert list(out[:4]) == [6, 6, 2, 0]
    assert S.tmp[16 + 4 * 0 + 0] == 1 and S.tmp[16 + 4 * 1 + 0] == 1  # both count a gold
    assert sum(S.tmp[16 + 4 * s + 1] for s in range(4)) == 0  # no silver


@pytest.mark.parametrize("recipe, qualities, printed", [
    # blue, purple, green, orange, red (rulebook L278-281)
    ("ale", (10, 8, 8, 2, 0), (9, 4, 4, 2, 0)),  # gold; two tied for silver; no bronze; honorable
    ("porter", (4, 4, 4, 9, 9), (1, 1, 1, 7, 7)),  # two tied for gold; no silver; three tied for bronze
    ("stout", (0, 7, 9, 5, 0), (0, 6, 9, 3, 0)),  # gold, silver, bronze, no honorable mention
    ("ipa", (5, 8, 0, 3, 11), (3, 6, 0, 2, 9)),  # gold, silver, bronze, honorable mention
])
def test_five_player_octoberfest_example(recipe, qualities, printed):
    """The 5-player Octoberfest example, recipe by recipe, with the reputation it prints."""
    cfg, R, S, pols = blank(5)
    for s, q in enumerate(qualities):
        quality(S, s, **{recipe: q})
    assert tuple(medals(S, R, 5, 1)[:5]) == printed


def test_charlie_takes_medals_but_never_the_game():
    """Charlie example (rulebook L285-287): Charlie highest in Ale takes the gold and the best human
    the silver; a tie with Charlie splits like any other. The 2-3 player tile is not printed, so
    the rule is checked on the printed 4-player Octoberfest values (8/5/2/1, L260)."""
    cfg, _, S, pols = blank(2)
    cfg.medals[0, 1] = (8, 5, 2, 1)  # the 2-3 player Octoberfest row
    R = make_rules(cfg)
    quality(S, C.CHARLIE, ale=10)
    quality(S, 0, ale=8)
    quality(S, 1, ale=7)
    out = medals(S, R, 2, 1)
    assert (out[C.CHARLIE], out[0], out[1]) == (8, 5, 2)
    quality(S, 0, ale=10)  # tied with Charlie for gold: (8 + 5) // 2 each, bronze next
    out = medals(S, R, 2, 1)
    assert (out[C.CHARLIE], out[0], out[1]) == (6, 6, 2)
    shard = GAME.simulate(config(), 3, 0, 30, [2], ["greedy"])
    p = shard.frames["players"]
    assert p.height == 60 and set(p["seat"].to_list()) == {0, 1}  # Charlie has no player row
    assert abs(p["win"].sum() - 30) < 1e-9


def test_lowest_recipe_judge_example():
    """Pre-printed judge (rulebook L307): lowest recipe at 3 -> 6 reputation at Octoberfest; any
    recipe at 0 -> nothing. Scored through the Octoberfest phase, with no flavors played."""
    cfg, R, S, pols = blank(2)
    quality(S, 0, ale=3, porter=5, stout=4, ipa=6)
    quality(S, 1, ale=0, porter=5, stout=4, ipa=6)
    K.festival(S, R, 2, 1)
    assert view(S).seat(0).stats.judge_rep == 6 and view(S).seat(1).stats.judge_rep == 0


def test_level_zero_never_scores():
    cfg, R, S, pols = blank(4)
    quality(S, 0, stout=1)
    out = medals(S, R, 4, 0)
    assert out[0] == cfg.medals[1, 0, 0] and out[1:4].sum() == 0


# --- brewing, locks and the track ----------------------------------------------------------------

def test_lock_at_twelve_and_the_level_eleven_rule():
    cfg, R, S, pols = blank(3)
    quality(S, 0, ale=10)
    quality(S, 1, ale=11)
    view(S).seat(0).grain.ale = 1
    view(S).seat(1).grain.ale = 1
    K.brew(S, R, 0, pols, ALE, False)  # standard garage level 3: 10 -> 12, locks
    assert view(S).seat(0).quality.ale == 12 and view(S).game.lock.ale == 0
    assert not ru.can_brew(S, R, 0, ALE)  # already locked by itself
    assert not ru.can_brew(S, R, 1, ALE)  # at 11 behind a lock
    assert K.move_quality(S, R, 1, pols, ALE, 3) == 0
    quality(S, 2, ale=5)
    assert K.move_quality(S, R, 2, pols, ALE, 9) == 6  # stops at 11


def test_no_brew_when_every_spot_is_covered():
    cfg, R, S, pols = blank(2)
    view(S).seat(0).grain.stout = 2
    view(S).seat(0).covered = ru.n_slots(S, R, 0)
    assert ru.level(S, R, 0) == 0 and not ru.any_brew(S, R, 0)


def test_adjacent_flavor_wraps_and_stops_at_six():
    cfg, R, S, pols = blank(2)
    quality(S, 0, ale=6, porter=7)  # both neighbours of... ale's neighbours are ipa and porter
    K.apply_top(S, R, 0, pols, ALE, C.T_ADJACENT)
    assert view(S).seat(0).quality.ipa == 1  # IPA (left of Ale, wrapping) moves; Porter is at 7
    quality(S, 0, ipa=6)
    K.apply_top(S, R, 0, pols, ALE, C.T_ADJACENT)
    assert view(S).seat(0).quality.ipa == 6 and view(S).seat(0).quality.porter == 7


# --- character powers --------------------------------------------------------------------------

def power(S, R, pols, seat, money=5):
    view(S).board.tracks = 0  # no track benefits: money counts the power's price only
    view(S).seat(seat).money = money
    K.use_power(S, R, seat, pols)
    assert view(S).seat(seat).money == money - 1 and view(S).seat(seat).power_used == 1


def test_katherine_cleans_everything():
    cfg, R, S, pols = blank(2, factions=["katherine"])
    view(S).seat(0).covered = 3
    power(S, R, pols, 0)
    assert view(S).seat(0).covered == 0


def test_tony_raises_the_lowest_beer():
    cfg, R, S, pols = blank(2, factions=["tony"])
    quality(S, 0, ale=4, porter=2, stout=3, ipa=5)
    power(S, R, pols, 0)
    assert view(S).seat(0).quality.porter == 3


def test_gabriel_brews_the_lowest_at_one_without_grain_or_trub():
    cfg, R, S, pols = blank(2, factions=["gabriel"])
    quality(S, 0, ale=4, porter=2, stout=1, ipa=5)
    view(S).seat(0).covered = ru.n_slots(S, R, 0)  # fully dirty: brewing is normally impossible
    power(S, R, pols, 0)
    assert view(S).seat(0).quality.stout == 2 and view(S).seat(0).covered == ru.n_slots(S, R, 0)
    assert view(S).seat(0).stats.brews == 1


def test_andrew_keeps_the_grain_and_the_spot():
    cfg, R, S, pols = blank(2, factions=["andrew"])
    view(S).board.tracks = 0
    view(S).seat(0).money = 3
    view(S).seat(0).grain.porter = 1
    cov = view(S).seat(0).covered
    K.brew(S, R, 0, pols, PORTER, False)
    seat0 = view(S).seat(0)
    assert seat0.quality.porter == 2 and seat0.grain.porter == 1 and seat0.covered == cov
    assert view(S).seat(0).money == 2 and view(S).seat(0).power_used == 1
    K.brew(S, R, 0, pols, PORTER, False)  # once per action phase: the second brew uses the grain
    assert view(S).seat(0).grain.porter == 0 and view(S).seat(0).covered == cov + 1


def test_evie_draws_two_and_keeps_one():
    cfg, R, S, pols = blank(2, factions=["evie"])
    power(S, R, pols, 0)
    assert hand_size(S, 0) == 1 and view(S).game.discards_n == 1 and view(S).game.deck_n == C.DECK - 2


def test_colt_takes_a_revealed_top_action():
    """Colt's power: the top action of a month already revealed (March-May here), never a later one."""
    cfg, R, S, pols = blank(2, factions=["colt"])
    view(S).game.month = 2
    for m in (0, 2):
        view(S).board.events[m] = cfg.event_ids.index("blind_tasting")  # top: $1
    view(S).board.events[1] = cfg.event_ids.index("tasting_night")  # top: 1 reputation
    view(S).board.events[6] = cfg.event_ids.index("bottle_sale")  # top: $2, not revealed yet
    power(S, R, pols, 0)
    assert view(S).seat(0).rep == 1 and view(S).seat(0).money == 4  # tasting night; no bottle-sale $2


def test_ananya_extra_die_rolls_on_her_dice_stream_and_is_never_changed_or_forgone():
    cfg, R, S, pols = blank(2, factions=["ananya"])
    rng = S.rng.copy()
    expected = ru.roll_face(S._replace(rng=rng), R, RNG_DICE0)
    power(S, R, pols, 0)
    assert view(S).seat(0).extra_die == expected and S.rng[RNG_DICE0] == rng[RNG_DICE0]
    step = pol.next_step(S, R, 0, pols[0])
    assert step // 64 == C.STEP_EXTRA_DIE  # the only thing to do with it is to use it (or lose it)
    K.action_turn(S, R, 0, pols)
    seat0 = view(S).seat(0)
    assert seat0.extra_die == -1 and seat0.stats.dice_forgone == 0 and seat0.stats.dice_changed == 0


def test_ananya_may_let_her_extra_die_go():
    """The extra die is optional: used when its action is legal and worth something, else let go
    (no $2 for it, no change)."""
    cfg, R, S, pols = blank(2, factions=["ananya"])
    view(S).seat(0).extra_die = C.GRAIN
    assert pol.next_step(S, R, 0, pols[0]) == C.STEP_EXTRA_DIE * 64 + C.GRAIN * 8 + 1  # grain: used
    K.resolve_step(S, R, 0, pols, C.STEP_EXTRA_DIE * 64 + C.GRAIN * 8)  # she lets it go
    assert sum(view(S).seat(0).grain) == 0 and view(S).seat(0).money == 0
    view(S).seat(0).extra_die = C.SANITIZE  # no trub: illegal, so it is lost
    assert pol.next_step(S, R, 0, pols[0]) == C.STEP_EXTRA_DIE * 64 + C.SANITIZE * 8
    K.resolve_step(S, R, 0, pols, C.STEP_EXTRA_DIE * 64 + C.GRAIN * 8 + 1)
    assert sum(view(S).seat(0).grain) == 1 and view(S).seat(0).extra_die == -1


# --- Charlie ----------------------------------------------------------------------------------------

def test_charlie_who_cannot_move_advances_every_other_recipe():
    cfg, R, S, pols = blank(2)
    card = cfg.charlie_ids.index("c_ale3")
    view(S).board.charlie[0] = card
    quality(S, C.CHARLIE, ale=11, porter=1)
    quality(S, 0, ale=12)
    view(S).game.lock.ale = 0
    K.charlie_advance(S, R, pols)
    assert [view(S).seat(C.CHARLIE).quality[r] for r in range(4)] == [11, 2, 1, 1]


def test_charlie_turns_trade_then_end_after_two_passes():
    """2 players: turns from the start player, one die with Charlie or a pass, until both pass in
    a row (rulebook L134-136). Seat 1 starts; both want Charlie's brews (seat 1 has grain, seat 0
    a grain die to brew with)."""
    cfg, R, S, pols = blank(2)
    view(S).game.start = 1
    view(S).seat(1).grain.ale = 2
    view(S).seat(0).dice = (0, 1, 1, 1, 0)  # sanitize, event, grain, flavor, brew
    view(S).seat(1).dice = (0, 1, 1, 1, 0)
    view(S).seat(C.CHARLIE).dice = (0, 0, 0, 0, 3)  # three brews: a triple nobody re-rolls (brews are wanted)
    for s in range(2):
        pol.prep_trade(S, R, s, pols[s])
    turns = K.charlie_turns(S, R, pols)
    trades = [(r[2], r[4], r[5]) for r in S.trace[:view(S).game.trace] if r[0] == C.TR_TRADE]
    assert trades == [(1, C.EVENT, C.BREW), (0, C.EVENT, C.BREW), (1, C.GRAIN, C.BREW)]  # seat 1 first
    assert turns == 3 + 2  # three trades, then the two passes in a row
    assert list(view(S).seat(0).dice) == [0, 0, 1, 1, 1] and list(view(S).seat(1).dice) == [0, 0, 0, 1, 2]
    assert list(view(S).seat(C.CHARLIE).dice) == [0, 2, 1, 0, 0]


def test_own_triple_rerolled_on_a_charlie_turn():
    """The re-roll of one's own triple is allowed at any time of the trade phase (L120), so also
    on a turn of trading with Charlie."""
    cfg, R, S, pols = blank(2)
    view(S).game.start = 0
    view(S).seat(0).dice = (3, 0, 0, 0, 0)  # three sanitize with a clean garage: worthless, re-rolled
    view(S).seat(1).dice = (0, 1, 1, 1, 0)
    view(S).seat(C.CHARLIE).dice = (0, 1, 1, 1, 0)
    rng = S.rng[RNG_DICE0].copy()
    for s in range(2):
        pol.prep_trade(S, R, s, pols[s])
    K.charlie_turns(S, R, pols)
    rows = S.trace[:view(S).game.trace]
    assert S.rng[RNG_DICE0] != rng  # seat 0's dice stream rolled again
    assert any(r[0] == C.TR_REROLL and r[2] == 0 for r in rows)


def test_trade_phase_change_makes_a_triple_to_reroll():
    """$1 die change in the trade phase (L122): with two sanitize and a grain in a clean garage,
    the bot pays $1 to turn the grain into a third sanitize and re-rolls all three."""
    cfg, R, S, pols = blank(3)
    view(S).seat(0).money = 3
    view(S).seat(0).dice = (2, 0, 1, 0, 0)
    pol.prep_trade(S, R, 0, pols[0])
    rng = S.rng[RNG_DICE0].copy()
    K.change_to_reroll(S, R, 0, pols)
    assert view(S).seat(0).money == 2 and view(S).seat(0).stats.dice_changed == 1
    assert S.rng[RNG_DICE0] != rng and sum(view(S).seat(0).dice) == 3
    view(S).seat(1).money = 0  # no money: no change
    view(S).seat(1).dice = (2, 0, 1, 0, 0)
    K.change_to_reroll(S, R, 1, pols)
    assert list(view(S).seat(1).dice) == [2, 0, 1, 0, 0] and view(S).seat(1).stats.dice_changed == 0



@pytest.mark.parametrize("grain, covered, money", [(0, 0, 0), (2, 1, 3), (5, 3, 1)])
def test_fresh_roll_value_is_the_expected_worth_of_a_new_roll(grain, covered, money):
    """The trade phase's re-roll decision weighs three fresh dice by the die's faces: the sum over
    every ordered roll of its chance times the worth of that hand put on the dice (dice_value),
    worked out here roll by roll, and the hands it valued are cached under their own keys; the
    seat's dice are as they were afterwards."""
    cfg, R, S, pols = blank(3)
    v = view(S).seat(0)
    v.grain.ale, v.covered, v.money = grain, covered, money
    v.dice = (0, 1, 0, 2, 0)
    pol.prep_trade(S, R, 0, pols[0])
    got = pol.fresh_roll_value(S, R, 0, pols[0])
    assert list(view(S).seat(0).dice) == [0, 1, 0, 2, 0]
    faces = R.p[C.P_FACE0:C.P_FACE0 + C.N_ACTIONS] / 6.0
    want = 0.0
    for x in range(C.N_ACTIONS):
        for y in range(C.N_ACTIONS):
            for z in range(C.N_ACTIONS):
                view(S).seat(0).dice = np.bincount([x, y, z], minlength=C.N_ACTIONS)
                worth = pol.hand_value(S, R, 0, pols[0], 0)
                want += faces[x] * faces[y] * faces[z] * worth
                # fresh_roll_value left this hand's own worth in dice_value's cache
                assert S.hands[0, pol.hand_key(S.dice[0])] == worth
    assert got == pytest.approx(want, rel=1e-12)
    assert want > 0.0


def test_swap_gains_are_swap_gain_from_for_every_face_held():
    """player_trades works a seat's swap gains out in one call (pol.swap_gains, into the seat's
    S.vals cells from V_SWAP on): for every face the seat holds and every other face, exactly
    swap_gain_from's against the seat's dice value; the cells of faces it does not hold and of
    other seats are untouched, and the dice are as they were afterwards."""
    cfg, R, S, pols = blank(3)
    view(S).seat(0).grain.ale, view(S).seat(0).covered = 2, 1
    for seat, dice in enumerate([(1, 1, 0, 1, 0), (0, 2, 1, 0, 0), (2, 0, 0, 0, 1)]):
        view(S).seat(seat).dice = dice
        pol.prep_trade(S, R, seat, pols[seat])
    S.vals[C.V_SWAP:] = np.nan
    pol.swap_gains(S, R, 0, pols[0], S.vals[K.swap_cell(0, 0, 0):K.swap_cell(1, 0, 0)])
    assert list(view(S).seat(0).dice) == [1, 1, 0, 1, 0]
    before = pol.dice_value(S, R, 0, pols[0], 0)
    for give in range(C.N_ACTIONS):
        for get in range(C.N_ACTIONS):
            cell = S.vals[K.swap_cell(0, give, get)]
            if S.dice[0, give] == 0 or get == give:
                assert np.isnan(cell)
            else:
                assert cell == pol.swap_gain_from(S, R, 0, pols[0], give, get, before)
    assert np.isnan(S.vals[K.swap_cell(1, 0, 0):]).all()  # other seats untouched


def trades_recomputing_every_seat(S, R, n, pols):
    """player_trades as it was before it kept the swap gains of seats whose dice did not
    change: every pair, face given and face taken compared in turn, with every seat's gains
    worked out afresh each round (a random bot accepts any swap, then tosses its coin)."""
    for _ in range(ru.param(R, C.P_MAX_TRADES)):
        K.reroll_triples(S, R, n, pols)
        best, pick = -1e9, None
        for i in range(n):
            for j in range(i + 1, n):
                for a in range(C.N_ACTIONS):
                    for b in range(C.N_ACTIONS):
                        if b == a or S.dice[i, a] == 0 or S.dice[j, b] == 0:
                            continue
                        gi = 0.0 if pol.is_random(R, pols[i]) else pol.swap_gain(S, R, i, pols[i], a, b)
                        gj = 0.0 if pol.is_random(R, pols[j]) else pol.swap_gain(S, R, j, pols[j], b, a)
                        if (pol.is_random(R, pols[i]) or gi > R.pol_w[pols[i], C.W_TRADE_MARGIN]) and \
                                (pol.is_random(R, pols[j]) or gj > R.pol_w[pols[j], C.W_TRADE_MARGIN]) and \
                                gi + gj > best:
                            best, pick = gi + gj, (i, j, a, b)
        if pick is None:
            break
        i, j, a, b = pick
        if pol.is_random(R, pols[i]) and not pol.accepts(S, R, i, pols[i], a, b):
            break
        if pol.is_random(R, pols[j]) and not pol.accepts(S, R, j, pols[j], b, a):
            break
        K.do_trade(S, R, *pick)
    K.reroll_triples(S, R, n, pols)


def test_open_trading_keeps_the_gains_of_seats_whose_dice_did_not_change():
    """player_trades works a seat's swap gains and the swaps it accepts out again only after its
    dice changed (a trade or a re-roll), and compares a pair's swaps both accept only; on random
    trade phases (plans, dice, bots, several trades a month) it makes the same trades, re-rolls,
    coin tosses and dice as comparing every swap of every pair with gains worked out afresh."""
    rng = np.random.default_rng(5)
    several = 0
    for case in range(300):
        n = int(rng.integers(2, 6))
        cfg, R, S, pols = blank(n, factions=list(rng.choice(C.CHARACTERS, n)))
        if case % 3 == 0:  # greedy, its styles and random bots mixed
            pols[:n] = [cfg.policy_index(p) for p in rng.choice(["greedy", "racer", "judge_hunter", "random"], n)]
        S.rng[:] = rng.integers(1, 2**62, S.rng.shape[0]).astype(np.uint64)
        view(S).game.month = int(rng.integers(0, C.MONTHS))
        for s in range(n):
            seat = view(S).seat(s)
            seat.grain = rng.integers(0, 3, C.N_RECIPES)
            seat.covered = int(rng.integers(0, 4))
            seat.money = int(rng.integers(0, 6))
            ru.roll_dice(S, R, s, RNG_DICE0 + s, 3)
            pol.prep_trade(S, R, s, pols[s])
            S.vals[10 + s], S.vals[20 + s] = rng.uniform(0, 4, 2)  # a flavor action's and the event's worth
        T = type(S)(*(a.copy() for a in S))
        K.player_trades(S, R, n, pols)
        trades_recomputing_every_seat(T, R, n, pols)
        assert (S.dice == T.dice).all() and (S.rng == T.rng).all(), f"case {case}"
        assert view(S).game.trades == view(T).game.trades, f"case {case}"
        several += view(S).game.trades >= 2
    assert several >= 30  # where the kept gains matter: a round after a trade


def test_brew_value_stops_after_the_last_flavored_card_with_the_same_value():
    """brew_value adds the flavor tops under the recipe in card order, walking the set of the
    seat's cards under its recipes, and stops after the last flavored card (S.fl counts them):
    on random boards of cards under recipes, neutral cards among them, it equals move_value plus
    every card's top added in card order, bit for bit."""
    rng = np.random.default_rng(8)
    cfg, R, S, pols = blank(4)
    neutral = R.cards.shape[0] - 1
    for case in range(400):
        phys = R.phys.copy()
        phys[rng.random(C.CARD_SLOTS) < 0.15] = neutral
        Rc = R._replace(phys=phys)
        S.fl[:] = 0
        for c in range(C.CARD_SLOTS):
            if rng.random() < 0.3:
                seat, r = int(rng.integers(0, 4)), int(rng.integers(0, C.N_RECIPES))
                view(S).card(c).set(loc=C.LOC_RECIPE, owner=seat, recipe=r)
                ru.add_flavor(S, Rc, seat, r, c, 1)
            else:
                view(S).card(c).set(loc=C.LOC_DECK, owner=-1, recipe=-1)
        for s in range(4):
            view(S).seat(s).quality = rng.integers(0, 12, C.N_RECIPES)
        seat, r, amt = int(rng.integers(0, 4)), int(rng.integers(0, C.N_RECIPES)), int(rng.integers(1, 5))
        under = sum(1 << c for c in range(C.CARD_SLOTS) if S.card[c, 0] == C.LOC_RECIPE and S.card[c, 1] == seat)
        want = pol.move_value(S, Rc, seat, pols[seat], r, amt)
        for c in range(C.CARD_SLOTS):
            if view(S).card(c).loc == C.LOC_RECIPE and view(S).card(c).owner == seat and view(S).card(c).recipe == r:
                want += pol.top_value(S, Rc, seat, pols[seat], Rc.cards[phys[c], C.CF_TOP])
        assert pol.brew_value(S, Rc, seat, pols[seat], r, amt, under) == want, f"case {case}"


def random_flavor_state(rng, case):
    """A 4-player state for valuing Flavor actions: random months, judges in play, qualities,
    grain, trub, money, cards in hands, under recipes and in the face-up row (some slots empty),
    and greedy or one of its styles for each seat."""
    cfg, R, S, pols = blank(4, factions=list(rng.choice(C.CHARACTERS, 4)))
    pols[:4] = [cfg.policy_index(p) for p in rng.choice(["greedy", "racer", "judge_hunter"], 4)]
    view(S).game.month = int(rng.integers(0, C.MONTHS))
    S.board[C.B_JUDGES, :C.N_JUDGES_IN_PLAY] = rng.choice(R.judges.shape[0], C.N_JUDGES_IN_PLAY, replace=False)
    S.fl[:] = 0
    S.gains[:] = 0  # a stale key: the first valuation works the gains out
    row = iter(rng.permutation(C.ROW))
    for c in range(C.DECK):
        x = rng.random()
        seat = int(rng.integers(0, 4))
        if x < 0.15 + 0.1 * (case % 3):
            view(S).card(c).set(loc=C.LOC_HAND, owner=seat, recipe=-1)
        elif x < 0.45:
            r = int(rng.integers(0, C.N_RECIPES))
            view(S).card(c).set(loc=C.LOC_RECIPE, owner=seat, recipe=r)
            ru.add_flavor(S, R, seat, r, c, 1)
        elif x < 0.5 and (i := next(row, None)) is not None:
            view(S).card(c).set(loc=C.LOC_ROW, owner=-1, recipe=-1)
            S.pile[C.PILE_ROW, i] = c
    for s in range(4):
        seat = view(S).seat(s)
        seat.quality = rng.integers(0, 12, C.N_RECIPES)
        seat.grain = rng.integers(0, 3, C.N_RECIPES)
        seat.covered = int(rng.integers(0, 4))
        seat.money = int(rng.integers(0, 8))
    return cfg, R, S, pols


def held(S, loc, seat):
    """The cards at loc that seat holds, in card order."""
    return [c for c in range(C.CARD_SLOTS) if S.card[c, 0] == loc and S.card[c, 1] == seat]


def best_play_before(S, R, seat, p):
    """best_play as it was before it walked a set of the hand's cards (ru.cards_of): every card
    slot scanned, the hand's cards in card order, each target in turn (a random bot: a uniform
    pick among the hand's cards x targets)."""
    hand = held(S, C.LOC_HAND, seat)
    if pol.is_random(R, p):
        if not hand:
            S.vals[0] = -1e9
            return -1
        x = pol.rnd(S, seat, 5 * len(hand))
        S.vals[0] = 0.0
        return hand[x // 5] * 8 + x % 5
    best, arg = -1e9, -1
    pol.judge_gains(S, R, seat)
    for c in hand:
        for t in range(5):
            if t < 4:
                v = pol.play_top_value(S, R, seat, p, c, t)
            else:
                v = pol.eff_value(S, R, seat, p, R.cards[R.phys[c], C.CF_BOTTOM], R.cards[R.phys[c], 4])
            if v > best:
                best, arg = v, c * 8 + t
    S.vals[0] = best
    return arg


def test_best_play_walks_the_hand_as_the_card_scan_did():
    """ru.cards_of finds the cards in a seat's hand and under its recipes, and best_play, which
    walks that set, makes the play (and value, and coin toss of a random bot) the scan of every
    card slot made, on random states and for greedy, its styles and random bots."""
    rng = np.random.default_rng(18)
    for case in range(300):
        cfg, R, S, pols = random_flavor_state(rng, case)
        if case % 4 == 0:
            pols[:4] = cfg.policy_index("random")
        seat = int(rng.integers(0, 4))
        for loc in (C.LOC_HAND, C.LOC_RECIPE):
            assert ru.cards_of(S, loc, seat) == sum(1 << c for c in held(S, loc, seat)), f"case {case}"
        T = type(S)(*(a.copy() for a in S))
        V, VR = pol.flavor_view.py_func(S, R)
        got = pol.best_play(V, VR, seat, pols[seat], ru.cards_of(S, C.LOC_HAND, seat))
        want = best_play_before(*pol.flavor_view.py_func(T, R), seat, pols[seat])
        assert (got, S.vals[0]) == (want, T.vals[0]) and (S.rng == T.rng).all(), f"case {case}"


def flavor_action_before(S, R, seat, p):
    """The Flavor action's worth and move as they were worked out before flavor_action did both
    in one call: flavor_action_value (the best draw, then the best play), and choose_flavor's
    play or draw, then choose_draw's card."""
    pol.gains_for_draws(S, R, seat)
    worth = pol.card_draw_value(S, R, seat, p, -1)
    for i in range(C.ROW):
        c = S.pile[C.PILE_ROW, i]
        if c >= 0:
            worth = max(worth, pol.card_draw_value(S, R, seat, p, c))
    code = -1
    if held(S, C.LOC_HAND, seat):
        code = best_play_before(S, R, seat, p)
        worth = max(worth, S.vals[0])
        if not (S.vals[0] >= pol.card_draw_value(S, R, seat, p, -1) or pol.months_left(S) == 0):
            code = -1
    return worth, (code if code >= 0 else pol.DRAW_MOVE + pol.draw_choice(S, R, seat, p))


def test_flavor_action_values_and_chooses_as_before():
    """flavor_action values a Flavor action and chooses its move in one call: on random states
    (hands, cards under recipes, the row, judges, months) its worth is bit for bit the best
    draw's and best play's as worked out before, and its move the play or draw choose_flavor and
    choose_draw made."""
    rng = np.random.default_rng(16)
    moves = set()
    for case in range(300):
        cfg, R, S, pols = random_flavor_state(rng, case)
        seat = int(rng.integers(0, 4))
        T = type(S)(*(a.copy() for a in S))
        got = pol.flavor_action(*pol.flavor_view.py_func(S, R), seat, pols[seat])
        want = flavor_action_before(*pol.flavor_view.py_func(T, R), seat, pols[seat])
        assert got == want, f"case {case}"
        move = got[1]
        moves.add(("draw", move - pol.DRAW_MOVE) if move >= pol.DRAW_MOVE else ("play", move % 8))
    assert len(moves) >= 8  # plays under recipes and for the bottom, draws of face-up cards and blind


def test_a_used_die_or_extra_action_carries_the_choice_greedy_made_and_acts_as_if_chosen_then():
    """next_step's Brew and Flavor dice and extra actions carry the recipe or move greedy chose
    while valuing them (step // STEP_CHOICE); resolving the step leaves the state bit for bit as
    resolving it without the choice, which has take_action choose it again."""
    rng = np.random.default_rng(17)
    carried = Counter()
    for case in range(600):
        cfg, R, S, pols = random_flavor_state(rng, case)
        seat = int(rng.integers(0, 4))
        S.dice[seat] = 0
        if case % 3 < 2:
            S.dice[seat, C.FLAVOR if case % 3 else C.BREW] = 1
        else:  # no dice left: the extra action, if greedy buys it
            view(S).seat(seat).money = int(rng.integers(3, 9))
        step = pol.next_step(S, R, seat, pols[seat])
        kind, face = (step // 64) % 8, (step // 8) % 8
        if kind not in (C.STEP_USE, C.STEP_EXTRA):
            continue
        carried[kind, face] += step >= C.STEP_CHOICE
        T = type(S)(*(a.copy() for a in S))
        K.resolve_step(S, R, seat, pols, step)
        K.resolve_step(T, R, seat, pols, step % C.STEP_CHOICE)
        for name, x, y in zip(S._fields, S, T, strict=True):
            assert np.array_equal(x, y, equal_nan=True), f"case {case}: {name}"
    assert carried[C.STEP_USE, C.FLAVOR] >= 50 and carried[C.STEP_USE, C.BREW] >= 20
    assert carried[C.STEP_EXTRA, C.FLAVOR] + carried[C.STEP_EXTRA, C.BREW] >= 20, carried


def brew_before(S, R, seat, pols, r, gabriel):
    """kernel.brew as it was before its flavor tops walked a set of the seat's cards under
    recipes (ru.cards_of): step 3 scanned every card slot, reading each card's place afresh."""
    q0, target = 0, 0
    if gabriel:
        moved, keep = K.move_quality(S, R, seat, pols, r, 1), True
    else:
        q0 = S.pl[seat, C.Q0 + r]
        target = min(q0 + ru.level(S, R, seat), ru.cap_for(S, seat, r))
        keep = False
        K.decided(S)
        if pol.andrew_keeps(S, R, seat, pols[seat]):
            keep = True
            S.pl[seat, C.POWER_USED] = 1
            S.pl[seat, C.MONEY] -= ru.param(R, C.P_POWER)
            S.pl[seat, C.ST_POWERS] += 1
            ru.log_event(S, seat, R.cards.shape[0] + C.ANDREW, C.LOG_POWER, ru.param(R, C.P_POWER), r)
            ru.trace(S, C.TR_POWER, seat, C.ANDREW, r, 0, 0, 0)
        S.pl[seat, C.Q0 + r] = target
        if target == C.MAX_Q:
            S.g[C.G_LOCK0 + r] = seat
        moved = target - q0
        if not keep:
            S.pl[seat, C.GRAIN0 + r] -= 1
            S.pl[seat, C.COVERED] += 1
    S.pl[seat, C.ST_BREWS] += 1
    ru.log_event(S, seat, R.cards.shape[0] + C.SPECIAL_BREW + r, C.LOG_BREW, moved, r)
    ru.trace(S, C.TR_BREW, seat, r, moved, S.pl[seat, C.Q0 + r], 1 if gabriel else 0, 1 if keep else 0)
    for c in range(C.CARD_SLOTS):
        if S.card[c, 0] == C.LOC_RECIPE and S.card[c, 1] == seat and S.card[c, 2] == r:
            K.apply_top(S, R, seat, pols, r, R.cards[R.phys[c], C.CF_TOP])
    if not gabriel:
        for lv in range(q0 + 1, target + 1):
            b = S.board[r, lv]
            if b > 0:
                ru.trace(S, C.TR_GAIN, seat, b // 8, b % 8, r, lv, 0)
                K.gain_basic(S, R, seat, pols, b // 8, b % 8)


def test_brew_applies_the_tops_under_the_recipe_as_the_card_scan_did():
    """brew applies the flavor tops under the recipe by walking the set of the seat's cards
    under recipes found before the first top (a top's moves may pay draws and grain, but no card
    comes to lie under a recipe): on random states, Gabriel's brews among them, the state
    afterwards is bit for bit the one scanning every card slot made."""
    rng = np.random.default_rng(19)
    tops = 0
    for case in range(300):
        cfg, R, S, pols = random_flavor_state(rng, case)
        seat, r = int(rng.integers(0, 4)), int(rng.integers(0, C.N_RECIPES))
        view(S).seat(seat).covered = int(rng.integers(0, 3))
        S.pl[seat, C.GRAIN0 + r] = max(S.pl[seat, C.GRAIN0 + r], 1)
        view(S).pile.deck[:C.DECK] = rng.permutation(C.DECK)  # blind draws find a card
        view(S).game.deck_n = C.DECK
        gabriel = case % 5 == 0
        T = type(S)(*(a.copy() for a in S))
        K.brew(*K.play_view.py_func(S, R), seat, pols, r, gabriel)
        brew_before(*K.play_view.py_func(T, R), seat, pols, r, gabriel)
        for name, x, y in zip(S._fields, S, T, strict=True):
            assert np.array_equal(x, y, equal_nan=True), f"case {case}: {name}"
        tops += len([c for c in held(S, C.LOC_RECIPE, seat) if S.card[c, 2] == r])
    assert tops >= 150


# --- winner and data ----------------------------------------------------------------------------------

def final_rows(cfg, R, S, n):
    """kernel.record after a game: (game row, player rows, win shares)."""
    games = output_rows(1, GAMES.width)[0]
    players = output_rows(n, PLAYERS.width)
    wins = np.zeros(n)
    K.record(S, R, GAME.kernel_inputs(cfg, {})[1], 0, n, games, players, wins)
    return games, players, wins


def test_tie_break_by_octoberfest_golds():
    cfg, R, S, pols = blank(3)
    for p in view(S).seats(3):
        p.rep = 30
    view(S).seat(0).stats.gold = 1
    view(S).seat(1).stats.gold = 1
    view(S).seat(1).stats.silver = 1
    games, players, wins = final_rows(cfg, R, S, 3)
    assert games[GAMES.at.n_winners] == 1
    assert list(players[:, PLAYERS.at.rank]) == [2, 1, 3] and list(wins) == [0.0, 1.0, 0.0]


def test_players_level_on_reputation_and_medals_share_the_win():
    cfg, R, S, pols = blank(3)
    for p in view(S).seats(3):
        p.rep = 30
    view(S).seat(0).stats.bronze = 2
    view(S).seat(1).stats.bronze = 2
    view(S).seat(1).stats.honorable = 3  # honorable mentions break no tie
    games, players, wins = final_rows(cfg, R, S, 3)
    assert games[GAMES.at.n_winners] == 2
    assert list(players[:, PLAYERS.at.rank]) == [1, 1, 3] and list(wins) == [0.5, 0.5, 0.0]


def test_judges_score_as_printed():
    cfg, R, S, pols = blank(2)
    quality(S, 0, ale=3, porter=5, stout=4, ipa=6)
    assert ru.judge_value(S, R, 0, 0) == 6  # twice the lowest recipe
    for f in ("chocolate", "raspberry", "bacon"):
        under(cfg, S, 0, f, "ale")
    assert ru.judge_value(S, R, 0, cfg.judge_ids.index("trio_recipe")) == 4
    for f in ("vanilla", "caramel"):
        under(cfg, S, 0, f, "ale")
    assert ru.judge_value(S, R, 0, cfg.judge_ids.index("dessert_recipe")) == 5
    assert ru.judge_value(S, R, 0, cfg.judge_ids.index("five_on_recipe")) == 4
    assert ru.judge_value(S, R, 0, cfg.judge_ids.index("seven_flavors")) == 0
    quality(S, 0, stout=0)
    assert ru.judge_value(S, R, 0, 0) == 0


def test_setup_deals_as_written():
    cfg, R, S, pols = blank(4)
    K.seed_streams(S, np.uint64(5), 0)
    K.assign_factions(S, R, np.uint64(5), 0, 4, np.arange(7), np.array([-1]), 1, True)
    ru.setup_board(S, R, 4)
    ru.setup_players(S, R, 4)
    assert len(set(view(S).board.faction[:4])) == 4
    assert view(S).board.judges[0] == 0 and len(set(view(S).board.judges[:5])) == 5
    assert view(S).board.events[3] == C.SUMMER_EVENT and view(S).board.events[7] == C.OCTOBER_EVENT
    assert len({int(view(S).board.events[m]) for m in (0, 1, 2, 4, 5, 6)}) == 6
    for s in range(4):
        assert view(S).seat(s).money == 2 and view(S).seat(s).covered == 2 and hand_size(S, s) == 2
    assert view(S).game.deck_n == C.DECK - 4 - 8


def test_bad_data_names_file_entry_and_field():
    data = prepare("homebrewers", "characters", [], [])
    data.tree["flavor_cards"]["card"][0]["top"] = "free_beer"
    with pytest.raises(BrewError, match="flavor_cards.toml: card 'chocolate': field 'top'"):
        GAME.build(data)
    data = prepare("homebrewers", "characters", [], [])
    data.tree["characters"]["character"][2]["slots"] = []
    with pytest.raises(BrewError, match="character 'colt'"):
        GAME.build(data)


def test_judge_potential_gives_partial_credit_and_full_credit_once_met():
    """The bots' judge potential: a met judge counts in full, a partial one by its squared share."""
    cfg, R, S, pols = blank(2)
    ids = ("dessert_recipe", "seven_flavors", "trio_recipe", "three_recipes")
    view(S).board.judges[:5] = [0] + [cfg.judge_ids.index(j) for j in ids]
    assert pol.judge_potential(S.fl[0], S.board[C.B_JUDGES], R.judges) == 0.0
    for f in ("chocolate", "vanilla", "caramel"):  # three Dessert flavors under Ale
        under(cfg, S, 0, f, "ale")
    assert ru.judges_total(S, R, 0, True) == 5  # only the Dessert-recipe judge is met
    expected = 5 + 4 * (3 / 7) ** 2 + 4 * (1 / 3) ** 2 + 5 * (2 / 6) ** 2
    assert pol.judge_potential(S.fl[0], S.board[C.B_JUDGES], R.judges) == pytest.approx(expected)


VIEWS = [pol.effect_view, pol.flavor_view, pol.trade_view, pol.power_view, K.play_view]


@pytest.mark.parametrize("make_view", VIEWS, ids=lambda f: f.__name__)
def test_a_view_holds_the_state_and_rules_arrays_themselves(make_view):
    """The hot compiled calls take views of S and R (only the arrays they read, so fewer words
    pushed per call): each field must be S's or R's own array of that name, not a copy, or the
    bots' writes (S.vals, S.gains, S.hands, the dice swapped while valuing a trade) and the
    moves would be lost."""
    cfg, R, S, pols = blank(4)
    V, VR = getattr(make_view, "py_func", make_view)(S, R)
    for part, whole in ((V, S), (VR, R)):
        for name in part._fields:
            assert getattr(part, name) is getattr(whole, name), name
