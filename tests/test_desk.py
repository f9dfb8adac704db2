"""The judge's desk: whole rulings, names forgiven or refused helpfully, card faces, one JSON shape,
a knowledge base found from anywhere, output that fits the terminal, and `ask`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cli as cli_module
from cli import cli
from kb.read import lookup
from kb.read.answers import CardsAnswer
from kb.builder.cardface import CardFace, readable, render_icons
from kb.errors import Ambiguous, NotFound, Refused
from kb.search.excerpt import excerpt
from kb.location import default_kb, locate
from kb.search.query import fold
from kb.terminal import Page, wrap

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def flat(text: str) -> str:
    return " ".join(text.split())


def run(kb: Path | None, *args: str, env: dict[str, str | None] | None = None, color: bool = False, **kw: Any):
    prefix = ["--kb", str(kb)] if kb else []
    return CliRunner().invoke(cli, [*prefix, *args], env=env, color=color, **kw)


# -- 1. whole text, excerpts, wrapping, colour, paging -------------------------------------------------

def test_lookups_print_every_ruling_whole(real_kb: Path) -> None:
    for args in (["annotation", "18"], ["card", "Morgul-knife"], ["term", "hazard limit"], ["rule", "2.IV.iii"]):
        data = json.loads(run(real_kb, *args, "--json").output)
        texts = [flat(r["text"]) for r in _rulings_in(data)]
        printed = flat(run(real_kb, *args).output)
        assert texts and all(t in printed for t in texts), args
    eighteen = run(real_kb, "annotation", "18").output
    assert "receive -1 to his prowess." in eighteen and " ..." not in eighteen


def test_phase_output_holds_every_ruling_of_the_phase(real_kb: Path) -> None:
    data = lookup.phase(real_kb, "combat").to_json()
    printed = flat(run(real_kb, "phase", "combat").output)
    texts = [flat(r["text"]) for g in data["sources"] for r in g["rulings"]]
    assert len(texts) > 100 and all(t in printed for t in texts)


def test_phase_output_shows_the_rulings_under_its_headings_first_as_its_page_does(real_kb: Path) -> None:
    data = lookup.phase(real_kb, "site").to_json()
    printed = flat(run(real_kb, "phase", "site").output)
    first, rest = printed.split("rulings that speak of it elsewhere", 1)
    ids = {r["id"]: flat(r["text"]) for g in data["sources"] for r in g["rulings"]}
    headings = set(data["under_headings"])
    assert 0 < len(headings) < len(ids)
    assert all(ids[i] in first for i in headings) and all(t in rest for i, t in ids.items() if i not in headings)


def test_show_prints_the_whole_ruling_and_where_it_is(real_kb: Path) -> None:
    shown = run(real_kb, "show", "crf-22.454d048a6d").output
    assert "A strike may not be canceled once the dice-roll for the strike has been made." in flat(shown)  # wrapped
    assert "on the site: doc/crf-22-turn-sequence-rulings.html#crf-22.454d048a6d" in shown
    example = json.loads(run(real_kb, "show", "timing.a290c22d2f", "--json").stdout)
    assert example["parent"]["id"] == "timing.35b9762da7" and example["parent"]["kind"] == "rule"


def test_search_shows_an_excerpt_with_the_words_marked_and_full_shows_it_whole(real_kb: Path) -> None:
    query = ["search", "--limit", "5", "strike", "dice-roll", "remaining", "modifications"]
    found = json.loads(run(real_kb, *query, "--json").output)
    long_one = next(n for n, r in enumerate(found) if len(r["text"]) > 700)
    plain = run(real_kb, *query).output
    whole = run(real_kb, *query, "--full").output
    assert flat(found[long_one]["text"]) not in flat(plain) and "…" in plain
    assert all(flat(r["text"]) in flat(whole) for r in found)
    coloured = run(real_kb, *query, color=True, env={"NO_COLOR": None, "TERM": "xterm"}).output
    assert re.search(r"\x1b\[33m(\x1b\[1m)?(dice-roll|strike|roll)", coloured)  # matched words in bold yellow


def test_excerpt_keeps_the_matches_and_cuts_at_words() -> None:
    text = " ".join(f"word{n}" for n in range(200)) + " the strike roll here " + " ".join(f"tail{n}"
                                                                                          for n in range(100))
    at = text.index("strike")
    shown, spans = excerpt(text, [(at, at + 6)], size=120)
    assert shown.startswith("… ") and shown.endswith(" …") and len(shown) < 140
    assert [shown[a:b] for a, b in spans] == ["strike"]
    assert not re.search(r"\bord\d|\bail\d", shown)  # no word cut in half
    assert excerpt("short text", [(0, 5)]) == ("short text", [(0, 5)])
    assert excerpt("x " * 400, [])[0].startswith("x x")


def test_text_wraps_to_the_terminal_width(real_kb: Path) -> None:
    out = run(real_kb, "annotation", "18", env={"COLUMNS": "60"}).output
    long_words = [line for line in out.splitlines() if len(line) > 60]
    assert not [line for line in long_words if " " in line.strip()]
    assert len(out.splitlines()) > len(run(real_kb, "annotation", "18").output.splitlines())


def test_wrap_ignores_colour_codes() -> None:
    styled = "\x1b[1mbold\x1b[0m " * 30
    for line in wrap(styled, 40, "  "):
        assert len(ANSI.sub("", line)) <= 40
    assert wrap("fits", 40, "  ") == ["  fits"]
    assert wrap("a b", None, "  ") == ["  a b"]
    assert wrap("", 40, "    ") == wrap("  ", None, "  ") == [""]  # a blank line keeps no indent


def test_no_line_of_a_multi_paragraph_ruling_ends_in_spaces(real_kb: Path) -> None:
    out = run(real_kb, "rule", "2.V.6").output  # a rule with its list, paragraphs apart
    assert "\n\n" in out and not [line for line in out.splitlines() if line != line.rstrip()]


@pytest.mark.parametrize("env", [{"NO_COLOR": "1", "TERM": "xterm"}, {"NO_COLOR": None, "TERM": "dumb"}])
def test_no_colour_under_no_color_or_a_dumb_terminal(real_kb: Path, env: dict[str, str | None]) -> None:
    assert "\x1b[" not in run(real_kb, "card", "Gandalf", env=env, color=True).output
    assert "\x1b[" in run(real_kb, "card", "Gandalf", env={"NO_COLOR": None, "TERM": "xterm"}, color=True).output


def test_long_output_goes_through_the_pager_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    paged: list[str] = []
    printed: list[str] = []
    monkeypatch.setattr(cli_module.click, "echo_via_pager", lambda text, **_: paged.append(text))
    monkeypatch.setattr(cli_module.click, "echo", lambda text="", **_: printed.append(text))
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: __import__("os").terminal_size((80, 24)))
    for tty, pager, lines, expect_paged in [(True, True, 30, True), (True, False, 30, False),
                                            (False, True, 30, False), (True, True, 5, False)]:
        paged.clear()
        printed.clear()
        monkeypatch.setattr(cli_module.sys.stdout, "isatty", lambda tty=tty: tty, raising=False)
        monkeypatch.setattr(cli_module.sys.stdin, "isatty", lambda tty=tty: tty, raising=False)
        page = Page(80)
        for n in range(lines):
            page(f"line {n}")
        cli_module.echo_page(page, pager)
        assert bool(paged) == expect_paged and bool(printed) != expect_paged
        assert "line 4" in (paged or printed)[0]


def test_the_audit_is_paged_as_every_long_report_is(real_kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulings check` (some 260 lines) goes through the pager on a terminal, and takes --no-pager."""
    asked: list[bool] = []
    monkeypatch.setattr(cli_module, "echo_page", lambda page, pager: asked.append(pager))
    assert run(real_kb, "check").exit_code == 0 and run(real_kb, "check", "--no-pager").exit_code == 0
    assert asked == [True, False]


