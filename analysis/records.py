"""Verdict records: every verdict brewbalance prints, as one machine-readable object.

The text lines a report leads with and the JSON written by `--format json` are two views
of the same records, so a designer's CI or notebook reads exactly what the report says.
One record per verdict (a seat at a player count, a faction, a strength contrast, a card,
a paired difference ...). Field meanings (the schema is documented in the README):

    kind        what is judged: seat, faction, first_player, strength, finishing_order,
                card, card_adjusted, balance, seat_difference, faction_difference,
                score_difference, sequential_seat, sequential_faction, sweep_heterogeneity ...
    unit        the seat number, faction id, card id or metric name
    n_players   player count, or None when pooled over counts
    estimate    the point estimate (a proportion, a difference, a log-odds ...)
    ci_low, ci_high   the interval the verdict was decided on (None when not estimable)
    n           the sample size behind the estimate
    n_unit      what n counts: "games", "seats", "player-games", "paired games" ...
    verdict     inside / outside / undecided / not_estimable / significant /
                not_significant, or None where no decision is made
    p_adjusted  the multiplicity-adjusted p-value, or None
    family      the multiplicity family the verdict belongs to (its name, e.g.
                "band verdicts: seats and factions"), or None when it is not in one
    metric      optional: the scale of `estimate` ("win rate", "log-odds", "pp" ...)
    note        optional: one short sentence a reader needs (e.g. "fitted on 20,000 of
                1,000,000 games", "factions are fixed to seats")
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

INSIDE = "inside"
OUTSIDE = "outside"
UNDECIDED = "undecided"
NOT_ESTIMABLE = "not_estimable"
SIGNIFICANT = "significant"
NOT_SIGNIFICANT = "not_significant"
VERDICTS = (INSIDE, OUTSIDE, UNDECIDED, NOT_ESTIMABLE, SIGNIFICANT, NOT_SIGNIFICANT)

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Verdict:
    kind: str
    unit: str | int | None
    n_players: int | None
    estimate: float | None
    ci_low: float | None
    ci_high: float | None
    n: float | None
    n_unit: str
    verdict: str | None = None
    p_adjusted: float | None = None
    family: str | None = None
    metric: str | None = None
    note: str | None = None

    def __post_init__(self):
        if self.verdict is not None and self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}; valid: {', '.join(VERDICTS)}")

    def to_dict(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in asdict(self).items()}


def _plain(value):
    """JSON-safe scalars: numpy numbers to Python, NaN/inf to None."""
    if value is None or isinstance(value, str | bool):
        return value
    if hasattr(value, "item"):  # numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def not_estimable(kind: str, unit, n_players: int | None, n, n_unit: str, note: str,
                  family: str | None = None) -> Verdict:
    """A verdict the data cannot give: no numbers, only the reason."""
    return Verdict(kind=kind, unit=unit, n_players=n_players, estimate=None, ci_low=None,
                   ci_high=None, n=n, n_unit=n_unit, verdict=NOT_ESTIMABLE, family=family,
                   note=note)


@dataclass
class Document:
    """What `--format json` writes: the command, its inputs, the verdicts and the tables."""

    command: str                     # report / compare / experiment / sweep
    source: dict                     # run folders, game, variant, seed ... (plain JSON)
    verdicts: list[Verdict] = field(default_factory=list)
    tables: dict[str, list[dict]] = field(default_factory=dict)  # table name -> rows
    families: dict[str, str] = field(default_factory=dict)       # family name -> definition
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        doc = {
            "schema_version": SCHEMA_VERSION,
            "command": self.command,
            "source": self.source,
            "families": self.families,
            "verdicts": [v.to_dict() for v in self.verdicts],
            "tables": {name: [{k: _plain(v) for k, v in row.items()} for row in rows]
                       for name, rows in self.tables.items()},
            "notes": self.notes,
        }
        return json.dumps(doc, indent=1, sort_keys=False, allow_nan=False, default=str) + "\n"
