"""Dragon Brew rules, the end of the game: the final ranking.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt): most VP wins; ties go to the most ribbons, then the most gold
(l. 436-438); a tie that persists shares the rank and the win.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C

# ----------------------------------------------------------------------------- final ranking

@jit
def final_ranking(S):
    """Rank by VP, then ribbons, then gold; full ties share the rank and the win."""
    n = S.g[C.G_N]
    n_win = 0
    for s in range(n):
        rank = 1
        for t in range(n):
            if better(S, t, s):
                rank += 1
        S.pl[s, C.PL_RANK] = rank
        if rank == 1:
            n_win += 1
    for s in range(n):
        S.wins[s] = 1.0 / n_win if S.pl[s, C.PL_RANK] == 1 else 0.0
    return n_win


@jit_inline
def better(S, t, s):
    for f in (C.PL_VP, C.PL_RIBBONS, C.PL_GOLD):
        if S.pl[t, f] != S.pl[s, f]:
            return S.pl[t, f] > S.pl[s, f]
    return False