# -- 2. names: forgiven, ambiguous, refused with suggestions --------------------------------------------

def test_card_names_are_forgiven(real_kb: Path) -> None:
    knife = lookup.card(real_kb, "morgul knive")
    assert knife.names == ("Morgul-knife",) and "read as Morgul-knife" in knife.read_as
    assert lookup.card(real_kb, "Morgul-knives").names == ("Morgul-knife",)
    assert lookup.card(real_kb, "gandolf").names == ("Gandalf",)
    assert lookup.card(real_kb, "khamul easterling").names == ("Khamûl the Easterling",)
    assert lookup.card(real_kb, "Poignard de Morgul").names == ("Morgul-knife",)  # French
    assert lookup.card(real_kb, "adunaphel").read_as == ""
    # a "The" a judge puts before a name that has none, and leaves out of one that has it
    assert lookup.card(real_kb, "the old forest").names == ("Old Forest",)
    assert lookup.card(real_kb, "The Witch-king of Angmar").names == ("Witch-king of Angmar",)
    assert lookup.card(real_kb, "witch king").names == ("The Witch-king",)


def test_a_name_a_few_cards_share_is_each_card(real_kb: Path) -> None:
    """`rulings card khamul`: the three Khamûl cards, each with its face and rulings as its full name
    gives them, exit 0; JSON {query, read_as, names, answers}, each answer the card's own JSON."""
    names = ["Khamûl the Easterling", "Khamûl the Ringwraith", "Khamûl Unleashed"]
    answer = lookup.card(real_kb, "khamul")
    assert isinstance(answer, CardsAnswer) and [a.names for a in answer.answers] == [(n,) for n in names]
    assert answer.read_as == "'khamul' read as the 3 cards it names: " + ", ".join(names[:2]) + " and " + names[2]
    printed = run(real_kb, "card", "khamul", "--no-pager")
    assert printed.exit_code == 0 and printed.output.startswith("('khamul' read as the 3 cards it names")
    heads = [line for line in printed.output.splitlines() if line.startswith("── ")]
    assert heads == [f"── {n}/3 {name} ──" for n, name in enumerate(names, 1)]
    assert "The number of cards discarded is set at the time of declaration." in printed.output  # a CRF ruling
    assert "Ringwraith · Warrior/Ranger/Diplomat" in printed.output  # a face
    as_json = json.loads(run(real_kb, "card", "khamul", "--json").stdout)
    assert list(as_json) == ["query", "read_as", "names", "answers"] and as_json["names"] == names
    assert as_json["answers"] == [json.loads(run(real_kb, "card", name, "--json").stdout) for name in names]


