"""Homebrewers data: the TOML tree of data/games/homebrewers/ -> validated NumPy arrays.

Every value comes from the data files (after variant and user overrides); the rules code holds
no numbers of its own. Validation is strict: a typo stops the run with a message naming the
file, entry and field.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.config import GameData
from sim.core.errors import BrewError, choices
from sim.core.validate import (
    check_entry,
    check_range,
    check_unique_ids,
    entry_estimates,
    file_estimate,
    parse_policies,
)

from . import constants as C

TOPS_DATA = {"money": C.T_MONEY, "reputation": C.T_REP, "quality": C.T_QUALITY, "adjacent": C.T_ADJACENT}
BOTTOMS_DATA = {"money_5": (C.E_MONEY, 5), "sanitize_and_grain": (C.E_SAN_GRAIN, 1), "two_grain": (C.E_GRAIN, 2),
                "two_sanitize": (C.E_SANITIZE, 2), "copy": (C.E_COPY, 1)}
POWERS = {"extra_die": C.ANANYA, "fill_the_keg": C.ANDREW, "work_the_crowd": C.COLT, "risk_taker": C.EVIE,
          "contender": C.GABRIEL, "cleanroom": C.KATHERINE, "defending_champion": C.TONY}


@dataclass
class HomebrewersConfig:
    params: np.ndarray  # int64[N_PARAMS]
    card_ids: list[str]
    card_names: list[str]
    cards: np.ndarray  # int64[T, 4]: flavor kind, top benefit, bottom effect, count
    bottom_n: np.ndarray  # int64[T]: amount of the bottom effect
    phys: np.ndarray  # int64[54]: card type of each physical card
    event_ids: list[str]
    event_names: list[str]
    events: np.ndarray  # int64[10, 6]
    tiles: np.ndarray  # int64[12, 4]: effect * 8 + amount per level
    board: np.ndarray  # int64[13]: pre-printed spaces (levels 1-3 and 12), effect * 8 + amount
    judge_ids: list[str]
    judge_names: list[str]
    judges: np.ndarray  # int64[12, 5]; row 0 the pre-printed judge
    chars: np.ndarray  # int64[8, 1 + MAX_SLOTS]; row 7 = standard tile
    char_names: list[str]
    charlie: np.ndarray  # int64[10, 4]: advance per recipe
    charlie_ids: list[str]
    medals: np.ndarray  # int64[3, 2, 4]
    policy_ids: list[str]
    policy_kind: np.ndarray
    policy_weights: np.ndarray
    estimates: list[dict]
    standard: bool

    def policy_index(self, name: str) -> int:
        return self.policy_ids.index(name)


def _list(tree: dict, stem: str, key: str, extra=()) -> tuple[list, dict]:
    node = tree.get(stem, {})
    raw = node.get(key)
    if not isinstance(raw, list) or not raw:
        raise BrewError(f"{stem}.toml: expected a list of [[{key}]] tables")
    bad = [k for k in node if k not in (key, "estimate", *extra)]
    if bad:
        raise BrewError(f"{stem}.toml: unknown top-level key '{bad[0]}'; valid keys are {choices((key, 'estimate', *extra))}")
    return raw, node


def _effect(name: str, where: str, key: str, basic=False) -> int:
    if name not in C.EFFECTS or (basic and C.EFFECTS.index(name) >= C.BASIC_EFFECTS):
        ok = C.EFFECTS[:C.BASIC_EFFECTS] if basic else C.EFFECTS
        raise BrewError(f"{where}: field '{key}' = '{name}' is not one of {choices(ok)}")
    return C.EFFECTS.index(name)


def _parse_cards(tree):
    file = "flavor_cards.toml"
    raw, node = _list(tree, "flavor_cards", "card")
    req = {"id": str, "name": str, "flavor": str, "top": str, "bottom": str, "count": int}
    cards = [check_entry(e, f"{file}: card {e.get('id', i)!r}", req, {}) for i, e in enumerate(raw)]
    check_unique_ids(cards, file)
    rows, bn = [], []
    for c in cards:
        where = f"{file}: card '{c['id']}'"
        if c["flavor"] not in C.FLAVOR_KINDS:
            raise BrewError(f"{where}: field 'flavor' = '{c['flavor']}' is not one of {choices(C.FLAVOR_KINDS)}")
        if c["top"] not in TOPS_DATA:
            raise BrewError(f"{where}: field 'top' = '{c['top']}' is not one of {choices(TOPS_DATA)}")
        if c["bottom"] not in BOTTOMS_DATA:
            raise BrewError(f"{where}: field 'bottom' = '{c['bottom']}' is not one of {choices(BOTTOMS_DATA)}")
        check_range(c["count"], 0, C.DECK, where, "count")
        eff, amt = BOTTOMS_DATA[c["bottom"]]
        rows.append([C.FLAVOR_KINDS.index(c["flavor"]), TOPS_DATA[c["top"]], eff, c["count"]])
        bn.append(amt)
    total = sum(c["count"] for c in cards)
    if total != C.DECK:
        raise BrewError(f"{file}: card counts add up to {total}, the flavor deck has {C.DECK}")
    arr = np.array(rows, np.int64)
    phys = np.repeat(np.arange(len(cards)), arr[:, C.CF_COUNT]).astype(np.int64)
    return [c["id"] for c in cards], [c["name"] for c in cards], arr, np.array(bn, np.int64), phys, \
        file_estimate(node, file) + entry_estimates(cards, file)


def _parse_events(tree):
    file = "events.toml"
    raw, node = _list(tree, "events", "event")
    req = {"id": str, "name": str, "top": str, "top_amount": int, "bottom": str, "bottom_amount": int}
    opt = {"bottom2": (str, "none"), "bottom2_amount": (int, 0), "festival": (bool, False)}
    evs = [check_entry(e, f"{file}: event {e.get('id', i)!r}", req, opt) for i, e in enumerate(raw)]
    check_unique_ids(evs, file)
    tiles = [e for e in evs if not e["festival"]]
    fests = [e for e in evs if e["festival"]]
    if len(tiles) != C.N_EVENT_TILES:
        raise BrewError(f"{file}: {len(tiles)} event tiles listed, the game has {C.N_EVENT_TILES}")
    ids = [f["id"] for f in fests]
    if ids != ["summerfest", "octoberfest"]:
        raise BrewError(f"{file}: expected festival events 'summerfest' then 'octoberfest', got {ids}")
    rows = []
    for e in tiles + fests:
        where = f"{file}: event '{e['id']}'"
        for k in ("top_amount", "bottom_amount", "bottom2_amount"):
            check_range(e[k], 0, 9, where, k)
        rows.append([_effect(e["top"], where, "top"), e["top_amount"], _effect(e["bottom"], where, "bottom"),
                     e["bottom_amount"], _effect(e["bottom2"], where, "bottom2"), e["bottom2_amount"]])
    return [e["id"] for e in tiles + fests], [e["name"] for e in tiles + fests], np.array(rows, np.int64), \
        file_estimate(node, file) + entry_estimates(evs, file)


def _space(name, amount, where, key):
    check_range(amount, 0, 7, where, key)  # packed as effect * 8 + amount
    eff = _effect(name, where, key, basic=True)
    return eff * 8 + amount if eff != C.E_NONE else 0


def _parse_tiles(tree):
    file = "quality_tiles.toml"
    raw, node = _list(tree, "quality_tiles", "tile", extra=("board",))
    req = {"id": str, "spaces": list, "amounts": list}
    tiles = [check_entry(e, f"{file}: tile {e.get('id', i)!r}", req, {}) for i, e in enumerate(raw)]
    check_unique_ids(tiles, file)
    if len(tiles) != C.N_TRACK_TILES:
        raise BrewError(f"{file}: {len(tiles)} tiles listed, the game has {C.N_TRACK_TILES}")
    arr = np.zeros((C.N_TRACK_TILES, 4), np.int64)
    for t, e in enumerate(tiles):
        where = f"{file}: tile '{e['id']}'"
        if len(e["spaces"]) != 4 or len(e["amounts"]) != 4:
            raise BrewError(f"{where}: 'spaces' and 'amounts' need 4 entries (levels 4-7 or 8-11)")
        for k in range(4):
            arr[t, k] = _space(e["spaces"][k], e["amounts"][k], where, "spaces")
    b = node.get("board")
    b = check_entry(b, f"{file}: [board]", {"spaces": list, "amounts": list, "lock": str, "lock_amount": int}, {})
    if len(b["spaces"]) != 3 or len(b["amounts"]) != 3:
        raise BrewError(f"{file}: [board]: 'spaces' and 'amounts' need 3 entries (levels 1-3)")
    board = np.zeros(C.MAX_Q + 1, np.int64)
    for k in range(3):
        board[1 + k] = _space(b["spaces"][k], b["amounts"][k], f"{file}: [board]", "spaces")
    board[C.MAX_Q] = _space(b["lock"], b["lock_amount"], f"{file}: [board]", "lock")
    ests = file_estimate(node, file) + entry_estimates(tiles, file)
    if "estimate" in b:
        ests.append({"file": file, "entry": "board", "why": b["estimate"]})
    return arr, board, ests


def _parse_judges(tree):
    file = "judges.toml"
    raw, node = _list(tree, "judges", "judge")
    req = {"id": str, "name": str, "kind": str, "reputation": int}
    opt = {"flavor": (str, "any"), "min": (int, 0), "recipes": (int, 0), "preprinted": (bool, False)}
    js = [check_entry(e, f"{file}: judge {e.get('id', i)!r}", req, opt) for i, e in enumerate(raw)]
    check_unique_ids(js, file)
    if not js[0]["preprinted"] or any(j["preprinted"] for j in js[1:]):
        raise BrewError(f"{file}: the first judge, and only it, must be the pre-printed one (preprinted = true)")
    if len(js) != C.N_JUDGE_TILES + 1:
        raise BrewError(f"{file}: {len(js) - 1} judge tiles listed besides the pre-printed one; the game has {C.N_JUDGE_TILES}")
    rows = []
    for j in js:
        where = f"{file}: judge '{j['id']}'"
        if j["kind"] not in C.JUDGE_KINDS:
            raise BrewError(f"{where}: field 'kind' = '{j['kind']}' is not one of {choices(C.JUDGE_KINDS)}")
        kind = C.JUDGE_KINDS.index(j["kind"])
        if kind in (C.J_RECIPE_KIND, C.J_TOTAL_KIND):
            if j["flavor"] not in C.FLAVOR_KINDS:
                raise BrewError(f"{where}: field 'flavor' = '{j['flavor']}' is not one of {choices(C.FLAVOR_KINDS)}")
            fl = C.FLAVOR_KINDS.index(j["flavor"])
        else:
            fl = -1
        check_range(j["min"], 0, 20, where, "min")
        check_range(j["recipes"], 0, 4, where, "recipes")
        check_range(j["reputation"], 0, 20, where, "reputation")
        rows.append([kind, fl, j["min"], j["reputation"], j["recipes"]])
    return [j["id"] for j in js], [j["name"] for j in js], np.array(rows, np.int64), file_estimate(node, file) + entry_estimates(js, file)


def _slots(slots, where):
    if not 1 <= len(slots) <= C.MAX_SLOTS or not all(isinstance(x, int) and 1 <= x <= 6 for x in slots):
        raise BrewError(f"{where}: field 'slots' must list 1-{C.MAX_SLOTS} levels of 1..6")
    return [len(slots)] + list(slots) + [0] * (C.MAX_SLOTS - len(slots))


def _parse_chars(tree):
    file = "characters.toml"
    raw, node = _list(tree, "characters", "character", extra=("standard",))
    req = {"id": str, "name": str, "power": str, "slots": list}
    cs = [check_entry(e, f"{file}: character {e.get('id', i)!r}", req, {}) for i, e in enumerate(raw)]
    check_unique_ids(cs, file)
    if [c["id"] for c in cs] != list(C.CHARACTERS):
        raise BrewError(f"{file}: characters must be {choices(C.CHARACTERS)} in this order")
    rows = []
    for c in cs:
        where = f"{file}: character '{c['id']}'"
        if POWERS.get(c["power"]) != C.CHARACTERS.index(c["id"]):
            raise BrewError(f"{where}: field 'power' = '{c['power']}' is not this character's power")
        rows.append(_slots(c["slots"], where))
    st = check_entry(node.get("standard"), f"{file}: [standard]", {"name": str, "slots": list}, {})
    rows.append(_slots(st["slots"], f"{file}: [standard]"))
    ests = entry_estimates(cs, file)
    if "estimate" in st:
        ests.append({"file": file, "entry": "standard", "why": st["estimate"]})
    return np.array(rows, np.int64), [c["name"] for c in cs] + [st["name"]], ests


def _parse_charlie(tree):
    file = "charlie.toml"
    raw, node = _list(tree, "charlie", "card")
    cs = [check_entry(e, f"{file}: card {e.get('id', i)!r}", {"id": str, "advance": dict}, {}) for i, e in enumerate(raw)]
    check_unique_ids(cs, file)
    if len(cs) != C.N_CHARLIE:
        raise BrewError(f"{file}: {len(cs)} cards listed, Charlie has {C.N_CHARLIE}")
    arr = np.zeros((C.N_CHARLIE, C.N_RECIPES), np.int64)
    for k, c in enumerate(cs):
        where = f"{file}: card '{c['id']}'"
        for r, v in c["advance"].items():
            if r not in C.RECIPES:
                raise BrewError(f"{where}: advance names '{r}', not one of {choices(C.RECIPES)}")
            if not isinstance(v, int) or isinstance(v, bool):
                raise BrewError(f"{where}: advance.{r} must be an integer")
            check_range(v, 1, 12, where, f"advance.{r}")
            arr[k, C.RECIPES.index(r)] = v
        if arr[k].sum() == 0:
            raise BrewError(f"{where}: advances no recipe")
    return arr, [c["id"] for c in cs], file_estimate(node, file) + entry_estimates(cs, file)


def _parse_params(tree):
    file = "params.toml"
    node = tree.get("params", {})
    for key in node:
        if key not in ("params", "medals", "estimates"):
            raise BrewError(f"{file}: unknown table '{key}'; valid tables are params, medals, estimates")
    raw = node.get("params")
    if not isinstance(raw, dict):
        raise BrewError(f"{file}: missing [params] table")
    p = check_entry(raw, f"{file}: [params]", {n: int for n in C.PARAM_NAMES}, {})
    where = f"{file}: [params]"
    for n in C.PARAM_NAMES:
        check_range(p[n], 0, 100, where, n)
    check_range(p["standard_tile"], 0, 1, where, "standard_tile")
    check_range(p["use_characters"], 0, 1, where, "use_characters")
    check_range(p["start_flavor_cards"], 0, 4, where, "start_flavor_cards")
    faces = sum(p[f"face_{a}"] for a in C.ACTIONS)
    if faces != 6:
        raise BrewError(f"{where}: the face_* counts add up to {faces}, a die has 6 faces")
    names = ("summer_23", "october_23", "summer_4", "october_4", "summer_5", "october_5")
    med = check_entry(node.get("medals"), f"{file}: [medals]", {n: list for n in names}, {})
    medals = np.zeros((3, 2, C.N_PLACES), np.int64)
    for k, n in enumerate(names):
        v = med[n]
        if len(v) != 4 or not all(isinstance(x, int) and 0 <= x <= 30 for x in v):
            raise BrewError(f"{file}: [medals]: field '{n}' must list 4 reputations (gold, silver, bronze, honorable) of 0..30")
        medals[k // 2, k % 2] = v
    ests = node.get("estimates", {})
    for key in ests:
        if key not in C.PARAM_NAMES and key not in names:
            raise BrewError(f"{file}: [estimates] names unknown parameter '{key}'")
    return np.array([p[n] for n in C.PARAM_NAMES], np.int64), medals, \
        [{"file": file, "entry": k, "why": v} for k, v in ests.items()]


def _parse_policies(tree):
    pols, kinds, weights, estimates = parse_policies(tree, C.POLICY_KINDS, C.WEIGHT_NAMES)
    return [p["id"] for p in pols], kinds, weights, estimates


def build_config(data: GameData) -> HomebrewersConfig:
    known = {"params", "variants", "policies", "flavor_cards", "events", "quality_tiles", "judges", "characters",
             "charlie"}
    for stem in data.tree:
        if stem not in known:
            raise BrewError(f"{stem}.toml: unknown data file for homebrewers; expected {choices(sorted(known))}")
    params, medals, e0 = _parse_params(data.tree)
    cids, cnames, cards, bn, phys, e1 = _parse_cards(data.tree)
    eids, enames, events, e2 = _parse_events(data.tree)
    tiles, board, e3 = _parse_tiles(data.tree)
    jids, jnames, judges, e4 = _parse_judges(data.tree)
    chars, char_names, e5 = _parse_chars(data.tree)
    charlie, ch_ids, e6 = _parse_charlie(data.tree)
    pids, kinds, weights, e7 = _parse_policies(data.tree)
    return HomebrewersConfig(
        params=params, card_ids=cids, card_names=cnames, cards=cards, bottom_n=bn, phys=phys,
        event_ids=eids, event_names=enames, events=events, tiles=tiles, board=board,
        judge_ids=jids, judge_names=jnames, judges=judges, chars=chars, char_names=char_names,
        charlie=charlie, charlie_ids=ch_ids, medals=medals, policy_ids=pids, policy_kind=kinds,
        policy_weights=weights, estimates=e0 + e1 + e2 + e3 + e4 + e5 + e6 + e7,
        standard=bool(params[C.P_STANDARD_TILE]) or not bool(params[C.P_USE_CHARACTERS]),
    )
