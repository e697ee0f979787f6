"""Faction and seat strengths from finishing orders: who wins, and the whole order.

Two models share one likelihood. In a game, the player finishing first is drawn from all
players with probability proportional to exp(u), the next from those left, and so on, where
a player's utility is

    u = theta[faction] + beta[n_players, seat]

so a faction's strength is measured against the opponents it actually met and net of the
seat it sat in. Ties (players sharing a rank) use Breslow's approximation: each tied player
is "chosen" from the same remaining set (everyone not ranked above the tie). Players tied
for last place carry no ordering information and contribute nothing.

- model "winner" (the headline): the ranks are replaced by "winner(s) 1, everyone else tied
  last". The likelihood is then exactly the conditional logit of who wins a game,
  P(i wins) = exp(u_i) / sum_j exp(u_j); a shared victory is the winners tied first.
- model "finishing_order": the full Plackett-Luce model of the finishing order. It assumes
  the same odds at every place; `fit_check` compares the win probability it implies with
  the observed win rate, because a swingy faction (often first, often last) breaks it.

Faction strengths are pooled over player counts (one theta per faction); seat effects
belong to a player count. Strengths are reported centred: factions sum to zero, seats
sum to zero within each player count, so +0.2 is exp(0.2) = 1.22 times the odds of the
average faction (of winning, or of being picked at each place).

Identifiability is checked before fitting: the information matrix at the start value
(all utilities equal) is eigen-decomposed and directions with eigenvalue below RANK_TOL x
the largest are aliased (a fixed lineup: faction = seat). The fit runs only in the
identified subspace. Within each block (factions; seats of one player count) the largest
set of members whose differences are all estimable is centred and reported; the others
are marked not estimable, with no numbers (see `centring_groups`).

Fit: Newton's method with the analytic gradient and Hessian (the log-likelihood is
concave), with one faction and seat 0 of each player count held at 0, then centred.
Uncertainty: a game-clustered sandwich (robust) covariance H^-1 (sum_g s_g s_g') H^-1 over
per-game scores s_g, which stays valid when the model is misspecified. The same standard
error gives the 95% Wald interval, the two-sided p-value of "strength = 0" and the Holm
flags, so a flag and its interval never disagree about the uncertainty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as _sp

from analysis.metrics import holm_family, significant, win_share

WINNER = "winner"
FINISHING_ORDER = "finishing_order"
MODELS = (WINNER, FINISHING_ORDER)
# A faction that always (or never) wins has an infinite maximum-likelihood strength; Newton
# then stops at a large value with a huge standard error, so the test cannot flag it. Such
# rows are marked `separated` (|strength| above this).
SEPARATED = 8.0
RANK_TOL = 1e-8   # eigenvalues below RANK_TOL x the largest are aliased directions
ALIAS_TOL = 1e-6  # a centred contrast with a component above this along them is not estimable


@dataclass
class Design:
    """Finishing orders in padded arrays: one row per game, one column per seat.

    fac / seat: parameter indices into the faction and seat blocks (-1 = padding);
    rank: finishing rank (1 = best, ties share; large for padding). `reported` is the
    number of leading factions that are reported; a trailing 'none' level (players
    without a faction in mixed games) stays in the risk sets but is not reported.
    """

    fac: np.ndarray        # (G, P) int64
    seat: np.ndarray       # (G, P) int64
    rank: np.ndarray       # (G, P) int64
    factions: list[str]    # parameter order of the faction block
    seats: list[tuple[int, int]]  # (n_players, seat) of the seat block
    reported: int = 0

    @property
    def n_params(self) -> int:
        return len(self.factions) + len(self.seats)

    def games_by_count(self) -> dict[int, int]:
        """Games per player count (read off each game's first seat)."""
        counts = np.array([self.seats[i][0] for i in self.seat[:, 0]], dtype=np.int64)
        values, n = np.unique(counts, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, n, strict=True)}


