"""The named state view (sim.core.view): reads and writes go through to the kernels' arrays,
unknown names are refused with the declared ones listed, and every game's declared names
cover distinct, in-range cells of their arrays (so a slip in a LAYOUT is caught here)."""

import numpy as np
import pytest
from brewin_usa_state import config as brewin_config

from sim.brewin_usa import constants as BC
from sim.brewin_usa import state as brewin_state
from sim.core.view import Group, Layout, Part, StateView, cells_of
from sim.dragon_brew import constants as DC
from sim.dragon_brew import state as dragon_state
from sim.dwarfest import constants as WC
from sim.dwarfest import state as dwarfest_state
from sim.homebrewers import constants as HC
from sim.homebrewers import state as homebrewers_state

STATES = {
    "brewin_usa": (brewin_state, lambda: brewin_state.make_state(20, 10)),
    "dragon_brew": (dragon_state, lambda: dragon_state.make_state(10, 10)),
    "dwarfest": (dwarfest_state, lambda: dwarfest_state.make_state(30, 10)),
    "homebrewers": (homebrewers_state, lambda: homebrewers_state.make_state(10)),
}


def layout_problems(state, layout: Layout) -> list[str]:
    """Names whose cells overlap another name's or fall outside their array. A record names
    the first axis of its array; a table (and a table's parts) names the last one."""
    problems = []

    def check(what, part, length):
        taken = {}
        for name, field in (part.fields or {}).items():
            for cell in cells_of(field):
                if not 0 <= cell < length:
                    problems.append(f"{what}.{name}: cell {cell} outside 0..{length - 1}")
                elif cell in taken:
                    problems.append(f"{what}.{name}: cell {cell} is also {taken[cell]}")
                taken[cell] = name
            if isinstance(field, Group) and len(set(field.names)) != len(field.names):
                problems.append(f"{what}.{name}: a name repeats")

    for name, part in layout.records.items():
        check(name, part, getattr(state, part.array).shape[0])
    for name, part in layout.tables.items():
        check(name, part, getattr(state, part.array).shape[-1])
        for sub, p in (part.parts or {}).items():
            check(f"{name}.{sub}", p, getattr(state, p.array).shape[-1])
    return problems


@pytest.mark.parametrize("game", sorted(STATES))
def test_every_declared_name_is_a_distinct_in_range_cell(game):
    module, make = STATES[game]
    assert layout_problems(make(), module.LAYOUT) == []


def test_the_brewin_rules_layout_names_distinct_in_range_cells():
    assert layout_problems(brewin_config(), brewin_state.RULES_LAYOUT) == []


def test_the_layout_check_finds_a_planted_overlap_and_an_out_of_range_cell():
    S = dwarfest_state.make_state(30, 10)
    slipped = Layout(records={"game": Part("g", {"n": WC.G_N, "players": WC.G_N, "far": WC.N_G})},
                     tables={"seat": Part("pl", {"inv": Group(WC.N_PL - 1, ("a", "b"))})})
    assert layout_problems(S, slipped) == ["game.players: cell 0 is also n", f"game.far: cell {WC.N_G} outside 0..{WC.N_G - 1}",
                                           f"seat.inv: cell {WC.N_PL} outside 0..{WC.N_PL - 1}"]


def test_reads_and_writes_go_through_to_the_arrays():
    S = dwarfest_state.make_state(30, 10)
    v = dwarfest_state.view(S)
    S.pl[2, WC.FAME] = 5
    assert v.seat(2).fame == 5 and isinstance(v.seat(2).fame, int)
    v.seat(2).brawl = 7
    v.seat(1).stats.wasted = 3
    v.seat(1).hand[4] = 2
    v.game.evening = 4
    v.piles.customer_deck[:3] = [1, 2, 3]
    v.seat(0).set(till=9, tables=2)
    assert S.pl[2, WC.BRAWL] == 7 and S.st[1, WC.ST_WASTED] == 3 and S.hand[1, 4] == 2
    assert S.g[WC.G_EVENING] == 4 and list(S.piles[WC.PILE_CDECK, :4]) == [1, 2, 3, 0]
    assert (S.pl[0, WC.TILL], S.pl[0, WC.TABLES]) == (9, 2)
    assert [p.fame for p in v.seats(3)] == [0, 0, 5]
    assert list(v.column("seat", "fame", 3)) == [0, 0, 5] and len(v.column("seat", "fame")) == WC.MAX_PLAYERS
    v.column("seat", "dancers")[:] = 2
    assert (S.pl[:, WC.DANCERS] == 2).all()
    with pytest.raises(AttributeError, match="seat has no field 'dancer'"):
        v.column("seat", "dancer")