def test_a_name_more_cards_share_lists_them_with_set_and_type(real_kb: Path) -> None:
    with pytest.raises(Ambiguous) as caught:
        lookup.card(real_kb, "morgul")
    names = sorted(c["name"] for c in caught.value.candidates)
    assert len(names) == 4 and all(fold(n).startswith("morgul") for n in names)
    result = run(real_kb, "card", "morgul")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "Morgul-blade (The Lidless Eye, Minion Resource)" in result.output and 'rulings card "' in result.output
    as_json = run(real_kb, "card", "morgul", "--json")
    error = json.loads(as_json.stderr)
    assert as_json.exit_code == 1 and as_json.stdout == "" and error["hint"] and len(error["candidates"]) >= 4


def test_a_question_s_words_are_read_past(real_kb: Path) -> None:
    """"what is", "what are", "what happens in", "how does ... work", "the ... phase", a closing "?"."""
    haven = lookup.term(real_kb, "what is a haven")
    assert haven.name == "haven" and haven.read_as == "'what is a haven' read as haven"
    assert lookup.term(real_kb, "What are marshalling points?").name == "marshalling points"
    assert lookup.term(real_kb, "how does the hazard limit work").name == "hazard limit"
    assert lookup.term(real_kb, "what is GI?").name == "general influence"
    assert lookup.term(real_kb, "The Character Draft").read_as == ""  # a term's own "The" is its name
    for typed, phase in [("what happens in the site phase", "site"), ("the site phase", "site"),
                         ("what happens during the M/H phase?", "movement-hazard"), ("the untap phase?", "untap")]:
        assert lookup.phase(real_kb, typed).phase == phase, typed
    gandalf = lookup.card(real_kb, "what does Gandalf do?")
    assert gandalf.names == ("Gandalf",) and gandalf.read_as == "'what does Gandalf do?' read as Gandalf"
    printed = run(real_kb, "term", "what", "is", "a", "haven")
    assert printed.exit_code == 0 and "('what is a haven' read as haven)" in printed.output


