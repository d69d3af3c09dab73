"""The displayed rating: one whole-history fit of every version's skill over all its matches.

The model is TrueSkill Through Time's (Dangauthier et al. 2007; Landfried and Mocskos 2021,
the ``trueskillthroughtime`` package) with one batch and no drift: a bot version is a fixed
program, so its skill does not change from match to match. Each version ``i`` has a skill
``s_i`` with a Gaussian prior ``N(mu_i, sigma_i²)``; at a table, each seat performs
``s_i + N(0, beta²)`` and the placings order the performances (two seats closer than the
draw margin tie). The posterior of every skill given *all* the matches at once is found by
expectation propagation (EP), as the package does; unlike the online TrueSkill update, the
order in which the matches were played does not matter, and an early match is weighed with
what is known now rather than with what was known then.

The package loops in Python over matches (milliseconds a match of four) and, like any EP
schedule that passes messages match by match, needs hundreds of sweeps on a ladder, where
each version meets its neighbours in the ranking and news travels one match per sweep. Here
the same updates run on arrays, every match of a table size at once, and each sweep is
followed by a Newton step that solves for where the sweeps are heading (:meth:`History.fit`):
a ladder of 1,000 versions and 100,000 matches converges in under ten sweeps
(``benchmarks/ranking_convergence.py --refit``). ``tests/arena/algorithms/test_whole_history.py``
checks the result against the package's own ``History`` on small histories.

Every version comes out with a posterior mean ``mu`` (the displayed rating) and standard
deviation ``sigma``: its 95% interval is ``mu ± 1.96 sigma`` (:func:`interval`).

>>> fit = fit_history(2, [[0, 1]] * 3, [[0, 1]] * 3, prior_mu=[25, 25], prior_sigma=[25 / 3] * 2)
>>> [round(value, 1) for value in fit.mu], fit.mu[0] > fit.mu[1], fit.converged
([30.4, 19.6], True, True)
"""

from __future__ import annotations

import math
import statistics
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.sparse import linalg

__all__ = [
    "BETA",
    "MU",
    "SIGMA",
    "Z95",
    "Fit",
    "History",
    "Results",
    "draw_margin",
    "fit_history",
    "fit_results",
    "interval",
    "tie_rate",
]

#: TrueSkill's scale, kept so the numbers read as the online ratings always have.
MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Results:
    """Matches as flat arrays, one row per seat: ``match`` (0..M-1, rows of a match
    together), ``player`` (0..N-1) and ``placing`` (0 = first, ties share)."""

    match: np.ndarray
    player: np.ndarray
    placing: np.ndarray

    @classmethod
    def from_tables(
        cls, tables: Sequence[Sequence[int]], placings: Sequence[Sequence[int]]
    ) -> Results:
        sizes = [len(table) for table in tables]
        match = np.repeat(np.arange(len(tables)), sizes)
        player = np.fromiter((p for table in tables for p in table), dtype=np.int64)
        placing = np.fromiter((p for row in placings for p in row), dtype=np.int64)
        return cls(match, player, placing)

    def __len__(self) -> int:
        return len(self.match)


@dataclass(frozen=True)
class Fit:
    """Every player's posterior skill: mean ``mu`` and standard deviation ``sigma``."""

    mu: np.ndarray
    sigma: np.ndarray
    iterations: int
    converged: bool

    def interval(self, index: int) -> tuple[float, float]:
        return interval(float(self.mu[index]), float(self.sigma[index]))


def interval(mu: float, sigma: float) -> tuple[float, float]:
    """The 95% interval of a skill with posterior ``N(mu, sigma²)``."""
    return mu - Z95 * sigma, mu + Z95 * sigma


def draw_margin(draw_probability: float, beta: float = BETA) -> float:
    """The performance gap under which two seats tie, so that two equal players tie with
    ``draw_probability`` (TrueSkill's and the package's ``compute_margin``)."""
    quantile = statistics.NormalDist().inv_cdf(0.5 + draw_probability / 2)
    return quantile * math.sqrt(2) * beta


