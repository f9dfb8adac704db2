"""Cross-references: cards, phases, terms, numbers, see-also, editions; and the lookups over them."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import cli
from kb.read import lookup
from kb.errors import NotFound
from kb.builder.lexicon import Lexicon
from kb.builder.searchdata import CardBook, read_heading, references
from kb.builder.headings import title_key
from kb.builder.phrases import PhraseBook
from kb.search.query import fold
from kb.tables import load_table
from kb.model import Ruling, Span
from kb.builder.xref import QUOTING, TermFinder, edition_links, folded_spans, phase_words, split_see_also

from .conftest import EXAMPLES


@pytest.fixture(scope="session")  # once per run, whatever order the tests run in
def db(real_kb: Path) -> sqlite3.Connection:
    return sqlite3.connect(next(real_kb.glob("current/rulings.db")))


def test_card_names_in_text() -> None:
    lex = Lexicon()
    for name in ("Twilight", "Adûnaphel", "Marvels Told", "River", "Doors of Night"):
        lex.add_name(name, name)
    lex.add_words("the river runs at twilight")  # both are ordinary words in this corpus
    text = "Twilight played in response. Adunaphel is tapped; Marvels Told and the river. Doors of Night."
    assert lex.find_in_text(text) == {"Adûnaphel", "Marvels Told", "Doors of Night"}
    assert lex.find_in_text("Then Twilight can cancel it.") == {"Twilight"}
    assert lex.find_in_text("Marvelsy Told") == set()


def test_a_card_name_in_the_plural_is_the_card_but_a_common_word_stays_guarded() -> None:
    """"two Twilights", "Orc-patrols": the card; a card named like a word the corpus writes in lower
    case ("Gift": "gifts") only capitalised mid-sentence, in the plural as in the singular; a race
    never ("Dragons"); a plural that is a card's own name is that card ("Wolves")."""
    lex = Lexicon()
    for name in ("Twilight", "Orc-patrol", "Gift", "Dragon", "Wolves", "Wolf", "Lesser Ring"):
        lex.add_name(name, name)
    lex.add_words("the gifts of the elves")
    lex.game_words = {"dragon", "dragons"}
    text = ("A Fallen-wizard may only count two Twilights as resources. Two Orc-patrols attack. "
            "Gifts are given. The Dragons come, and Wolves. The gifts are kept. The rings are Lesser Rings.")
    assert [(text[s:e], names) for s, e, names in lex.find_spans(text)] == [
        ("Twilights", ["Twilight"]), ("Orc-patrols", ["Orc-patrol"]), ("Wolves", ["Wolves"]),
        ("Lesser Rings", ["Lesser Ring"])]
    assert lex.find_in_text("a hazard like two Gifts") == {"Gift"}  # capitalised mid-sentence: the card


def test_a_card_lookup_lists_a_ruling_naming_it_in_the_plural(real_kb: Path) -> None:
    twilight = lookup.card(real_kb, "Twilight")
    assert any("may only count two Twilights as resources" in r.reading().text for r in twilight.said.mentions)


def test_references_in_text() -> None:
    assert references("as per annotation 18") == {"annotation:18"}
    assert references("Annotations 5 and 6, Annotation 1-4") == {f"annotation:{n}" for n in "123456"}
    assert references("see Rule 2.IV.iii and g.hav.3") == {"rule:2.IV.iii", "rule:g.hav.3"}
    assert references("Annotations 9, 9a and 10") == {"annotation:9", "annotation:9a", "annotation:10"}


def test_see_also_splitting_and_titles() -> None:
    assert split_see_also("See also Card Rulings, Swarm of Bats.") == [["Card Rulings", "Swarm of Bats"]]
    assert split_see_also("See End of Phase/Turn in Rulings by Term") == [["Rulings by Term", "End of Phase/Turn"]]
    assert title_key("Company versus Company Combat") == title_key("Company vs. Company Combat")
    assert title_key("Trophies") == title_key("trophy") and title_key("Turn Sequence") == "turn sequence ruling"


def test_terms_are_found_whole_singular_or_plural_the_longest_first() -> None:
    finder = TermFinder([{"name": "Border-land"}, {"name": "Hazard"}, {"name": "Hazard Limit"}, {"name": "Ally"},
                         {"name": "Limit"}, {"name": "Strike"}])
    assert finder.find(fold("Border lands are")) == {"Border-land"}
    assert finder.find(fold("the hazard limits")) == {"Hazard Limit"}  # not Hazard, nor Limit inside it
    assert finder.find(fold("a hazard; the limit")) == {"Hazard", "Limit"}
    assert finder.find(fold("strikes, strikers, hazardous")) == {"Strike"}
    assert finder.find(fold("an allied ally")) == {"Ally"}
    assert finder.find("") == set() and TermFinder([]).find("hazard") == set()


def test_an_action_term_is_found_as_its_verb_and_other_terms_are_not() -> None:
    """A glossary term defined as an action is found as -s, -ed and -ing (its first word, for a phrase);
    a term that is no action is not ("call" is not "called"); a three-letter term is found; a joined
    heading's phrase is found as its term."""
    finder = TermFinder([{"name": n} for n in ("untap", "tap", "eliminate", "store", "call", "cancel",
                                               "remove from play", "make a roll", "ally")],
                        {"untap", "tap", "eliminate", "store", "cancel", "remove from play", "make a roll"},
                        {"Dice Roll": "make a roll"})
    assert finder.find(fold("untapped; untapping")) == {"untap"}
    assert finder.find(fold("it taps, tapped, tapping")) == {"tap"}
    assert finder.find(fold("when eliminated")) == finder.find(fold("eliminating")) == {"eliminate"}
    assert finder.find(fold("stored cards, storing")) == {"store"}
    assert finder.find(fold("cancelled or canceled")) == {"cancel"}
    assert finder.find(fold("it is removed from play")) == {"remove from play"}
    assert finder.find(fold("two dice rolls")) == {"make a roll"}
    # an irregular verb by its own past forms
    assert finder.find(fold("he made a roll")) == finder.find(fold("making a roll")) == {"make a roll"}
    irregular = TermFinder([{"name": "draw"}], {"draw"})
    assert irregular.find(fold("cards drawn; she drew; drawing, draws")) == {"draw"}
    assert irregular.find(fold("a drawer")) == set()
    assert finder.find(fold("his allies")) == {"ally"}
    assert finder.find(fold("a card called Gandalf; taped; a storey; the tapestry")) == set()


def _spans(text: str, *words: str) -> list[tuple[int, int]]:
    """Where each of these runs of words first is in a text (start, end), for folded_spans."""
    return [(text.index(w), text.index(w) + len(w)) for w in words]


