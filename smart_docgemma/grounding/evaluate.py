"""Citation evaluation: how well the grounding check cites and how many wrong claims it catches.

    python -m smart_docgemma.grounding.evaluate [--split tuned|holdout|all]
        [--charts fixture|synthea|image|all] [--fhir URL] [--cases FILE] [--json]

Each case is an answer about a fixture chart (``fhir_fixtures/``, cut into records exactly as
the chart tool cuts what it reads), about inline source records (a PubMed abstract, a trial,
label sections), or (``chart: synthea``) about a patient of the seed-42 Synthea population,
read by the chart tool itself from the FHIR server at ``--fhir`` (default
``FHIR_UPSTREAM_URL``; load it with ``python -m launch.population URL``), or (``chart: image``)
about the findings an image analysis returned (``image_*.yaml``; ``language``: the answer's).
Per sentence the case
gives the records that support it (``cites``, plus
``also``: records that support it too) and ``supported`` (false: a seeded wrong number or
date; null: not scored). Measured over scored sentences:

- citation precision: citations on supported sentences that name a supporting record;
- citation recall: required records (``cites``) of supported sentences that were cited;
- unsupported caught: seeded wrong sentences marked "not found in the cited record";
- unsupported precision: of the sentences marked unsupported, the share that are wrong;
- false alarms: supported sentences marked unsupported.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from ..errors import DocGemmaError
from ..fhir import FhirGateway
from ..languages import answering
from ..tools.chart.chart import SECTIONS, ChartFetch, chart_data, fetch_chart
from .check import ground
from .evidence import Evidence, from_chart, from_image

DATA = Path(__file__).parent / "data"
FIXTURES = Path(__file__).resolve().parents[2] / "fhir_fixtures"
SPLITS = {
    "tuned": ("citations_tuned.yaml", "citations_synthea_tuned.yaml", "image_tuned.yaml"),
    "holdout": ("citations_holdout.yaml", "citations_synthea_holdout.yaml", "image_holdout.yaml"),
}
DEFAULT_FHIR = "http://127.0.0.1:8080/fhir"


@dataclass
class Score:
    cited: int = 0
    cited_right: int = 0
    required: int = 0
    required_cited: int = 0
    wrong: int = 0
    wrong_caught: int = 0
    right: int = 0
    false_alarms: int = 0
    answers: int = 0

    def figures(self) -> dict:
        ratio = lambda a, b: round(a / b, 3) if b else None  # noqa: E731
        return {
            "answers": self.answers,
            "precision": ratio(self.cited_right, self.cited),
            "recall": ratio(self.required_cited, self.required),
            "unsupported_caught": ratio(self.wrong_caught, self.wrong),
            "unsupported_precision": ratio(
                self.wrong_caught, self.wrong_caught + self.false_alarms
            ),
            "false_alarm_rate": ratio(self.false_alarms, self.right),
            "sentences": self.right + self.wrong,
        }


@lru_cache(maxsize=1)
def _fixture_resources() -> tuple[dict, dict]:
    patients, others = {}, defaultdict(list)
    for path in sorted(FIXTURES.glob("*.json")):
        for entry in json.loads(path.read_text()).get("entry", []):
            res = entry["resource"]
            if res["resourceType"] == "Patient":
                patients[res["id"]] = res
            else:
                others[res["resourceType"]].append(res)
    return patients, others


def chart_records(patient_id: str) -> list[Evidence]:
    """A fixture patient's records as the chart tool would have read them from the EHR."""
    patients, others = _fixture_resources()
    sections = {}
    for key, (rtype, params, *_) in SECTIONS.items():
        items = [r for r in others[rtype] if _about(r, patient_id) and _matches(r, params)]
        sections[key] = items
    return from_chart(
        chart_data(ChartFetch(patients[patient_id], sections, {}, 0.0)), "http://ehr.test/fhir"
    )


def _about(res: dict, patient_id: str) -> bool:
    return any(
        (res.get(k) or {}).get("reference") == f"Patient/{patient_id}"
        for k in ("subject", "patient")
    )


def _matches(res: dict, params: dict) -> bool:
    codes = lambda cc: {c.get("code") for c in (cc or {}).get("coding", [])}  # noqa: E731
    if "category" in params:  # a comma is an OR of categories
        wanted = set(params["category"].split(","))
        return any(wanted & codes(c) for c in res.get("category", []))
    if "clinical-status" in params:
        return params["clinical-status"] in codes(res.get("clinicalStatus"))
    if "status" in params:
        return res.get("status") == params["status"]
    return True


@lru_cache(maxsize=16)
def synthea_records(patient_id: str, fhir_base: str) -> list[Evidence]:
    """A Synthea patient's records, read by the chart tool from the FHIR server."""
    fetch = fetch_chart(FhirGateway(fhir_base, None), patient_id, parallel=False)
    if fetch.unavailable:
        raise RuntimeError(f"{patient_id}: chart sections unread: {fetch.unavailable}")
    return from_chart(chart_data(fetch), fhir_base)