def test_groups_and_slices_read_and_write_several_cells():
    S = dragon_state.make_state(10, 10)
    v = dragon_state.view(S)
    p = v.seat(1)
    p.inv.rye = 2
    p.inv[DC.MANA] = 1
    assert S.pl[1, DC.PL_INV + DC.RYE] == 2 and list(p.inv)[-1] == 1 and len(p.inv) == DC.N_INGS
    p.inv = 0
    assert S.pl[1, DC.PL_INV:DC.PL_INV + DC.N_INGS].sum() == 0
    p.stats.beers_brewed = 4
    assert S.pl[1, DC.PL_STATS + DC.ST_BEERS_BREWED] == 4
    p.book[:2] = [7, 9]
    assert list(S.pl[1, DC.PL_BOOK:DC.PL_BOOK + 2]) == [7, 9]
    v.game.flags = [1, 0, 1, 0]
    assert list(S.g[DC.G_FLAGS:DC.G_FLAGS + 4]) == [1, 0, 1, 0] and v.game.flags.drafted == 1
    v.estate(1, 3).locked = 1
    v.beer(0, 2).chars = (4, 5, 6)
    assert S.est[1, 3, DC.CF_LOCKED] == 1 and list(S.beers[0, 2, DC.BF_C0:DC.BF_C0 + 3]) == [4, 5, 6]
    v.piles.judges[0] = 11
    assert S.piles[DC.ROW_JUDGES, 0] == 11 and v.piles.judges[0] == 11


def test_homebrewers_and_brewin_names_reach_the_constants_cells():
    H = homebrewers_state.make_state(10)
    h = homebrewers_state.view(H)
    h.seat(HC.CHARLIE).quality.stout = 6
    h.seat(0).stats.judge_rep = 3
    h.seat(0).dice.brew = 2
    h.game.lock.ipa = 1
    assert H.pl[HC.CHARLIE, HC.Q0 + 2] == 6 and H.pl[0, HC.JUDGE_REP] == 3
    assert H.dice[0, HC.BREW] == 2 and H.g[HC.G_LOCK0 + 3] == 1
    B = brewin_state.make_state(20, 10)
    b = brewin_state.view(B)
    b.city(5).demand = 2
    b.beer(3).set(loc=BC.LOC_CITY, owner=1, city=5)
    b.seat(1).fest.cards = -1
    assert B.city[5, BC.CT_DEMAND] == 2 and list(B.beer[3]) == [BC.LOC_CITY, 1, 5, 0, 0]
    assert list(B.fest[1, BC.F_C:]) == [-1] * BC.MAX_COMMIT


def test_unknown_names_are_refused_with_the_declared_ones():
    v = dwarfest_state.view(dwarfest_state.make_state(30, 10))
    with pytest.raises(AttributeError, match="seat has no field 'fam'; declared: .*fame.*stats"):
        _ = v.seat(0).fam
    with pytest.raises(AttributeError, match="seat has no field 'fam'"):
        v.seat(0).fam = 1
    with pytest.raises(AttributeError, match="seat.stats has no field 'waste'; declared: .*wasted"):
        _ = v.seat(0).stats.waste
    with pytest.raises(AttributeError, match="the state view has no field 'seats_'; declared: game, piles, seat"):
        _ = v.seats_
    g = dragon_state.view(dragon_state.make_state(10, 10)).seat(0).inv
    with pytest.raises(AttributeError, match="seat.inv has no field 'hops'; declared: barley"):
        _ = g.hops


def test_a_view_over_a_plain_namedtuple_needs_no_game():
    from collections import namedtuple

    T = namedtuple("T", "a")
    layout = Layout(records={"top": Part("a", {"x": 0, "rest": slice(1, 3)})}, tables={})
    t = T(np.arange(3))
    top = StateView(t, layout).top
    assert top.x == 0 and list(top.rest) == [1, 2]