def test_a_term_is_linked_where_the_text_uses_it_as_the_games_term() -> None:
    """A common word is a term only where the text means the game's term: not in a phase's name
    (term_senses: "site phase"), a phrase of everyday English ("take place"), a card's name the text
    gives ("Lucky Search") or an erratum's edit ("Replace «…» with «…»"); a phrase may use a term
    its word alone does not ("character specific"), and a longer term still wins ("Burglary Attempts")."""
    terms = [{"name": n} for n in ("site", "hazard", "hazard limit", "untap", "place", "search", "replace",
                                   "specific", "character", "Hobbits", "Burglary Attempts")]
    senses = {"site phase": (), "movement hazard phase": (), "untap phase": (), "take place": (), "takes place": (),
              "specific": (), "character specific": ("specific", "character")}
    finder = TermFinder(terms, {"untap", "place", "search", "replace"}, None, senses)
    assert finder.find(fold("During the site phase, at the site")) == {"site"}
    assert finder.find(fold("the movement/hazard phase's hazard limit")) == {"hazard limit"}
    assert finder.find(fold("at the end of the untap phase")) == set() and finder.find(fold("untapped")) == {"untap"}
    assert finder.find(fold("combat that takes place; placed with it")) == {"place"}
    assert finder.find(fold("a specific site; character specific cards")) == {"site", "specific", "character"}
    text = "Lucky Search is played; search your deck. Hobbits may not. Burglary Attempts."
    named = folded_spans(text, _spans(text, "Lucky Search", "Hobbits", "Burglary"))
    assert finder.find(fold(text), named=named) == {"search", "Hobbits", "Burglary Attempts"}
    assert finder.find(fold(text)) == {"search", "Hobbits", "Burglary Attempts"}
    erratum = "Card Erratum: Replace «Healing card» with «Healing effect.» A replaced card."
    assert [m.group(1) for m in QUOTING.finditer(erratum)] == ["Replace"]
    assert not list(QUOTING.finditer("A creature «played at» a site is the same as being «keyed to» the site."))
    assert finder.find(fold(erratum), folded_spans(erratum, [m.span(1) for m in QUOTING.finditer(erratum)])) == {
        "replace"}
    assert finder.find(fold("Replace «a» with «b»."), folded_spans("Replace «a» with «b».", [(0, 7)])) == set()


def test_folded_spans_are_where_the_words_are_in_the_folded_text() -> None:
    text = "Gollum’s Fate: “Lucky Search” (ÉOMER) and Lucky  Search!"
    folded = f" {fold(text)} "
    for start, end in folded_spans(text, _spans(text, "Gollum’s Fate", "Lucky Search", "ÉOMER")):
        assert folded[start] == " " and folded[end + 1] == " "
    assert [folded[s + 1:e + 1]
            for s, e in folded_spans(text, _spans(text, "Gollum’s Fate", "Lucky Search", "ÉOMER"))] == [
        "gollums fate", "lucky search", "eomer"]
    assert folded_spans(text, [(13, 14)]) == []  # no words: a colon


def test_term_links_agree_with_those_checked_by_hand(db: sqlite3.Connection) -> None:
    """tests/data/term_links_checked.toml: 30 term links dropped and 30 kept (drawn at random, each read in its
    ruling by a person): the build links the term exactly where the person found the game's term."""
    import tomllib

    checked = tomllib.loads((Path(__file__).parent / "data" / "term_links_checked.toml").read_text("utf-8"))
    linked = {(r, t) for r, t in db.execute("select ruling_id, target from links where kind = 'term'")}
    ids = {r for (r,) in db.execute("select id from rulings")}
    for verdict, expected in (("not_the_term", False), ("the_term", True)):
        for ruling_id, term, said in checked[verdict]:
            assert ruling_id in ids, ruling_id
            assert ((ruling_id, term) in linked) == expected, (ruling_id, term, said)


def test_every_term_the_senses_table_names_is_a_term_of_the_real_sources(real_kb: Path) -> None:
    """kb/data/term_senses.toml names real terms (a term the sources built lack is passed over, so a
    misspelt one would do nothing), each phrase in words."""
    terms = lookup.Reader(real_kb).terms()
    for phrase, used in load_table("term_senses").items():
        assert fold(phrase), phrase
        for term in (t.strip() for t in used.split(",") if t.strip()):
            assert title_key(term) in terms, (phrase, term)


def test_real_term_links_follow_the_words_of_the_rulings(db: sqlite3.Connection, real_kb: Path) -> None:
    """On the real documents: an erratum's "Replace «…» with «…»" links no replace (and "replace" has its
    rulings still: "When a site is replaced..."); "movement/hazard phase" no hazard; "Wizard specific Stage
    Resources" specific and Wizard; `rulings term use` none (kb/data/term_senses.toml)."""
    def terms_of(start: str) -> set[str]:
        rows = db.execute("select r.id from rulings r where r.text like ? and r.source = 'crf-22'",
                          (start + "%",)).fetchall()
        assert len(rows) >= 1, start
        return {t
                for (t,) in db.execute("select target from links where kind = 'term' and ruling_id = ?", (rows[0][0],))}

    assert "replace" not in terms_of("Card Erratum: Replace «Discard all revealed cards")
    assert {"specific", "Wizard", "Stage"} <= terms_of("Wizard specific Stage Resources may be played")
    assert "site" not in terms_of("Cannot be used during the site phase.")
    assert "company" not in terms_of("Allows you to play Half-orcs without Bad Company in play.")
    replace = lookup.term(real_kb, "replace")
    assert any(r.reading().text.startswith("When a site is replaced with a site of the opposite alignment")
               for r in replace.used_in)
    assert not any("Card Erratum: Replace «" in r.reading().text for r in replace.used_in)
    hazard = lookup.term(real_kb, "hazard").used_in
    assert hazard and not any(re.sub(r"(?i)movement/\s*hazard phase", "", r.reading().text).lower().count("hazard") == 0
                              for r in hazard)
    assert not lookup.term(real_kb, "use").used_in


def test_phase_words_stand_whole_between_hyphens_and_words() -> None:
    assert phase_words("during the site phase, on-guard cards") == {"site phase", "on-guard"}
    assert phase_words("its end-of-turn-ish step; non-combat; combatants") == set()
    assert phase_words("strikes") == {"strikes"} and phase_words("strike_x strike") == {"strike"}


def test_a_phrase_book_finds_every_occurrence_in_one_pass() -> None:
    book = PhraseBook({"he": 1, "the": 2, "": 3})
    assert sorted(book.occurrences("the theme")) == [(0, 3, 2), (1, 3, 1), (4, 7, 2), (5, 7, 1)]
    assert list(PhraseBook({}).occurrences("anything")) == []


