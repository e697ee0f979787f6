"""`--format json`: every verdict record and every table of an analysis result, in one file.

The verdicts are the analysis's own `Verdict` records (analysis/records.py), so the JSON says
exactly what the HTML and PDF say; the tables are every polars table of the result, row by
row, under their field names (nested results are prefixed: `rounds.comeback`,
`extras.brawls`, `arms.tony.metrics`). The schema is documented in the README
("Machine-readable results").
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

import polars as pl

from analysis.core import FAMILY as LEAD_FAMILY
from analysis.core import FAMILY_DEFINITION as LEAD_FAMILY_DEFINITION
from analysis.records import Document, Verdict

SOURCE_KEYS = ("game", "variant", "overrides", "policies", "player_counts", "seed", "n_games",
               "options", "command", "created", "versions", "data_hashes", "until_decided")


def source_of(manifest: dict, run_dir: str | None = None) -> dict:
    """What was run: the manifest's identifying keys (no shard list or card catalogue)."""
    source = {k: manifest[k] for k in SOURCE_KEYS if k in manifest}
    source["estimated_values"] = len(manifest.get("estimates") or [])
    if run_dir is not None:
        source["run_dir"] = str(run_dir)
    return source


def tables_of(result, prefix: str = "") -> dict[str, list[dict]]:
    """Every non-empty polars table reachable from a result dataclass (fields, dicts of tables,
    nested dataclasses), as lists of row dicts keyed by their dotted field path."""
    found: dict[str, list[dict]] = {}
    for f in dataclasses.fields(result):
        _collect(getattr(result, f.name), prefix + f.name, found)
    return found


def _collect(value, name: str, found: dict) -> None:
    if isinstance(value, pl.DataFrame):
        if not value.is_empty():
            found[name] = value.to_dicts()
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect(item, f"{name}.{key}", found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        found.update(tables_of(value, name + "."))


def families_of(verdicts: list[Verdict]) -> dict[str, str]:
    """Each multiplicity family named by the records: its definition, and how many records."""
    sizes: dict[str, int] = {}
    for v in verdicts:
        if v.family:
            sizes[v.family] = sizes.get(v.family, 0) + 1
    return {name: (LEAD_FAMILY_DEFINITION if name == LEAD_FAMILY else
                   "Holm within this table, unless the name says otherwise (sequential rules name "
                   "their own)") + f" ({size} records here; other families are separate)"
            for name, size in sizes.items()}


def _document(command: str, source: dict, verdicts: list[Verdict], tables: dict,
              notes: list[str]) -> Document:
    return Document(command=command, source=source, verdicts=list(verdicts), tables=tables,
                    families=families_of(verdicts), notes=list(notes))


@dataclass
class ReportDocument(Document):
    """A Document with the first screen of the report as well: `glance` (the cells,
    first-player advantage and sentences of the glance view) and `changes` (every value
    that differs from the shipped data), right after `source`."""

    glance: dict = field(default_factory=dict)
    changes: list[dict] = field(default_factory=list)

    def to_json(self) -> str:
        doc = json.loads(super().to_json())
        ordered = {}
        for key, value in doc.items():
            ordered[key] = value
            if key == "source":
                ordered["glance"] = self.glance
                ordered["changes"] = self.changes
        return json.dumps(ordered, indent=1, allow_nan=False, default=str) + "\n"


def run_document(a) -> Document:
    """`report RUN --format json`: a RunAnalysis, with its glance view."""
    from reports import glance

    tables = tables_of(a)
    tables.pop("manifest", None)
    base = _document("report", source_of(a.manifest, a.run_dir), a.records, tables,
                     [f"band: fair share 1/n +/- {a.band:g}"] + list(a.verdicts))
    g = glance.build(a)
    return ReportDocument(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)},
                          glance=g.to_dict(), changes=g.changes)


def compare_document(c) -> Document:
    """`compare A B --format json`: a Comparison, with the values either run changed."""
    from reports.build import compare_change_rows

    source = {"run_a": source_of(c.manifest_a, c.run_a), "run_b": source_of(c.manifest_b, c.run_b),
              "band": c.band, "paired_games": c.n_paired}
    base = _document("compare", source, c.records, {"metrics": c.metrics.to_dicts()}, c.verdicts)
    return ReportDocument(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)},
                          changes=compare_change_rows(c))


