"""Report page of the causal commands, `cards` and `powers` (and `report` on their folders).

Same page model and order as the other multi-arm reports: the verdict lines, what each
treatment does in this game, the evidence (every value labelled causal or association), then
the provenance of every arm, the estimated data values and the note on bots.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from reports import _write, build, charts
from reports.experiments import closing_sections
from reports.formatting import pp, signed
from reports.model import Bullets, Chart, Column, Page, Paragraph, Section, Table

if TYPE_CHECKING:
    from analysis.causal import CausalResult

PAIRING = ("Every treated arm plays the untreated arm's games: same seed and player counts, so the "
           "same deal and dice in game i. A causal value is the mean of the game-by-game "
           "differences with a paired t interval; Holm runs across the cards (or factions) of one "
           "player count and one measure.")


def _with_ci(show, key):
    return lambda r: ("" if r.get(key) is None else
                      f"{show(r[key])} [{show(r[key + '_lo'])}, {show(r[key + '_hi'])}]")


def _label(r: dict, key: str) -> str:
    """A card or faction with its player count, e.g. "barmaid (3p)": one narrow column."""
    return f"{r[key]} ({r['n_players']}p)"


def _cards_tables(cards: pl.DataFrame) -> list[Table]:
    """The side-by-side values in two tables (a PDF page holds four interval columns)."""
    rows = build._rows(cards, label=lambda r: _label(r, "card"), blank_win_t=_with_ci(pp, "blank_win"),
                       blank_score_t=_with_ci(signed, "blank_score"), inject_win_t=_with_ci(pp, "inject_win"),
                       removal_t=lambda r: "" if r.get("removal") is None else
                       f"{r['removal_unit']}: {_with_ci(pp, 'removal')(r)}",
                       itt_t=_with_ci(pp, "itt"), assoc_t=_with_ci(pp, "assoc"))
    injection = Table([
        Column("label", "card (players)"), Column("blank_win_t", "vs blank card: win share [95%]"),
        Column("blank_score_t", "vs blank card: score [95%]"), Column("inject_win_t", "vs untreated: win share [95%]"),
    ], rows, caption="Injection. vs blank card = causal (injection against the blank card on paired seeds): "
                     "the treated seat given the card minus the same seat of the same game given the "
                     "blank card instead, what the card itself is worth (the headline); vs untreated = "
                     "causal (injection on paired seeds): the same seat given the card minus the game "
                     "without it, which adds what one more card in hand is worth (the blank card's own "
                     "row, 'neutral'). n = paired games.")
    others = Table([
        Column("label", "card (players)"), Column("removal_t", "removal: most moved [95%]"),
        Column("itt_t", "ITT: offered - not [95%]"), Column("assoc_t", "association [95%]"),
    ], [r for r in rows if r["removal_t"] or r["itt_t"] or r["assoc_t"]],  # the blank has none of them
        caption="Which is which: removal = causal (removal on paired seeds), the seat or faction whose win rate "
                "moves most when every copy is replaced by a blank card; ITT = causal ITT "
                "(randomised offer), seats dealt the card at setup minus the others, n = seats, "
                "game-clustered interval; association = the card table's holders minus others, "
                "which mixes the card's effect with who ends up playing it (not a cause).")
    return [injection, others]


def _injection_caption(reference: str, measure: str) -> str:
    what = "win share" if measure == "win" else "score"
    if reference == "blank":
        return (f"Injection against the blank card, treated seat's {what}: the arm giving the card minus "
                "the arm giving the blank card, same seat, same game; what the card itself is worth. "
                "n = paired games (one treated seat per game); Holm across cards.")
    return (f"Injection against the untreated game, treated seat's {what}: inject arm minus untreated, "
            "same seat, same game; includes what one more card in hand is worth (the blank card's "
            "row). n = paired games (one treated seat per game).")


def _stat_columns(first: list[Column], level: str, diff: str, n_label: str,
                  reference: str = "untreated", treated: str = "treated") -> list[Column]:
    """Columns of a paired table: the two arms' levels (`level` format: a rate in %, a score)
    and their difference (`diff` format: pp for rates)."""
    return [*first, Column("n", n_label, "int"), Column("value_a", reference, level),
            Column("value_b", treated, level), Column("diff", "difference", diff),
            Column("ci", "95% interval"), Column("p_holm", "p (Holm)", "p")]


def _ci_rows(df: pl.DataFrame, show, key: str = "card") -> list[dict]:
    return build._rows(df, ci=lambda r: "" if r["lo"] is None else f"{show(r['lo'])} to {show(r['hi'])}",
                       label=lambda r: _label(r, key))


def card_blocks(r: CausalResult) -> list:
    blocks = []
    if not r.cards.is_empty():
        blocks += [Chart(charts.causal_vs_association(r.cards),
                         "Per card and player count, in win rate: grey = association (card table), "
                         "blue = causal injection against the blank card (the card's own value), "
                         "light blue = injection against the untreated game (n = paired games), "
                         "red = causal ITT (n = seats dealt the card, game-clustered). Bar = 95% "
                         "interval."),
                   *_cards_tables(r.cards)]
    for reference, against in (("blank", "blank card"), ("untreated", "untreated")):
        for measure, show, level, diff in (("win", pp, "pct", "pp"), ("score", signed, "num", "signed")):
            rows = r.injection.filter((pl.col("measure") == measure) & (pl.col("reference") == reference))
            if rows.height:
                blocks.append(Table(
                    _stat_columns([Column("label", "card (players)")], level, diff, "paired games",
                                  reference=against),
                    _ci_rows(rows, show), caption=_injection_caption(reference, measure)))
    if r.removal.height:
        blocks.append(Table(_stat_columns([Column("label", "card (players)"), Column("unit_kind", "of"),
                                           Column("unit", "seat / faction")],
                                          "pct", "pp", "paired games"), _ci_rows(r.removal, pp),
                            caption="Removal: win rate with every copy replaced by a blank card minus "
                                    "untreated, paired by game (n = paired games); a faction's rate is "
                                    "its wins per seat. Holm across cards and units of one player count."))
    if r.itt.height:
        blocks.append(Table([Column("label", "card (players)"), Column("offered", "seats offered", "int"), Column("games", "games", "int"),
                             Column("rate_offered", "win rate offered", "pct"),
                             Column("rate_not", "not offered", "pct"), Column("diff", "difference", "pp"),
                             Column("ci", "95% interval"), Column("p_holm", "p (Holm)", "p")],
                            _ci_rows(r.itt, pp),
                            caption="Randomised offer (ITT) from the untreated run: seats dealt the card "
                                    "before any decision minus the others. n = seats offered; the "
                                    "interval is clustered by game (seats of one game share its win)."))
    return blocks


def power_blocks(r: CausalResult) -> list:
    blocks = []
    if r.powers.filter(pl.col("n") > 0).height:
        blocks.append(Chart(charts.power_forest(r.powers),
                            "Power value = faction's per-seat win rate untreated minus with its power "
                            "switched off, paired by game; bar = 95% interval (red: significant after "
                            "Holm across factions), n = paired games."))
    for measure, show, level, diff in (("win", pp, "pct", "pp"), ("score", signed, "num", "signed")):
        rows = r.powers.filter(pl.col("measure") == measure)
        blocks.append(Table(_stat_columns([Column("label", "faction (players)")], level, diff, "paired games",
                                          treated="power off"),
                            _ci_rows(rows.rename({"value_a": "value_b", "value_b": "value_a"}), show, "faction"),
                            caption=f"Power value in {'per-seat win rate' if measure == 'win' else 'mean score'}: "
                                    "untreated (power on) minus power off; n = paired games the faction "
                                    "sat in (0: never seated at that count, not estimable)."))
    return blocks


def causal_page(r: CausalResult) -> Page:
    notes = [f"{kind}: {text}" for kind, text in r.notes.items()]
    evidence = card_blocks(r) if r.command == "cards" else power_blocks(r)
    sections = [Section("Verdict", "verdict", [Bullets(list(r.verdicts), css="verdicts"), Paragraph(PAIRING)]),
                Section("What the treatments do in this game", "treatments", [Bullets(notes or ["(none listed)"])]),
                Section("Evidence", "evidence", evidence)]
    sections += closing_sections(r.manifests)
    what = "Causal card value" if r.command == "cards" else "Power value (restricted play)"
    return Page(f"{what}: {r.game}", f"{len(r.manifests)} arms on a shared seed; reference {r.reference}",
                sections)


def write_causal(r: CausalResult, html_path, pdf_path) -> list[Path]:
    return _write(causal_page(r), html_path, pdf_path)