def test_misses_suggest_the_nearest_names(real_kb: Path) -> None:
    with pytest.raises(NotFound) as card_miss:
        lookup.card(real_kb, "wizard hat")
    assert "The Grey Hat" in card_miss.value.hint and "rulings search" in card_miss.value.hint
    assert lookup.term(real_kb, "hazard limt").name == "hazard limit"
    assert lookup.term(real_kb, "hazardlimit").name == "hazard limit"  # written together
    assert lookup.term(real_kb, "strikes").name.lower().startswith("strike")
    assert lookup.phase(real_kb, "movment").phase == "movement-hazard"
    with pytest.raises(NotFound) as phase_miss:
        lookup.phase(real_kb, "lunch")
    assert "untap" in phase_miss.value.hint and "end-of-turn" in phase_miss.value.hint
    with pytest.raises(NotFound) as anno_miss:
        lookup.numbered(real_kb, "annotation", "99")
    assert "run 1 to 27" in anno_miss.value.hint
    with pytest.raises(NotFound) as rule_miss:
        lookup.numbered(real_kb, "rule", "2.IV.iiii")
    assert "2.IV.iii" in rule_miss.value.hint


def test_a_term_is_what_has_a_term_page(real_kb: Path, real_site: Path) -> None:
    """`rulings term` accepts the terms the site has a page for (the CoE glossary, the CRF's Rulings
    by Term, its other headings of what the rules treat and the CoE rules' titles: kb.builder.terms), and no
    other heading of the CRF: a card's heading says to ask `rulings card`, a phase's heading says
    where it stands (its rulings are in its document, and `rulings search` finds them)."""
    card = run(real_kb, "term", "Gandalf")
    assert card.exit_code == 1 and '`rulings card "Gandalf"`' in card.stderr
    heading = run(real_kb, "term", "Untap", "Phase")
    assert heading.exit_code == 1 and heading.stderr.count("\n") == 1
    assert "'Untap Phase' is a heading of the CRF (Turn Sequence Rulings), not a term" in heading.stderr
    assert "rulings search 'Untap Phase'" in heading.stderr
    reader = lookup.Reader(real_kb)
    names = [t.name for t in reader.terms().values()]
    assert len(list((real_site / "term").glob("*.html"))) == len(names) > 150
    assert all(lookup.term(reader, name).name == name for name in names)
    assert lookup.term(reader, "general").name == "general influence"  # the one term it begins, not a heading "General"


def test_a_ruling_s_notes_go_wherever_it_goes(real_kb: Path, real_export: list[str]) -> None:
    """The note `rulings check` makes on a rule's own text (1.5.F6, numbered under the wrong parent)
    is part of the ruling in every command, as on every page of the site."""
    note = "rule 1.5.F6 is numbered under the wrong parent: it follows 1.3.F5, where 1.3.F6 would come"
    phase = json.loads(run(real_kb, "phase", "beginning", "--json").stdout)
    assert [r.get("notes") for g in phase["sources"] for r in g["rulings"] if r["number"] == "1.5.F6"] == [[note]]
    printed = run(real_kb, "phase", "beginning", "--no-pager").output
    assert "note on the source: " + note in " ".join(printed.split())
    rule = lookup.numbered(real_kb, "rule", "1.5.F6").rulings[0]
    assert rule.notes == (note,)
    assert [json.loads(line).get("notes") for line in real_export if rule.id in line[:40]] == [[note]]


@pytest.mark.parametrize("args", [["card", ""], ["term", " "], ["phase", ""], ["search", ""], ["annotation", ""],
                                  ["rule", ""], ["show", ""]])
def test_empty_input_is_refused_with_a_hint(real_kb: Path, args: list[str]) -> None:
    result = run(real_kb, *args)
    assert result.exit_code == 2 and result.output.startswith("Error: no ") and "e.g. `rulings" in result.output
    assert result.output.count("\n") == 1
    as_json = run(real_kb, *args, "--json")
    assert as_json.exit_code == 2 and json.loads(as_json.stderr)["hint"].startswith("Give one")


def test_unknown_source_and_game_are_refused_with_the_known_values(real_kb: Path) -> None:
    source = run(real_kb, "search", "--source", "nope", "hazard")
    assert source.exit_code == 2 and "crf-22, coe-rules" in source.output and source.output.count("\n") == 1
    near = run(real_kb, "search", "--source", "crf22", "hazard")
    assert near.exit_code == 0 and "Collected Rulings File (CRF) 22" in near.output
    game = run(real_kb, "search", "--game", "chess", "hazard")
    assert game.exit_code == 2 and "meccg" in game.output and "lotr-tcg" in game.output
    with pytest.raises(Refused, match="no source"):
        lookup.search(real_kb, "hazard", source="zzz")


