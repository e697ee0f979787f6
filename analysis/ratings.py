"""Plackett-Luce strengths of factions and seats, fitted on finishing orders.

Model: in a game, the player finishing first is drawn from all players with probability
proportional to exp(u), the next from those left, and so on, where a player's utility is

    u = theta[faction] + beta[n_players, seat]

so a faction's strength is measured against the opponents it actually met and net of the
seat it sat in. Ties (players sharing a rank) use Breslow's approximation: each tied player
is "chosen" from the same remaining set (everyone not ranked above the tie). Players tied
for last place carry no ordering information and contribute nothing (their exact marginal
likelihood is 1).

Identifiability: the likelihood depends on utility differences within a game, so
strengths are reported centred: factions sum to zero over all factions, seats sum to zero
within each player count. A strength of +0.2 means exp(0.2) = 1.22 times the odds of the
average faction of being picked at each place.

Fit: maximum likelihood by Newton's method with the analytic gradient and Hessian (the
log-likelihood is concave), with one faction and seat 0 of each player count held at 0
(a reference constraint), then centred. Tests check it against `choix` and a closed form.
Uncertainty: standard errors from the observed Fisher information (the inverse Hessian)
give the two-sided Wald p-value of "strength = 0" and the Holm flags; 95% intervals are
percentile intervals of a seeded bootstrap over games (games resampled with replacement,
each replicate a one-step Newton refit from the full fit; see `_bootstrap`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as _sp

from analysis.stats import holm

ALPHA = 0.05
# A faction that always (or never) places ahead of the others has an infinite maximum-
# likelihood strength; Newton then stops at a large value with a huge standard error, so the
# Wald test cannot flag it. Such rows are marked `separated` (|strength| above this).
SEPARATED = 8.0
BOOTSTRAP = 200            # bootstrap replicates for the intervals
BOOTSTRAP_SEED = 20261129  # fixed: the same run gives the same intervals


@dataclass
class Design:
    """Finishing orders in padded arrays: one row per game, one column per seat.

    fac / seat: parameter indices into the faction and seat blocks (-1 = padding);
    rank: finishing rank (1 = best, ties share; large for padding).
    """

    fac: np.ndarray        # (G, P) int64
    seat: np.ndarray       # (G, P) int64
    rank: np.ndarray       # (G, P) int64
    factions: list[str]    # parameter order of the faction block
    seats: list[tuple[int, int]]  # (n_players, seat) of the seat block

    @property
    def n_params(self) -> int:
        return len(self.factions) + len(self.seats)


def design(players: pl.DataFrame, games: pl.DataFrame, with_factions: bool = True,
           with_seats: bool = True) -> Design:
    """Build the padded arrays from players (game_id, seat, faction, rank) and games
    (game_id, n_players). Without factions only the seat block is fitted; without seats
    every player sits in its player count's reference seat (held at 0), which is the
    plain Plackett-Luce model on factions."""
    df = (players.select("game_id", "seat", "faction", "rank")
          .join(games.select("game_id", "n_players"), on="game_id")
          .sort("game_id", "seat"))
    factions = sorted(df["faction"].unique().to_list()) if with_factions else []
    seat_of = [(int(n), int(s) if with_seats else 0)
               for n, s in zip(df["n_players"], df["seat"], strict=True)]
    seats = sorted(set(seat_of))
    game_ids = df["game_id"].to_numpy()
    row = np.searchsorted(np.unique(game_ids), game_ids)
    col = df["seat"].to_numpy().astype(np.int64)
    shape = (int(row.max()) + 1 if len(row) else 0, int(col.max()) + 1 if len(col) else 0)
    fac = np.full(shape, -1, dtype=np.int64)
    seat = np.full(shape, -1, dtype=np.int64)
    rank = np.full(shape, np.iinfo(np.int32).max, dtype=np.int64)
    if factions:
        fac[row, col] = np.searchsorted(factions, df["faction"].to_numpy())
    seat_index = {key: i for i, key in enumerate(seats)}
    seat[row, col] = [seat_index[key] for key in seat_of]
    rank[row, col] = df["rank"].to_numpy()
    return Design(fac, seat, rank, factions, seats)


def _risk_sets(d: Design) -> tuple[np.ndarray, np.ndarray]:
    """mask[g, i, j]: j is still in play when i is placed (rank_j >= rank_i);
    counts[g, i]: i contributes a term (someone finished strictly below i)."""
    valid = d.seat >= 0
    r = d.rank
    mask = (r[:, None, :] >= r[:, :, None]) & valid[:, None, :] & valid[:, :, None]
    below = (r[:, None, :] > r[:, :, None]) & valid[:, None, :]
    counts = valid & below.any(axis=2)
    return mask, counts


class _Likelihood:
    """Negative log-likelihood, gradient and Hessian over the free parameters (the
    reference parameters are held at 0)."""

    def __init__(self, d: Design):
        self.d = d
        mask, self.counts = _risk_sets(d)
        self.mask = mask.astype(float)  # float, for the batched matrix products below
        k = len(d.factions)
        fixed = ({0} if k else set()) | {k + i for i, (n, s) in enumerate(d.seats) if s == 0}
        self.free = np.array([i for i in range(d.n_params) if i not in fixed], dtype=np.int64)
        self.valid = d.seat >= 0
        # column index of every (game, seat) into the full parameter vector
        self.fac_idx = np.where(d.fac >= 0, d.fac, 0)
        self.seat_idx = np.where(self.valid, k + d.seat, 0)
        self.pair_flat, self.pair_where = self._pair_index()

    def full(self, x: np.ndarray) -> np.ndarray:
        params = np.zeros(self.d.n_params)
        params[self.free] = x
        return params

    def _utilities(self, x: np.ndarray) -> np.ndarray:
        params = self.full(x)
        u = params[self.seat_idx] + (params[self.fac_idx] if self.d.factions else 0.0)
        return np.where(self.valid, u, -np.inf)

    def _scatter(self, values: np.ndarray) -> np.ndarray:
        """Sum per-(game, seat) values into the full parameter vector."""
        v = values[self.valid]
        out = np.bincount(self.seat_idx[self.valid], v, minlength=self.d.n_params)
        if self.d.factions:
            out += np.bincount(self.fac_idx[self.valid], v, minlength=self.d.n_params)
        return out

    def _pair_index(self) -> tuple[np.ndarray, np.ndarray]:
        """Flat (parameter a, parameter b) indices of every (game, seat j, seat k) pair and
        the positions of those pairs in a (G, P, P) array, for every block combination."""
        n = self.d.n_params
        blocks = [self.seat_idx] + ([self.fac_idx] if self.d.factions else [])
        both = (self.valid[:, :, None] & self.valid[:, None, :]).ravel()
        where = np.flatnonzero(both)
        flat = [(a[:, :, None] * n + b[:, None, :]).ravel()[where] for a in blocks for b in blocks]
        return np.concatenate(flat), np.tile(where, len(blocks) ** 2)

    def _scatter2(self, values: np.ndarray) -> np.ndarray:
        """Sum per-(game, seat, seat) values into a full parameter x parameter matrix."""
        n = self.d.n_params
        out = np.bincount(self.pair_flat, values.ravel()[self.pair_where], minlength=n * n)
        return out.reshape(n, n)

    def evaluate(self, x: np.ndarray, weights: np.ndarray, hessian: bool = True):
        """(negative log-likelihood, gradient, Hessian) over the free parameters."""
        nll, grad_u, hess_u = self.terms(x, weights, hessian)
        grad = self._scatter(grad_u)[self.free]
        hess = self._scatter2(hess_u)[np.ix_(self.free, self.free)] if hessian else None
        return nll, grad, hess

    def terms(self, x: np.ndarray, weights: np.ndarray, hessian: bool = True):
        """Negative log-likelihood, and its gradient (G, P) and Hessian (G, P, P) with
        respect to each game's utilities. Both derivatives are linear in the weights."""
        u = self._utilities(x)
        shift = np.max(u, axis=1, keepdims=True)
        e = np.where(self.valid, np.exp(u - shift), 0.0)
        denom = (self.mask @ e[:, :, None])[:, :, 0]          # sum over each risk set
        c = self.counts * weights[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            log_terms = np.where(self.counts, u - shift - np.log(denom), 0.0)
            share = np.where(self.counts, c / denom, 0.0)
        nll = -float(np.sum(weights[:, None] * log_terms))
        # d nll / d u_k = e_k * sum_i c_i mask_ik / denom_i - c_k
        expected = e * (share[:, None, :] @ self.mask)[:, 0, :]
        if not hessian:
            return nll, expected - c, None
        # d2 nll / du_j du_k = sum_i c_i (p_ij delta_jk - p_ij p_ik), p_ij = mask_ij e_j / denom_i
        with np.errstate(divide="ignore", invalid="ignore"):
            prob = np.where(self.counts[:, :, None], self.mask * e[:, None, :] / denom[:, :, None], 0.0)
        cross = np.swapaxes(prob * c[:, :, None], 1, 2) @ prob
        hess_u = -cross
        idx = np.arange(hess_u.shape[1])
        hess_u[:, idx, idx] += expected
        return nll, expected - c, hess_u


def _fit(lik: _Likelihood, weights: np.ndarray, start: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Newton's method with step halving (the log-likelihood is concave)."""
    x = start
    nll, grad, hess = lik.evaluate(x, weights)
    for _ in range(100):
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        t = 1.0
        while True:
            new = lik.evaluate(x - t * step, weights)
            if new[0] <= nll + 1e-12 or t < 1e-6:
                break
            t /= 2
        x = x - t * step
        done = nll - new[0] < tol * max(1.0, abs(nll))
        nll, grad, hess = new
        if done:
            break
    return x


def _centre(d: Design, params: np.ndarray) -> np.ndarray:
    """Factions to sum zero; seats to sum zero within each player count."""
    out = params.copy()
    k = len(d.factions)
    if k:
        out[:k] -= out[:k].mean()
    counts = np.array([n for n, _ in d.seats])
    for n in np.unique(counts):
        idx = k + np.flatnonzero(counts == n)
        out[idx] -= out[idx].mean()
    return out


def _centring_matrix(d: Design, lik: _Likelihood) -> np.ndarray:
    """Linear map from the free parameters to the centred full vector."""
    eye = np.eye(len(lik.free))
    return np.column_stack([_centre(d, lik.full(eye[:, j])) for j in range(len(lik.free))])


@dataclass
class Fit:
    """A fitted model: centred estimates with Wald standard errors, optional bootstrap
    replicates (rows) of the centred estimates, and the design they belong to."""

    design: Design
    estimate: np.ndarray
    se: np.ndarray
    replicates: np.ndarray
    games: int


def _bootstrap(lik: _Likelihood, x: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Centred one-step bootstrap replicates: games resampled with replacement (multinomial
    weights), each replicate one Newton step from the full fit x using the resample's
    gradient and Hessian at x. The one-step estimator agrees with a full refit to first
    order (its error shrinks like 1/games) and costs one weighted sum per replicate,
    because both derivatives are linear in the game weights."""
    n_games = lik.d.rank.shape[0]
    _, grad_u, hess_u = lik.terms(x, np.ones(n_games))
    rng = np.random.default_rng(seed)
    reps = np.empty((n_boot, lik.d.n_params))
    for b in range(n_boot):
        w = rng.multinomial(n_games, np.full(n_games, 1.0 / n_games)).astype(float)
        grad = lik._scatter(grad_u * w[:, None])[lik.free]
        hess = lik._scatter2(hess_u * w[:, None, None])[np.ix_(lik.free, lik.free)]
        reps[b] = _centre(lik.d, lik.full(x - np.linalg.lstsq(hess, grad, rcond=None)[0]))
    return reps


def fit(d: Design, n_boot: int = BOOTSTRAP, seed: int = BOOTSTRAP_SEED) -> Fit:
    """Maximum-likelihood fit, Wald standard errors and `n_boot` one-step bootstrap
    replicates (see `_bootstrap`)."""
    lik = _Likelihood(d)
    n_games = d.rank.shape[0]
    ones = np.ones(n_games)
    x = _fit(lik, ones, np.zeros(len(lik.free)))
    to_centred = _centring_matrix(d, lik)
    cov = to_centred @ np.linalg.pinv(lik.evaluate(x, ones)[2]) @ to_centred.T
    reps = _bootstrap(lik, x, n_boot, seed)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return Fit(d, _centre(d, lik.full(x)), se, reps, n_games)


def strengths(f: Fit, confidence: float = 0.95) -> pl.DataFrame:
    """One row per parameter: kind ('faction' or 'seat'), faction, n_players, seat,
    strength, se, lo, hi (bootstrap percentile; NaN without replicates), p_value
    (Wald, strength = 0), p_holm (Holm within each kind), significant_holm and separated
    (the strength is unbounded: see SEPARATED)."""
    d = f.design
    k = len(d.factions)
    tail = 100 * (1 - confidence) / 2
    if len(f.replicates):
        lo, hi = np.percentile(f.replicates, [tail, 100 - tail], axis=0)
    else:
        lo = hi = np.full(d.n_params, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(f.se > 0, 2 * _sp.norm.sf(np.abs(f.estimate / f.se)), np.nan)
    kinds = np.array(["faction"] * k + ["seat"] * len(d.seats))
    # A row without a standard error (a lone faction, held at 0) is no test: its p is NaN
    # and Holm leaves it out of the family.
    p_holm = np.full(d.n_params, np.nan)
    for kind in ("faction", "seat"):
        idx = np.flatnonzero(kinds == kind)
        p_holm[idx] = holm(p[idx])
    return pl.DataFrame({
        "kind": kinds,
        "faction": d.factions + [None] * len(d.seats),
        "n_players": [None] * k + [n for n, _ in d.seats],
        "seat": [None] * k + [s for _, s in d.seats],
        "strength": f.estimate, "se": f.se, "lo": lo, "hi": hi,
        "p_value": p, "p_holm": p_holm, "significant_holm": p_holm < ALPHA,
        "separated": np.abs(f.estimate) > SEPARATED,
    }, schema_overrides={"n_players": pl.Int64, "seat": pl.Int64, "faction": pl.String})


def plackett_luce(players: pl.DataFrame, games: pl.DataFrame, with_factions: bool,
                  n_boot: int = BOOTSTRAP, seed: int = BOOTSTRAP_SEED) -> pl.DataFrame:
    """Fit and tabulate (see `strengths`); empty when there is nothing to order."""
    if players.is_empty():
        return pl.DataFrame()
    return strengths(fit(design(players, games, with_factions), n_boot, seed))