def test_real_links(db: sqlite3.Connection) -> None:
    headings = db.execute("select count(distinct section_id), count(distinct case when card != '' then section_id end) "
                          "from card_headings where section_id like 'crf-22/%'").fetchone()
    assert headings == (356, 356)  # 354 card headings, and the Tournament Rulings' 2 that are cards' names
    resolved = dict(
        db.execute("select heading, card from card_headings where heading in ('Arkenstone', 'Hoarmûath of Dir')"))
    assert resolved == {"Arkenstone": "The Arkenstone", "Hoarmûath of Dir": "Hoarmûrath of Dír"}
    rings = db.execute("select count(*) from card_headings where heading = 'Dwarven Rings (all)'").fetchone()[0]
    assert rings >= 7
    editions = dict(db.execute("select case when how like 'reworded%' then 'reworded' else how end, count(*) "
                               "from links where kind = 'edition' group by 1"))
    assert sum(editions.values()) == 132 and editions["same"] >= 110 and editions["absent"] <= 6
    see_also = db.execute("select count(*) from links where kind = 'section'").fetchone()[0]
    assert see_also >= 60
    problems = db.execute("select severity, source, line from problems").fetchall()
    assert problems == [("note", "coe-rules", 119), ("note", "coe-rules", 526)]  # the rules misnumbered in the source


def test_a_text_printed_twice_pairs_with_the_copy_under_its_own_heading() -> None:
    """CRF 22 prints some rulings twice (again under Optional Rules): an older ruling is the copy under its
    own heading, whichever comes first (a judge's audit found "the second strike is considered
    successful" paired with its Optional Rules copy, as if the ruling now lived only there)."""
    def ruling(rid: str, heading: str, text: str) -> Ruling:
        return Ruling(rid, "x", ("Turn Sequence", heading), "ruling", None, text, text, Span(1, 1))

    text = "If a character is facing two strikes, and the first strike kills the character, the second succeeds."
    for current in ([ruling("new.a", "The Strike Sequence", text), ruling("new.b", "Optional Rules", text)],
                    [ruling("new.b", "Optional Rules", text), ruling("new.a", "The Strike Sequence", text)]):
        (link,) = edition_links(current, [ruling("old.a", "The Strike Sequence", text)])
        assert (link.target, link.how) == ("new.a", "same")
    (link,) = edition_links(current, [ruling("old.c", "Combat", text)])  # under neither: the first printed
    assert (link.target, link.how) == ("new.b", "same")


def test_a_see_also_names_sections_not_the_cards_their_titles_begin_with(db: sqlite3.Connection) -> None:
    """"See also Rulings By Term, Burglary Attempts." names a section: it mentions no card Burglary (under
    the card's own heading it is still about the card); a "See also" naming a card's own section
    mentions the card."""
    mentions = "select r.section, l.target from links l join rulings r on r.id = l.ruling_id " \
               "where r.kind = 'see-also' and l.kind = 'card' and l.how = 'mention'"
    burglary = db.execute(mentions + " and r.text like '%Burglary Attempts%'").fetchall()
    assert burglary == []
    about = db.execute("select count(*) from links l join rulings r on r.id = l.ruling_id where r.kind = 'see-also' "
                       "and r.text like '%Burglary Attempts%' and l.kind = 'card' and l.how = 'about'").fetchone()[0]
    assert about >= 1  # the copy under CRF 22's Burglary heading
    linked = db.execute(mentions.replace("r.section", "r.text")).fetchall()
    assert linked
    assert all(fold(target.strip()) in {fold(p) for path in split_see_also(text) for p in path}
               for text, target in linked)


def test_a_card_name_is_its_words_without_spaces_around(db: sqlite3.Connection) -> None:
    """The database gives some names with a space after ("Burglary ", "Valiant Sword "): stored, linked
    and shown without it, each a repair `rulings check` lists."""
    names = [n for (row,) in db.execute("select names from cards") for n in json.loads(row).values()]
    assert names and [n for n in names if n != n.strip()] == []
    assert db.execute("select count(*) from links where kind = 'card' and target != trim(target)").fetchone()[0] == 0
    assert db.execute("select count(*) from repairs where kind = ?", ("spaces around a card's name",)).fetchone(
        )[0] >= 3


def test_show_gives_the_steps_of_the_procedure_a_ruling_opens(real_kb: Path) -> None:
    """The rulebook's "Follow this procedure ...:" shown whole: its six steps under it, in order, in the
    terminal and the JSON; each step says what it is part of."""
    opener = next(r for r in lookup.export(real_kb) if r["source"] == "rulebook"
                  and r["text"].startswith("Follow this"))
    shown = lookup.show_ruling(real_kb, opener["id"]).to_json()
    assert [p["number"] for p in shown["parts"]] == ["1", "2", "3", "4", "5", "6"]
    step = lookup.show_ruling(real_kb, shown["parts"][2]["id"]).to_json()
    assert step["parent"]["id"] == opener["id"] and step["parts"] == []
    text = CliRunner().invoke(cli, ["--kb", str(real_kb), "show", opener["id"]]).stdout
    assert "its parts:" in text and text.index("[step 1]") < text.index("[step 6]")
    assert "hazard limit" in text


def test_a_rules_committee_is_no_card(db: sqlite3.Connection) -> None:
    """"the Council of Lorien tournament policy" (the committee before the Council of Elrond) mentions no
    card Lórien, as "Council of Elrond" mentions no Elrond."""
    linked = db.execute("select l.target from links l join rulings r on r.id = l.ruling_id where l.kind = 'card' "
                        "and (r.text like '%Council of Lorien%' or r.text like '%Council of Elrond%')").fetchall()
    assert not {t for (t,) in linked} & {"Lórien", "Elrond"}