# -- 3. the card's face ---------------------------------------------------------------------------------

def _row(**attributes: Any) -> dict[str, Any]:
    return {"id": "TW-1", "ruling_id": "cards.TW-1", "name": "Test", "names": {"en": "Test"}, "set_code": "TW",
            "set_name": "The Wizards", "type": attributes.pop("type", "Character"), "alignment": "Hero",
            "text": attributes.pop("text", ""), "attributes": {"attributes": attributes}}


def test_a_face_reads_as_printed() -> None:
    face = CardFace.of(_row(unique=True, race="Dwarf", skills="Warrior/Scout", prowess="5", body="8", mind="4",
                            directInfluence="1", marshallingPoints="2", marshallingPointsType="character",
                            homeSite={"en": "Blue Mountain Dwarf-hold", "fr": "x"}, corruption="1",
                            text="Unique.May tap at a Haven [{H}] or Border-hold [{B}]."))
    assert face.kind_line() == "Hero Character · unique"
    assert face.stat_line() == ("Dwarf · Warrior/Scout · prowess/body 5/8 · mind 4 · direct influence 1 · "
                                "corruption checks +1 · marshalling points 2 (character)")
    assert face.detail_lines() == [("home site", "Blue Mountain Dwarf-hold")]
    assert face.text == "Unique. May tap at a Haven [Haven] or Border-hold [Border-hold]."
    creature = CardFace.of(_row(type="Hazard", subtype="Creature", playable="{w}{s}{S}", strikes="1", prowess="12",
                                body="-"))
    assert creature.keyed_to == ["Wilderness", "Shadow-land",
                                 "Shadow-hold"] and "prowess/body 12/–" in creature.stat_line()
    item = CardFace.of(_row(type="Resource", subtype="Major Item", prowess="+3", body="-", corruption="1"))
    assert "prowess +3" in item.stat_line() and "body" not in item.stat_line()
    assert "corruption points 1" in item.stat_line()
    site = CardFace.of(_row(type="Site", siteType="{R}", region="Rhudaur", haven="Rivendell", sitePath="{w}{w}"))
    assert ("site", "Ruins & Lairs in Rhudaur") in site.detail_lines()
    assert ("site path from Rivendell", "Wilderness, Wilderness") in site.detail_lines()


def test_icons_become_words() -> None:
    assert render_icons("keyed to Ruins & Lairs [{R}]") == "keyed to Ruins & Lairs [Ruins & Lairs]"
    assert render_icons("Path From Lórien:{w}{b}") == "Path From Lórien: Wilderness, Border-land"
    assert render_icons("[{w} {w} {w}]") == "[Wilderness, Wilderness, Wilderness]"
    assert render_icons("a {x} stays") == "a {x} stays"
    assert readable("e.g. Gandalf. Unique.Nazgûl") == "e.g. Gandalf. Unique. Nazgûl"


def test_every_real_card_face_is_readable(real_kb: Path) -> None:
    faces = [row["card"] for row in lookup.export(real_kb) if "card" in row]
    assert len(faces) == 1683
    assert not [f["name"] for f in faces if re.search(r"\{[A-Za-z]{1,2}\}", f["text"] + str(f["keyed_to"]))]
    assert not [f["name"] for f in faces if re.search(r"[a-z]\.[A-Z]", f["text"])]
    gandalf = next(f for f in faces if f["id"] == "TW-156")
    assert (gandalf["race"], gandalf["skills"], gandalf["prowess"], gandalf["body"], gandalf["direct_influence"],
            gandalf["home_site"], gandalf["unique"]) == ("Wizard", "Warrior/Scout/Sage/Diplomat", "6", "9", "10",
                                                         "Any Haven", True)


def test_the_card_command_shows_face_errata_rulings_and_mentions(real_kb: Path) -> None:
    out = run(real_kb, "card", "khamul the easterling").output
    face, rest = out.split("\nErrata", 1) if "\nErrata" in out else (out, "")
    assert "Neutral Hazard · Creature/Permanent-event · unique" in face
    assert "Nazgûl · strikes 1 · prowess/body 18/8 · marshalling points 6 (kill)" in face
    assert "keyed to: Dark-domain, Dark-hold" in face and "Unique. Nazgûl (2nd)." in face
    knife = run(real_kb, "card", "Morgul-knife").output
    assert knife.index("Errata") < knife.index("CRF rulings") and "[Haven]" in knife and "[{H}]" not in knife