def tie_rate(results: Results, *, floor: float = 0.001, cap: float = 0.5) -> float:
    """The share of neighbouring places that tied in ``results``: the draw probability the
    fit's margin is set from (kept within [floor, cap], so the margin stays positive)."""
    if len(results) == 0:
        return floor
    order = np.lexsort((results.placing, results.match))
    match, placing = results.match[order], results.placing[order]
    same = match[1:] == match[:-1]
    neighbours = int(same.sum())
    if not neighbours:
        return floor
    tied = int((same & (placing[1:] == placing[:-1])).sum())
    return min(max(tied / neighbours, floor), cap)


# --- the factor graph of one table, on arrays ------------------------------------------------
#
# Gaussians are (mean, variance) pairs of arrays; a message that says nothing has infinite
# variance (numpy's inf: 1/inf is 0, so it multiplies in as no information).

_SQRT2 = math.sqrt(2.0)
_SQRT_2_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _erfcx(z: np.ndarray) -> np.ndarray:
    """exp(z²) erfc(z) for z >= 0, by the approximation the package itself uses for erfc
    (Numerical Recipes' ``erfcc``, relative error below 1.2e-7), without its exp(-z²): so
    it neither underflows nor overflows far in the tail."""
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -0.82215223 + t * 0.17087277
    for c in (1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418, 0.37409196):
        poly = c + t * poly
    poly = 1.00002368 + t * poly
    return t * np.exp(-1.26551223 + t * poly)


def _cdf(x: np.ndarray) -> np.ndarray:
    """The standard normal distribution function."""
    z = np.abs(x) / _SQRT2
    tail = 0.5 * _erfcx(z) * np.exp(-z * z)
    cdf: np.ndarray = np.where(x < 0, tail, 1.0 - tail)
    return cdf