def test_a_range_of_rules_cites_each_rule_in_it() -> None:
    """"Steps 1-8 (2.IV.i-viii)" cites 2.IV.i to 2.IV.viii (it cited 2.IV.i alone); "2.II.1-3" 1 to 3; a
    range's ends of another kind or case cite the first alone."""
    assert references("proceeds through the following Steps 1-8 (2.IV.i-viii) regardless", ranges=True) == \
        {f"rule:2.IV.{n}" for n in ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii")}
    assert references("see 2.II.1-3", ranges=True) == {"rule:2.II.1", "rule:2.II.2", "rule:2.II.3"}
    assert references("see 2.IV.i-8 and 3.V.ii", ranges=True) == {"rule:2.IV.i", "rule:3.V.ii"}
    assert references("Steps 1-8 (2.IV.i-viii)") == {"rule:2.IV.i"}  # search's keys: a range is no answer to each step


def test_a_rule_opening_its_steps_shows_them(real_kb: Path) -> None:
    """Rule 2.IV ends "... the following Steps 1-8 (2.IV.i-viii) regardless of whether the company is moving:":
    `rulings show` gives the eight steps as its parts (a judge's audit found the lead-in shown bare)."""
    (rule,) = lookup.Reader(real_kb).numbered("rule", "2.IV").rulings
    shown = lookup.show_ruling(real_kb, rule.id).to_json()
    assert [p["number"] for p in shown["parts"]] == [f"2.IV.{n}"
                                                     for n in ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii")]
    assert {link["target"] for link in shown["links"]["rule"]} >= {"2.IV.i", "2.IV.viii"}


def test_a_race_of_two_words_is_no_card(db: sqlite3.Connection) -> None:
    """"Each of your Half-orcs requires one less point of influence" (A Strident Spawn) speaks of the race the
    CoE glossary names, not the faction Half-orcs: a race is never a card mention, one word or two."""
    mentions = db.execute("select count(*) from links where kind = 'card' and target = 'Half-orcs' and how = 'mention'")
    assert mentions.fetchone()[0] == 0


def test_lookups_forgive(real_kb: Path) -> None:
    assert lookup.card(real_kb, "adunaphel").names == ("Adûnaphel",)
    marvels = lookup.card(real_kb, "Marvels Tld")
    assert marvels.names == ("Marvels Told",) and len(marvels.said.mentions) >= 6
    assert lookup.card(real_kb, "Khamul the Easterling").names == ("Khamûl the Easterling",)
    alatar = lookup.card(real_kb, "Alatar")
    assert sorted(c.alignment for c in alatar.faces) == ["Fallen-wizard", "Hero"]  # both versions
    assert lookup.phase(real_kb, "M/H").phase == lookup.phase(real_kb, "mh").phase == "movement-hazard"
    assert lookup.phase(real_kb, "eot").rulings[0].source == "crf-22"
    site_rules = {r.number for r in lookup.phase(real_kb, "site").rulings if r.source == "coe-rules"}
    mh_rules = {r.number for r in lookup.phase(real_kb, "M/H").rulings if r.source == "coe-rules"}
    assert {"2.V.i", "2.V.ii"} <= site_rules and {"2.IV.iii", "2.IV.iii.1"} <= mh_rules  # by number, not page order
    long_event = {r.number for r in lookup.phase(real_kb, "long-event").rulings}
    assert not any(n and n.startswith("2.IV") for n in long_event)
    strikes = {r.number for r in lookup.phase(real_kb, "strike sequence").rulings if r.source == "coe-rules"}
    assert "3.iv" in strikes  # "Strike Sequence, Step 4" under the Combat heading is in the strike sequence too
    assert lookup.term(real_kb, "GI").name == "general influence"
    # an abbreviation whose expansion adds words for the search ("MP": "marshalling points MPs")
    assert lookup.term(real_kb, "MP").name == lookup.term(real_kb, "MPs").name == "marshalling points"
    assert lookup.term(real_kb, "SP").name == "stage points"
    trophies = lookup.term(real_kb, "trophies")
    assert trophies.definitions and trophies.by_term
    anno = lookup.numbered(real_kb, "annotation", "anno 25a")
    assert [r.number for r in anno.rulings] == ["25a", "25a"]
    assert [r.number for r in lookup.numbered(real_kb, "annotation", "25").rulings] == ["25", "25"]
    eighteen = lookup.numbered(real_kb, "annotation", "18")
    assert any("annotation 18" in r.reading().text.lower() for r in eighteen.cited_by)
    parts = lookup.numbered(real_kb, "rule", "2.IV").parts
    assert "2.IV.iii" in [p.number for p in parts]
    with pytest.raises(NotFound) as miss:
        lookup.numbered(real_kb, "rule", "2.IV.zz")
    assert "Did you mean 2.IV" in miss.value.hint
    with pytest.raises(NotFound):
        lookup.card(real_kb, "qqqqqqq")


@pytest.mark.parametrize("args", [["card", "adunaphel"], ["phase", "M/H"], ["term", "cc"], ["annotation", "18"],
                                  ["rule", "2.IV.iii"], ["show", "crf-older.febca4d0ba"]])
def test_lookup_commands(real_kb: Path, args: list[str]) -> None:
    runner = CliRunner()
    text = runner.invoke(cli, ["--kb", str(real_kb), *args])
    assert text.exit_code == 0 and text.output.strip()
    data = runner.invoke(cli, ["--kb", str(real_kb), *args, "--json"])
    assert data.exit_code == 0 and json.loads(data.output)


def test_a_phase_is_asked_by_every_judges_abbreviation_of_it(real_kb: Path) -> None:
    """The judges' abbreviations are one table (kb/data/abbreviations.toml): each that stands for a
    phase names it in `rulings phase` as in a search, and the phases' own words repeat none of them."""
    from kb.phases import PHASE_ALIASES
    from kb.tables import load_table

    assert not set(PHASE_ALIASES) & set(load_table("abbreviations"))
    for typed, phase in (("M/H", "movement-hazard"), ("EoT", "end-of-turn"), ("LE", "long-event"),
                         ("BC", "body-check"), ("FC", "end-of-game")):
        assert lookup.phase(real_kb, typed).phase == phase, typed


def test_show_tells_the_current_edition(real_kb: Path) -> None:
    shown = json.loads(CliRunner().invoke(cli, ["--kb", str(real_kb), "show", "crf-older.febca4d0ba", "--json"]).output)
    assert shown["links"]["edition"][0]["how"] == "same"
    assert shown["links"]["edition"][0]["target"].startswith("crf-22.")


@pytest.mark.parametrize("args", [["card", "zzzzzz"], ["phase", "lunch"], ["term", "zzzzzz"], ["annotation", "99"],
                                  ["rule", "x" * 1000]])
def test_lookup_misses_are_one_line_errors(real_kb: Path, args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), *args])
    assert result.exit_code == 1 and result.output.startswith("Error:") and "Traceback" not in result.output


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=st.text(max_size=200))
def test_lookups_never_crash(real_kb: Path, text: str) -> None:
    """Any text: an answer, or one line saying what is wrong (exit 2 for blank text, 1 for a miss)."""
    runner = CliRunner()
    given = text or "x"
    for command in ("card", "phase", "term", "annotation", "rule"):
        result = runner.invoke(cli, ["--kb", str(real_kb), command, "--", given])
        assert result.exception is None or isinstance(result.exception, SystemExit), (command, text)
        if result.exit_code == 0:
            assert result.stdout.strip() and result.stderr == "", (command, text)
        else:
            assert result.exit_code == (2 if not given.strip() else 1), (command, text, result.output)
            assert result.stdout == "" and result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, \
                (command, text, result.stderr)


