"""A game's estimated numbers, each with the low and high value sensitivity analysis tries.

Every value the data marks `estimate` (on an entry, on a file's top for all its entries, or
in params.toml's [estimates] table) becomes one or more Estimate objects:

- an entry with a declared range (sim/core/config.py docstring): one Estimate per named
  field, id `file.entry.field`, moving that one value to lo or hi;
- an entry without one: one Estimate per numeric field but `count` (deck sizes are checked
  totals, not free numbers), with the default range;
- a file-top estimate: one Estimate per field, id `file.*.field`, moving the field of every
  entry together (a declared shared number: all by the same step; the default: each
  entry's value by -25% / +25%), leaving out entries with an estimate of their own;
- a params.toml [estimates] key: id `params.key`.

The default range is +-25% of the value; integers move by at least 1 (rounded away from the
value), and both ends are clamped to the field's valid [ranges]. Booleans move only where a
range [false, true] is declared. Bot settings (policies.toml) count only for the bots in the
run. Values that cannot be set from the command line (lists, entries without an id) and
estimates whose low and high equal the value are left out, by name, in `skipped`.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from .config import PARAMS_FILE, VARIANTS_FILE, DeclaredRange, GameData
from .errors import UsageError, choices

DECLARED, DEFAULT, BOTH_READINGS = "declared", "default +-25%", "default: both readings"
DEFAULT_SHARE = 0.25
NOT_ESTIMATED = ("id", "count")  # an entry's name and its deck count are not free numbers
POLICIES_FILE = "policies"


@dataclass
class Estimate:
    """One estimated number (or one shared number of several entries) and its range."""

    id: str
    group: str                   # the data file it lives in: grouped screening moves a group together
    paths: list[str]             # the --set keys it moves
    base: list                   # their values now (variant and --set applied)
    low: list                    # the values of the low arm, path by path
    high: list
    why: str
    range_source: str            # DECLARED or DEFAULT
    range_why: str = ""

    def sets(self, end: str) -> list[str]:
        """The --set values of the low or the high arm."""
        values = self.low if end == "low" else self.high
        return [f"{p}={_toml(v)}" for p, v in zip(self.paths, values, strict=True)]

    def summary(self, end: str) -> str:
        """The arm's value(s) in words: one value, or the common step of a shared number."""
        values = self.low if end == "low" else self.high
        if len(values) == 1:
            return _toml(values[0])
        if self.range_source == DEFAULT:
            return "each -25%" if end == "low" else "each +25%"
        return f"{_toml(values[0])} (and the same step on {len(values) - 1} more)"


@dataclass
class EstimateList:
    estimates: list[Estimate]
    skipped: list[str] = field(default_factory=list)  # "id: reason"


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(round(value, 6)) if isinstance(value, float) else str(value)


def default_range(value, valid) -> tuple:
    """(lo, hi) = value -+25%, integers by at least 1, clamped to valid [lo, hi] if given; a
    switch (bool) has its two readings, (False, True)."""
    if isinstance(value, bool):
        return False, True
    if isinstance(value, int):
        lo = min(round(value * (1 - DEFAULT_SHARE)), value - 1)
        hi = max(round(value * (1 + DEFAULT_SHARE)), value + 1)
        if value < 0:
            lo, hi = min(round(value * (1 + DEFAULT_SHARE)), value - 1), max(round(value * (1 - DEFAULT_SHARE)), value + 1)
    else:
        lo, hi = sorted((round(value * (1 - DEFAULT_SHARE), 6), round(value * (1 + DEFAULT_SHARE), 6)))
    if isinstance(valid, list) and len(valid) == 2:
        lo, hi = max(lo, valid[0]), min(hi, valid[1])
        lo, hi = (type(value)(lo), type(value)(hi)) if isinstance(value, int) else (lo, hi)
    return lo, hi


