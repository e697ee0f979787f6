"""Strict checks for game data tables: one clear error naming file, entry and field."""

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