def test_an_erratum_of_one_version_is_among_the_card_s_errata(real_kb: Path) -> None:
    """"(Hero version) Card Erratum: ..." is an erratum, as the card's page, the deck check and
    `rulings changes` read it, not one of its rulings."""
    from kb.read.lookup import card

    ring = card(real_kb, "The One Ring").said
    errata = [r for r in ring.errata if "to cancel a strike against himself" in r.stored]
    assert len(errata) == 2 and not [r for r in ring.rulings if "Card Erratum" in r.stored]
    assert errata[0].stored.startswith("(Hero version) Card Erratum")


# -- 4. found from anywhere ----------------------------------------------------------------------------

def test_the_default_knowledge_base_is_in_the_user_data_folder(tmp_path: Path) -> None:
    data = Path(__import__("os").environ["XDG_DATA_HOME"])  # conftest points it at a temporary folder
    assert default_kb() == data / "rulings" / "kb"
    assert locate(None, {}).path == default_kb() and locate(None, {}).chosen_by == "default"
    assert locate(None, {"RULINGS_KB": "x"}).path == Path("x")
    assert locate("y", {"RULINGS_KB": "x"}).chosen_by == "--kb"
    for option, env in (("", {}), ("  ", {}), (None, {"RULINGS_KB": ""})):
        with pytest.raises(Refused):
            locate(option, env)


def test_empty_kb_values_are_refused_in_one_line(real_kb: Path) -> None:
    for args, env in ((["--kb", "", "stats"], {}), (["stats"], {"RULINGS_KB": ""})):
        result = CliRunner().invoke(cli, args, env=env)
        assert result.exit_code == 2 and result.output.startswith("Error:") and result.output.count("\n") == 1


