"""analysis/causal.py on synthetic arms with a known truth: no false alarms beyond the nominal
rate on a null (injection and randomised offer), the sign and size of a planted effect, Holm
across cards, power value's "not estimable", and the records' labels."""

import numpy as np
import polars as pl
import pytest

from analysis import causal
from analysis.paired import Units
from analysis.stats import holm

N_PLAYERS = 3


def _players(winners: np.ndarray, scores: np.ndarray, factions=None) -> pl.DataFrame:
    games, n = scores.shape
    seat = np.tile(np.arange(n), games)
    return pl.DataFrame({
        "game_id": np.repeat(np.arange(games), n), "n_players": np.full(games * n, n),
        "seat": seat, "faction": (np.tile(factions, games) if factions is not None else ["none"] * (games * n)),
        "score": scores.ravel(), "win": (seat == np.repeat(winners, n)).astype(float)})


def _units(winners, scores, treated=None, factions=None) -> Units:
    games = scores.shape[0]
    treated = np.full(games, -1) if treated is None else treated
    return Units(players=_players(winners, scores, factions),
                 games=pl.DataFrame({"game_id": np.arange(games), "n_players": np.full(games, scores.shape[1]),
                                     "treated_seat": treated}))


def injection_pair(rng, games: int, lift: float, diverge: float = 0.5):
    """An untreated arm and an inject arm on shared deals: a share `diverge` of the games play
    out differently (re-drawn); in those the treated seat wins with 1/n + lift."""
    winners = rng.integers(0, N_PLAYERS, games)
    scores = rng.integers(10, 40, (games, N_PLAYERS))
    return _units(winners, scores), arm_on(rng, winners, scores, lift, diverge)


def arm_on(rng, winners, scores, lift: float, diverge: float = 0.5) -> Units:
    """An inject arm on the untreated games (winners, scores): a share `diverge` of them re-drawn,
    the treated seat (game index mod n) winning those with 1/n + lift."""
    n, games = N_PLAYERS, scores.shape[0]
    treated = np.arange(games) % n
    redrawn = rng.random(games) < diverge
    p_treated = 1 / n + lift
    new_winner = np.where(rng.random(games) < p_treated, treated,
                          (treated + rng.integers(1, n, games)) % n)
    arm_winners = np.where(redrawn, new_winner, winners)
    arm_scores = np.where(redrawn[:, None], rng.integers(10, 40, (games, n)), scores)
    arm_scores[np.arange(games), treated] += np.where(redrawn, round(lift * 20), 0)
    return _units(arm_winners, arm_scores, treated)


def test_injection_false_positive_rate_on_a_null_is_nominal():
    rng = np.random.default_rng(1)
    rejected = []
    for _ in range(1000):
        base, arm = injection_pair(rng, 150, lift=0.0)
        df = causal.injection_effect(base, arm)
        rejected.append(df.filter(pl.col("measure") == "win")["p_value"][0] < 0.05)
    # 1000 tests at 5%: sd 0.7 pp; [2.5%, 7.5%] fails by chance far less than 1 in 1000.
    assert 0.025 < np.mean(rejected) < 0.075


def test_injection_recovers_a_planted_effect_with_its_sign_and_size():
    rng = np.random.default_rng(2)
    base, arm = injection_pair(rng, 3000, lift=0.3, diverge=0.5)
    df = causal.injection_effect(base, arm)
    win = df.filter(pl.col("measure") == "win").to_dicts()[0]
    assert win["lo"] > 0 and win["lo"] < 0.15 < win["hi"]  # true effect 0.5 x 0.3 = 0.15
    assert win["n"] == 3000
    score = df.filter(pl.col("measure") == "score").to_dicts()[0]
    assert score["lo"] > 0


def test_injection_pairs_the_treated_seat_with_the_same_seat_untreated():
    # Two games; the treated seat wins in the arm where seat 0 won untreated.
    scores = np.array([[5, 4, 3], [5, 4, 3]])
    base = _units(np.array([0, 0]), scores)
    arm = _units(np.array([1, 2]), scores + np.array([[0, 3, 0], [0, 0, 1]]), treated=np.array([1, 2]))
    win = causal.injection_effect(base, arm).filter(pl.col("measure") == "win").to_dicts()[0]
    assert win["value_a"] == 0 and win["value_b"] == 1 and win["diff"] == 1
    score = causal.injection_effect(base, arm).filter(pl.col("measure") == "score").to_dicts()[0]
    assert score["diff"] == pytest.approx(2.0)


def test_injection_table_applies_holm_across_cards_within_a_player_count():
    rng = np.random.default_rng(3)
    base, strong = injection_pair(rng, 400, lift=0.3)
    _, null_a = injection_pair(rng, 400, lift=0.0)
    arms = {"strong": strong, "plain": null_a}
    df = causal.injection_table(base, arms).filter(pl.col("measure") == "win")
    assert df["p_holm"].to_list() == pytest.approx(list(holm(df["p_value"].to_numpy())))
    assert df.filter(pl.col("card") == "strong")["significant"][0]