def test_names_with_apostrophes_and_possessives() -> None:
    """"Beorn’s House" is the site, not the card Beorn; "Alatar’s ability" is Alatar; both quote styles."""
    from kb.builder.lexicon import Lexicon

    lex = Lexicon()
    for name in ("Beorn", "Beorn’s House", "Alatar", "Wizard’s Test", "Eagles’ Eyrie", "Gollum", "Gollum’s Fate"):
        lex.add_name(name, name)
    text = ("A company moves to Beorn’s House. Alatar’s ability, Wizard's Test and Eagles’ Eyrie. "
            "Then Beorn taps, and Gollum’s Fate is played.")
    found = [(text[s:e], names) for s, e, names in lex.find_spans(text)]
    assert found == [("Beorn’s House", ["Beorn’s House"]), ("Alatar", ["Alatar"]), ("Wizard's Test", ["Wizard’s Test"]),
                     ("Eagles’ Eyrie", ["Eagles’ Eyrie"]), ("Beorn", ["Beorn"]), ("Gollum’s Fate", ["Gollum’s Fate"])]


def test_site_names_are_not_read_as_their_first_word(real_kb: Path) -> None:
    from kb.read.lookup import card

    beorn = [r.id for r in card(real_kb, "Beorn").said.mentions]
    house = [r.id for r in card(real_kb, "Beorn’s House").said.mentions]
    timing = [r for r in house if r.startswith("timing.")]  # "...moves to Beorn’s House in Anduin Vales" (line 82)
    assert timing and not set(timing) & set(beorn)


BIG_INPUTS = ["x" * 100_000, "annotation " * 9_100, "(((" * 34_000, "é🃏\u202e\x00" * 25_000,
              "M/H CvCC " * 11_200, '"' * 100_000, " ".join(str(n) + ".IV.iii" for n in range(12_000))]


@pytest.mark.parametrize("text", BIG_INPUTS, ids=["letters", "annotation", "brackets", "unicode", "abbrevs",
                                                  "quotes", "rule-numbers"])
def test_100_kb_inputs_get_an_answer_or_one_line(real_kb: Path, text: str) -> None:
    """Every read command, given 100 KB of noise: results, or one line saying what is wrong."""
    runner = CliRunner()
    assert len(text.encode()) >= 100_000
    for command in (["search"], ["search", "--json"], ["search", "--raw"], ["card"], ["phase"], ["term"],
                    ["annotation"], ["rule"], ["show"]):
        result = runner.invoke(cli, ["--kb", str(real_kb), *command, "--", text])
        assert result.exception is None or isinstance(result.exception, SystemExit), command
        if result.exit_code == 0:
            assert result.stdout.strip() and result.stderr == "", command
        else:
            assert result.exit_code == 1, (command, result.output[:200])
            assert result.stdout == "" and result.stderr.startswith("Error:") and result.stderr.count("\n") == 1, \
                (command, result.stderr[:300])


# -- what a CRF card heading stands for (kb.builder.searchdata.read_heading) ----------------------------------

def heading_book() -> CardBook:
    """A hand-made card database: names, two keywords, and a name spelt apart by alignment."""
    lex = Lexicon()
    names = ["The Under-leas", "Mûmak (Oliphant)", "The Arkenstone", "Hoarmûrath of Dír", "Fair Sailing",
             "Fair Travels in Wilderness", "Fair Travels in Shadow-lands", "Dwarven Ring of Bávor’s Tribe",
             "Dwarven Ring of Drúin’s Tribe", "Thrall-ring", "Troth-ring", "Lesser Ring", "Minor Ring",
             "Isles of the Dead That Live", "Isles of the Dead that Live", "Old Forest", "Old Forest Road",
             "Marked Cards (all)"]
    for name in names:
        lex.add_name(name, name)
    keywords = {"mind ring": ("Thrall-ring", "Troth-ring"), "lesser ring": ("Lesser Ring", "Minor Ring"),
                "dwarven ring": ("Dwarven Ring of Bávor’s Tribe", "Dwarven Ring of Drúin’s Tribe")}
    alignments = {n: frozenset({"hero"}) for n in names} | {"Isles of the Dead That Live": frozenset({"minion"}),
                                                            "The Under-leas": frozenset({"hero", "minion", "balrog"})}
    return CardBook(lex.names, keywords, alignments)


@pytest.mark.parametrize("heading, cards", [
    ("Fair Sailing", ("Fair Sailing",)),  # exactly
    ("Arkenstone", ("The Arkenstone",)),  # "The X"
    ("Hoarmûath of Dir", ("Hoarmûrath of Dír",)),  # a near spelling
    ("The Under-leas (hero version)", ("The Under-leas",)),  # the card, its versions under one name
    ("Isles of the Dead that Live (minion version)", ("Isles of the Dead That Live",)),  # the minion card's spelling
    ("Isles of the Dead that Live (hero version)", ("Isles of the Dead that Live",)),
    ("Dwarven Rings (all)", ("Dwarven Ring of Bávor’s Tribe", "Dwarven Ring of Drúin’s Tribe")),  # a keyword's cards
    ("Mind Ring", ("Thrall-ring", "Troth-ring")),  # a keyword that no card is named
    ("Lesser Ring", ("Lesser Ring",)),  # a card's name before the keyword
    ("Fair Sailing/Fair Travels cards", ("Fair Sailing", "Fair Travels in Wilderness", "Fair Travels in Shadow-lands")),
    ("Dwarven Ring of Bávor’s/Drúin’s Tribe", ("Dwarven Ring of Bávor’s Tribe", "Dwarven Ring of Drúin’s Tribe")),
    ("Mûmak", ("Mûmak (Oliphant)",)),  # the start of exactly one card's name
    ("Marked Cards (all)", ("Marked Cards (all)",)),  # a card so named is that card
    ("Old", ()),  # the start of two: no card
    ("Fair Travels", ()),  # not a group: no one card
    ("Gandalf's Pipe", ()), ("", ()), ("(hero version)", ()), ("/", ()),  # no card: no made-up name
])
def test_a_card_heading_reads_as_the_cards_a_judge_reads_it_as(heading: str, cards: tuple[str, ...]) -> None:
    assert read_heading(heading, heading_book()) == cards


def test_every_card_link_and_answer_names_a_card_of_the_database(db: sqlite3.Connection) -> None:
    """No made-up card: "Mind Ring", "Mûmak", "Dwarven Rings (all)" were cards of their own."""
    cards = {name for (name,) in db.execute("select name from cards")}
    targets = {t for (t,) in db.execute("select distinct target from links where kind = 'card'")}
    answered = {c for (c,) in db.execute("select distinct card from card_answers")}
    headed = {c for (c,) in db.execute("select distinct card from card_headings")}
    assert targets - cards == set() and answered - cards == set() and headed - cards == set()


