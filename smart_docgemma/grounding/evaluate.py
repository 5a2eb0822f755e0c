"""Citation evaluation: how well the grounding check cites and how many wrong claims it catches.

    python -m smart_docgemma.grounding.evaluate [--split tuned|holdout|all] [--cases FILE] [--json]

Each case is an answer about a fixture chart (``fhir_fixtures/``, cut into records exactly as
the chart tool cuts what it reads) or about inline source records (a PubMed abstract, a trial,
label sections). Per sentence the case gives the records that support it (``cites``, plus
``also``: records that support it too) and ``supported`` (false: a seeded wrong number or
date; null: not scored). Measured over scored sentences:

- citation precision: citations on supported sentences that name a supporting record;
- citation recall: required records (``cites``) of supported sentences that were cited;
- unsupported caught: seeded wrong sentences marked "not found in the cited record";
- false alarms: supported sentences marked unsupported.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .check import ground
from .evidence import Evidence, from_chart

DATA = Path(__file__).parent / "data"
FIXTURES = Path(__file__).resolve().parents[2] / "fhir_fixtures"
SPLITS = {"tuned": "citations_tuned.yaml", "holdout": "citations_holdout.yaml"}


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
    from ..tools.chart import SECTIONS, ChartFetch, chart_data

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


def case_records(case: dict) -> list[Evidence]:
    if case.get("patient"):
        return chart_records(case["patient"])
    return [Evidence(r["key"], r["label"], None, r.get("date"), r["text"]) for r in case["records"]]


def score_case(case: dict, score: Score) -> list[dict]:
    records = case_records(case)
    sentences = case["answer"]
    done = ground(" ".join(s["text"] for s in sentences), records)
    by_n = {c.n: c.key for c in done.citations}
    if len(done.checks) != len(sentences):
        raise ValueError(
            f"{case['id']}: {len(sentences)} sentences written, {len(done.checks)} read"
        )
    out = []
    score.answers += 1
    for gold, check in zip(sentences, done.checks):
        cited = {
            by_n[n].split("#")[0] if not by_n[n].startswith("label:") else by_n[n]
            for n in check.cites
        }
        flagged = check.verdict == "unsupported"
        supported = gold.get("supported", True)
        out.append(
            {
                "case": case["id"],
                "text": gold["text"],
                "cited": sorted(cited),
                "verdict": check.verdict,
                "missing": list(check.missing),
                "gold": gold.get("cites", []),
                "supported": supported,
            }
        )
        if supported is None:
            continue
        if supported:
            ok = set(gold.get("cites", [])) | set(gold.get("also", []))
            score.cited += len(cited)
            score.cited_right += len(cited & ok)
            score.required += len(gold.get("cites", []))
            score.required_cited += len(cited & set(gold.get("cites", [])))
            score.right += 1
            score.false_alarms += flagged
        else:
            score.wrong += 1
            score.wrong_caught += flagged
    return out


def evaluate(cases: list[dict]) -> tuple[dict, list[dict]]:
    score, rows = Score(), []
    for case in cases:
        rows += score_case(case, score)
    return score.figures(), rows


def load(split: str, path: str | None = None) -> list[dict]:
    if path:
        return yaml.safe_load(Path(path).read_text())
    files = SPLITS.values() if split == "all" else [SPLITS[split]]
    return [c for f in files for c in yaml.safe_load((DATA / f).read_text())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m smart_docgemma.grounding.evaluate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--split", choices=("tuned", "holdout", "all"), default="tuned")
    parser.add_argument("--cases", help="a YAML case file instead of the shipped splits")
    parser.add_argument("--json", action="store_true", help="print every sentence's result as JSON")
    args = parser.parse_args(argv)
    figures, rows = evaluate(load(args.split, args.cases))
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
    print(json.dumps({"split": args.split, **figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