def experiment_document(e) -> Document:
    """`experiment --format json`: every arm against the reference."""
    verdicts, tables = [], {}
    for arm in e.arms:
        verdicts += arm.records
        tables[f"arms.{arm.name}.metrics"] = arm.comparison.metrics.to_dicts()
    source = {"reference": e.reference, "reference_change": e.reference_change,
              "arms": {arm.name: arm.change for arm in e.arms}, "band": e.band}
    return _document("experiment", source, verdicts, tables, e.verdicts)


def sweep_document(s) -> Document:
    """`sweep --format json`: one arm per parameter value."""
    source = {"key": s.key, "unit": s.kind, "values": [arm.value for arm in s.arms],
              "runs": [arm.run_dir for arm in s.arms]}
    tables = {"shape": s.shape_table().to_dicts(), "units": s.units_table().to_dicts()}
    return _document("sweep", source, s.records, tables, s.verdicts)


def robustness_document(r, arms: list[tuple[str, str]]) -> Document:
    """`robustness --format json`: rankings per bot setting and the conclusions that flip."""
    source = {"unit": r.kind, "band": r.band, "arms": dict(arms)}
    return _document("robustness", source, getattr(r, "records", []), tables_of(r), r.verdicts)


def sensitivity_document(s, settings: dict) -> Document:
    """`sensitivity --format json`: every (verdict, estimate) effect, the labels, the ranking."""
    verdicts = [Verdict(kind=f"sensitivity of {r['kind']}", unit=f"{r['unit']} / {r['estimate']}",
                        n_players=r["n_players"], estimate=r["diff"], ci_low=r["lo"], ci_high=r["hi"],
                        n=r["n"], n_unit="paired games", p_adjusted=r["p_holm"],
                        family=f"estimates of {r['kind']} {r['n_players']}p {r['unit']}",
                        metric="high arm - low arm", note="rests on it" if r["influential"] else None)
                for r in s.ranked.to_dicts()]
    tables = {"labels": s.labels.to_dicts(), "influence": s.influence.to_dicts(), "estimates": s.estimates}
    return _document("sensitivity", settings, verdicts, tables,
                     [*s.verdicts, *(f"screened out: {g}" for g in s.screened_out),
                      *(f"skipped: {x}" for x in s.skipped)])


INJECTION_AGAINST = {
    "blank": "kinds card_injection_vs_blank_*: the treated seat given the card minus the same seat of the same "
             "game given the blank card (neutral) instead; what the card itself is worth (the headline)",
    "untreated": "kinds card_injection_*: the treated seat given the card minus the same seat of the untreated "
                 "game; includes what one more card in hand is worth (unit neutral: the blank card's own value)",
}


def causal_document(r) -> Document:
    """`cards` / `powers --format json` (and `report` on such a folder): the causal values,
    the association beside them, and every arm."""
    source = {"game": r.game, "reference": r.reference, "paired": r.paired,
              "arms": {name: source_of(m) for name, m in r.manifests}, "treatments": r.notes}
    if "reference" in r.injection.columns and r.injection.height:
        source["injection_against"] = {ref: INJECTION_AGAINST[ref] for ref in r.injection["reference"].unique(
            maintain_order=True)}
    tables = {name: df.to_dicts() for name, df in (("cards", r.cards), ("injection", r.injection),
                                                    ("removal", r.removal), ("powers", r.powers),
                                                    ("itt", r.itt), ("association", r.association))
              if not df.is_empty()}
    return _document(r.command, source, r.records, tables, r.verdicts)


def strength_document(s) -> Document:
    """`strength --format json`: win share per budget and player count, where search stops improving."""
    source = {"candidate": s.candidate, "opponent": s.opponent,
              "arms": [source_of(m) for m in s.manifests]}
    return _document("strength", source, s.records, {"share": s.share.to_dicts(), "stops": s.stops.to_dicts()},
                     s.verdicts)


def ladder_document(lad, rungs: list[tuple[str, str]]) -> Document:
    """`robustness --ladder --format json`: rates by rung, verdicts across skill, power use."""
    source = {"game": lad.game, "variant": lad.variant, "unit": lad.kind, "band": lad.band,
              "rungs": dict(rungs), "power_note": lad.power_note}
    tables = {name: df.to_dicts() for name, df in (("rates", lad.rates), ("across", lad.across),
                                                    ("taus", lad.taus), ("power", lad.power),
                                                    ("power_flags", lad.power_flags))}
    return _document("robustness --ladder", source, [], tables, lad.verdicts)