def test_card_headings_are_what_their_rulings_are_about(db: sqlite3.Connection) -> None:
    """Links and card_headings agree for every heading: one reading of the heading makes both."""
    headings: dict[str, set[str]] = {}
    for section_id, card in db.execute("select section_id, card from card_headings"):
        headings.setdefault(section_id, set()).add(card)
    about: dict[str, set[str]] = {section_id: set() for section_id in headings}
    for section_id, target in db.execute(
            "select s.id, l.target from sections s join rulings r on r.source = s.source and r.section = s.titles "
            "join links l on l.ruling_id = r.id and l.kind = 'card' and l.how = 'about'"):
        about.setdefault(section_id, set()).add(target)
    assert len(headings) == 356 and about == headings
    assert headings["crf-22/card-errata-and-rulings-mmm-mind-ring"] == {"Binding-ring", "Thrall-ring", "Troth-ring"}
    assert headings["crf-22/card-errata-and-rulings-ddd-dwarven-ring-of-thelors-thrars-tribe"] == {
        "Dwarven Ring of Thélor’s Tribe", "Dwarven Ring of Thrár’s Tribe"}


def card_json(real_kb: Path, name: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "card", name, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output))


def test_a_hero_version_heading_gives_the_card_its_erratum(real_kb: Path) -> None:
    """"The Under-leas (hero version)": its erratum is The Under-leas's (on main it was a card of its own)."""
    under_leas = card_json(real_kb, "the under-leas")
    assert "crf-22.cde7208fcb" in [r["id"] for r in under_leas["errata"]]


def test_an_all_heading_rules_on_every_card_of_the_group(real_kb: Path) -> None:
    durin = card_json(real_kb, "Dwarven Ring of Durin's Tribe")
    assert "crf-22.11935cd30f" in [r["id"] for r in durin["rulings"]]  # "Dwarven Rings (all)"


def test_a_heading_that_begins_one_cards_name_is_that_card(real_kb: Path) -> None:
    """"Mûmak" is Mûmak (Oliphant): its ruling, and a deck's "Mumak" has its face; "Mind Ring" is no card
    (`rulings card "mind ring"` reads it as the keyword's cards: a deck's line names no card by it)."""
    mumak = card_json(real_kb, "mumak")
    assert mumak["names"] == ["Mûmak (Oliphant)"] and [c["id"] for c in mumak["cards"]] == ["TW-66"]
    assert "crf-22.350ca8e201" in [r["id"] for r in mumak["rulings"]]
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "deck", "-", "--json"],
                                input="Hazards:\n1 Mumak\n1 Mind Ring\n")
    report = json.loads(result.stdout)
    assert [(c["name"], [f["type"] for f in c["cards"]]) for c in report["cards"]] == [("Mûmak (Oliphant)", ["Hazard"])]
    assert [(n["name"], n["lines"]) for n in report["not_found"]] == [("Mind Ring", [3])]


def test_card_pages_show_what_their_headings_rule(real_site: Path) -> None:
    pages = {"the-under-leas": "crf-22.cde7208fcb", "dwarven-ring-of-durins-tribe": "crf-22.11935cd30f",
             "mumak-oliphant": "crf-22.350ca8e201", "thrall-ring": "crf-22.144d1cde78"}
    for page, ruling in pages.items():
        assert ruling in (real_site / "card" / f"{page}.html").read_text("utf-8"), page


def test_a_heading_naming_no_card_links_to_none_and_its_ruling_stays_reachable(tiny: tuple[Path, Path, Path]) -> None:
    """The tiny corpus's CRF rules on Alatar, a card its card database lacks: a warning, no card, and
    the erratum found by search, by `rulings show` and on its document page."""
    _, kb_dir, site = tiny
    conn = sqlite3.connect(kb_dir / "current" / "rulings.db")
    erratum = conn.execute("select id from rulings where section like '%\"Alatar\"]'").fetchone()[0]
    assert conn.execute("select target from links where kind = 'card' and ruling_id = ?", (erratum,)).fetchall() == []
    assert conn.execute("select card from card_headings where heading = 'Alatar'").fetchall() == [("",)]
    conn.close()
    runner = CliRunner()
    found = json.loads(runner.invoke(cli, ["--kb", str(kb_dir), "search", "Alatar untap", "--json"]).output)
    assert erratum in [r["id"] for r in (found["results"] if isinstance(found, dict) else found)][:3]
    assert json.loads(runner.invoke(cli, ["--kb", str(kb_dir), "show", erratum, "--json"]).output)["id"] == erratum
    assert f'id="{erratum}"' in (site / "doc" / "crf-x.html").read_text("utf-8")
    assert runner.invoke(cli, ["--kb", str(kb_dir), "card", "Alatar"]).exit_code == 1  # no card of that name


def test_a_term_holds_the_crf_rulings_by_term_on_it(real_kb: Path, real_site: Path) -> None:
    """A glossary term and the CRF "Rulings by Term" heading on the same idea are one term: its answer
    (and its page) holds the definition and the heading's rulings; its -ed/-ing forms link to it."""
    untap = lookup.term(real_kb, "untap")
    assert "crf-22.f1ca029f23" in [r.id for r in untap.by_term] and untap.definitions
    assert any(r.reading().text.startswith("Untapping effects are not healing effects") for r in untap.by_term)
    eliminate = lookup.term(real_kb, "eliminate")
    assert any(r.reading().text.startswith("When a card is eliminated, all permanent-events on that card are discarded")
               for r in eliminate.by_term)
    stored = lookup.term(real_kb, "stored")
    assert stored.name == "store" and stored.definitions
    assert any(r.reading().text.startswith("Stored cards are not considered to be in play, except for uniqueness")
               for r in stored.by_term)
    assert lookup.term(real_kb, "Untapping").name == "untap"
    drawn = "If a company does not move, it still has a movement/hazard phase. No cards are drawn"
    assert any(r.reading().text.startswith(drawn) for r in lookup.term(real_kb, "draw").used_in)  # irregular
    tap = lookup.term(real_kb, "tap")
    assert len(tap.used_in) > 100
    page = (real_site / "term" / "tap.html").read_text("utf-8")
    assert page.count('class="ruling') > 100
    assert not lookup.term(real_kb, "use").used_in  # kb/data/term_senses.toml: a common English word


def test_every_joined_heading_is_its_terms_section(real_kb: Path, real_site: Path) -> None:
    """Each pair of kb/data/term_aliases.toml: the heading is no term of its own; `rulings term HEADING`
    answers its (first) glossary term; each of its terms holds the heading's rulings, on its page too."""
    reader = lookup.Reader(real_kb)
    for heading, keys in load_table("term_aliases").items():
        owners = [title_key(k) for k in keys.split(",")]
        assert title_key(heading) not in reader.terms(), heading
        assert lookup.term(reader, heading).name == reader.terms()[owners[0]].name, heading
        section = [r["id"] for r in reader.conn.execute(
            "select r.id from rulings r join sections s on s.source = r.source and r.section = s.titles "
            "where s.source = 'crf-22' and lower(s.title) = ? and s.titles like '[\"Rulings by Term\"%'",
            (heading,))]
        assert section, heading
        for key in owners:
            answer = lookup.term(reader, reader.terms()[key].name)
            assert answer.definitions and [r.id for r in answer.by_term] == section, (heading, key)
            page = (real_site / answer.url).read_text("utf-8")
            assert all(rid in page for rid in section), (heading, key)


