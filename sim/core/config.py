"""Game data: TOML files in data/games/<game>/, variants, and user overrides.

The data of a game is a tree: file stem -> table -> ... Lists of tables that carry an
`id` (cards, factions) are addressed by that id. Any leaf of the tree can be overridden:

    --set dwarfest.brawl_limit=4                 (a bare name is looked up in [params])
    --set dwarfest.tavern_cards.bouncer.cost=2   (file . card id . field)
    --override change.toml                       (the same paths as nested TOML tables)

Overrides keep the type of the value they replace, so a typo cannot turn a number into a
string. Every override is recorded in the run manifest.

Valid ranges live in the data schema: a data file's `[ranges]` table gives `[lo, hi]` for its
numeric fields, by table (or [[list]] name) and field, e.g. in params.toml
`[ranges.params] brawl_limit = [1, 30]` and in tavern_cards.toml `[ranges.card] cost = [0, 20]`.
Every data file must declare a range for each of its numeric fields (a file without numbers
needs none); variants.toml is exempt, as its values are overrides checked where they land. The
shipped values, the variants, --override files and --set values are all checked against them
(check_ranges).

Estimate ranges (docs/estimates.md) sit next to the estimates they qualify, in one format:

    on an entry    range = { brewers = [4, 6], stores = [3, 6] }   range_why = "..."
    on a file top  range = { brewers = [4, 6] }  range_why = "..."  range_skip = ["halfling"]
    params.toml    [estimate_ranges] fame_max = [16, 30]   [estimate_range_why] fame_max = "..."

An entry's range names the numbers its `estimate` covers, each with a plausible [lo, hi]
(booleans: [false, true]). A file-top range is one shared number: every entry of the file
(but those in range_skip, whose value is printed, or with a range of their own for that
field) moves by the same step from the file's most common value to lo or to hi. These
fields are read out of the tree at load (GameData.declared, like [ranges]) so the game
loaders never see them, and checked there: a real numeric (or boolean) field of an
estimated entry, lo <= value <= hi, inside the field's valid [ranges], with a reason; a bad
range is one BrewError naming file, entry and field. Values without a declared range get
the default of sim/core/estimates.py (+-25%, clamped to [ranges]).
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BrewError, UsageError, choices

PARAMS_FILE = "params"
RANGES = "ranges"  # the schema table of valid ranges in each data file
RANGE, RANGE_WHY, RANGE_SKIP = "range", "range_why", "range_skip"  # estimate ranges (docstring)
PARAM_RANGES, PARAM_RANGE_WHY = "estimate_ranges", "estimate_range_why"  # params.toml's tables
VARIANTS_FILE = "variants"  # named sets of overrides, checked where they land


def data_root() -> Path:
    """The folder holding games/<game>/*.toml: BREWBALANCE_DATA if set, else the checkout's
    data/ (a source checkout or editable install), else the copy installed with the package."""
    env = os.environ.get("BREWBALANCE_DATA")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "data" / "games").is_dir():
        return checkout / "data"
    import brewbalance_data  # an installed wheel: the data is package data

    return brewbalance_data.ROOT


@dataclass
class GameData:
    """The raw data tree of one game, with where it came from."""

    game: str
    tree: dict
    hashes: dict[str, str]
    variant: str = "base"
    overrides: list[tuple[str, object]] = field(default_factory=list)
    ranges: dict[str, dict] = field(default_factory=dict)  # file stem -> its [ranges] table
    touched: set = field(default_factory=set)  # (id(table), field) of leaves set by the user
    declared: list[DeclaredRange] = field(default_factory=list)  # the estimate ranges of the files


@dataclass(frozen=True)
class DeclaredRange:
    """One declared estimate range: file stem, list name ("" for params.toml), entry id (or
    "*" for a file-top shared number, or the parameter key), field, lo, hi, reason, and the
    entries a file-top range leaves alone."""

    stem: str
    table: str
    entry: str
    field: str
    lo: object
    hi: object
    why: str
    skip: tuple = ()


def load_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise BrewError(f"{path}: malformed TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise BrewError(f"{path}: not UTF-8 text (byte {exc.start}); TOML files must be UTF-8") from None
    except OSError as exc:
        raise BrewError(f"{path}: cannot read: {exc.strerror}") from None


def load_game_data(game: str) -> GameData:
    folder = data_root() / "games" / game
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise BrewError(f"no data files for game '{game}' in {folder}")
    tree, hashes, ranges = {}, {}, {}
    for path in files:
        hashes[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        tree[path.stem] = load_toml(path)
        ranges[path.stem] = tree[path.stem].pop(RANGES, {})  # schema, not game data
    declared = [d for stem in tree for d in pop_declared_ranges(stem, tree[stem], ranges[stem])]
    return GameData(game=game, tree=tree, hashes=hashes, ranges=ranges, declared=declared)


def pop_declared_ranges(stem: str, node: dict, schema: dict) -> list[DeclaredRange]:
    """Take the estimate-range fields out of one file's tree (module docstring) and check them
    against the shipped values and the file's [ranges]."""
    file = f"{stem}.toml"
    if stem == PARAMS_FILE and (PARAM_RANGES in node or PARAM_RANGE_WHY in node):
        return _param_ranges(file, node, schema)
    lists = {k: v for k, v in node.items() if isinstance(v, list) and v and all(isinstance(e, dict) for e in v)}
    out = []
    for table, entries in lists.items():
        for entry in entries:
            where = f"{file}: {table} '{entry.get('id', '?')}'"
            out += [_declared(where, stem, table, entry.get("id"), f, b, why, (), [entry], schema)
                    for f, b, why, _ in _range_fields(entry, where, entry_level=True)]
    for f, b, why, skip in _range_fields(node, f"{file}: file top", entry_level=False):
        table, members = _table_with_field(file, lists, f)
        kept = [e for e in members if e.get("id") not in skip]
        out.append(_declared(f"{file}: file top", stem, table, "*", f, b, why, tuple(skip), kept, schema))
    return out


def _range_fields(node: dict, where: str, entry_level: bool):
    """(field, [lo, hi], why, skip) for each field of a `range` table, popped from node."""
    rng, why = node.pop(RANGE, None), node.pop(RANGE_WHY, None)
    skip = node.pop(RANGE_SKIP, [])
    if rng is None:
        if why is not None or skip:
            raise BrewError(f"{where}: '{RANGE_WHY}'/'{RANGE_SKIP}' given without '{RANGE}'")
        return []
    if not isinstance(rng, dict) or not rng:
        raise BrewError(f"{where}: '{RANGE}' must be a table of field = [lo, hi]")
    if not isinstance(why, str) or not why.strip():
        raise BrewError(f"{where}: '{RANGE}' needs its reason in '{RANGE_WHY}' (a string)")
    if "estimate" not in node and entry_level:
        raise BrewError(f"{where}: '{RANGE}' on an entry without an 'estimate' note")
    if skip and (entry_level or not all(isinstance(s, str) for s in skip)):
        raise BrewError(f"{where}: '{RANGE_SKIP}' is a list of entry ids, on a file top only")
    return [(f, b, why, skip) for f, b in rng.items()]


def _table_with_field(file: str, lists: dict, field_name: str):
    for table, entries in lists.items():
        if any(field_name in e for e in entries):
            return table, entries
    raise BrewError(f"{file}: file top: range field '{field_name}' is not a field of its entries")


def _param_ranges(file: str, node: dict, schema: dict) -> list[DeclaredRange]:
    ranges, whys = node.pop(PARAM_RANGES, {}), node.pop(PARAM_RANGE_WHY, {})
    estimated = node.get("estimates", {})
    out = []
    for key, bounds in ranges.items():
        where = f"{file}: [{PARAM_RANGES}] '{key}'"
        if key not in estimated:
            raise BrewError(f"{where}: not a parameter listed in [estimates]")
        if not isinstance(whys.get(key), str):
            raise BrewError(f"{where}: give its reason in [{PARAM_RANGE_WHY}]")
        params = {"params": node.get("params", {})}
        leaf = _leaf(params["params"], key.split("."))
        holder = {"id": key, key: leaf} if leaf is not None else {"id": key}
        sub_schema = {"params": {key: _leaf(schema.get("params", {}), key.split("."))}}
        out.append(_declared(where, PARAMS_FILE, "params", key, key, bounds, whys[key], (), [holder], sub_schema))
    extra = sorted(set(whys) - set(ranges))
    if extra:
        raise BrewError(f"{file}: [{PARAM_RANGE_WHY}] '{extra[0]}' has no range in [{PARAM_RANGES}]")
    return out


def _leaf(node, parts: list[str]):
    for part in parts:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _declared(where, stem, table, entry, field_name, bounds, why, skip, members, schema) -> DeclaredRange:
    """Check one range against its field's values in `members` and its valid [ranges]."""
    values = [m[field_name] for m in members if field_name in m]
    if not values:
        raise BrewError(f"{where}: range field '{field_name}' is not a field of the entry")
    if isinstance(values[0], bool):
        if bounds != [False, True]:
            raise BrewError(f"{where}: range of boolean field '{field_name}' must be [false, true]")
        return DeclaredRange(stem, table, str(entry), field_name, False, True, why, skip)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if not numeric:
        raise BrewError(f"{where}: range field '{field_name}' is not a numeric field")
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(
            isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds)):
        raise BrewError(f"{where}: range of '{field_name}' must be [lo, hi], got {bounds!r}")
    lo, hi = bounds
    base = max(set(values), key=values.count)
    if not lo <= base <= hi:
        raise BrewError(f"{where}: range of '{field_name}' {lo}..{hi} does not hold its value {base}")
    valid = _leaf(schema, [table, field_name])
    if isinstance(valid, list) and len(valid) == 2 and not (valid[0] <= lo and hi <= valid[1]):
        raise BrewError(f"{where}: range of '{field_name}' {lo}..{hi} leaves its valid range "
                        f"{valid[0]}..{valid[1]}")
    return DeclaredRange(stem, table, str(entry), field_name, lo, hi, why, skip)


def parse_set(text: str) -> tuple[str, object]:
    """KEY=VALUE from the command line; VALUE is read as a TOML value, else as a string."""
    if "=" not in text:
        raise UsageError(f"--set '{text}': expected KEY=VALUE, e.g. dwarfest.brawl_limit=4")
    key, raw = text.split("=", 1)
    key, raw = key.strip(), raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def flatten_override_file(path: Path) -> list[tuple[str, object]]:
    """An override TOML file as a list of (dotted key, value)."""
    out: list[tuple[str, object]] = []

    def walk(prefix: str, node: dict) -> None:
        for k, v in node.items():
            key = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(key, v)
            else:
                out.append((key, v))

    walk("", load_toml(path))
    return out


def _child(node, part: str, where: str):
    """Step from a node to its child `part`: a dict key, or a list entry by its id."""
    if isinstance(node, dict):
        if part in node:
            return node, part
        # A file whose entries are a list of id'd tables: [[card]] -> address by id.
        lists = [v for v in node.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        for lst in lists:
            for entry in lst:
                if entry.get("id") == part:
                    return {"__entry__": entry}, "__entry__"
        valid = [k for k in node if not isinstance(node[k], list)]
        for lst in lists:
            valid += [e.get("id") for e in lst if "id" in e]
        raise UsageError(f"unknown override key '{where}': '{part}' is not one of {choices(valid)}")
    raise UsageError(f"unknown override key '{where}': cannot descend into a value")


def apply_override(data: GameData, key: str, value) -> None:
    """Set one leaf of the data tree in place, checking the path and the value's type."""
    parts = key.split(".")
    if parts[0] == data.game:
        parts = parts[1:]
    if len(parts) == 1:
        parts = [PARAMS_FILE, "params", parts[0]]
    elif parts[0] == PARAMS_FILE and len(parts) == 2:
        parts = [PARAMS_FILE, "params", parts[1]]
    if not parts or parts[0] not in data.tree:
        raise UsageError(
            f"unknown override key '{key}': first part must be a data file, one of "
            f"{choices(sorted(data.tree))}, or a parameter name"
        )
    node = data.tree
    for part in parts[:-1]:
        parent, k = _child(node, part, key)
        node = parent[k]
    parent, leaf = _child(node, parts[-1], key)
    old = parent[leaf]
    if isinstance(old, (dict, list)):
        raise UsageError(f"override key '{key}' names a table, not a value")
    parent[leaf] = _coerce(key, old, value)
    data.overrides.append((key, parent[leaf]))
    data.touched.add((id(parent), leaf))


def _coerce(key: str, old, value):
    if isinstance(old, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(old, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(old, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(old, str):
        if isinstance(value, str):
            return value
    raise UsageError(
        f"override '{key}': expected {type(old).__name__} like {old!r}, got {value!r}"
    )


def apply_variant(data: GameData, variant: str) -> None:
    variants = data.tree.get(VARIANTS_FILE, {}).get("variant", {})
    if variant == "base" and variant not in variants and variants:
        variant = next(iter(variants))  # a game without a `base` variant: its first variant is the default
    if variant not in variants:
        raise UsageError(f"unknown variant '{variant}' for {data.game}; choose from {choices(variants)}")
    for key, value in variants[variant].get("set", {}).items():
        apply_override(data, key, value)
    data.variant = variant
    data.overrides.clear()  # variant settings are recorded by name, not as user overrides
    data.touched.clear()    # and are checked as shipped data


def prepare(game: str, variant: str, sets: list[str], override_files: list[Path]) -> GameData:
    """Load a game's data, apply the variant, then override files, then --set values."""
    data = load_game_data(game)
    apply_variant(data, variant)
    for path in override_files:
        for key, value in flatten_override_file(Path(path)):
            apply_override(data, key, value)
    for text in sets:
        apply_override(data, *parse_set(text))
    check_ranges(data)
    return data


def replay_overrides(game: str, variant: str, overrides: list[list]) -> GameData:
    """Rebuild the data of a recorded run (variant + recorded overrides)."""
    data = load_game_data(game)
    apply_variant(data, variant)
    for key, value in overrides:
        apply_override(data, key, value)
    check_ranges(data)
    return data


def check_ranges(data: GameData) -> None:
    """Check every numeric leaf of every data file (but variants.toml) against its range.
    A value the user set (--set, --override) out of range is a UsageError naming the key,
    the value and the range; a shipped value out of range, or one without a declared
    range, is a BrewError naming the file."""
    for stem, ranges in data.ranges.items():
        if stem != VARIANTS_FILE:
            _check_node(data, stem, data.tree[stem], ranges, [data.game, stem], [])


def _check_node(data: GameData, stem: str, node: dict, ranges: dict, where: list, schema: list) -> None:
    for key, value in node.items():
        if isinstance(value, dict):
            _check_node(data, stem, value, ranges, [*where, key], [*schema, key])
        elif isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
            for i, entry in enumerate(value):
                _check_node(data, stem, entry, ranges, [*where, str(entry.get("id", i))], [*schema, key])
        else:
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, (int, float)) and not isinstance(item, bool):
                    _check_value(data, stem, node, key, item, ranges, ".".join([*where, key]), [*schema, key])


def _check_value(data: GameData, stem: str, node: dict, key: str, value, ranges: dict, name: str,
                 schema: list) -> None:
    bounds = ranges
    for part in schema:
        bounds = bounds.get(part) if isinstance(bounds, dict) else None
    if not (isinstance(bounds, list) and len(bounds) == 2
            and all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds)):
        raise BrewError(f"{data.game}/{stem}.toml: no valid range declared for '{'.'.join(schema)}' "
                        f"(add it to [{RANGES}] as [lo, hi])")
    lo, hi = bounds
    if not lo <= value <= hi:
        where = f"override '{name}'" if (id(node), key) in data.touched else f"{stem}.toml: {name}"
        error = UsageError if (id(node), key) in data.touched else BrewError
        raise error(f"{where} = {value!r} is outside its valid range {lo}..{hi} "
                    f"({stem}.toml [{RANGES}.{'.'.join(schema)}])")