def test_one_build_serves_every_directory(real_kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    missing = run(None, "stats")
    assert missing.exit_code == 1 and str(home / "rulings" / "kb") in missing.output
    shutil.copytree(real_kb, home / "rulings" / "kb", symlinks=True)
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    shown = run(None, "show", "crf-22.454d048a6d")
    assert shown.exit_code == 0 and "Annotation 13" in shown.output
    assert run(None, "stats").output.startswith(f"Knowledge base: {home / 'rulings' / 'kb'}")


# -- 5. one JSON shape ----------------------------------------------------------------------------------

def _rulings_in(data: Any) -> list[dict[str, Any]]:
    """Every ruling in a command's JSON, wherever the command puts it."""
    if isinstance(data, list):
        return [r for item in data for r in _rulings_in(item)]
    if not isinstance(data, dict):
        return []
    if "url" in data and "kind" in data and "id" in data:  # (an annotation's or rule's answer has its url too)
        return [data]
    return [r for value in data.values() for r in _rulings_in(value)]


READ_COMMANDS = [["show", "crf-22.454d048a6d"], ["show", "cards.TW-47"], ["show", "timing.a290c22d2f"],
                 ["card", "morgul knive"], ["card", "Gandalf"], ["card", "Rivendell"], ["phase", "site"],
                 ["term", "GI"], ["annotation", "18"], ["rule", "2.IV"], ["search", "khamul"],
                 ["search", "--explain", "can a strike be cancelled after the roll"],
                 ["search", "--raw", "strike AND canceled"]]


@pytest.mark.parametrize("args", READ_COMMANDS, ids=[" ".join(a) for a in READ_COMMANDS])
def test_every_read_command_gives_rulings_and_cards_one_shape(real_kb: Path, validators, args: list[str]) -> None:
    result = run(real_kb, *args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rulings = _rulings_in(data)
    assert rulings
    for r in rulings:
        validators["ruling"].validate(r)
        assert list(r)[:len(lookup.RULING_FIELDS)] == list(lookup.RULING_FIELDS)
    for c in (data.get("cards", []) if isinstance(data, dict) else []):
        validators["card"].validate(c)
    if args[0] == "search":
        hits = data["results"] if "--explain" in args else data
        assert all({"score", "also_in", "matched"} <= set(h) for h in hits)
        assert all(("why" in h) == ("--explain" in args) for h in hits)


def test_export_gives_every_ruling_the_one_shape(real_export: list[str], validators) -> None:
    assert len(real_export) > 3700
    for line in real_export:
        validators["ruling"].validate(json.loads(line))


def test_every_url_is_the_rulings_place_on_the_site(real_export: list[str], real_site: Path) -> None:
    """A ruling's url (and a card's) is where the site shows it: its page has the ruling under its id
    (kb.builder.addresses is the one plan both are made on)."""
    ids: dict[str, set[str]] = {}
    rows = [json.loads(line) for line in real_export]
    for row in rows:
        page, _, anchor = row["url"].partition("#")
        if page not in ids:
            ids[page] = set(re.findall(r'\sid="([^"]+)"', (real_site / page).read_text("utf-8")))
        assert anchor in ids[page], row["url"]
    faces = [row["card"] for row in rows if "card" in row]
    assert len(rows) > 3700 and len(faces) > 1600
    assert all(row["card"]["url"] == row["url"].partition("#")[0] for row in rows if "card" in row)


@pytest.mark.parametrize("args, code", [(["card", "zzzzzz"], 1), (["show", "nope"], 1), (["phase", "lunch"], 1),
                                        (["term", "zzzzzz"], 1), (["annotation", "99"], 1), (["rule", "9.9"], 1),
                                        (["search", "--source", "x", "y"], 2)])  # a miss: 1; refused input: 2
def test_under_json_an_error_is_json_on_stderr(real_kb: Path, args: list[str], code: int) -> None:
    result = run(real_kb, *args, "--json")
    assert result.exit_code == code and result.stdout == ""
    error = json.loads(result.stderr)
    assert set(error) == {"error", "hint"} and error["error"] and error["hint"]


@pytest.mark.parametrize("args", [["card", "Gandalf"], ["stats"], ["check"], ["search", "x"], ["show", "x"]])
def test_a_missing_kb_under_json_says_what_to_run(tmp_path: Path, args: list[str]) -> None:
    result = run(tmp_path / "none", *args, "--json")
    assert result.exit_code == 1 and json.loads(result.stderr)["hint"].startswith("Run `rulings build`")


# -- 6. ask -----------------------------------------------------------------------------------------------

def test_ask_helps_numbers_opens_and_pages_on(real_kb: Path) -> None:
    result = run(real_kb, "ask", "--limit", "2", input="?\nannotation 18\n2\nmore\n4\n7\nq\n")
    out = result.output
    assert result.exit_code == 0 and "read that result whole" in out
    numbers = re.findall(r"^ ?(\d)\. (.+) · lines? \d+", out, re.M)
    assert [n for n, _ in numbers] == ["1", "2", "2", "3", "4", "4"]
    assert "Type a number from 1 to 4" in out


def test_ask_offers_the_cards_a_name_a_few_share(real_kb: Path) -> None:
    """"khamul" at the table: a numbered choice of the three cards; a number reads that card as
    `rulings card` does, face and rulings; "more" then gives the rulings found, whose numbers read them."""
    result = run(real_kb, "ask", "--limit", "2", input="khamul\n1\n4\nmore\n1\nq\n")
    out = result.output
    assert result.exit_code == 0
    assert "'khamul' names 3 cards:\n 1. Khamûl the Easterling (The Wizards, Neutral Hazard)\n" \
           " 2. Khamûl the Ringwraith (The Lidless Eye, Minion Character)\n" \
           " 3. Khamûl Unleashed (The Lidless Eye, Minion Resource)\n" in out
    card = flat(run(real_kb, "card", "Khamûl the Easterling", "--no-pager").output)
    assert card in flat(out) and "Type a number from 1 to 3" in out
    numbers = re.findall(r"^ ?(\d)\. (.+) · lines? \d+", out, re.M)
    assert [n for n, _ in numbers] == ["1", "2", "1"]  # the results, then the first read whole
    for name in ("morgul", "fordo"):  # more cards, or a typo as near several: the results, no error
        other = run(real_kb, "ask", "--limit", "2", input=f"{name}\nq\n").output
        assert "Error" not in other and re.findall(r"^ ?(\d)\. ", other, re.M) == ["1", "2"], other


def test_ask_leaves_cleanly_on_ctrl_c_and_ctrl_d(real_kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(real_kb, "ask", input="").exit_code == 0

    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    result = run(real_kb, "ask")
    assert result.exit_code == 0 and "Traceback" not in result.output