# -- rule numbers that differ only in case ("3.V" company vs company combat, "3.v" a combat step) ----------

def test_a_rule_number_keeps_its_case(real_kb: Path) -> None:
    """The CoE rules number combat's steps 3.i-3.v and also use 3.I, 3.II, 3.IV, 3.V for other rules:
    each number answers its own rule and parts; a number typed in another case finds the rule only
    where none has the number as typed."""
    cvcc, step = lookup.numbered(real_kb, "rule", "3.V"), lookup.numbered(real_kb, "rule", "3.v")
    assert (cvcc.number, [r.number for r in cvcc.rulings]) == ("3.V", ["3.V"])
    assert cvcc.rulings[0].stored.startswith("Company vs. Company Combat (CvCC)")
    assert (step.number, [r.number for r in step.rulings]) == ("3.v", ["3.v"])
    assert step.rulings[0].stored.startswith("Combat, Step 5 (Resolve the Attack)")
    assert cvcc.parts and all(str(p.number).startswith("3.V.") for p in cvcc.parts)
    assert step.parts and all(str(p.number).startswith("3.v.") for p in step.parts)
    body = lookup.numbered(real_kb, "rule", "rule 3.I")
    assert body.parts and all(str(p.number).startswith("3.I.") for p in body.parts)
    assert [r.number for r in lookup.numbered(real_kb, "rule", "3.I.1").rulings] == ["3.I.1"]
    assert [r.number for r in lookup.numbered(real_kb, "rule", "3.i.1").rulings] == ["3.i.1"]
    assert cvcc.url != step.url and lookup.numbered(real_kb, "rule", "3.I.1").url == "rule/3-ui-1.html"
    typed = lookup.numbered(real_kb, "rule", "2.iv.iii")  # no 2.iv.iii: the rule the source writes 2.IV.iii
    assert (typed.number, [r.number for r in typed.rulings], typed.url) == ("2.IV.iii", ["2.IV.iii"],
                                                                            "rule/2-iv-iii.html")


def test_a_citation_links_the_rule_as_written(db: sqlite3.Connection) -> None:
    """3.V's own reference to its steps (3.V.i-viii) links 3.V.i, not 3.v.i (no such rule)."""
    cvcc = db.execute("select id from rulings where kind = 'rule' and number = '3.V'").fetchone()[0]
    targets = {t for (t,) in db.execute("select target from links where ruling_id = ? and kind = 'rule'", (cvcc,))}
    assert "3.V.i" in targets and not any(t != t.lower() and t.lower() in targets for t in targets)
    lower = {t for (t,) in db.execute("select target from links where kind = 'rule'") if t.lower() == "3.v.i"}
    assert lower == {"3.V.i"}


def test_rule_numbers_differing_in_case_have_a_page_each(real_kb: Path, real_site: Path) -> None:
    """The 13 numbers the CoE rules write both ways each have two pages, titled by their own number;
    no two files of the site differ only in case (a case-insensitive file system would merge them)."""
    conn = sqlite3.connect(next(real_kb.glob("current/rulings.db")))
    numbers = [n for (n,) in conn.execute("select distinct number from rulings where kind = 'rule' and number != ''")]
    pairs: dict[str, list[str]] = {}
    for n in numbers:
        pairs.setdefault(n.lower(), []).append(n)
    both = {k: v for k, v in pairs.items() if len(v) > 1}
    assert len(both) == 13 and {"3.v", "3.i.1", "3.ii.4", "3.iv.2"} <= both.keys()
    for alike in both.values():
        pages = {n: lookup.numbered(real_kb, "rule", n).url for n in alike}
        assert len(set(pages.values())) == len(alike), pages
        for n, page in pages.items():
            assert f"<title>Rule {n} ·" in (real_site / str(page)).read_text("utf-8"), (n, page)
    files = [p.relative_to(real_site).as_posix() for p in real_site.rglob("*")]
    assert len({f.lower() for f in files}) == len(files)


def test_rule_page_names() -> None:
    """Lower case, so no two differ only in case; a number differing from one registered before only
    in case marks its parts with capitals ("u"); other numbers keep the names they always had."""
    from kb.builder.urls import Urls

    urls = Urls()
    assert [urls.rule(n) for n in ("2.IV.iii", "3.v", "3.V", "3.V.i", "3.I.1", "3.i.1", "3.v")] == [
        "rule/2-iv-iii.html", "rule/3-v.html", "rule/3-uv.html", "rule/3-v-i.html", "rule/3-i-1.html",
        "rule/3-i-1-2.html", "rule/3-v.html"]
    assert urls.known("rule", "3.V") == "rule/3-uv.html" and urls.known("rule", "3.I") is None


# -- a judge's word for what the rules treat (issue 40.4): CRF headings, CoE rule titles, keyword headings ----

def test_on_guard_leads_to_its_crf_heading_and_coe_rules(real_kb: Path, real_site: Path) -> None:
    db = sqlite3.connect(next(real_kb.glob("current/rulings.db")))
    heading = [i for (i,) in db.execute("select id from rulings where source = 'crf-22' and section = ?",
                                        (json.dumps(["Turn Sequence Rulings", "Site Phase", "On-Guard Cards"]),))]
    assert len(heading) == 16
    for typed in ("on-guard", "on guard", "on-guard card", "On-Guard Cards", "Placing an On-Guard Card"):
        answer = lookup.term(real_kb, typed)
        assert answer.name == "On-Guard Cards" and [r.id for r in answer.under_headings] == heading, typed
        assert {"2.IV.vii.4", "2.IV.vii.4.1", "2.V.6"} <= {r.number for r in answer.rules}, typed
        assert not {r.id for r in answer.used_in} & {r.id for r in answer.rules + answer.under_headings}
    data = json.loads(CliRunner().invoke(cli, ["--kb", str(real_kb), "term", "on-guard", "--json"]).output)
    assert [r["id"]
            for r in data["under_headings"]] == heading and data["read_as"] == "'on-guard' read as On-Guard Cards"
    printed = CliRunner().invoke(cli, ["--kb", str(real_kb), "term", "on guard"]).output
    assert ("Under its CRF headings" in printed and "CoE rules titled by it" in printed
            and "Placing an On-Guard" in printed)
    page = (real_site / data["url"]).read_text("utf-8")
    assert all(f'id="{i}"' in page or i in page for i in heading) and "Placing an On-Guard Card" in page