def design(players: pl.DataFrame, games: pl.DataFrame, with_factions: bool = True,
           with_seats: bool = True, model: str = FINISHING_ORDER,
           none_label: str | None = None) -> Design:
    """Build the padded arrays from players (game_id, seat, faction, rank) and games
    (game_id, n_players). model WINNER keeps only who won (see the module docstring).
    Without factions only the seat block is fitted; without seats every player sits in
    its player count's reference seat (held at 0), the plain Plackett-Luce model on
    factions. Players labelled `none_label` form an unreported faction level."""
    df = (players.select("game_id", "seat", "faction", "rank")
          .join(games.select("game_id", "n_players"), on="game_id")
          .sort("game_id", "seat"))
    if model == WINNER:
        best = pl.col("rank") == pl.col("rank").min().over("game_id")
        df = df.with_columns(rank=pl.when(best).then(1).otherwise(2))
    named = sorted(set(df["faction"].unique().to_list()) - {none_label}) if with_factions else []
    hidden = [none_label] if with_factions and none_label in set(df["faction"]) else []
    factions = named + hidden
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
        index = {name: i for i, name in enumerate(factions)}
        fac[row, col] = [index[name] for name in df["faction"]]
    seat_index = {key: i for i, key in enumerate(seats)}
    seat[row, col] = [seat_index[key] for key in seat_of]
    rank[row, col] = df["rank"].to_numpy()
    return Design(fac, seat, rank, factions, seats, len(named))


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

    def utilities(self, x: np.ndarray) -> np.ndarray:
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

    def per_game(self, values: np.ndarray) -> np.ndarray:
        """Sum per-(game, seat) values into one full parameter vector per game (G, n)."""
        g = np.broadcast_to(np.arange(values.shape[0])[:, None], values.shape)[self.valid]
        out = np.zeros((values.shape[0], self.d.n_params))
        np.add.at(out, (g, self.seat_idx[self.valid]), values[self.valid])
        if self.d.factions:
            np.add.at(out, (g, self.fac_idx[self.valid]), values[self.valid])
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
        u = self.utilities(x)
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


class _Subspace:
    """The likelihood restricted to x = basis @ z, the identified directions only, so the
    Hessian in z is non-singular and no estimate is ever made along an aliased direction."""

    def __init__(self, lik: _Likelihood, basis: np.ndarray):
        self.lik, self.basis = lik, basis

    def evaluate(self, z: np.ndarray, weights: np.ndarray, hessian: bool = True):
        nll, grad, hess = self.lik.evaluate(self.basis @ z, weights, hessian)
        b = self.basis
        return nll, b.T @ grad, (b.T @ hess @ b if hessian else None)


def identified_basis(lik: _Likelihood) -> tuple[np.ndarray, np.ndarray]:
    """(identified, aliased): orthonormal bases of the free-parameter directions the data
    can and cannot tell apart, from the eigenvalues of the information at the start value
    (all utilities equal). Its null space is that of the design: the directions along
    which every game's utility differences stay constant."""
    n = len(lik.free)
    if n == 0:
        return np.zeros((0, 0)), np.zeros((0, 0))
    hess = lik.evaluate(np.zeros(n), np.ones(lik.d.rank.shape[0]))[2]
    values, vectors = np.linalg.eigh(hess)
    small = values <= RANK_TOL * max(values.max(), 0.0)
    return vectors[:, ~small], vectors[:, small]


