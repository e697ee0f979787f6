"""Treatments: the interventions behind causal card value and restricted play (issue 14).

A run may carry one treatment in its plan options, `{"treatment": {"kind": K, "target": ID}}`:

* `inject`    - seat t of every game gets one extra copy of card ID at setup, from outside the
                deck (so the deal of every other card stays aligned with the untreated run);
                t rotates over the seats by `treated_seat`, balanced against the bot schedule.
* `remove`    - every copy of card ID is replaced by the game's neutral card (same count, same
                place in the deck), so the rest of the deal stays aligned.
* `power_off` - faction ID's power is switched off for every seat that holds it (games with
                factions).

A game lists what it can treat in `GameBase.treatable(config)` ({kind: [ids]}) and what each
kind means for it in `treatment_notes()`; the kernel reads the treatment from its run inputs
as two integers (`KIND_CODES[kind]`, index of ID in the treatable list). The untreated run and
a treated run share the seed, so game i of both is one pair (common random numbers): the
difference game by game is the treatment's causal effect.
"""

from __future__ import annotations

import numpy as np

from .errors import UsageError, choices
from .jit import jit

KINDS = ("none", "inject", "remove", "power_off")
T_NONE, T_INJECT, T_REMOVE, T_POWER_OFF = range(4)
KIND_CODES = {k: i for i, k in enumerate(KINDS)}


@jit
def treated_seat(k, n, n_policies):
    """Seat given the injected card at position k (sim/core/schedule.position) of an n-player
    game: (k div P) mod n. Over P consecutive positions the bots' table pattern takes every value
    while the treated seat stays, so each seat meets each bot equally often (P = bots listed)."""
    return (k // n_policies) % n


def check(treatable: dict, options: dict) -> dict:
    """Validate options["treatment"] (if any) against what the game can treat; returns the
    options with the treatment normalised to {"kind", "target"}. UsageError names the choices."""
    t = options.get("treatment")
    if t is None:
        return options
    kind, target = (t.get("kind"), t.get("target")) if isinstance(t, dict) else (None, None)
    kinds = [k for k in KINDS[1:] if treatable.get(k)]
    if kind not in kinds:
        raise UsageError(f"treatment '{kind}': this game can be treated by {choices(kinds) or 'nothing'}")
    ids = treatable[kind]
    if target not in ids:
        raise UsageError(f"{kind} '{target}': unknown; choose from {choices(ids)}")
    return {**options, "treatment": {"kind": kind, "target": target}}


def codes(treatable: dict, options: dict) -> np.ndarray:
    """The kernel's view of a checked treatment: int64[2] = (kind code, target index); (0, -1)
    for none."""
    t = (options or {}).get("treatment")
    if t is None:
        return np.array([T_NONE, -1], np.int64)
    return np.array([KIND_CODES[t["kind"]], treatable[t["kind"]].index(t["target"])], np.int64)