def test_every_crf_heading_and_coe_rule_title_answers_with_its_rulings(real_kb: Path) -> None:
    """Each heading of the CRF's Turn Sequence (below its phases) and Tournament parts that holds
    rulings, its "General"s and card names aside, and each CoE rule that opens with a title: `rulings
    term` of it answers with those rulings, or that rule and its parts."""
    reader = lookup.Reader(real_kb)
    cards = {fold(n) for (n,) in reader.conn.execute("select name from cards")}
    held = {s for (s,) in reader.conn.execute("select distinct section from rulings where source = 'crf-22'")}
    headings = 0
    for (titles,) in reader.conn.execute("select titles from sections where source = 'crf-22'"):
        path = json.loads(titles)
        depth = {"Turn Sequence Rulings": 3, "Tournament Rulings": 2}.get(path[0], 0)
        if depth and len(path) >= depth and titles in held and path[-1] != "General" and fold(path[-1]) not in cards:
            answer = lookup.term(reader, path[-1])
            under = {tuple(r.section) for r in answer.under_headings}
            assert tuple(path) in under, (path, answer.name)
            headings += 1
    titled = 0
    for number, text in reader.conn.execute("select number, text from rulings where source = 'coe-rules' and "
                                            "kind = 'rule' order by ord"):
        if title := re.match(r"([A-Z][^*\n]{2,100}?) - \S", text):
            answer = lookup.term(reader, title.group(1))
            assert number in {r.number for r in answer.rules}, (number, title.group(1), answer.name)
            titled += 1
    assert headings >= 18 and titled >= 70


def test_a_title_names_the_term_it_treats_and_a_card_heading_stays_the_cards(real_kb: Path) -> None:
    ally = lookup.term(real_kb, "ally")
    assert ally.definitions and ally.by_term and "2.V.2" in {r.number for r in ally.rules}  # "Playing an Ally"
    assert lookup.term(real_kb, "Playing an Ally").name == "ally"
    step = lookup.term(real_kb, "reveal the new site")  # a step by its parenthesis
    assert step.name == "Movement/Hazard Phase, Step 1 (Reveal the New Site)" and step.rules[0].number == "2.IV.i"
    assert lookup.term(real_kb, "character draft").name == "The Character Draft"  # the CRF's and the CoE's, one term
    with pytest.raises(NotFound):
        lookup.term(real_kb, "game")  # "Calling the Game" treats no term "game"
    with pytest.raises(NotFound):
        lookup.term(real_kb, "Freeze the Flesh")  # a Tournament heading that is a card's name is the card's
    for card in ("Freeze the Flesh", "Great Secrets Buried There"):
        said = lookup.card(real_kb, card).said.rulings
        assert ("Tournament Rulings", card) in {tuple(r.section) for r in said}, card


def test_a_keyword_heading_answers_with_its_rulings_and_its_cards(real_kb: Path) -> None:
    rings = {"Thrall-ring", "Troth-ring", "Binding-ring"}
    for typed in ("mind ring", "Mind Rings", "mind-ring"):
        answer = lookup.card(real_kb, typed)
        assert set(answer.names) == rings and {f.name for f in answer.faces} == rings, typed
        assert any(r.section[-1] == "Mind Ring" for r in answer.said.rulings), typed
        assert answer.read_as == f"'{typed}' read as the cards of the CRF heading Mind Ring"
    dwarven = lookup.card(real_kb, "dwarven rings")
    assert len(dwarven.names) == 7 and any(r.section[-1] == "Dwarven Rings (all)" for r in dwarven.said.rulings)
    db = sqlite3.connect(next(real_kb.glob("current/rulings.db")))
    groups = db.execute("select heading, group_concat(card, '|') from card_headings group by section_id "
                        "having count(*) > 1").fetchall()
    for heading, names in groups:  # every keyword heading (a heading "A/B" names its cards each by name)
        if "/" not in heading:
            assert set(lookup.card(real_kb, heading.replace(" (all)", "")).names) == set(names.split("|")), heading
    printed = CliRunner().invoke(cli, ["--kb", str(real_kb), "term", "mind rings"]).output  # the keyword is a term too
    assert printed.startswith("Mind Ring\n") and "crf-22.144d1cde78" in printed


def test_term_places_are_read_from_headings_and_titles_and_join_the_terms() -> None:
    from kb.model import Ruling as Parsed
    from kb.model import ParsedDocument, Span
    from kb.builder.terms import TermDraft, TermPlace, join_places, rule_places

    from .conftest import source_for

    texts = [("2.IV.vii.4", "Placing an On-Guard Card - As an action during a company’s movement/hazard phase."),
             ("2.IV.vii.4.1", "If a card is placed on-guard but exceeds the hazard limit, it is returned."),
             ("2.V.2", "Playing an Ally - An ally may be played."), ("10.2", "Calling the Game - A player may call."),
             ("2.IV.i", "Movement/Hazard Phase, Step 1 (Reveal the New Site) - The new site is revealed."),
             ("2.II.7.i", "STARTER MOVEMENT - A company may move."), ("1.1", "The length of the game - is agreed.")]
    doc = ParsedDocument(source_for("coe_rules", Path("coe.md")), 10, [], [
        Parsed(f"c.{n}", "c", (), "rule", number, text, text, Span(n, n)) for n, (number, text) in enumerate(texts, 1)])
    places = list(rule_places(doc))
    assert [(p.name, p.targets, p.also, p.joins) for p in places] == [
        ("Placing an On-Guard Card", ("c.1", "c.2"), (), ("On-Guard Card",)),
        ("Playing an Ally", ("c.3",), (), ("Ally",)),
        ("Calling the Game", ("c.4",), (), ("Game",)),
        ("Movement/Hazard Phase, Step 1 (Reveal the New Site)", ("c.5",), ("Reveal the New Site",), ()),
        ("Starter Movement", ("c.6",), (), ())]  # "The length of the game - is agreed." opens no title: lower case
    terms = {"ally": TermDraft("ally", "g.ally")}
    join_places(terms,
                [TermPlace("On-Guard Cards", "heading", ("s.og",)), TermPlace("Freeze the Flesh", "heading", ("s.f",)),
                        *places], cards={"freeze the flesh"})
    assert terms["on guard card"].headings == ["s.og"] and terms["on guard card"].rules == ["c.1", "c.2"]
    assert terms["ally"].rules == ["c.3"] and "playing an ally" in terms["ally"].aliases
    assert "calling the game" in terms and "game" not in terms and "freeze the flesh" not in terms
    assert terms["movement hazard phase step 1 reveal the new site"].aliases == ["reveal the new site"]