def _fit(lik, weights: np.ndarray, start: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Newton's method with step halving (the log-likelihood is concave)."""
    x = start
    nll, grad, hess = lik.evaluate(x, weights)
    for _ in range(100):
        step = np.linalg.solve(hess, grad)
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


def _blocks(d: Design) -> list[np.ndarray]:
    """Full-parameter indices of each centring block: the reported factions, then the seats
    of each player count."""
    k = len(d.factions)
    counts = np.array([n for n, _ in d.seats])
    return ([np.arange(d.reported)] if d.reported else []) + \
        [k + np.flatnonzero(counts == n) for n in np.unique(counts)]


def centring_groups(d: Design, lik: _Likelihood, aliased: np.ndarray) -> list[np.ndarray]:
    """Per block, the largest set of members whose pairwise differences are all estimable
    (estimable contrasts are closed under differences, so these are the classes of the
    relation "a - b is estimable"), kept only when the members left out are single
    units. Strengths are centred within these sets; members left out (aliased with seats)
    are not estimable. With nothing aliased: the whole blocks."""
    blocks = _blocks(d)
    if not aliased.size:
        return blocks
    where = {p: i for i, p in enumerate(lik.free)}

    def separable(a: int, b: int) -> bool:
        c = np.zeros(len(lik.free))
        for p, sign in ((a, 1.0), (b, -1.0)):
            if p in where:
                c[where[p]] += sign
        return np.abs(c @ aliased).max() <= ALIAS_TOL

    groups = []
    for block in blocks:
        classes: list[list[int]] = []
        for p in block:
            home = next((c for c in classes if separable(c[0], p)), None)
            (home.append(p) if home is not None else classes.append([p]))
        best = max(classes, key=len)
        # Report a class only when every member outside it is a lone aliased unit; two or
        # more classes of several members (a short lineup A,B,A,B) have no common zero.
        clear = len(block) == 1 or (len(best) > 1 and sum(len(c) > 1 for c in classes) == 1)
        groups.append(np.array(best if clear else [], dtype=np.int64))
    return groups


def _centre(params: np.ndarray, groups: list[np.ndarray]) -> np.ndarray:
    """Each centring group to sum zero (see `centring_groups`)."""
    out = params.copy()
    for g in groups:
        if g.size:
            out[g] -= out[g].mean()
    return out


def _centring_matrix(lik: _Likelihood, groups: list[np.ndarray]) -> np.ndarray:
    """Linear map from the free parameters to the centred full vector."""
    eye = np.eye(len(lik.free))
    return np.column_stack([_centre(lik.full(eye[:, j]), groups) for j in range(len(lik.free))])


@dataclass
class Fit:
    """A fitted model: centred estimates with robust standard errors (NaN where not
    estimable), the estimable mask, the fitted utilities and the design."""

    design: Design
    model: str
    estimate: np.ndarray
    se: np.ndarray
    estimable: np.ndarray
    utilities: np.ndarray   # (G, P) fitted utilities, -inf for padding
    games: int


def fit(d: Design, model: str = FINISHING_ORDER) -> Fit:
    """Check identifiability, fit in the identified subspace, and compute the game-
    clustered sandwich covariance (see the module docstring)."""
    lik = _Likelihood(d)
    n_games = d.rank.shape[0]
    ones = np.ones(n_games)
    basis, aliased = identified_basis(lik)
    groups = centring_groups(d, lik, aliased)
    to_centred = _centring_matrix(lik, groups)
    leak = np.abs(to_centred @ aliased).max(axis=1) if aliased.size else np.zeros(d.n_params)
    member = np.zeros(d.n_params, dtype=bool)
    member[np.concatenate(groups)] = True
    estimable = member & (leak <= ALIAS_TOL)
    sub = _Subspace(lik, basis)
    z = _fit(sub, ones, np.zeros(basis.shape[1])) if basis.size else np.zeros(0)
    x = basis @ z if basis.size else np.zeros(len(lik.free))
    _, grad_u, _ = lik.terms(x, ones, hessian=False)
    scores = lik.per_game(grad_u)[:, lik.free] @ basis          # (G, r) per-game scores
    bread = np.linalg.inv(sub.evaluate(z, ones)[2]) if basis.size else np.zeros((0, 0))
    meat = scores.T @ scores * n_games / max(n_games - 1, 1)     # small-sample factor G/(G-1)
    lift = to_centred @ basis
    cov = lift @ bread @ meat @ bread @ lift.T
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    estimate = _centre(lik.full(x), groups)
    nan = np.full(d.n_params, np.nan)
    return Fit(d, model, np.where(estimable, estimate, nan), np.where(estimable, se, nan),
               estimable, lik.utilities(x), n_games)


def _implied_win(f: Fit) -> np.ndarray:
    """Model-implied win probability of every player: softmax of the fitted utilities over
    its table (the conditional-logit probability of being first)."""
    u = f.utilities
    e = np.where(f.design.seat >= 0, np.exp(u - u.max(axis=1, keepdims=True)), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def fit_check(f: Fit) -> pl.DataFrame:
    """Per reported unit (faction, or (n_players, seat) without factions): observed win rate
    (wins / seats, fractional ties) against the win probability the model implies,
    averaged over the tables the unit sat at; z uses the implied Bernoulli variance
    sum p(1 - p) / n^2; p_holm is Holm across the units and `disagrees` flags it."""
    d = f.design
    valid = d.seat >= 0
    unit = d.fac if d.reported else d.seat
    n_units = d.reported if d.reported else len(d.seats)
    idx = unit[valid]
    keep = idx < n_units
    idx = idx[keep]
    seats = np.bincount(idx, minlength=n_units).astype(float)
    observed = np.bincount(idx, win_share(d.rank, valid)[valid][keep], minlength=n_units) / seats
    p = _implied_win(f)[valid][keep]
    implied = np.bincount(idx, p, minlength=n_units) / seats
    sd = np.sqrt(np.bincount(idx, p * (1 - p), minlength=n_units)) / seats
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (observed - implied) / sd
        p_value = np.where(sd > 0, 2 * _sp.norm.sf(np.abs(z)), np.nan)
    p_holm = holm_family(p_value)
    return pl.DataFrame({"observed_win": observed, "implied_win": implied, "seats": seats,
                         "fit_p_holm": p_holm, "fit_disagrees": significant(p_holm)})


def strengths(f: Fit, confidence: float = 0.95) -> pl.DataFrame:
    """One row per reported parameter: model, kind ('faction' or 'seat'), faction,
    n_players, seat, estimable, strength, se, lo, hi (Wald, robust SE; NaN when not
    estimable), p_value (strength = 0), p_holm (Holm within each kind), significant_holm,
    separated (the strength is unbounded: see SEPARATED), games (fitted) and player_counts
    (the games per player count, 'n:games' joined by ','). Factions also carry the
    fit check (observed_win, implied_win, fit_p_holm, fit_disagrees; see `fit_check`)."""
    d = f.design
    k = len(d.factions)
    rows = np.r_[np.arange(d.reported), k + np.arange(len(d.seats))]
    est, se = f.estimate[rows], f.se[rows]
    half = _sp.norm.ppf(0.5 + confidence / 2) * se
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, 2 * _sp.norm.sf(np.abs(est / se)), np.nan)
    kinds = np.array(["faction"] * d.reported + ["seat"] * len(d.seats))
    # A row without a standard error (a lone faction held at 0, or not estimable) is no
    # test: its p is NaN and Holm leaves it out of the family.
    p_holm = np.full(len(rows), np.nan)
    for kind in ("faction", "seat"):
        idx = np.flatnonzero(kinds == kind)
        p_holm[idx] = holm_family(p[idx])
    mix = ",".join(f"{n}:{g}" for n, g in d.games_by_count().items())
    table = pl.DataFrame({
        "model": [f.model] * len(rows), "kind": kinds,
        "faction": d.factions[:d.reported] + [None] * len(d.seats),
        "n_players": [None] * d.reported + [n for n, _ in d.seats],
        "seat": [None] * d.reported + [s for _, s in d.seats],
        "estimable": f.estimable[rows],
        "strength": est, "se": se, "lo": est - half, "hi": est + half,
        "p_value": p, "p_holm": p_holm, "significant_holm": significant(p_holm),
        "separated": np.abs(np.nan_to_num(est)) > SEPARATED,
        "games": [f.games] * len(rows), "player_counts": [mix] * len(rows),
    }, schema_overrides={"n_players": pl.Int64, "seat": pl.Int64, "faction": pl.String})
    check = fit_check(f) if f.estimable[rows].all() else None
    if check is None:
        empty = pl.lit(None, dtype=pl.Float64)
        return table.with_columns(observed_win=empty, implied_win=empty, fit_p_holm=empty,
                                  fit_disagrees=pl.lit(None, dtype=pl.Boolean))
    main = "faction" if d.reported else "seat"
    units = table.filter(pl.col("kind") == main).hstack(check.drop("seats"))
    return pl.concat([units, table.filter(pl.col("kind") != main)], how="diagonal_relaxed")


def strength_models(players: pl.DataFrame, games: pl.DataFrame, with_factions: bool,
                    none_label: str | None = None) -> pl.DataFrame:
    """The winner model and the finishing-order model, stacked (see `strengths`); empty
    when there is nothing to order."""
    if players.is_empty():
        return pl.DataFrame()
    return pl.concat([strengths(fit(design(players, games, with_factions, model=m,
                                           none_label=none_label), m))
                      for m in MODELS], how="diagonal_relaxed")