def blank_study(rng, games: int, card_lift: float, extra_card_cost: float = -0.12):
    """Untreated games plus inject arms of the blank card and of a card; one more card in hand
    costs `extra_card_cost` by itself, the card adds `card_lift` on top of that."""
    winners = rng.integers(0, N_PLAYERS, games)
    scores = rng.integers(10, 40, (games, N_PLAYERS))
    arms = {"card": arm_on(rng, winners, scores, extra_card_cost + card_lift),
            causal.BLANK: arm_on(rng, winners, scores, extra_card_cost)}
    return causal.injection_table(_units(winners, scores), arms).filter(pl.col("measure") == "win")


def test_against_the_blank_card_an_effect_free_card_has_a_nominal_false_positive_rate():
    rng = np.random.default_rng(11)
    against_blank, against_untreated = [], []
    for _ in range(400):
        df = blank_study(rng, 150, card_lift=0.0)
        row = {r["reference"]: r for r in df.filter(pl.col("card") == "card").to_dicts()}
        against_blank.append(row["blank"]["p_value"] < 0.05)
        against_untreated.append(row["untreated"]["diff"])
    # 400 tests at 5%: sd 1.1 pp, so [1.5%, 9%] fails by chance far less than 1 in 1000
    assert 0.015 < np.mean(against_blank) < 0.09
    assert np.mean(against_untreated) < -0.04  # the extra card's own cost, which the blank takes out


def test_against_the_blank_card_a_planted_card_keeps_its_sign_and_size():
    df = blank_study(np.random.default_rng(12), 3000, card_lift=0.3)
    blank = df.filter((pl.col("card") == "card") & (pl.col("reference") == "blank")).to_dicts()[0]
    assert blank["lo"] > 0 and blank["lo"] < 0.15 < blank["hi"]  # true effect 0.5 x 0.3
    assert set(df.filter(pl.col("card") == causal.BLANK)["reference"]) == {"untreated"}  # no blank - blank row


def offers_and_cells(rng, games: int, cards: int, lift: float):
    """Setup offers drawn at random (each seat, each card, 30%); the winner drawn with weight
    1 + lift x (offers of card 0) per seat."""
    n = N_PLAYERS
    offered = rng.random((games, n, cards)) < 0.3
    weight = 1 + lift * offered[:, :, 0]
    winners = np.array([rng.choice(n, p=w / w.sum()) for w in weight])
    win = (np.arange(n)[None, :] == winners[:, None]).astype(float)
    g, s, c = np.nonzero(offered)
    rows = pl.DataFrame({"card": [f"c{k}" for k in c], "game_id": g, "n_players": np.full(g.size, n),
                         "n1": np.ones(g.size), "s1": win[g, s]})
    cells = pl.DataFrame({"game_id": np.arange(games), "n_players": np.full(games, n),
                          "N": np.full(games, float(n)), "S": win.sum(axis=1)})
    return rows, cells


def test_itt_false_positive_rate_on_a_null_is_nominal():
    rng = np.random.default_rng(4)
    p = []
    for _ in range(400):
        offered, cells = offers_and_cells(rng, 200, cards=5, lift=0.0)
        p += causal.itt_from_cells(offered, cells)["p_value"].to_list()
    # 2000 tests at 5%: sd 0.5 pp; [3%, 7%] is four of them either side.
    assert len(p) == 2000
    assert 0.03 < np.mean(np.array(p) < 0.05) < 0.07


def test_itt_recovers_a_planted_offer_effect_and_holm_spares_the_null_cards():
    rng = np.random.default_rng(5)
    offered, cells = offers_and_cells(rng, 3000, cards=4, lift=1.0)
    df = causal.itt_from_cells(offered, cells)
    planted = df.filter(pl.col("card") == "c0").to_dicts()[0]
    assert planted["lo"] > 0.05 and planted["significant"]
    assert planted["rate_offered"] > planted["rate_not"]
    assert df["p_holm"].to_list() == pytest.approx(list(holm(df["p_value"].to_numpy())))
    assert (df["p_holm"] >= df["p_value"]).all()


def test_itt_interval_is_game_clustered_wider_than_a_binomial_one():
    # Offered to every seat of half the games: within-game contrast is nil, so
    # clustering must not shrink the interval below an independent-seats one.
    rng = np.random.default_rng(6)
    offered, cells = offers_and_cells(rng, 2000, cards=1, lift=0.0)
    r = causal.itt_from_cells(offered, cells).to_dicts()[0]
    assert r["hi"] > r["lo"] and r["games"] == 2000


