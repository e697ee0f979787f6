"""Dwarfest data: the TOML tree of data/games/dwarfest/ -> validated NumPy arrays.

Every value comes from the data files (after variant and user overrides); the rules code
holds no numbers of its own. Validation is strict: a typo stops the run with a message
naming the file, entry and field.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from sim.core.config import GameData
from sim.core.errors import BrewError, choices
from sim.core.validate import check_entry, check_range, check_unique_ids, parse_policies

from . import constants as C

TAVERN_DECK_SIZE = 61
CUSTOMER_DECK_SIZE = 54
NEUTRAL = "neutral"  # id of the blank card the remove treatment puts in a removed card's places


@dataclass
class Cards:
    """Tavern card types as parallel arrays (index = card type)."""

    ids: list[str]
    names: list[str]
    categories: list[str]
    cost: np.ndarray
    cat: np.ndarray
    stackable: np.ndarray
    count: np.ndarray
    income: np.ndarray
    fame: np.ndarray
    brawl: np.ndarray
    seats: np.ndarray
    bar_skill: np.ndarray
    bouncer: np.ndarray
    harmful: np.ndarray
    event: np.ndarray
    amount: np.ndarray


@dataclass
class DwarfestConfig:
    """Everything a kernel needs, as arrays, plus the names for logging."""

    params: np.ndarray  # float64[len(PARAM_NAMES)]
    cards: Cards
    customer_dwarves: np.ndarray  # int64[54]: the dwarves on each Customer card
    fame_cards: np.ndarray  # int64[fame_max + 1]: Customer cards drawn at each Fame
    policy_ids: list[str]
    policy_kind: np.ndarray  # int64[n_policies]
    policy_weights: np.ndarray  # float64[n_policies, len(WEIGHT_NAMES)]
    estimates: list[dict]

    def policy_index(self, name: str) -> int:
        return self.policy_ids.index(name)


_CARD_REQUIRED = {"id": str, "name": str, "category": str, "cost": int, "stackable": bool, "count": int}
_CARD_OPTIONAL = {
    "income": (int, 0), "fame": (int, 0), "brawl": (int, 0), "seats": (int, 0),
    "bar_skill": (float, 0.0), "bouncer": (bool, False), "harmful": (bool, False),
    "event": (str, "none"), "amount": (int, 0),
}


def _parse_cards(tree: dict) -> tuple[Cards, list[dict]]:
    file = "tavern_cards.toml"
    raw = tree.get("tavern_cards", {}).get("card")
    if not isinstance(raw, list) or not raw:
        raise BrewError(f"{file}: expected a list of [[card]] tables")
    cards = [check_entry(e, f"{file}: card {e.get('id', i)!r}", _CARD_REQUIRED, _CARD_OPTIONAL)
             for i, e in enumerate(raw)]
    check_unique_ids(cards, file)
    for c in cards:
        where = f"{file}: card '{c['id']}'"
        if c["category"] not in C.CATEGORIES:
            raise BrewError(f"{where}: category '{c['category']}' is not one of {choices(C.CATEGORIES)}")
        if c["event"] not in C.EVENT_KINDS:
            raise BrewError(f"{where}: event '{c['event']}' is not one of {choices(C.EVENT_KINDS[1:])}")
        if (c["category"] == "event") != (c["event"] != "none"):
            raise BrewError(f"{where}: event cards, and only they, need an 'event' kind")
        check_range(c["cost"], 0, 20, where, "cost")
        check_range(c["count"], 0, TAVERN_DECK_SIZE, where, "count")
        check_range(c["bar_skill"], -1.0, 1.0, where, "bar_skill")
    total = sum(c["count"] for c in cards)
    if total != TAVERN_DECK_SIZE:
        raise BrewError(f"{file}: card counts add up to {total}, the Tavern deck has {TAVERN_DECK_SIZE}")

    def col(key, dtype=np.int64):
        return np.array([c[key] for c in cards], dtype=dtype)

    out = Cards(
        ids=[c["id"] for c in cards], names=[c["name"] for c in cards],
        categories=[c["category"] for c in cards],
        cost=col("cost"), cat=np.array([C.CATEGORIES.index(c["category"]) for c in cards], np.int64),
        stackable=col("stackable"), count=col("count"), income=col("income"), fame=col("fame"),
        brawl=col("brawl"), seats=col("seats"), bar_skill=col("bar_skill", np.float64),
        bouncer=col("bouncer"), harmful=col("harmful"),
        event=np.array([C.EVENT_KINDS.index(c["event"]) for c in cards], np.int64),
        amount=col("amount"),
    )
    estimates = [{"file": file, "entry": c["id"], "why": c["estimate"]} for c in cards if "estimate" in c]
    return with_neutral(out), estimates


def with_neutral(cards: Cards) -> Cards:
    """The Tavern cards plus the neutral card, last: a blank Object with no effect and count 0,
    so it is never in the deck unless the remove treatment puts it in a removed card's places
    (state.make_rules then gives it that card's cost, category and stacking)."""
    labels = {"ids": NEUTRAL, "names": "Neutral card (blank)", "categories": "object"}
    out = {}
    for f in fields(Cards):
        column = getattr(cards, f.name)
        if isinstance(column, list):
            out[f.name] = [*column, labels[f.name]]
        else:
            out[f.name] = np.append(column, C.CAT_OBJECT if f.name == "cat" else 0).astype(column.dtype)
    return Cards(**out)


def _parse_customers(tree: dict) -> tuple[np.ndarray, list[dict]]:
    file = "customer_cards.toml"
    node = tree.get("customer_cards", {})
    raw = node.get("card")
    if not isinstance(raw, list) or not raw:
        raise BrewError(f"{file}: expected a list of [[card]] tables")
    req = {"id": str, "name": str, "dwarves": int, "count": int}
    cards = [check_entry(e, f"{file}: card {e.get('id', i)!r}", req, {}) for i, e in enumerate(raw)]
    check_unique_ids(cards, file)
    for c in cards:
        check_range(c["dwarves"], 0, 20, f"{file}: card '{c['id']}'", "dwarves")
        check_range(c["count"], 0, CUSTOMER_DECK_SIZE, f"{file}: card '{c['id']}'", "count")
    total = sum(c["count"] for c in cards)
    if total != CUSTOMER_DECK_SIZE:
        raise BrewError(f"{file}: card counts add up to {total}, the Customer deck has {CUSTOMER_DECK_SIZE}")
    dwarves = np.repeat([c["dwarves"] for c in cards], [c["count"] for c in cards]).astype(np.int64)
    estimates = [{"file": file, "entry": "all cards", "why": node["estimate"]}] if "estimate" in node else []
    return dwarves, estimates


def _parse_params(tree: dict) -> tuple[np.ndarray, list[dict]]:
    file = "params.toml"
    node = tree.get("params", {})
    raw = node.get("params")
    if not isinstance(raw, dict):
        raise BrewError(f"{file}: missing [params] table")
    req = {name: (bool if name in ("alcoholic", "everyone_drinks_on_waste") else int) for name in C.PARAM_NAMES}
    p = check_entry(raw, f"{file}: [params]", req, {})
    for name in C.PARAM_NAMES:
        if name not in ("alcoholic", "everyone_drinks_on_waste", "brawl_limit") and p[name] < 0:
            raise BrewError(f"{file}: [params] field '{name}' = {p[name]} must not be negative")
    check_range(p["evenings"], 1, 50, f"{file}: [params]", "evenings")
    check_range(p["beers_per_barrel"], 1, 50, f"{file}: [params]", "beers_per_barrel")
    check_range(p["hand_size"], 0, 20, f"{file}: [params]", "hand_size")
    check_range(p["fame_max"], 1, 200, f"{file}: [params]", "fame_max")
    params = np.array([float(p[name]) for name in C.PARAM_NAMES], np.float64)
    ests = node.get("estimates", {})
    for key in ests:
        if key not in C.PARAM_NAMES:
            raise BrewError(f"{file}: [estimates] names unknown parameter '{key}'")
    estimates = [{"file": file, "entry": k, "why": v} for k, v in ests.items()]
    return params, estimates


def _parse_fame_table(tree: dict, fame_max: int) -> tuple[np.ndarray, list[dict]]:
    file = "fame_table.toml"
    node = tree.get("fame_table", {})
    bands = node.get("band")
    if not isinstance(bands, list) or not bands:
        raise BrewError(f"{file}: expected a list of [[band]] tables")
    bands = [check_entry(b, f"{file}: band {i}", {"from": int, "cards": int}, {}) for i, b in enumerate(bands)]
    if bands[0]["from"] != 0:
        raise BrewError(f"{file}: the first band must start at Fame 0")
    table = np.zeros(fame_max + 1, np.int64)
    for i, band in enumerate(bands):
        if i and band["from"] <= bands[i - 1]["from"]:
            raise BrewError(f"{file}: band {i} 'from' must increase")
        check_range(band["cards"], 0, C.MAX_DRAWN // 2, f"{file}: band {i}", "cards")
        table[min(band["from"], fame_max + 1):] = band["cards"]
    estimates = [{"file": file, "entry": "all bands", "why": node["estimate"]}] if "estimate" in node else []
    return table, estimates


def _parse_policies(tree: dict) -> tuple[list[str], np.ndarray, np.ndarray, list[dict]]:
    pols, kinds, weights, estimates = parse_policies(tree, C.POLICY_KINDS, C.WEIGHT_NAMES)
    for p in pols:
        check_range(p["bar_skill"], 0.0, 1.0, f"policies.toml: policy '{p['id']}'", "bar_skill")
    return [p["id"] for p in pols], kinds, weights, estimates


def build_config(data: GameData) -> DwarfestConfig:
    """Validate the data tree and turn it into kernel arrays."""
    params, est_p = _parse_params(data.tree)
    cards, est_c = _parse_cards(data.tree)
    customers, est_u = _parse_customers(data.tree)
    fame_cards, est_f = _parse_fame_table(data.tree, int(params[C.P_FAME_MAX]))
    pol_ids, kinds, weights, est_pol = _parse_policies(data.tree)
    return DwarfestConfig(
        params=params, cards=cards, customer_dwarves=customers, fame_cards=fame_cards,
        policy_ids=pol_ids, policy_kind=kinds, policy_weights=weights,
        estimates=est_p + est_f + est_u + est_c + est_pol,
    )
