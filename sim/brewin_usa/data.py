"""Brewin' USA data: the TOML tree of data/games/brewin_usa/ -> validated NumPy arrays.

Every value comes from the data files (after variant and user overrides); the rules code
holds no numbers of its own. Validation is strict: a typo stops the run with a message
naming the file, entry and field.
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


@dataclass
class BrewinConfig:
    """Everything a kernel needs, as arrays, plus the names for logging."""

    params: np.ndarray  # float64[len(PARAM_NAMES)]
    ing_ids: list[str]
    ing_names: list[str]
    ing: np.ndarray  # int64[T, 3]: kind, quality, count
    ing_kq: np.ndarray  # int64[N_KINDS, MAX_Q + 1]: ingredient type of (kind, quality) or -1
    beer_ids: list[str]
    beer_names: list[str]
    beer: np.ndarray  # int64[B, N_BF]: style, quality, 4 recipe qualities, required adjunct kind, count
    beer_phys: np.ndarray  # int64[36]: beer type of each physical beer card
    city_ids: list[str]
    city_names: list[str]
    city: np.ndarray  # int64[12, 2]: region, preferred style
    policy_ids: list[str]
    policy_kind: np.ndarray
    policy_weights: np.ndarray
    estimates: list[dict]

    def policy_index(self, name: str) -> int:
        return self.policy_ids.index(name)


def _list(tree: dict, file_stem: str, key: str) -> tuple[list, dict]:
    node = tree.get(file_stem, {})
    raw = node.get(key)
    if not isinstance(raw, list) or not raw:
        raise BrewError(f"{file_stem}.toml: expected a list of [[{key}]] tables")
    extra = [k for k in node if k not in (key, "estimate")]
    if extra:
        raise BrewError(f"{file_stem}.toml: unknown top-level key '{extra[0]}'; valid keys are {key}, estimate")
    return raw, node


def _parse_ingredients(tree: dict, params: dict):
    file = "ingredient_cards.toml"
    raw, node = _list(tree, "ingredient_cards", "card")
    req = {"id": str, "name": str, "kind": str, "quality": int, "count": int}
    cards = [check_entry(e, f"{file}: card {e.get('id', i)!r}", req, {}) for i, e in enumerate(raw)]
    check_unique_ids(cards, file)
    kq = np.full((C.N_KINDS, C.MAX_Q + 1), -1, np.int64)
    for t, c in enumerate(cards):
        where = f"{file}: card '{c['id']}'"
        if c["kind"] not in C.KINDS:
            raise BrewError(f"{where}: kind '{c['kind']}' is not one of {choices(C.KINDS)}")
        check_range(c["quality"], 1, C.MAX_Q, where, "quality")
        check_range(c["count"], 0, C.INGREDIENT_DECK, where, "count")
        k = C.KINDS.index(c["kind"])
        if kq[k, c["quality"]] >= 0:
            raise BrewError(f"{where}: a second card of kind '{c['kind']}' and quality {c['quality']}; merge their counts")
        kq[k, c["quality"]] = t
    total = sum(c["count"] for c in cards)
    if total != C.INGREDIENT_DECK:
        raise BrewError(f"{file}: card counts add up to {total}, the ingredient deck has {C.INGREDIENT_DECK}")
    if len(cards) > C.SCRATCH:
        raise BrewError(f"{file}: at most {C.SCRATCH} distinct cards (kind, quality) are supported")
    q = params["start_organic_quality"]
    starter = kq[C.ORGANIC, q] if 1 <= q <= C.MAX_Q else -1
    need = params["start_organic"] * C.MAX_PLAYERS
    if starter < 0 or cards[starter]["count"] < need:
        raise BrewError(f"{file}: the setup deals {params['start_organic']} Organic cards of quality {q} to "
                        f"each of up to {C.MAX_PLAYERS} players; the deck needs at least {need} of them")
    ing = np.array([[C.KINDS.index(c["kind"]), c["quality"], c["count"]] for c in cards], np.int64)
    return [c["id"] for c in cards], [c["name"] for c in cards], ing, kq, file_estimate(node, file) + entry_estimates(cards, file)


def _parse_beers(tree: dict):
    file = "beer_cards.toml"
    raw, node = _list(tree, "beer_cards", "beer")
    req = {"id": str, "name": str, "style": str, "quality": int, "grain": int, "water": int, "hops": int,
           "yeast": int, "count": int}
    beers = [check_entry(e, f"{file}: beer {e.get('id', i)!r}", req, {"adjunct": (str, "none")})
             for i, e in enumerate(raw)]
    check_unique_ids(beers, file)
    adjuncts = ("none",) + C.KINDS[C.BERRY:]
    rows = []
    for b in beers:
        where = f"{file}: beer '{b['id']}'"
        if b["id"] in ("batch", "neutral"):
            raise BrewError(f"{where}: the id '{b['id']}' is reserved in the event log (ingredient batches, "
                            "the neutral card of a remove treatment)")
        if b["style"] not in C.STYLES:
            raise BrewError(f"{where}: style '{b['style']}' is not one of {choices(C.STYLES)}")
        if b["adjunct"] not in adjuncts:
            raise BrewError(f"{where}: adjunct '{b['adjunct']}' is not one of {choices(adjuncts)}")
        check_range(b["quality"], 0, 50, where, "quality")
        for slot in ("grain", "water", "hops", "yeast"):
            check_range(b[slot], 1, C.MAX_Q, where, slot)
        check_range(b["count"], 0, C.BEER_DECK, where, "count")
        adj = C.ADJ_NONE if b["adjunct"] == "none" else C.KINDS.index(b["adjunct"])
        rows.append([C.STYLES.index(b["style"]), b["quality"], b["grain"], b["water"], b["hops"], b["yeast"],
                     adj, b["count"]])
    total = sum(b["count"] for b in beers)
    if total != C.BEER_DECK:
        raise BrewError(f"{file}: beer counts add up to {total}, the beer deck has {C.BEER_DECK}")
    beer = np.array(rows, np.int64)
    phys = np.repeat(np.arange(len(beers)), beer[:, C.BF_COUNT]).astype(np.int64)
    return ([b["id"] for b in beers], [b["name"] for b in beers], beer, phys,
            file_estimate(node, file) + entry_estimates(beers, file))


def _parse_cities(tree: dict):
    file = "cities.toml"
    raw, node = _list(tree, "cities", "city")
    req = {"id": str, "name": str, "region": str, "prefers": str}
    cities = [check_entry(e, f"{file}: city {e.get('id', i)!r}", req, {}) for i, e in enumerate(raw)]
    check_unique_ids(cities, file)
    if len(cities) != C.N_CITIES:
        raise BrewError(f"{file}: {len(cities)} cities listed, the game has {C.N_CITIES} city tiles")
    for c in cities:
        where = f"{file}: city '{c['id']}'"
        if c["region"] not in C.REGIONS:
            raise BrewError(f"{where}: region '{c['region']}' is not one of {choices(C.REGIONS)}")
        if c["prefers"] not in C.STYLES:
            raise BrewError(f"{where}: prefers '{c['prefers']}' is not one of {choices(C.STYLES)}")
    city = np.array([[C.REGIONS.index(c["region"]), C.STYLES.index(c["prefers"])] for c in cities], np.int64)
    return [c["id"] for c in cities], [c["name"] for c in cities], city, file_estimate(node, file) + entry_estimates(cities, file)


def _parse_params(tree: dict):
    file = "params.toml"
    node = tree.get("params", {})
    raw = node.get("params")
    if not isinstance(raw, dict):
        raise BrewError(f"{file}: missing [params] table")
    p = check_entry(raw, f"{file}: [params]", {name: int for name in C.PARAM_NAMES}, {})
    where = f"{file}: [params]"
    for name in C.PARAM_NAMES:
        check_range(p[name], 0, 1000, where, name)
    check_range(p["batch_max"], 2, C.MAX_BATCH, where, "batch_max")
    check_range(p["brewfest_cards"], 0, C.MAX_COMMIT, where, "brewfest_cards")
    check_range(p["colored_caps"], 1, C.BEER_DECK, where, "colored_caps")
    check_range(p["beer_hand"], 1, C.MAX_BEER_HAND, where, "beer_hand")
    check_range(p["max_rounds"], 1, 200, where, "max_rounds")
    check_range(p["cities_removed_small"], 0, 2, where, "cities_removed_small")
    check_range(p["quality_purchase"], C.BUY_POINT, C.BUY_INGREDIENT, where, "quality_purchase")
    if p["start_caps"] * C.MAX_PLAYERS > p["total_uncolored"]:
        raise BrewError(f"{where}: start_caps x {C.MAX_PLAYERS} players exceeds total_uncolored")
    if p["redraw_max"] > p["beer_hand"]:
        raise BrewError(f"{where}: redraw_max exceeds beer_hand")
    ests = node.get("estimates", {})
    for key in ests:
        if key not in C.PARAM_NAMES:
            raise BrewError(f"{file}: [estimates] names unknown parameter '{key}'")
    for key in node:
        if key not in ("params", "estimates"):
            raise BrewError(f"{file}: unknown table '{key}'; valid tables are params, estimates")
    params = np.array([float(p[name]) for name in C.PARAM_NAMES], np.float64)
    return p, params, [{"file": file, "entry": k, "why": v} for k, v in ests.items()]


def _parse_policies(tree: dict):
    pols, kinds, weights, estimates = parse_policies(tree, C.POLICY_KINDS, C.WEIGHT_NAMES)
    for p in pols:
        check_range(p["bid_share"], 0.0, 5.0, f"policies.toml: policy '{p['id']}'", "bid_share")
    return [p["id"] for p in pols], kinds, weights, estimates


def build_config(data: GameData) -> BrewinConfig:
    """Validate the data tree and turn it into kernel arrays."""
    known = {"params", "variants", "policies", "ingredient_cards", "beer_cards", "cities"}
    for stem in data.tree:
        if stem not in known:
            raise BrewError(f"{stem}.toml: unknown data file for brewin_usa; expected {choices(sorted(known))}")
    pdict, params, est_p = _parse_params(data.tree)
    ing_ids, ing_names, ing, kq, est_i = _parse_ingredients(data.tree, pdict)
    beer_ids, beer_names, beer, phys, est_b = _parse_beers(data.tree)
    city_ids, city_names, city, est_c = _parse_cities(data.tree)
    pol_ids, kinds, weights, est_pol = _parse_policies(data.tree)
    return BrewinConfig(
        params=params, ing_ids=ing_ids, ing_names=ing_names, ing=ing, ing_kq=kq,
        beer_ids=beer_ids, beer_names=beer_names, beer=beer, beer_phys=phys,
        city_ids=city_ids, city_names=city_names, city=city,
        policy_ids=pol_ids, policy_kind=kinds, policy_weights=weights,
        estimates=est_p + est_i + est_b + est_c + est_pol,
    )
