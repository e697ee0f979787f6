"""Strict checks for game data tables: one clear error naming file, entry and field."""

import numpy as np

from .errors import BrewError, choices


def check_entry(entry: dict, where: str, required: dict, optional: dict) -> dict:
    """Check one table against {field: type} maps; return it with optional defaults filled.

    `optional` maps field -> (type, default). Unknown fields, missing fields and wrong
    types raise BrewError naming `where` and the field.
    """
    if not isinstance(entry, dict):
        raise BrewError(f"{where}: expected a table, got {type(entry).__name__}")
    allowed = set(required) | set(optional) | {"estimate"}
    for key in entry:
        if key not in allowed:
            raise BrewError(f"{where}: unknown field '{key}'; valid fields are {choices(sorted(allowed))}")
    out = {}
    for key, typ in required.items():
        if key not in entry:
            raise BrewError(f"{where}: missing field '{key}'")
        out[key] = _typed(entry[key], typ, where, key)
    for key, (typ, default) in optional.items():
        out[key] = _typed(entry[key], typ, where, key) if key in entry else default
    if "estimate" in entry:
        out["estimate"] = _typed(entry["estimate"], str, where, "estimate")
    return out


def _typed(value, typ, where: str, key: str):
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if typ is int and isinstance(value, bool):
        raise BrewError(f"{where}: field '{key}' must be an integer, got {value!r}")
    if not isinstance(value, typ):
        raise BrewError(f"{where}: field '{key}' must be {typ.__name__}, got {value!r}")
    return value


def check_range(value, lo, hi, where: str, key: str) -> None:
    if not lo <= value <= hi:
        raise BrewError(f"{where}: field '{key}' = {value} is outside {lo}..{hi}")


def check_unique_ids(entries: list[dict], where: str) -> None:
    seen = set()
    for e in entries:
        if e["id"] in seen:
            raise BrewError(f"{where}: duplicate id '{e['id']}'")
        seen.add(e["id"])


def entry_estimates(entries: list[dict], file: str) -> list[dict]:
    """The `estimate = "why"` notes of a list of id'd entries, for the run manifest."""
    return [{"file": file, "entry": e["id"], "why": e["estimate"]} for e in entries if "estimate" in e]


def parse_policies(tree: dict, kinds: tuple[str, ...], weight_names: tuple[str, ...]):
    """policies.toml's [[policy]] tables, each with id, kind, name, about and one float per
    weight name: returns (the checked entries, kind codes int64[P], weights float64[P, W],
    the estimates). The game adds its own range checks on the entries."""
    file = "policies.toml"
    raw = tree.get("policies", {}).get("policy")
    if not isinstance(raw, list) or not raw:
        raise BrewError(f"{file}: expected a list of [[policy]] tables")
    required = {"id": str, "kind": str, "name": str, "about": str, **{w: float for w in weight_names}}
    pols = [check_entry(e, f"{file}: policy {e.get('id', i)!r}", required, {}) for i, e in enumerate(raw)]
    check_unique_ids(pols, file)
    for p in pols:
        if p["kind"] not in kinds:
            raise BrewError(f"{file}: policy '{p['id']}': kind '{p['kind']}' is not one of {choices(kinds)}")
    codes = np.array([kinds.index(p["kind"]) for p in pols], np.int64)
    weights = np.array([[p[w] for w in weight_names] for p in pols], np.float64)
    return pols, codes, weights, entry_estimates(pols, file)


def file_estimate(node: dict, file: str, entry: str = "all entries") -> list[dict]:
    """The estimate note of a whole file or table (`estimate = "why"` at its top), if any."""
    if "estimate" not in node:
        return []
    if not isinstance(node["estimate"], str):
        raise BrewError(f"{file}: 'estimate' must be a string")
    return [{"file": file, "entry": entry, "why": node["estimate"]}]