def _win_v_w(alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """v = pdf(alpha) / (1 - cdf(alpha)) and w = v (v - alpha): the mean shift and variance
    factor of a standard normal truncated to values above ``alpha``, stable for any alpha."""
    z = np.abs(alpha) / _SQRT2
    ex = _erfcx(z)
    # alpha >= 0: the tail's ratio, exp(-z²) cancelled; alpha < 0: most of the mass is kept.
    upper = _SQRT_2_PI / ex
    gauss = np.exp(-z * z)
    lower = gauss * _INV_SQRT_2PI / (1.0 - 0.5 * ex * gauss)
    v = np.where(alpha >= 0, upper, lower)
    return v, v * (v - alpha)


def _tie_v_w(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same for a standard normal truncated to [low, high] (a tie). Where both ends lie
    in one tail, the mass and densities are taken relative to the nearer end's density, so
    a tie the cavities call very unlikely still gives finite moments (the plain difference
    of two distribution functions would round to zero there)."""
    # Reflect the lower tail onto the upper one: v changes sign, w does not.
    flip = high < 0
    a = np.where(flip, -high, low)  # the nearer end
    b = np.where(flip, -low, high)
    scale = np.exp(-0.5 * (b * b - a * a))  # density at b relative to the density at a
    one_tail = a > 0
    tail_mass = 0.5 * (_erfcx(np.abs(a) / _SQRT2) - _erfcx(np.abs(b) / _SQRT2) * scale)
    # Straddling zero: the mass is not small; in units of the density at a.
    whole = (_cdf(b) - _cdf(a)) * np.exp(0.5 * a * a) * math.sqrt(2 * math.pi)
    mass = np.where(one_tail, tail_mass * math.sqrt(2 * math.pi), whole)
    mass = np.maximum(mass, 1e-300)
    v = (1.0 - scale) / mass
    u = (a - b * scale) / mass
    return np.where(flip, -v, v), v * v - u


def _factor(
    mean: np.ndarray, var: np.ndarray, margin: float, tie: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """What one difference factor says about the gap between two neighbouring places, given
    what the rest of the graph says (``mean``, ``var``): the truncated moments divided by
    that prior (the package's ``approx(d.prior) / d.prior``)."""
    sd = np.sqrt(var)
    v, w = _win_v_w((margin - mean) / sd)
    if tie is not None:
        v_tie, w_tie = _tie_v_w((-margin - mean) / sd, (margin - mean) / sd)
        v, w = np.where(tie, v_tie, v), np.where(tie, w_tie, w)
    w = np.clip(w, 1e-12, 1.0 - 1e-12)
    # Truncated: mean + sd v, var (1 - w). Divided by the prior, in natural parameters.
    pi = (1.0 / (1.0 - w) - 1.0) / var
    tau = (mean + sd * v) / (var * (1.0 - w)) - mean / var
    return tau / pi, 1.0 / pi


#: A Gaussian message: (mean, variance).
_Message = tuple[np.ndarray, np.ndarray]


def _times(ma: np.ndarray, va: np.ndarray, mb: np.ndarray, vb: np.ndarray) -> _Message:
    """The product of two Gaussian messages (one of them may say nothing: infinite var)."""
    pa, pb = 1.0 / va, 1.0 / vb
    var = 1.0 / (pa + pb)
    return (ma * pa + mb * pb) * var, var


class _Tables:
    """Every match of one table size: its rows of seats (best place first) and the messages
    of its difference factors, which persist from sweep to sweep as EP's state."""

    def __init__(self, rows: np.ndarray, tie: np.ndarray) -> None:
        self.rows = rows  # (tables, seats): indices into the seat arrays
        self.seats = rows.shape[1]
        self.tie = tie.T.copy() if tie.any() else None  # (seats - 1, tables)
        self.like_mean = np.zeros((self.seats - 1, len(rows)))
        self.like_var = np.full((self.seats - 1, len(rows)), np.inf)

    def extended(self, other: _Tables) -> _Tables:
        """These tables and ``other``'s (of the same size), with their messages."""
        joined = _Tables(np.r_[self.rows, other.rows], np.zeros((0, self.seats - 1), bool))
        ties = [
            t if t is not None else np.zeros((self.seats - 1, len(x.rows)), bool)
            for t, x in ((self.tie, self), (other.tie, other))
        ]
        tie = np.concatenate(ties, axis=1)
        joined.tie = tie if tie.any() else None
        joined.like_mean = np.concatenate([self.like_mean, other.like_mean], axis=1)
        joined.like_var = np.concatenate([self.like_var, other.like_var], axis=1)
        return joined

    def messages(
        self, cavity_mean: np.ndarray, cavity_var: np.ndarray, beta: float, margin: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """One sweep of the chain of difference factors (down, then up), and each seat's
        message to its skill: the package's ``Game.likelihood_teams`` with the factors'
        messages kept between sweeps instead of iterated to convergence each time."""
        n = self.seats
        pm = cavity_mean[self.rows].T  # (seats, tables), best place first
        pv = cavity_var[self.rows].T + beta * beta
        like_m, like_v = self.like_mean, self.like_var
        tie = self.tie
        tables = pm.shape[1]
        inf = np.full(tables, np.inf)
        zero = np.zeros(tables)
        # win[k]: from the factor below seat k (k beat k + 1); lose[k]: from the one above.
        win_m, win_v = [zero] * n, [inf] * n
        for k in range(n - 2, -1, -1):
            below = _times(pm[k + 1], pv[k + 1], win_m[k + 1], win_v[k + 1])
            win_m[k], win_v[k] = below[0] + like_m[k], below[1] + like_v[k]
        lose_m, lose_v = [zero] * n, [inf] * n

        def update(e: int) -> tuple[_Message, _Message]:
            upper = _times(pm[e], pv[e], lose_m[e], lose_v[e])
            lower = _times(pm[e + 1], pv[e + 1], win_m[e + 1], win_v[e + 1])
            like_m[e], like_v[e] = _factor(
                upper[0] - lower[0], upper[1] + lower[1], margin, None if tie is None else tie[e]
            )
            return upper, lower

        for e in range(n - 1):
            upper, lower = update(e)
            lose_m[e + 1], lose_v[e + 1] = upper[0] - like_m[e], upper[1] + like_v[e]
            win_m[e], win_v[e] = lower[0] + like_m[e], lower[1] + like_v[e]
        for e in range(n - 3, -1, -1):
            upper, lower = update(e)
            win_m[e], win_v[e] = lower[0] + like_m[e], lower[1] + like_v[e]
        for e in range(n - 1):
            upper = _times(pm[e], pv[e], lose_m[e], lose_v[e])
            lose_m[e + 1], lose_v[e + 1] = upper[0] - like_m[e], upper[1] + like_v[e]
        out_m, out_v = np.empty((tables, n)), np.empty((tables, n))
        for k in range(n):
            m, v = _times(lose_m[k], lose_v[k], win_m[k], win_v[k])
            out_m[:, k], out_v[:, k] = m, v + beta * beta
        return out_m, out_v


class History:
    """The EP state of one whole history: matches can be added and the fit run again from
    where it was (a warm refit after one more match takes a few sweeps: the benchmark refits
    after every match this way). :func:`fit_results` builds one and fits it once."""

    def __init__(
        self,
        players: int,
        *,
        prior_mu: Sequence[float] | np.ndarray,
        prior_sigma: Sequence[float] | np.ndarray,
        beta: float = BETA,
        draw_probability: float = 0.10,
    ) -> None:
        self.players = players
        self.prior_pi = 1.0 / np.asarray(prior_sigma, dtype=float) ** 2
        self.prior_tau = np.asarray(prior_mu, dtype=float) * self.prior_pi
        self.beta = beta
        self.margin = draw_margin(draw_probability, beta)
        self.player = np.zeros(0, dtype=np.int64)
        self.starts = np.zeros(0, dtype=np.int64)
        self.msg_tau = np.zeros(0)
        self.msg_pi = np.zeros(0)
        self.groups: dict[int, _Tables] = {}
        self.tau, self.pi = self.prior_tau.copy(), self.prior_pi.copy()

    @property
    def mu(self) -> np.ndarray:
        return self.tau / self.pi

    @property
    def matches(self) -> int:
        return len(self.starts)

    def set_draw_probability(self, draw_probability: float) -> None:
        """A new tie margin (say, from the share of ties so far); the next fit uses it."""
        self.margin = draw_margin(draw_probability, self.beta)

    @property
    def sigma(self) -> np.ndarray:
        return 1.0 / np.sqrt(self.pi)

    def add(self, results: Results) -> History:
        """Add matches (they say nothing until the next :meth:`fit`)."""
        order = np.lexsort((results.placing, results.match))
        player, placing = results.player[order], results.placing[order]
        match = results.match[order]
        starts = np.flatnonzero(np.r_[True, match[1:] != match[:-1]])
        sizes = np.diff(np.r_[starts, len(match)])
        offset = len(self.player)
        for size in np.unique(sizes):
            if size < 2:
                continue
            rows = starts[sizes == size][:, None] + np.arange(size)[None, :]
            tie = placing[rows][:, 1:] == placing[rows][:, :-1]
            new = _Tables(rows + offset, tie)
            old = self.groups.get(int(size))
            self.groups[int(size)] = new if old is None else old.extended(new)
        self.player = np.r_[self.player, player]
        self.starts = np.r_[self.starts, starts + offset]
        self.msg_tau = np.r_[self.msg_tau, np.zeros(len(player))]
        self.msg_pi = np.r_[self.msg_pi, np.zeros(len(player))]
        return self

    def start_from(
        self, mu: Sequence[float] | np.ndarray, sigma: Sequence[float] | np.ndarray
    ) -> None:
        """Seed every match's message with the player's ``mu``/``sigma`` (say, its live
        TrueSkill rating or its last fit) less its prior, split evenly over its matches: the
        fit then starts near where it ends."""
        start_pi = 1.0 / np.asarray(sigma, dtype=float) ** 2
        start_tau = np.asarray(mu, dtype=float) * start_pi
        share = np.maximum(np.bincount(self.player, minlength=self.players), 1)
        self.msg_pi = (np.maximum(start_pi - self.prior_pi, 1e-9) / share)[self.player]
        self.msg_tau = ((start_tau - self.prior_tau) / share)[self.player]
        self._posterior()

    def _posterior(self) -> None:
        self.tau = self.prior_tau + np.bincount(self.player, self.msg_tau, self.players)
        self.pi = self.prior_pi + np.bincount(self.player, self.msg_pi, self.players)

    def _partners(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each seat's message, the seats whose cavities it follows, and how much: a
        seat's message about its skill is, to first order, its neighbours' skills in the
        placing order (one neighbour at either end of the order, half each in between)."""
        source, target, weight = [], [], []
        for tables in self.groups.values():
            rows, n = tables.rows, tables.seats
            for e in range(n):
                neighbours = [k for k in (e - 1, e + 1) if 0 <= k < n]
                for k in neighbours:
                    source.append(rows[:, e])
                    target.append(rows[:, k])
                    weight.append(np.full(len(rows), 1.0 / len(neighbours)))
        return np.concatenate(source), np.concatenate(target), np.concatenate(weight)

    def fit(
        self, *, tolerance: float = 1e-3, max_iterations: int = 100, damping: float = 1.0
    ) -> Fit:
        """Sweep until no mean or deviation moves by more than ``tolerance``.

        Each sweep recomputes every match's messages from the current cavities at once, and
        is followed by a Newton step on the means. A sweep alone moves information one match
        per sweep: on a ladder, where each version meets its neighbours in the ranking, the
        top learns what the bottom did only after hundreds of sweeps. But a message about a
        skill follows the cavities of the seats it was compared with, one for one (shifting
        a partner's cavity shifts the message's mean by as much: :meth:`_partners`), so the
        means the sweeps are heading for solve one sparse linear system, and each sweep
        jumps there. The fixed point is the package's (its tests check it); only the way
        there is shorter. ``damping`` below 1 softens the first sweeps of a cold start.
        """
        if len(self.player) == 0:
            return Fit(self.mu, self.sigma, 0, True)
        player, beta, margin = self.player, self.beta, self.margin
        coupling = _Coupling(self.players, player, self._partners())
        mu, sigma = self.mu, self.sigma
        iterations, converged = 0, False
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            while iterations < max_iterations:
                iterations += 1
                before = self.mu
                cavity_var = 1.0 / (self.pi[player] - self.msg_pi)
                cavity_mean = (self.tau[player] - self.msg_tau) * cavity_var
                new_tau, new_pi = self.msg_tau.copy(), self.msg_pi.copy()
                for tables in self.groups.values():
                    like_mean, like_var = tables.messages(cavity_mean, cavity_var, beta, margin)
                    like_pi = 1.0 / like_var
                    new_pi[tables.rows] = like_pi
                    new_tau[tables.rows] = like_mean * like_pi
                self.msg_tau += damping * (new_tau - self.msg_tau)
                self.msg_pi += damping * (new_pi - self.msg_pi)
                self._posterior()
                self._newton(before, coupling)
                new_mu, new_sigma = self.mu, self.sigma
                change = max(
                    float(np.max(np.abs(new_mu - mu))), float(np.max(np.abs(new_sigma - sigma)))
                )
                mu, sigma = new_mu, new_sigma
                if change < tolerance:
                    converged = True
                    break
                if change < 0.5:
                    damping = 1.0
        return Fit(mu, sigma, iterations, converged)

    def _newton(self, before: np.ndarray, coupling: _Coupling) -> None:
        """Jump the means to where the sweeps are heading (see :meth:`fit`): with K the
        matrix of how much each skill's messages follow each other skill (K[i, j] = the
        summed precision of i's messages, weighted, that follow j), a sweep maps the means
        m to m' = P^-1 (b + K m) (P the posterior precisions), whose fixed point solves
        (P - K) m* = P m' - K m; the messages are then moved as they would follow, and the
        posterior mean lands on m*."""
        pulled = self.msg_pi[coupling.source] * coupling.weight
        system = coupling.matrix(self.pi, pulled)
        with warnings.catch_warnings():
            warnings.simplefilter("error", linalg.MatrixRankWarning)
            try:
                step = linalg.spsolve(system, self.pi * (self.mu - before))  # m* - m
            except (linalg.MatrixRankWarning, RuntimeError):
                return  # this sweep stays a plain sweep; the next one tries again
        if not np.all(np.isfinite(step)):
            return
        # Each message as it would be at cavities m*: it follows its partners by ``step``.
        self.msg_tau += np.bincount(
            coupling.source, pulled * step[coupling.partner], len(self.player)
        )
        self._posterior()


class _Coupling:
    """The fixed sparsity of P - K (every pair of players that shared a table, and the
    diagonal) in compressed columns, built once per fit; each Newton step only sums values."""

    def __init__(
        self, players: int, player: np.ndarray, partners: tuple[np.ndarray, np.ndarray, np.ndarray]
    ) -> None:
        source, target, weight = partners
        self.source, self.weight = source, weight
        self.partner = player[target]
        rows = np.r_[player[source], np.arange(players)]
        cols = np.r_[self.partner, np.arange(players)]
        keys, self.slot = np.unique(cols * players + rows, return_inverse=True)
        self.players = players
        self.rows = keys % players
        self.indptr = np.r_[0, np.cumsum(np.bincount(keys // players, minlength=players))]
        self.coupled = len(source)

    def matrix(self, precision: np.ndarray, pulled: np.ndarray) -> sparse.csc_matrix:
        values = np.r_[-pulled, precision]
        data = np.bincount(self.slot, values, len(self.rows))
        return sparse.csc_matrix((data, self.rows, self.indptr), shape=(self.players, self.players))


def fit_results(
    players: int,
    results: Results,
    *,
    prior_mu: Sequence[float] | np.ndarray,
    prior_sigma: Sequence[float] | np.ndarray,
    beta: float = BETA,
    draw_probability: float = 0.10,
    start_mu: Sequence[float] | np.ndarray | None = None,
    start_sigma: Sequence[float] | np.ndarray | None = None,
    tolerance: float = 1e-3,
    max_iterations: int = 100,
) -> Fit:
    """Every player's posterior skill given all ``results`` (see the module's docstring).

    ``start_mu``/``start_sigma`` (for example the live TrueSkill ratings, or the last fit)
    seed the iteration (:meth:`History.start_from`), so it needs a few sweeps only.
    Converged when no mean or deviation moves by more than ``tolerance``.
    """
    history = History(
        players,
        prior_mu=prior_mu,
        prior_sigma=prior_sigma,
        beta=beta,
        draw_probability=draw_probability,
    ).add(results)
    warm = start_mu is not None and start_sigma is not None
    if warm:
        history.start_from(start_mu, start_sigma)  # type: ignore[arg-type]
    return history.fit(
        tolerance=tolerance, max_iterations=max_iterations, damping=0.7 if warm else 0.4
    )


def fit_history(
    players: int,
    tables: Sequence[Sequence[int]],
    placings: Sequence[Sequence[int]],
    **options: object,
) -> Fit:
    """:func:`fit_results` for matches given as lists (each table's players in seat order,
    and their placings)."""
    return fit_results(players, Results.from_tables(tables, placings), **options)  # type: ignore[arg-type]
