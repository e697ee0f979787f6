"""Dragon Brew data: the TOML tree of data/games/dragon_brew/ -> a validated DragonConfig.

Every number comes from the data files (after variant and user overrides); the rules code
holds no numbers of its own. Validation is strict: a typo stops the run with a message
naming the file, entry and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sim.core.config import GameData
from sim.core.errors import BrewError, choices
from sim.core.validate import check_entry, check_range, check_unique_ids

from . import constants as C
from .state import POL_KINDS, WEIGHTS

NEUTRAL_ID = "neutral"  # the blank Brewery card of the `remove` treatment (state.neutral_brewery_row)
DECK_SIZES = {"brewery_cards": 68, "event_cards": 68, "barrel": 30, "spice": 72, "judges": 30, "corrupt": 6}
# The box's 36 judge cards (rulebook component list) include the 6 corrupt ones: the base setup
# removes the Bribe judges from that deck, leaving 30 regular judges.


@dataclass
class DragonConfig:
    params: dict
    races: list[dict]
    abilities: dict[str, dict]
    brewery: list[dict]
    events: list[dict]
    recipes: list[dict]
    judges: list[dict]
    policies: list[dict]
    estimates: list[dict]

    @property
    def race_ids(self) -> list[str]:
        return [r["id"] for r in self.races]

    @property
    def policy_ids(self) -> list[str]:
        return [p["id"] for p in self.policies]

    @cached_property
    def planner_recipes(self) -> tuple:
        """Recipe arrays for the planner's compiled beer search: chars int64[n, 3], vp, gold,
        need ids int64[n, w] (-1 padded) with their count, is-barrel bool."""
        n, w = len(self.recipes), max(len(r["need_idx"]) for r in self.recipes)
        need = np.full((n, w), -1, np.int64)
        for i, r in enumerate(self.recipes):
            need[i, :len(r["need_idx"])] = r["need_idx"]
        return (np.array([r["chars"] for r in self.recipes], np.int64).reshape(n, 3),
                np.array([r["vp"] for r in self.recipes], np.int64),
                np.array([r["gold"] for r in self.recipes], np.int64), need,
                np.array([len(r["need_idx"]) for r in self.recipes], np.int64),
                np.array([r["deck"] == "barrel" for r in self.recipes], np.bool_))

    def card_ids(self) -> list[str]:
        """Every id an events row may name in its `card` column."""
        return ([c["id"] for c in self.brewery] + [c["id"] for c in self.events] + list(C.ABILITIES)
                + [j["id"] for j in self.judges] + [r["id"] for r in self.recipes]
                + list(C.COMMON) + ["draft_pool", NEUTRAL_ID])


def _entries(tree: dict, stem: str, key: str) -> tuple[list[dict], list[dict]]:
    node = tree.get(stem)
    if not isinstance(node, dict):
        raise BrewError(f"{stem}.toml: missing file")
    extra = [k for k in node if k not in (key, "estimate")]
    if extra:
        raise BrewError(f"{stem}.toml: unknown top-level key '{extra[0]}'; valid keys are {key}, estimate")
    raw = node.get(key)
    if not isinstance(raw, list) or not raw:
        raise BrewError(f"{stem}.toml: expected a list of [[{key}]] tables")
    est = []
    if "estimate" in node:
        if not isinstance(node["estimate"], str):
            raise BrewError(f"{stem}.toml: 'estimate' must be a string")
        est.append({"file": f"{stem}.toml", "entry": "all entries", "why": node["estimate"]})
    return raw, est


def _one_of(value, allowed, where, field):
    if value not in allowed:
        raise BrewError(f"{where}: field '{field}' = {value!r} is not one of {choices(list(allowed))}")


def _check(raw, stem, key, req, opt):
    out = [check_entry(e, f"{stem}.toml: {key} {e.get('id', i)!r}" if isinstance(e, dict) else f"{stem}.toml: {key} {i}",
                       req, opt) for i, e in enumerate(raw)]
    check_unique_ids(out, f"{stem}.toml")
    return out


def one_point_per_card(recipes: list[dict]) -> None:
    """The printed-beer scale (params.char_scale = 1): each recipe card carries one point, in its
    strongest characteristic as written; a tie goes to the characteristic its deck has fewest
    points in so far (file order), so no characteristic gains from the tie rule."""
    given = {"barrel": [0, 0, 0], "spice": [0, 0, 0]}
    for r in recipes:
        written, seen = r["chars_as_written"], given[r["deck"]]
        top = max(written)
        k = min((c for c in range(3) if written[c] == top), key=lambda c: seen[c])
        seen[k] += 1
        r["chars"] = tuple(int(c == k) for c in range(3))


# The integer fields of [params] in params.toml.
PARAM_INTS = ("years", "draft_row", "offering_row", "clear_draft_cost", "clear_draft_n", "clear_offering_cost",
              "study_draw", "base_beers", "extra_gold_2nd", "extra_gold_3rd", "extra_gold_4th", "gnome_limit",
              "judges_extra", "shadow_judges", "corrupt_removed", "tie_min_vp", "max_spices", "wort_per_mash",
              "char_scale")


def build_config(data: GameData) -> DragonConfig:
    """The validated game data, one part per file; `est` collects the estimates in file order."""
    tree = data.tree
    est: list[dict] = []
    params = _params(tree, est)
    abilities = _abilities(tree, est)
    races = _races(tree, abilities, est)
    brewery = _brewery_cards(tree, est)
    events = _event_cards(tree, est)
    recipes = _recipes(tree, params, est)
    judges = _judges(tree, est)
    pols = _policies(tree)
    return DragonConfig(params=params, races=races, abilities=abilities, brewery=brewery, events=events,
                        recipes=recipes, judges=judges, policies=pols, estimates=est)


def _params(tree: dict, est: list[dict]) -> dict:
    """params.toml: the [params] table, checked field by field, and its estimates."""
    pnode = tree.get("params", {})
    extra = [k for k in pnode if k not in ("params", "estimates")]
    if extra:
        raise BrewError(f"params.toml: unknown top-level key '{extra[0]}'; valid keys are params, estimates")
    params = dict(pnode.get("params", {}))
    _check_param_ints(params)
    _check_param_switches(params)
    unknown = set(params) - set(PARAM_INTS) - {"corrupt_judge", "infinite"}
    if unknown:
        raise BrewError(f"params.toml: [params] unknown field '{sorted(unknown)[0]}'")
    check_range(params["years"], 1, 10, "params.toml: [params]", "years")
    check_range(params["max_spices"], 1, 4, "params.toml: [params]", "max_spices")
    check_range(params["char_scale"], 0, 1, "params.toml: [params]", "char_scale")
    for k, why in pnode.get("estimates", {}).items():
        est.append({"file": "params.toml", "entry": k, "why": why})
    return params


def _check_param_ints(params: dict) -> None:
    """Every integer field of [params] is present and a non-negative integer."""
    for k in PARAM_INTS:
        if k not in params:
            raise BrewError(f"params.toml: [params] missing field '{k}'")
        if not isinstance(params[k], int) or isinstance(params[k], bool) or params[k] < 0:
            raise BrewError(f"params.toml: [params] field '{k}' must be a non-negative integer, got {params[k]!r}")


def _check_param_switches(params: dict) -> None:
    """corrupt_judge and [params.infinite] (which common action cards are infinite) are booleans."""
    if not isinstance(params.get("corrupt_judge"), bool):
        raise BrewError("params.toml: [params] field 'corrupt_judge' must be true or false")
    inf = params.get("infinite")
    if not isinstance(inf, dict) or set(inf) != {"study", "brewery", "grain_fields", "magic_trader", "mash_house"}:
        raise BrewError("params.toml: [params.infinite] must set study, brewery, grain_fields, magic_trader, mash_house")
    for k, v in inf.items():
        if not isinstance(v, bool):
            raise BrewError(f"params.toml: [params.infinite] field '{k}' must be true or false")


def _abilities(tree: dict, est: list[dict]) -> dict:
    """abilities.toml: every race ability the rules implement, by id."""
    raw, e = _entries(tree, "abilities", "ability")
    est += e
    abil = _check(raw, "abilities", "ability", {"id": str, "name": str, "use": str},
                  {"gold": (int, 0), "n": (int, 0), "own_brewer_only": (bool, False)})
    for a in abil:
        w = f"abilities.toml: ability '{a['id']}'"
        _one_of(a["id"], C.ABILITIES, w, "id")
        _one_of(a["use"], C.ABILITY_USES, w, "use")
        if "estimate" in a:
            est.append({"file": "abilities.toml", "entry": a["id"], "why": a["estimate"]})
    missing = set(C.ABILITIES) - {a["id"] for a in abil}
    if missing:
        raise BrewError(f"abilities.toml: missing ability '{sorted(missing)[0]}'")
    abilities = {a["id"]: a for a in abil}
    return abilities


def _races(tree: dict, abilities: dict, est: list[dict]) -> list[dict]:
    """races.toml: the races, each naming one of `abilities`."""
    raw, e = _entries(tree, "races", "race")
    est += e
    ireq = {k: int for k in ("difficulty", "min_players", "max_players", "brewers", "wheat", "rye", "barley",
                             "gold", "barrel", "spice", "grain_yield", "mash_mult", "trader_mult", "trader_cost",
                             "study_max", "stores", "lacks", "extra_beers")}
    races = _check(raw, "races", "race", {"id": str, "name": str, "ability": str, **ireq}, {})
    for r in races:
        w = f"races.toml: race '{r['id']}'"
        _one_of(r["ability"], abilities, w, "ability")
        check_range(r["difficulty"], 1, 3, w, "difficulty")
        check_range(r["min_players"], C.MIN_PLAYERS, C.MAX_PLAYERS, w, "min_players")
        check_range(r["max_players"], r["min_players"], C.MAX_PLAYERS, w, "max_players")
        check_range(r["brewers"], 1, 7, w, "brewers")
        check_range(r["lacks"], 0, len(C.COMMON), w, "lacks")
        for k in ireq:
            check_range(r[k], 0, 50, w, k)
        if "estimate" in r:
            est.append({"file": "races.toml", "entry": r["id"], "why": r["estimate"]})
    if len(races) < C.MAX_PLAYERS:
        raise BrewError(f"races.toml: at least {C.MAX_PLAYERS} races are needed")
    return races


def _brewery_cards(tree: dict, est: list[dict]) -> list[dict]:
    """brewery_cards.toml: the Brewery deck (its counts add up to the printed deck)."""
    raw, e = _entries(tree, "brewery_cards", "card")
    est += e
    brewery = _check(raw, "brewery_cards", "card",
                     {"id": str, "name": str, "kind": str, "effect": str, "cost": int, "count": int},
                     {"target": (str, ""), "amount": (int, 0), "infinite": (bool, False), "ingredient": (str, ""),
                      "spell_cost": (str, ""), "spell_n": (int, 0)})
    for c in brewery:
        w = f"brewery_cards.toml: card '{c['id']}'"
        _one_of(c["kind"], C.BREWERY_KINDS, w, "kind")
        _one_of(c["effect"], C.BREWERY_EFFECTS, w, "effect")
        check_range(c["cost"], 0, 20, w, "cost")
        check_range(c["count"], 0, 68, w, "count")
        if c["kind"] == "upgrade":
            _one_of(c["target"], C.UPGRADE_TARGETS, w, "target")
        if c["kind"] == "action":
            _one_of(c["ingredient"], C.INGS, w, "ingredient")
        if c["kind"] == "spell":
            _one_of(c["spell_cost"], list(C.INGS) + list(C.CLASSES), w, "spell_cost")
        if "estimate" in c:
            est.append({"file": "brewery_cards.toml", "entry": c["id"], "why": c["estimate"]})
    n = sum(c["count"] for c in brewery)
    if n != DECK_SIZES["brewery_cards"]:
        raise BrewError(f"brewery_cards.toml: counts add up to {n}, the Brewery deck has {DECK_SIZES['brewery_cards']}")
    return brewery


def _event_cards(tree: dict, est: list[dict]) -> list[dict]:
    """event_cards.toml: the Event deck (its counts add up to the printed deck)."""
    raw, e = _entries(tree, "event_cards", "card")
    est += e
    events = _check(raw, "event_cards", "card", {"id": str, "name": str, "kind": str, "count": int},
                    {"cost": (int, 0), "brewer": (bool, False), "pay_kind": (str, ""), "pay_n": (int, 0),
                     "gain_kind": (str, ""), "gain_n": (int, 0), "gain_gold": (int, 0), "gain_vp": (int, 0),
                     "gain_gnomes": (int, 0), "gain_recipes": (int, 0)})
    for c in events:
        w = f"event_cards.toml: card '{c['id']}'"
        _one_of(c["kind"], C.EVENT_KINDS, w, "kind")
        _one_of(c["gain_kind"], C.GAIN_KINDS, w, "gain_kind")
        _one_of(c["pay_kind"], ("",) + tuple(C.CLASSES), w, "pay_kind")
        if "estimate" in c:
            est.append({"file": "event_cards.toml", "entry": c["id"], "why": c["estimate"]})
    n = sum(c["count"] for c in events)
    if n != DECK_SIZES["event_cards"]:
        raise BrewError(f"event_cards.toml: counts add up to {n}, the Event deck has {DECK_SIZES['event_cards']}")
    return events


def _recipes(tree: dict, params: dict, est: list[dict]) -> list[dict]:
    """recipes.toml: the barrel and spice recipes, with ingredient indices and the characteristics
    on the scale params.char_scale picks."""
    raw, e = _entries(tree, "recipes", "recipe")
    est += e
    recipes = _check(raw, "recipes", "recipe", {"id": str, "name": str, "deck": str, "needs": list, "color": int,
                                                 "strength": int, "bitterness": int, "vp": int, "gold": int}, {})
    for r in recipes:
        w = f"recipes.toml: recipe '{r['id']}'"
        _one_of(r["deck"], ("barrel", "spice"), w, "deck")
        if not r["needs"]:
            raise BrewError(f"{w}: field 'needs' must list at least one ingredient")
        for x in r["needs"]:
            _one_of(x, C.INGS[:9], w, "needs")
        r["need_idx"] = [C.ING_INDEX[x] for x in r["needs"]]
        r["chars"] = r["chars_as_written"] = (r["color"], r["strength"], r["bitterness"])
    if params["char_scale"] == 1:
        one_point_per_card(recipes)
    for deck in ("barrel", "spice"):
        n = sum(1 for r in recipes if r["deck"] == deck)
        if n != DECK_SIZES[deck]:
            raise BrewError(f"recipes.toml: {n} {deck} recipes, the deck has {DECK_SIZES[deck]}")
    return recipes


def _judges(tree: dict, est: list[dict]) -> list[dict]:
    """judges.toml: regular and corrupt judges, with their characteristics as indices and signs."""
    raw, e = _entries(tree, "judges", "judge")
    est += e
    judges = _check(raw, "judges", "judge", {"id": str, "name": str, "primary": str, "primary_dir": str,
                                             "secondary": str, "secondary_dir": str, "vp": int, "corrupt": bool}, {})
    for j in judges:
        w = f"judges.toml: judge '{j['id']}'"
        _one_of(j["primary"], C.CHARS, w, "primary")
        _one_of(j["primary_dir"], C.DIRS, w, "primary_dir")
        _one_of(j["secondary_dir"], C.DIRS, w, "secondary_dir")
        if j["corrupt"]:
            _one_of(j["secondary"], ("bribe",), w, "secondary")
        else:
            _one_of(j["secondary"], C.CHARS, w, "secondary")
        check_range(j["vp"], 1, 10, w, "vp")
        j["p"] = C.CHARS.index(j["primary"])
        j["pd"] = 1 if j["primary_dir"] == "high" else -1
        j["s"] = C.BRIBE if j["corrupt"] else C.CHARS.index(j["secondary"])
        j["sd"] = 1 if j["secondary_dir"] == "high" else -1
    n_reg = sum(1 for j in judges if not j["corrupt"])
    n_cor = sum(1 for j in judges if j["corrupt"])
    if n_reg != DECK_SIZES["judges"] or n_cor != DECK_SIZES["corrupt"]:
        raise BrewError(f"judges.toml: {n_reg} regular and {n_cor} corrupt judges; the game has "
                        f"{DECK_SIZES['judges']} and {DECK_SIZES['corrupt']} (36 judge cards in all)")
    return judges


def _policies(tree: dict) -> list[dict]:
    """policies.toml: the bots and their weights, each with a copy of the shared [yields] table."""
    node = tree.get("policies", {})
    raw = node.get("policy")
    if not isinstance(raw, list) or not raw:
        raise BrewError("policies.toml: expected a list of [[policy]] tables")
    wkeys = WEIGHTS
    pols = _check(raw, "policies", "policy", {"id": str, "kind": str, "name": str, "about": str,
                                              **{k: float for k in wkeys}}, {})
    for p in pols:
        _one_of(p["kind"], tuple(POL_KINDS), f"policies.toml: policy '{p['id']}'", "kind")
    extra = [k for k in node if k not in ("policy", "yields")]
    if extra:
        raise BrewError(f"policies.toml: unknown top-level key '{extra[0]}'; valid keys are policy, yields")
    yields = node.get("yields", {})
    for k in list(C.BREWERY_EFFECTS) + ["gain_once"]:
        if not isinstance(yields.get(k), (int, float)) or isinstance(yields.get(k), bool):
            raise BrewError(f"policies.toml: [yields] field '{k}' must be a number")
    for k in yields:
        if k not in C.BREWERY_EFFECTS and k != "gain_once":
            raise BrewError(f"policies.toml: [yields] unknown field '{k}'")
    for p in pols:
        p["yields"] = {k: float(v) for k, v in yields.items()}
    return pols
