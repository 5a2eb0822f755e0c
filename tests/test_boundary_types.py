"""What crosses a layer is typed: mypy rejects a dict bag where a boundary names its type.

The three boundaries the web floor hands the agent and the store: the clinician's decision a
paused turn resumes with (``Approval``), the card's second look (``SecondLook``) and an image's
reading (``ImageMeta``). mypy runs on a small module that uses each rightly and on the same
module with a bag in each place, so the check cannot pass by mypy seeing nothing.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent

MODULE = textwrap.dedent('''
    from smart_docgemma.agent.graph import Agent
    from smart_docgemma.agent.state import Turn
    from smart_docgemma.approval.types import SecondLook
    from smart_docgemma.proposals.store import ProposalStore
    from smart_docgemma.tools.sources.imaging import image_meta


    def use(agent: Agent, turn: Turn, store: ProposalStore, png: bytes) -> None:
        agent.resume(turn, [{{"proposal_id": "p1", "{decision}": "approved"}}])
        store.attach_second_look("p1", {look})
        agent.run("What do you see?", image=png, meta={meta})
''')
RIGHT = {"decision": "decision", "look": 'SecondLook(severity="high")',
         "meta": 'image_meta(png, "image/png")'}
BAGS = {"decision": "decison", "look": '{"severity": "high"}', "meta": '{"kind": "png"}'}


def mypy_errors(tmp_path: Path, name: str, values: dict[str, str]) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(MODULE.format(**values))
    out, err, _ = api.run([str(path), "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(ROOT / ".mypy_cache"), "--no-error-summary"])
    assert not err, err
    return [line for line in out.splitlines() if ": error:" in line]


def test_mypy_rejects_a_dict_bag_at_each_typed_boundary(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert mypy_errors(tmp_path, "right", RIGHT) == []
    wrong = mypy_errors(tmp_path, "bags", BAGS)
    lines = sorted({int(line.split(":")[1]) for line in wrong})
    assert lines == [10, 11, 12], wrong  # the resume, the second look, the image's meta