def _numeric(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _valid(data: GameData, stem: str, table: str, name: str):
    node = data.ranges.get(stem, {})
    for part in [table, *name.split(".")]:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _id_lists(node: dict) -> dict[str, list[dict]]:
    return {k: v for k, v in node.items() if isinstance(v, list) and v and all(isinstance(e, dict) for e in v)}


def _declared_for(data: GameData, stem: str, entry: str) -> dict[str, DeclaredRange]:
    return {d.field: d for d in data.declared if d.stem == stem and d.entry == entry}


def _one(data, stem, table, entry_id, name, value, why, declared, path) -> Estimate:
    d = declared.get(name)
    if d is not None:
        return Estimate(f"{stem}.{entry_id}.{name}" if stem != PARAMS_FILE else f"params.{name}", stem,
                        [path], [value], [d.lo], [d.hi], why, DECLARED, d.why)
    lo, hi = default_range(value, _valid(data, stem, table, name))
    ident = f"{stem}.{entry_id}.{name}" if stem != PARAMS_FILE else f"params.{name}"
    return Estimate(ident, stem, [path], [value], [lo], [hi], why, BOTH_READINGS if isinstance(value, bool) else DEFAULT)


def _entry_estimates(data, stem, table, entry, skipped) -> list[Estimate]:
    declared = _declared_for(data, stem, str(entry["id"]))
    names = list(declared) or [k for k, v in entry.items() if _numeric(v) and k not in NOT_ESTIMATED]
    for k, v in entry.items():
        if not declared and isinstance(v, list) and k not in NOT_ESTIMATED:
            skipped.append(f"{stem}.{entry['id']}.{k}: a list, which --set cannot change")
    return [_one(data, stem, table, entry["id"], k, entry[k], entry["estimate"], declared,
                 f"{stem}.{entry['id']}.{k}") for k in names]


def _file_estimates(data, stem, node, skipped) -> list[Estimate]:
    """The estimate note at a file's top: one shared Estimate per field of its entries."""
    lists = _id_lists(node)
    declared = _declared_for(data, stem, "*")
    out = []
    for table, entries in lists.items():
        own = [e for e in entries if "estimate" in e]
        members = [e for e in entries if "id" in e]
        if len(members) < len(entries):
            skipped.append(f"{stem}.*: entries without an id, which --set cannot address")
        names = [n for n in declared if any(n in e for e in members)] if declared else sorted(
            {k for e in members for k, v in e.items() if _numeric(v) and k not in NOT_ESTIMATED})
        for name in names:
            # an entry with an estimate of its own for this field is that estimate's, not the file's
            mine = [e for e in members if name in e and not (
                e in own and (name in _declared_for(data, stem, str(e["id"])) or not declared))]
            est = _shared(data, stem, table, name, mine, node["estimate"], declared.get(name))
            if est is not None:
                out.append(est)
    return out


def _shared(data, stem, table, name, members, why, d: DeclaredRange | None) -> Estimate | None:
    if d is not None:
        members = [e for e in members if e["id"] not in d.skip]
    if not members:
        return None
    paths = [f"{stem}.{e['id']}.{name}" for e in members]
    base = [e[name] for e in members]
    valid = _valid(data, stem, table, name)
    if d is None:
        ends = [default_range(v, valid) for v in base]
        return Estimate(f"{stem}.*.{name}", stem, paths, base, [lo for lo, _ in ends], [hi for _, hi in ends],
                        why, DEFAULT)
    if isinstance(d.lo, bool):
        return Estimate(f"{stem}.*.{name}", stem, paths, base, [False] * len(base), [True] * len(base),
                        why, DECLARED, d.why)
    common = max(set(base), key=base.count)
    lo = [_clamp(v + d.lo - common, valid, v) for v in base]
    hi = [_clamp(v + d.hi - common, valid, v) for v in base]
    return Estimate(f"{stem}.*.{name}", stem, paths, base, lo, hi, why, DECLARED, d.why)


def _clamp(value, valid, like):
    if isinstance(valid, list) and len(valid) == 2:
        value = min(max(value, valid[0]), valid[1])
    return type(like)(value) if isinstance(like, int) else round(value, 6)


def _param_estimates(data: GameData, node: dict, skipped) -> list[Estimate]:
    out = []
    for key, why in node.get("estimates", {}).items():
        value = node.get("params", {})
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        declared = _declared_for(data, PARAMS_FILE, key)
        if value is None or not (_numeric(value) or isinstance(value, bool)):
            skipped.append(f"params.{key}: not a number or a switch")
            continue
        out.append(_one(data, PARAMS_FILE, "params", key, key, value, why, declared, f"params.params.{key}"))
    return out


def game_estimates(data: GameData, policies: list[str] | None = None) -> EstimateList:
    """Every estimate of a prepared game data tree (variant and --set applied), in file order;
    policies: the bots of the run (their policies.toml estimates count; None: all)."""
    out, skipped = [], []
    for stem in sorted(data.tree):
        node = data.tree[stem]
        if stem == VARIANTS_FILE or not isinstance(node, dict):
            continue
        if stem == PARAMS_FILE:
            out += _param_estimates(data, node, skipped)
            continue
        if "estimate" in node:
            out += _file_estimates(data, stem, node, skipped)
        for table, entries in _id_lists(node).items():
            for entry in entries:
                if "estimate" in entry and "id" in entry and (
                        stem != POLICIES_FILE or policies is None or entry["id"] in policies):
                    out += _entry_estimates(data, stem, table, entry, skipped)
    moving = [e for e in out if e.low != e.base or e.high != e.base]
    skipped += [f"{e.id}: its low and high equal its value" for e in out if e not in moving]
    return EstimateList(moving, skipped)


def select(estimates: list[Estimate], pattern: str | None) -> list[Estimate]:
    """The estimates whose id matches the glob (fnmatch); UsageError if none does."""
    if not pattern:
        return estimates
    picked = [e for e in estimates if any(fnmatch.fnmatchcase(e.id, p.strip()) for p in pattern.split(","))]
    if not picked:
        raise UsageError(f"--estimates '{pattern}' matches no estimate; ids look like "
                         f"{choices([e.id for e in estimates[:5]])}, ...")
    return picked
