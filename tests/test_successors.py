"""Where an older ruling gone from the current CRF went (kb/builder/successors.py): the words it shares with a
ruling new since, a negation on a phrase they share, and the pairings checked by hand
(kb/data/successors.toml), each held to the real ICE-era CRF and CRF 22."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import cli
from kb.builder.changes import Change
from kb.builder.editions import Editions, find_changes
from kb.errors import KbBroken
from kb.model import Problem
from kb.store.store import Stored, connect
from kb.builder.successors import Pairing, Wording, load_pairings, reversal, shared_phrases

PAIRINGS = load_pairings()
"""The pairings checked by hand, as the build reads them."""


# -- the words -------------------------------------------------------------------------------------------

def test_a_negation_on_a_phrase_both_share_reads_as_the_opposite() -> None:
    older = "If a character is put in the deck, then it does not count against the 10 character limit."
    newer = ("If a character is put in the deck after the character draft it always counts against the 10 character "
             "limit.")
    assert reversal(older, newer) == "“not” before “count against the 10 character limit” in the older wording only"
    assert reversal(newer, older) == "“not” before “counts against the 10 character limit” in the current wording only"
    assert reversal("Hazards may be played on a company at its site.",
                    "Hazards can't be played on a company at its site.") == \
        "“cant” before “be played on a company at its site” in the current wording only"
    # both negate it, or neither does: no reversal
    assert reversal("It counts as movement, without a movement/hazard phase.",
                    "It counts as movement but does not initiate a movement/hazard phase.") == ""
    assert reversal("You roll dice for the whole game.", "You should roll dice for the whole game.") == ""


def test_the_words_of_the_heading_are_no_key_words() -> None:
    older, newer = Wording.of("The site phase ends."), Wording.of("The site phase is over.")
    assert [p.terms for p in shared_phrases(older, newer)] == [("site", "phase")]
    # every ruling under "Site Phase" shares them
    assert shared_phrases(older, newer, frozenset({"site", "phase"})) == []


# -- the pairings checked by hand --------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ('[[pairing]]\nolder = "a"\n', "pairing 1 (a): expected the text fields"),
    ('[[pairing]]\nolder = "a"\nsuccessor = ""\nverdict = "replaced"\nwhy = "w"\nchecked = "c"\nolder_text = "x"\n'
     'successor_text = ""\n', "and a successor unless dropped"),
    ('[[pairing]]\nolder = "a"\nsuccessor = "b"\nverdict = "gone"\nwhy = "w"\nchecked = "c"\nolder_text = "x"\n'
     'successor_text = "y"\n', "a verdict of replaced, reversed, moved, dropped"),
    ("[[pairing]\n", "cannot be read"),
])
def test_a_damaged_pairings_file_is_refused_naming_the_file(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "successors.toml"
    f.write_text(text, "utf-8")
    with pytest.raises(KbBroken, match=str(f).replace(".", r"\.")) as err:
        load_pairings(f)
    assert message in str(err.value)


def changes_of(kb: Path, checked: dict[str, Pairing], without: Iterable[str] = ()) -> tuple[dict[str, Change],
                                                                                            list[Problem]]:
    """The changes of older rulings a knowledge base's stored rulings give (kb.builder.editions, as the build
    finds them), with these pairings checked by hand, and these current rulings taken away."""
    gone = set(without)
    db = Stored(connect(kb))
    editions = {ruling_id: (target, how) for ruling_id, target, how in db.links("edition")}
    changes, problems = find_changes(Editions(db.sources(), lambda s: [r for r in db.rulings(s) if r.id not in gone],
                                              editions, db.cards_about, db.card_texts, checked))
    return {c.ruling_id: c for c in changes if c.kind == "absent"}, problems


def stored_texts(kb: Path, ids: Iterable[str]) -> dict[str, str]:
    conn = connect(kb)
    wanted = list(ids)
    rows = conn.execute(f"select id, text from rulings where id in ({', '.join('?' * len(wanted))})", wanted)
    return dict(rows.fetchall())


def test_each_pairing_checked_by_hand_holds_on_the_real_documents(real_kb: Path) -> None:
    assert {p.verdict for p in PAIRINGS.values()} >= {"replaced", "reversed", "moved"}
    texts = stored_texts(real_kb, [i for p in PAIRINGS.values() for i in (p.older, p.successor)])
    for p in PAIRINGS.values():  # the wordings a person read are the sources' own
        assert (texts[p.older], texts.get(p.successor, "")) == (p.older_text, p.successor_text), p.older
    found = {r["id"]: r
             for r in json.loads(CliRunner().invoke(cli, ["--kb", str(real_kb), "changes", "--json"]).output)}
    for p in PAIRINGS.values():
        change = found[p.older]["change"]
        assert (change["kind"], change["verdict"], change["other"]["id"]) == ("absent", p.verdict, p.successor)
        assert not change["unsure"] and not change["guess"]
        assert f"checked by hand ({p.checked}): {p.why}" in change["evidence"]
        assert "this tool's own reading of the words agrees" in change["evidence"]


def test_the_words_alone_find_each_successor_and_say_unsure(real_kb: Path) -> None:
    # without the pairings checked by hand, the build reads the words: each pairing's successor and verdict, unsure
    read, problems = changes_of(real_kb, {})
    assert problems == []
    for p in PAIRINGS.values():
        c = read[p.older]
        assert (c.verdict, c.other_id, c.unsure, c.guess) == (p.verdict, p.successor, True, True), p.older
        assert "this tool's reading of the words, unsure" in c.evidence
    reversed_ = read["crf-older.0497eff406"]
    assert "“not” before “count against the 10 character limit” in the older wording only" in reversed_.evidence
    assert "shares its key words “roll dice for the whole game”" in read["crf-older.566508ff6b"].evidence


def test_with_its_successor_gone_an_older_ruling_is_dropped(real_kb: Path) -> None:
    successors = [p.successor for p in PAIRINGS.values()]
    read, problems = changes_of(real_kb, {}, without=successors)
    assert problems == []
    for older in ("crf-older.566508ff6b", "crf-older.0497eff406", "crf-older.870aee9665"):
        c = read[older]
        assert (c.verdict, c.unsure) == ("dropped", False) and c.other_id not in successors
        assert "dropped, as this tool reads the words (no person checked it); the nearest wording found" in c.evidence
    # a pairing checked by hand whose successor is gone is reported, and the build's reading stands
    read, problems = changes_of(real_kb, PAIRINGS, without=["crf-22.3bfd0e13f0"])
    assert read["crf-older.566508ff6b"].verdict == "dropped" and read["crf-older.566508ff6b"].guess
    assert [(p.source, p.line, p.severity) for p in problems] == [("crf-older", 11, "warning")]
    assert "crf-older.566508ff6b checked by hand (kb/data/successors.toml)" in problems[0].message
    assert read["crf-older.0497eff406"].verdict == "reversed" and not read["crf-older.0497eff406"].unsure


def test_every_ice_era_ruling_has_its_counterpart_or_a_verdict_checked_by_hand(real_kb: Path) -> None:
    conn = connect(real_kb)
    older = [i for (i,) in conn.execute("select id from rulings where source = 'crf-older'")]
    links = dict(conn.execute("select ruling_id, how from links where kind = 'edition'").fetchall())
    assert len(older) == 132 and set(links) == set(older)
    absent = sorted(i for i in older if links[i] == "absent")
    assert absent == sorted(PAIRINGS)  # every one gone from CRF 22 read by a person
    counts: dict[str, int] = {}
    for i in older:
        how = links[i].split(" ")[0]
        counts[how] = counts.get(how, 0) + 1
    assert counts == {"same": 114, "reworded": 13, "absent": 5}


def test_show_and_the_ruling_pages_give_the_verdict_and_the_successor(real_kb: Path, real_site: Path) -> None:
    def show(ruling_id: str) -> dict[str, Any]:
        result = CliRunner().invoke(cli, ["--kb", str(real_kb), "show", ruling_id, "--json"])
        return dict(json.loads(result.output))

    old = show("crf-older.566508ff6b")
    assert old["links"]["edition"] == [{"target": "crf-22.3bfd0e13f0", "how": "replaced, checked by hand"}]
    assert old["change"]["other"]["text"] == "You roll dice for the whole game"
    text = CliRunner().invoke(cli, ["--kb", str(real_kb), "show", "crf-older.566508ff6b", "--no-pager"]).output
    assert "in CRF 22: crf-22.3bfd0e13f0 (replaced, checked by hand)\n  You roll dice for the whole game\n" in text
    new = show("crf-22.3bfd0e13f0")
    assert new["links"]["older_editions"] == [
        {"target": "crf-older.566508ff6b", "how": "replaced by this, checked by hand"}]
    moved = show("coe-rules.b9ff7cd74a")["links"]["older_editions"]
    assert moved == [{"target": "crf-older.e3e374880a", "how": "moved here, checked by hand"}]
    text = CliRunner().invoke(cli, ["--kb", str(real_kb), "show", "crf-older.e3e374880a", "--no-pager"]).output
    assert "in the current rules: coe-rules.b9ff7cd74a (moved, checked by hand)" in text  # not "in CRF 22": a CoE rule
    page = (real_site / "doc" / "crf-older.html").read_text("utf-8")
    article = page.split('id="crf-older.0497eff406"', 1)[1].split("</article>", 1)[0]
    assert ('<dt>in CRF 22</dt><dd><a href="crf-22-turn-sequence-rulings.html#crf-22.ddcc66f3f2">reversed, checked by '
            'hand: “If a character from the starting pool is put in the deck') in article
    page = (real_site / "doc" / "crf-22-turn-sequence-rulings.html").read_text("utf-8")
    article = page.split('id="crf-22.ddcc66f3f2"', 1)[1].split("</article>", 1)[0]
    assert '<a href="crf-older.html#crf-older.0497eff406">reversed by this, checked by hand</a>' in article
