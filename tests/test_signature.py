"""The bench signature: rules, data, bots and RNG changes must be deliberate.

If this fails after an intended change, run `brewbalance bench --signature --write` and say in
the commit message that the signature changed and why."""

import json
from pathlib import Path

from sim.core.signature import game_signature, signatures
from sim.registry import games

COMMITTED = json.loads((Path(__file__).parent / "golden" / "signatures.json").read_text())


def test_every_game_has_a_committed_signature():
    assert set(COMMITTED) == set(games())


def test_signatures_match_the_committed_values():
    assert signatures() == COMMITTED


def test_signature_changes_when_a_rule_value_changes(monkeypatch):
    from sim.core import signature as sig

    game = games()["dwarfest"]
    original = sig.prepare

    def with_limit_6(game_id, variant, sets, files):
        return original(game_id, variant, [*sets, "dwarfest.brawl_limit=6"], files)

    monkeypatch.setattr(sig, "prepare", with_limit_6)
    assert game_signature(game) != COMMITTED["dwarfest"]