def chart_kind(case: dict) -> str:
    return case.get("chart", "fixture")


def case_records(case: dict, fhir_base: str | None = None) -> list[Evidence]:
    if chart_kind(case) == "synthea":
        base = fhir_base or os.environ.get("FHIR_UPSTREAM_URL") or DEFAULT_FHIR
        return synthea_records(case["patient"], base)
    if chart_kind(case) == "image":
        return from_image(case["image"], 1, "Image analysis")
    if case.get("patient"):
        return chart_records(case["patient"])
    return [Evidence(r["key"], r["label"], None, r.get("date"), r["text"]) for r in case["records"]]


def score_case(case: dict, fhir_base: str | None = None) -> list[dict]:
    """One row per sentence: what the check cited and said, next to the gold."""
    records = case_records(case, fhir_base)
    sentences = case["answer"]
    with answering(case.get("language")):
        done = ground(" ".join(s["text"] for s in sentences), records)
    by_n = {c.n: c.key for c in done.citations}
    if len(done.checks) != len(sentences):
        raise ValueError(
            f"{case['id']}: {len(sentences)} sentences written, {len(done.checks)} read"
        )
    return [
        {
            "case": case["id"],
            "chart": chart_kind(case),
            "text": gold["text"],
            "cited": sorted({_record(by_n[n]) for n in check.cites}),
            "verdict": check.verdict,
            "missing": list(check.missing),
            "gold": gold.get("cites", []),
            "also": gold.get("also", []),
            "supported": gold.get("supported", True),
        }
        for gold, check in zip(sentences, done.checks, strict=False)
    ]


def _record(key: str) -> str:
    if key.startswith("image:"):
        return "image"  # the turn's image findings (the gold names no run number)
    return key if key.startswith("label:") else key.split("#")[0]


def tally(score: Score, row: dict) -> None:
    if row["supported"] is None:
        return
    cited, flagged = set(row["cited"]), row["verdict"] == "unsupported"
    if not row["supported"]:
        score.wrong += 1
        score.wrong_caught += flagged
        return
    gold = set(row["gold"])
    score.cited += len(cited)
    score.cited_right += len(cited & (gold | set(row["also"])))
    score.required += len(gold)
    score.required_cited += len(cited & gold)
    score.right += 1
    score.false_alarms += flagged


def evaluate(cases: list[dict], fhir_base: str | None = None) -> tuple[dict, list[dict]]:
    """Figures over all ``cases`` (and per chart kind under ``by_chart``), and every row."""
    score, rows = Score(), []
    kinds: defaultdict[str, Score] = defaultdict(Score)
    for case in cases:
        score.answers += 1
        kinds[chart_kind(case)].answers += 1
        for row in score_case(case, fhir_base):
            tally(score, row)
            tally(kinds[row["chart"]], row)
            rows.append(row)
    by_chart = {kind: kinds[kind].figures() for kind in sorted(kinds)}
    return {**score.figures(), "by_chart": by_chart}, rows


def load(split: str, path: str | None = None, charts: str = "all") -> list[dict]:
    if path:
        cases = safe_yaml(Path(path).read_text())
    else:
        names = [n for s in SPLITS.values() for n in s] if split == "all" else SPLITS[split]
        cases = [c for f in names for c in safe_yaml((DATA / f).read_text())]
    return [c for c in cases if charts in ("all", chart_kind(c))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m smart_docgemma.grounding.evaluate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--split", choices=("tuned", "holdout", "all"), default="tuned")
    parser.add_argument("--charts", choices=("fixture", "synthea", "image", "all"), default="all",
                        help="only the answers about fixture (and inline source) or Synthea "
                        "charts, or about an image's findings")
    parser.add_argument("--fhir", help="FHIR server holding the Synthea population "
                        f"(default FHIR_UPSTREAM_URL, else {DEFAULT_FHIR})")
    parser.add_argument("--cases", help="a YAML case file instead of the shipped splits")
    parser.add_argument("--json", action="store_true", help="print every sentence's result as JSON")
    args = parser.parse_args(argv)
    try:
        figures, rows = evaluate(load(args.split, args.cases, args.charts), args.fhir)
    except (DocGemmaError, RuntimeError) as exc:
        print(f"error: a Synthea chart could not be read ({exc}); load the population with "
              "python -m launch.population URL, or run --charts fixture", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            if (r["supported"] is False) != (r["verdict"] == "unsupported") and r[
                "supported"
            ] is not None:
                print(
                    f"MISS {r['case']}: {r['text']!r} -> {r['verdict']} {r['cited']} "
                    f"missing {r['missing']}"
                )
    print(json.dumps({"split": args.split, "charts": args.charts, **figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
