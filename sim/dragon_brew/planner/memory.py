"""Dragon Brew planner, its memory (BotState) and the small readers of it.

Memory (BotState, one row per seat; kernels never allocate, so every buffer is here):
  mem   int64[4, MEM_W]          plan size, game id, candidate/judge cache keys, need vector
  plan  int64[4, MAX_PLAN, PW]   the planned beers as copies (cards, chars, vp, gold, need counts),
                                 since the candidates are rebuilt when the book changes mid-turn
  fv    float64[4, 4]            extra (value of the best beer beyond capacity), plan value,
                                 mana extra (Naga's Mana Spell fuel)
  cand  int64[4, MAX_CANDS, CW]  every beer the book allows (cached per book): cards, chars, vp,
                                 gold, spices, distinct needs in first-need order with counts
  jv    float64[4, MAX_CANDS, 1 + MAX_ROW]  per beer its best judge value, then per shown judge
                                 (cached per book, judges and policy)
  fsc   float64[4, MAX_CANDS]    selection scratch: the stale values of the beers a pass reads
                                 (-inf once dropped), the dead flags, the positions of the dead
                                 beers one pass found, the beers a pass reads (these two rows
                                 hold int64 indices, read through .view)
  isc   int64[22, 256]           small integer scratch rows (I_*), "registers": one row per helper
                                 that returns a list, so that nested helpers never share one
  fsm   float64[4, 256]          small float scratch rows (F_*), the same way
A seat's plan and need are forgotten when S.g[G_GAME] changes (each game starts with no plan);
the caches are keyed by what they depend on (book; book, judges and policy) and stay valid.
"""

from collections import namedtuple

import numpy as np

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import JF_P, JF_PD, P_CHAR_UNIT

BotState = namedtuple("BotState", "mem plan fv cand jv fsc isc fsm")
# A compiled call passes every array of its tuples field by field: all of S, R and B are
# 263 words a call. The valuations (ingredients.py, card_values.py, move_values.py) take views
# instead, the arrays they read under S's, R's and B's names, so the same code reads either.
ValueState = namedtuple("ValueState", "g piles pl est")
ValueRules = namedtuple("ValueRules", "p race ab bc evt jd pol_w pol_y")
ValueMemory = namedtuple("ValueMemory", "mem plan fv isc")
MAX_SP = 4  # widest beer: a barrel and up to 4 spices (BF_SPICE has room for 4)
# mem columns
M_NPLAN, M_GID, M_NCAND, M_JVALID, M_JPOL, M_JN, M_CBOOK_N, M_CVALID = range(8)
M_NEED = 8
M_J = M_NEED + C.N_INGS
M_CBOOK = M_J + C.MAX_ROW
MEM_W = M_CBOOK + C.MAX_BOOK
# plan columns
PB_CARD = 0
PB_NSP = PB_CARD + 1 + MAX_SP
PB_C0 = PB_NSP + 1
PB_VP = PB_C0 + 3
PB_GOLD = PB_VP + 1
PB_NEED = PB_GOLD + 1
PW = PB_NEED + C.N_INGS
MAX_PLAN = C.MAX_BEERS + 1  # the beers brewed plus the best one left out
# candidate columns
CD_CARD = 0
CD_C0 = CD_CARD + 1 + MAX_SP
CD_VP = CD_C0 + 3
CD_GOLD = CD_VP + 1
CD_NSP = CD_GOLD + 1
CD_CNTN = CD_NSP + 1
CD_ING = CD_CNTN + 1
CD_K = CD_ING + C.N_INGS
CW = CD_K + C.N_INGS


# The planner stops researching once its book holds this many recipes: more recipes only widen
# its beer search (about a thousand candidate beers at 24) while its brewers cannot gather for
# them; without the limit a planner occasionally kept researching (a 48-recipe book in one game
# of 90,000, 4 players).
BOOK_LIMIT = 24


# fv columns
FV_EXTRA, FV_PLAN_VALUE, FV_MANA_EXTRA = range(3)
# isc rows
(I_ITEMS, I_NEEDC, I_BOC, I_SPINV, I_PICKS, I_LVINV, I_MHINV, I_MHNEED, I_CINV, I_PAYINV, I_SELINV, I_USED,
 I_CLAIMED, I_OUTCI, I_SORT, I_REQ, I_IDX, I_GOT) = range(18)
