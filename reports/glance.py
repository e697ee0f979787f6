"""The verdict at a glance: the first screen of a report and the `glance` entry of its JSON.

One grid of factions (or, in a symmetric game, seats) x player counts. Each cell is the
deviation of the win rate from the fair share 1/n with the interval its band verdict was
decided on (the family-wise interval of seat_winrate / faction_winrate, the same numbers as
the verdict records), and that verdict: outside, undecided or inside. Rows are sorted by size
(mean deviation, largest first). Beside it, the first-player advantage per player count; below
it, a few plain sentences read off the same cells; above it, what this run changed from the
shipped data. Nothing here computes a statistic: it only rearranges the analysis's tables.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import polars as pl

from reports.formatting import pp

FAR = 3  # "far" too strong/weak: every outside cell at least FAR x the band from fair
MAX_LISTED = 5  # names listed in one sentence before "and N more"
MAX_CHANGES_SHOWN = 8  # changed values shown on the first screen (all are in "What changed")


@dataclass
class Cell:
    unit: str            # faction id, or "seat 0"
    name: str            # what the reader sees
    n_players: int
    deviation: float     # win rate - 1/n
    lo: float            # verdict interval, minus 1/n
    hi: float
    verdict: str         # outside / undecided / inside
    n: int               # games (seats) or seats (factions)


@dataclass
class FirstPlayer:
    n_players: int
    advantage: float
    lo: float
    hi: float
    verdict: str
    games: int


@dataclass
class Glance:
    unit_kind: str                        # "faction" or "seat"
    band: float
    player_counts: list[int]
    units: list[str]                      # row order: largest mean deviation first
    names: dict[str, str]
    cells: list[Cell]
    first_player: list[FirstPlayer]
    sentences: list[str]
    changes: list[dict] = field(default_factory=list)  # {key, shipped, value, source}
    sheet: dict | None = None                          # the --data sheet, when there was one

    def cell(self, unit: str, n_players: int) -> Cell | None:
        return next((c for c in self.cells if c.unit == unit and c.n_players == n_players), None)

    def to_dict(self) -> dict:
        """The JSON form: the same cells and sentences the page shows."""
        return {"unit_kind": self.unit_kind, "band": self.band, "player_counts": self.player_counts,
                "units": self.units, "names": self.names, "cells": [asdict(c) for c in self.cells],
                "first_player": [asdict(f) for f in self.first_player], "sentences": self.sentences,
                "changes": self.changes, "sheet": self.sheet}


# ---------------------------------------------------------------- building
def _names(manifest: dict) -> dict[str, str]:
    return {f["id"]: f.get("name", f["id"]) for f in manifest.get("factions") or []}


def _cells(table: pl.DataFrame, unit_col: str, names: dict[str, str]) -> list[Cell]:
    cells = []
    for r in table.to_dicts():
        unit = str(r[unit_col]) if unit_col == "faction" else f"seat {r[unit_col]}"
        cells.append(Cell(unit, names.get(unit, unit), int(r["n_players"]), r["deviation"],
                          r["verdict_lo"] - r["fair"], r["verdict_hi"] - r["fair"], r["verdict"],
                          int(r["games"])))
    return cells


def _order(cells: list[Cell]) -> list[str]:
    """Units by mean deviation over their player counts, largest first."""
    by_unit: dict[str, list[float]] = {}
    for c in cells:
        by_unit.setdefault(c.unit, []).append(c.deviation)
    return sorted(by_unit, key=lambda u: (-sum(by_unit[u]) / len(by_unit[u]), u))


def build(a) -> Glance:
    """The glance of a RunAnalysis (its seat/faction tables, first-player table and manifest)."""
    factions = a.has_factions and not a.faction_winrate.is_empty()
    kind = "faction" if factions else "seat"
    names = _names(a.manifest)
    cells = _cells(a.faction_winrate if factions else a.seat_winrate, kind, names)
    units = _order(cells)
    first = [FirstPlayer(int(r["n_players"]), r["advantage"], r["verdict_lo"] - r["fair"],
                         r["verdict_hi"] - r["fair"], r["verdict"], int(r["games"]))
             for r in a.first_player.to_dicts()]
    counts = sorted({c.n_players for c in cells})
    g = Glance(kind, a.band, counts, units, {u: next(c.name for c in cells if c.unit == u) for u in units},
               cells, first, [], changes_of(a.manifest), a.manifest.get("data_sheet"))
    g.sentences = sentences(g)
    return g


def changes_of(manifest: dict) -> list[dict]:
    """What the run changed from the shipped data: run.json's `changes`, or, for runs made
    before it was recorded, the overrides (their shipped values unknown)."""
    if "changes" in manifest:
        return list(manifest["changes"])
    return [{"key": k, "shipped": None, "value": v, "source": "override"}
            for k, v in manifest.get("overrides") or []]


# ---------------------------------------------------------------- sentences
def _range(cells: list[Cell]) -> str:
    values = sorted(c.deviation for c in cells)
    if len(values) == 1 or pp(values[0], 0) == pp(values[-1], 0):
        return pp(values[0], 0)
    return f"{pp(values[0], 0)[:-3]} to {pp(values[-1], 0)}"


def _where(cells: list[Cell], all_counts: list[int]) -> str:
    counts = sorted(c.n_players for c in cells)
    if len(all_counts) > 1 and counts == all_counts:
        return "at every player count"
    if len(counts) == 1:
        return f"at {counts[0]} players"
    return f"at {', '.join(map(str, counts[:-1]))} and {counts[-1]} players"


def _unit_cells(g: Glance, unit: str) -> list[Cell]:
    return [c for c in g.cells if c.unit == unit]


def _listing(items: list[str]) -> str:
    shown = items[:MAX_LISTED]
    more = len(items) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more else "")


def _sided(g: Glance, sign: int) -> list[tuple[str, list[Cell]]]:
    """Units with an outside verdict on one side (sign +1: strong), most extreme first."""
    out = []
    for unit in g.units:
        hits = [c for c in _unit_cells(g, unit) if c.verdict == "outside" and c.deviation * sign > 0]
        if hits:
            out.append((unit, hits))
    out.sort(key=lambda item: -max(abs(c.deviation) for c in item[1]))
    return out


def _strong_sentences(g: Glance, what: str) -> list[str]:
    strong = _sided(g, +1)
    if not strong:
        return []
    (unit, hits), rest = strong[0], strong[1:]
    far = "far " if min(c.deviation for c in hits) >= FAR * g.band else ""
    first = (f"{g.names[unit]} is {far}too strong {_where(hits, g.player_counts)} "
             f"({_range(hits)} against its fair share).")
    if not rest:
        return [first]
    return [first, "Also too strong: " + _listing(
        [f"{g.names[u]} ({_range(h)} {_where(h, g.player_counts)})" for u, h in rest]) + "."]


def _weak_sentence(g: Glance, what: str) -> list[str]:
    weak = _sided(g, -1)
    if not weak:
        return []
    label = f"{len(weak)} {what}{'s are' if len(weak) > 1 else ' is'} too weak"
    return [f"{label}: " + _listing([f"{g.names[u]} ({_range(h)} {_where(h, g.player_counts)})"
                                     for u, h in weak]) + "."]


def _inside_sentence(g: Glance, what: str) -> list[str]:
    fair = [u for u in g.units if all(c.verdict == "inside" for c in _unit_cells(g, u))]
    band = f"+/-{100 * g.band:g} pp"
    if not fair:
        return [f"No {what} is shown to be fair (inside {band} of its fair share) at every player count yet."]
    names = ", ".join(g.names[u] for u in fair) if len(fair) <= MAX_LISTED else ""
    return [f"{len(fair)} of {len(g.units)} {what}s {'are' if len(fair) > 1 else 'is'} inside the "
            f"fairness band ({band}) at every player count" + (f": {names}." if names else ".")]


def _count_sentence(g: Glance, what: str) -> list[str]:
    """How the cells split, and what an undecided one means."""
    n = {v: sum(c.verdict == v for c in g.cells) for v in ("outside", "undecided", "inside")}
    counts = ", ".join(map(str, g.player_counts))
    text = (f"{len(g.cells)} results ({len(g.units)} {what}s at {counts} players): {n['outside']} "
            f"outside the fairness band, {n['undecided']} undecided, {n['inside']} inside.")
    if n["undecided"]:
        text += (" Undecided means this run is too short to tell; \"How many games\" says how many "
                 "more games would decide them.")
    return [text]


def _first_player_sentence(g: Glance) -> list[str]:
    if not g.first_player:
        return []
    parts = [f"{pp(f.advantage)} at {f.n_players} players ({f.verdict})" for f in g.first_player]
    return ["Going first: " + ", ".join(parts) + " (seat 0's win rate minus its fair share)."]


def sentences(g: Glance) -> list[str]:
    """Three to six plain sentences, read off the glance's own cells."""
    what = g.unit_kind
    out = _count_sentence(g, what) + _strong_sentences(g, what) + _weak_sentence(g, what)
    out += _inside_sentence(g, what) + _first_player_sentence(g)
    return out[:6]


def change_lines(changes: list[dict], limit: int | None = None) -> list[str]:
    """'races.halfling.gold: 6 -> 3 (sheet)' per changed value (the first `limit`)."""
    shown = changes if limit is None else changes[:limit]
    lines = [f"{c['key']}: {value_text(c['shipped'])} -> {value_text(c['value'])} ({c['source']})" for c in shown]
    if limit is not None and len(changes) > limit:
        lines.append(f"... and {len(changes) - limit} more (see 'What changed')")
    return lines


def value_text(v) -> str:
    if v is None:
        return "?"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def changed_summary(g: Glance) -> str:
    """One sentence for the top of the first page: what data this run used."""
    sheet = f" Data read from the sheet {g.sheet['path']} (sha256 {g.sheet['sha256'][:12]})." if g.sheet else ""
    if not g.changes:
        return "Data: the shipped data of this game and variant, no value changed." + sheet
    n = len(g.changes)
    return f"Data: {n} value{'s' if n != 1 else ''} changed from the shipped data.{sheet}"
