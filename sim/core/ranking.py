"""Final ranking with shared wins, for every game.

A player's rank is 1 + the number of players strictly ahead of it, comparing the columns
`keys` of the per-seat table one after the other (the game's score, then its printed
tie-breakers). Players level on every key share the rank, and the winners (rank 1) share the
win equally: each gets 1/k of a k-way tie, so the win shares of a game sum to one.
"""

from .jit import jit_inline


@jit_inline
def ahead(table, a, b, keys):
    """Whether seat a is strictly ahead of seat b on the keys, in order."""
    for k in keys:
        if table[a, k] != table[b, k]:
            return table[a, k] > table[b, k]
    return False


@jit_inline
def rank_seats(table, n, keys, out_rank, out_win):
    """Fill out_rank[:n] and out_win[:n] for seats 0..n-1; returns the number of winners."""
    winners = 0
    for s in range(n):
        rank = 1
        for o in range(n):
            if ahead(table, o, s, keys):
                rank += 1
        out_rank[s] = rank
        if rank == 1:
            winners += 1
    for s in range(n):
        out_win[s] = 1.0 / winners if out_rank[s] == 1 else 0.0
    return winners