I_PART = 18  # MAX_SP rows: build_beers' part-built beers, one a row
N_ISC = I_PART + MAX_SP
SCR_W = 256
# fsm rows
F_OUTV, F_ACQ, F_KEY = range(3)
NO_BUDGET = 1e9  # action budget of a selection that only brews what is held
K_MANA_SPELL = C.KEY_ABILITY + C.AB_MANA_SPELL


def make_bot_state(cfg, R) -> BotState:
    assert cfg.params["max_spices"] <= MAX_SP, "planner: max_spices above 4"
    assert R.rc.shape[0] <= SCR_W, "planner: more recipes than its scratch rows hold"
    assert CW <= SCR_W, "planner: a beer row is wider than the scratch rows build_beers keeps part-built beers in"
    n = C.MAX_PLAYERS
    mem = np.zeros((n, MEM_W), np.int64)
    mem[:, M_GID] = -1
    return BotState(mem=mem, plan=np.zeros((n, MAX_PLAN, PW), np.int64), fv=np.zeros((n, 4), np.float64),
                    cand=np.zeros((n, C.MAX_CANDS, CW), np.int64),
                    jv=np.zeros((n, C.MAX_CANDS, 1 + C.MAX_ROW), np.float64),
                    fsc=np.zeros((4, C.MAX_CANDS), np.float64), isc=np.zeros((N_ISC, SCR_W), np.int64),
                    fsm=np.zeros((4, SCR_W), np.float64))


# ----------------------------------------------------------------------------- memory

@jit
def reset(B, seat):
    """Forget the plan (a new game); the candidate cache stays valid (it depends on the book)."""
    B.mem[seat, M_NPLAN] = 0
    B.mem[seat, M_JVALID] = 0
    for i in range(C.N_INGS):
        B.mem[seat, M_NEED + i] = 0
    for k in range(B.fv.shape[1]):
        B.fv[seat, k] = 0.0


@jit_inline
def value_view(S, R, B):
    """What the valuations read of S, R and B (144 words a compiled call instead of 263)."""
    return (ValueState(S.g, S.piles, S.pl, S.est),
            ValueRules(R.p, R.race, R.ab, R.bc, R.evt, R.jd, R.pol_w, R.pol_y),
            ValueMemory(B.mem, B.plan, B.fv, B.isc))


@jit_inline
def sync(S, B, seat):
    if B.mem[seat, M_GID] != S.g[C.G_GAME]:
        reset(B, seat)
        B.mem[seat, M_GID] = S.g[C.G_GAME]


@jit_inline
def wt(S, R, seat, k):
    return R.pol_w[S.pl[seat, C.PL_POLICY], k]


@jit_inline
def need_sum(B, seat):
    s = 0
    for i in range(C.N_INGS):
        s += B.mem[seat, M_NEED + i]
    return s


@jit_inline
def magic_need(B, seat):
    return B.mem[seat, M_NEED + C.TOAD] + B.mem[seat, M_NEED + C.DRAGON] + B.mem[seat, M_NEED + C.PIXIE]


@jit_inline
def req(mem, plan, seat, i):
    """How many of ingredient i the plan's beers use (B.mem, B.plan)."""
    s = 0
    for b in range(mem[seat, M_NPLAN]):
        s += plan[seat, b, PB_NEED + i]
    return s


@jit_inline
def pwin(R, j, c0, c1, c2):
    """Rough chance that a beer with these characteristics wins judge j."""
    p = R.jd[j, JF_P]
    v = (c0 if p == 0 else (c1 if p == 1 else c2)) / char_unit(R)  # on the scale the curve was set on
    if R.jd[j, JF_PD] > 0:
        return min(max((v - 3) / 4.0, 0.0), 0.9)
    return min(max((2.5 - v) / 3.0, 0.0), 0.85)


@jit_inline
def char_unit(R):
    """Points a recipe card is played with per point written in recipes.toml (1.0 at char_scale 0)."""
    return R.p[P_CHAR_UNIT] / 1000.0