def test_power_value_is_untreated_minus_power_off_and_not_estimable_where_never_seated():
    rng = np.random.default_rng(7)
    games = 2000
    factions = np.array(["elf", "orc", "gnome"])
    scores = rng.integers(10, 40, (games, 3))
    winners = rng.integers(0, 3, games)
    base = _units(winners, scores, factions=factions)
    # Switching off the elf's power: in half the games the elf's win goes to seat 1.
    lose = (winners == 0) & (rng.random(games) < 0.5)
    arm_scores = scores.copy()
    arm_scores[:, 0] -= 5
    arm = _units(np.where(lose, 1, winners), arm_scores, factions=factions)
    df = causal.power_table(base, {"elf": arm}, [3, 4])
    win3 = df.filter((pl.col("measure") == "win") & (pl.col("n_players") == 3)).to_dicts()[0]
    assert win3["lo"] > 0 and win3["diff"] == pytest.approx(lose.mean(), abs=1e-9)
    score3 = df.filter((pl.col("measure") == "score") & (pl.col("n_players") == 3)).to_dicts()[0]
    assert score3["diff"] == pytest.approx(5.0)
    records = causal.power_records(df)
    four = [r for r in records if r.n_players == 4]
    assert {r.verdict for r in four} == {"not_estimable"} and "never seated" in four[0].note


def test_removal_moves_the_seat_that_held_the_advantage():
    rng = np.random.default_rng(8)
    games = 2000
    scores = rng.integers(10, 40, (games, 3))
    winners = rng.integers(0, 3, games)
    moved = (winners == 2) & (rng.random(games) < 0.4)
    base, arm = _units(winners, scores), _units(np.where(moved, 0, winners), scores)
    df = causal.removal_table(base, {"keg": arm})
    seat2 = df.filter(pl.col("unit") == "2").to_dicts()[0]
    assert seat2["hi"] < 0 and seat2["unit_kind"] == "seat"
    assert set(df["unit_kind"]) == {"seat"}  # a symmetric game has no faction rows
    assert df["p_holm"].to_list() == pytest.approx(list(holm(df["p_value"].to_numpy())))


def test_records_say_which_value_is_causal():
    rng = np.random.default_rng(9)
    base, arm = injection_pair(rng, 300, lift=0.2)
    inj = causal.injection_records(causal.injection_table(base, {"keg": arm}))
    assert {r.kind for r in inj} == {"card_injection_win", "card_injection_score"}
    assert all(r.note == causal.INJECTION and r.n_unit == "paired games" for r in inj)
    _, blank = injection_pair(rng, 300, lift=0.0)
    both = causal.injection_records(causal.injection_table(base, {"keg": arm, causal.BLANK: blank}))
    vs_blank = [r for r in both if r.kind.startswith("card_injection_vs_blank")]
    assert {r.unit for r in vs_blank} == {"keg"} and all(r.note == causal.INJECTION_VS_BLANK for r in vs_blank)
    offered, cells = offers_and_cells(rng, 300, cards=2, lift=0.0)
    itt = causal.itt_records(causal.itt_from_cells(offered, cells))
    assert all(r.kind == "card_itt" and r.note.startswith(causal.ITT) for r in itt)


def test_removal_in_a_game_with_factions_stacks_seat_and_faction_rows():
    # seat rows come from paired_stats, faction rows from faction_ratio_stats: both in one table
    rng = np.random.default_rng(13)
    base, arm = injection_pair(rng, 200, lift=0.0)
    factions = np.array(["ogre", "elf", "dwarf"])
    base = _units(base.players["win"].to_numpy().reshape(200, 3).argmax(1), np.full((200, 3), 10), factions=factions)
    arm = _units(arm.players["win"].to_numpy().reshape(200, 3).argmax(1), np.full((200, 3), 10), factions=factions)
    df = causal.removal_effect(base, arm)
    assert set(df["unit_kind"]) == {"seat", "faction"}
    assert set(df.filter(pl.col("unit_kind") == "faction")["unit"]) == set(factions)
    assert df.schema["n"] == pl.Int64 and (df["n"] == 200).all()


def test_itt_is_bit_identical_from_call_to_call_on_a_big_run():
    # Setup offers of ~1M (card, game) rows with tied win shares: polars' threaded sums used to
    # change the last bits of rate_offered from one call to the next (DESIGN §4).
    rng = np.random.default_rng(7)
    games, n = 250_000, N_PLAYERS
    share = rng.choice([0.0, 1.0, 1 / 2, 1 / 3], (games, n))
    g, s, c = np.nonzero(rng.random((games, n, 4)) < 0.25)
    offered = pl.DataFrame({"card": [f"c{k}" for k in c], "game_id": g, "n_players": np.full(g.size, n),
                            "n1": np.ones(g.size), "s1": share[g, s]})
    cells = pl.DataFrame({"game_id": np.arange(games), "n_players": np.full(games, n),
                          "N": np.full(games, float(n)), "S": share.sum(axis=1)})
    first = causal.itt_from_cells(offered, cells)
    assert first.height == 4
    assert all(causal.itt_from_cells(offered, cells).equals(first) for _ in range(3))
