"""One search, specified once: the site's search page (site/assets/search.js with query.js, question.js,
searchspec.js and ranking.js, over the index the site ships, search-index.js), run in node through the one
parity harness (tests/parity), reads and ranks every question as kb.search.search does, and marks the same words in
the same text a reader is shown."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from kb.search import query, ranking
from kb.site.browserdata import bucket, terms_keep_prefix
from kb.store.reading import reading
from kb.search.search import Searcher, highlight_spans

from . import parity
from .conftest import NO_EVAL, eval_questions, made_once

LIMIT = 5

# Questions searched with a filter: one source (a few of its documents among thousands), the other game
FILTERED = [("hazard limit", {"source": "coe-rules"}), ("hazard limit", {"source": "arda"}),
            ("site phase", {"source": "timing"}), ("site number", {"game": "lotr-tcg"}),
            ("CvCC at a haven", {"game": "meccg", "source": "crf-22"})]

# Hand-picked readings: typos, abbreviations, accents, numbers, near card names, question framing.
FOCUSED = [
    "can a strike be cancled after the roll?",
    "when is the hazard limit checked?",
    "movment hazard phase",
    "can I play a hazard during M/H?",
    "CvCC at a haven",
    "how much DI does Gandalf have?",
    "M/H CvCC DI",
    "Adûnaphel",
    "adunaphel the ringwraith",
    "ADÛNAPHEL’s special ability",
    "annotation 18",
    "anno 25a",
    "annotaton 18",
    "Annotation #3 and annotation 14",
    "rule 2.IV.iii",
    "rule 2.iv.iii",
    "rule 3.V",
    "rule 3.v",
    "rule 3.I.1",
    "timing rule 1A",
    "what does 10.3.iii say",
    "morgul knive",
    "glamdring",  # a card with no ruling of its own: its text first
    "khamul",
    "gandalph",  # a name typed as it sounds
    "fordo",  # a typo as near three cards
    "Khamûl the Easterling",
    "what does Gandalf do?",
    "the card text of Stealth",
    "does Stealth stop the hazard?",
    "Indur taps to cancel",
    "tell me about on-guard cards in the site phase",
    "hazard limit",
    "keyed to",
    "how many characters can a company have?",
    "is it legal to play two resources at the same time",
    "lotr tcg ring-bearer",
    "arda draft",
    "a lot of kinds of corruption checks at all",
    "cancelling attacks",
    # names read as spans, the story around a question, definitions, English words kept, idioms
    "Can Marvel's Told be played in response to In the Heart of his Realm?",
    "If the Witch King has two followers at Bag End. Can they move with him?",
    "can Shadowfacs move with Gandalfs company",
    "Characters left behind by Gandalf. Are they still in the company?",
    "characters left behind",
    "witch king of agnmar",
    "can Shadowfacs " + " ".join(f"zq{a}{b}x{c}" for a in "bcdfg" for b in "hjklm" for c in "nprst"),  # NEAR_TRIES
    "I revealed Balrog at Moria [...] My opponent's Orc-raiders attacked. Is the strike cancelled?",
    "Could True Dragons be cancelled? Indur taps to cancel",
    "Healing at a haven",  # an ordinary word that begins two names: neither card
    "what happens in the site phase",  # a phase asked about: its overview, rule 2.V
    "how does combat work",
    "what is a haven?",
    "what does tapped mean",
    "what are marshalling points (MPs)?",
    "wherever the company moves, are the scores kept?",
    "my avatar dies. Does the company flip face up?",
    "",
    "?",
    "constructor",
    "__proto__ toString hasOwnProperty",
    "Ｍ/Ｈ",
    "a:b:c",
    "rule 99.ZZ.qq",
    "🐉🧙‍♂️ dragon",
    "Ａｄûｎａｐｈｅｌ",
    "'; DROP TABLE rulings; --",
    "M/H " * 600,
    "x" * 3000,
]
IDS = [q if len(q) < 40 else q[:20] + f"...({len(q)} characters)" for q in FOCUSED]


@pytest.fixture(scope="session")
def both(real_kb: Path, real_site: Path, eval_answers: dict[str, Any],
         tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every question (evaluation and focused) through kb.search.search and through the site's search page in one
    harness run, once for the whole run (`made_once`: the workers that run these tests share it)."""
    parity.node()
    queries = eval_questions() + FOCUSED

    def make(tmp: Path) -> None:
        js = parity.run("search", real_site, limit=LIMIT, every_word=FOCUSED, allowed=[o for _, o in FILTERED],
                        cases=[{"query": q} for q in queries] + [{"query": q, "options": o} for q, o in FILTERED])
        found = js["cases"]
        # the evaluation questions' top five: the first five of the run's top ten (`eval_answers`), which
        # are kb.search.search's top five (the same candidates, ranked alike, kept one per wording in order
        # until the limit); the focused questions searched with the limit, as their `also_in` depends on it
        python: dict[str,
                     dict[str, list[Any]]] = {q: {"ids": ids[:LIMIT], "same_rule": eval_answers["same_rule"][q][:LIMIT]}
                                                   for q, ids in eval_answers["ids"].items()}
        searcher = Searcher.open(real_kb)
        parsers = {s["id"]: s["parser"] for s in searcher.spec.raw["sources"]}
        for q in FOCUSED:
            found_py, u = searcher.search(q, limit=LIMIT), searcher.understand(q)
            shown = [reading(r.data["text"], parsers[r.data["source"]]).text for r in found_py]
            python[q] = {"ids": [r.id for r in found_py], "scores": [r.score for r in found_py],
                         "also_in": [r.also_in for r in found_py], "matched": [r.matched for r in found_py],
                         "shown": [[text, [list(s) for s in highlight_spans(text, u, searcher.spec)]]
                                   for text in shown],
                         "same_rule": [[[e["id"], e["source"], e["text"]] for e in r.same_rule] for r in found_py]}
        narrowed = [[r.id for r in searcher.search(q, limit=LIMIT, **options)] for q, options in FILTERED]
        allowed = [sorted(searcher._allowed((o.get("game", "meccg"),), o.get("source"))) for _, o in FILTERED]
        results = {q: {"ids": [r["id"] for r in c["results"]], "scores": [r["score"] for r in c["results"]],
                       "also_in": [r["also_in"] for r in c["results"]], "matched": [r["matched"] for r in c["results"]],
                       "shown": [[r["shown"], r["spans"]] for r in c["results"]], "understanding": c["understanding"],
                       "same_rule": [r["same_rule"] for r in c["results"]]}
                   for q, c in zip(queries, found)}
        (tmp / "both.json").write_text(json.dumps({
            "js": results, "python": python,
            "filtered": {"js": [[r["id"] for r in c["results"]] for c in found[len(queries):]], "python": narrowed},
            "allowed": {"js": js["allowed"], "python": allowed}, "keeps_prefix": js["keeps_prefix"],
            "every_word": js["every_word"], "limits": js["limits"]}, ensure_ascii=False), "utf-8")

    found = json.loads((made_once(tmp_path_factory, "parity", make) / "both.json").read_text("utf-8"))
    return {**found, "searcher": Searcher.open(real_kb), "eval": eval_questions()}


def test_every_question_gets_the_same_top_five(both: dict[str, Any]) -> None:
    questions = both["eval"]
    if not questions:
        pytest.skip(NO_EVAL)
    differ = []
    for q in questions:
        py = both["python"][q]["ids"], both["python"][q]["same_rule"]
        js = both["js"][q]["ids"], both["js"][q]["same_rule"]
        if py != js:
            differ.append((q, py, js))
    for q, py, js in differ:
        print(f"\n{q!r}\n  python {py}\n  js     {js}")
    same = 1 - len(differ) / len(questions)
    print(f"\nparity: {len(questions) - len(differ)}/{len(questions)} identical top {LIMIT} ({same:.1%})")
    assert not differ


@pytest.mark.parametrize("q", FOCUSED, ids=IDS)
def test_understanding_is_the_same(both: dict[str, Any], q: str) -> None:
    """Every field of the understanding: terms and weights, cards, near names, corrections, ..."""
    python = json.loads(json.dumps(asdict(both["searcher"].understand(q))))
    assert both["js"][q]["understanding"] == python


@pytest.mark.parametrize("q", FOCUSED, ids=IDS)
def test_results_scores_and_folding_are_the_same(both: dict[str, Any], q: str) -> None:
    py, js = both["python"][q], both["js"][q]
    assert js["ids"] == py["ids"]
    assert js["scores"] == pytest.approx(py["scores"], rel=1e-12)
    assert js["also_in"] == py["also_in"]
    assert js["same_rule"] == py["same_rule"]
    assert js["matched"] == py["matched"]
    assert js["shown"] == py["shown"]  # the text a reader is shown, the same words marked in it


def test_filters_keep_the_same_rulings(both: dict[str, Any]) -> None:
    """A source or game filter: the same top five, each from that source or game only."""
    js, python = both["filtered"]["js"], both["filtered"]["python"]
    assert js == python
    assert both["allowed"]["js"] == both["allowed"]["python"]  # every document each filter lets through
    for (q, options), ids in zip(FILTERED, python):
        assert ids, q
        if "source" in options:
            assert all(i.startswith(options["source"] + ".") for i in ids), (q, ids)
    assert all(i.startswith("lotr-wiki") for i in python[3])


def test_the_build_vouches_for_words_whose_terms_begin_as_they_do() -> None:
    """Stems and compounds' parts keep the promise; a term that begins otherwise breaks it."""
    assert terms_keep_prefix({"hazards": [3, "hazard"], "m/h": [2, "m/h", "m", "h"], "a": [1, "a"], "": [0]})
    assert not terms_keep_prefix({"hazards": [3, "hazard"], "ran": [1, "run"]})
    assert not terms_keep_prefix({"strikes": [2, "strike", "blow"]})
    assert not terms_keep_prefix({"a": [5, "an"]})  # a one-letter word's term must be that letter alone


def test_words_found_the_same_whether_or_not_every_word_is_read(both: dict[str, Any]) -> None:
    """The site's index vouches that a word's terms begin as the word does (so search.js reads only the
    words of a result that may hold a query's terms); reading every word finds the same words."""
    assert both["keeps_prefix"] is True
    assert both["every_word"] == [both["python"][q]["matched"] for q in FOCUSED]
    assert any(m for found in both["every_word"] for m in found)


def test_understanding_of_hand_picked_queries(both: dict[str, Any]) -> None:
    """What the readings are, not only that both sides agree."""
    u = {q: both["js"][q]["understanding"] for q in FOCUSED}
    assert u["can a strike be cancled after the roll?"]["corrections"] == [["cancled", "canceled"]]
    assert [a for a, _ in u["M/H CvCC DI"]["abbreviations"]] == ["M/H", "CvCC", "DI"]
    assert u["Adûnaphel"]["cards"] == ["Adûnaphel"] and u["Adûnaphel"]["card_query"]
    assert u["annotation 18"]["annotations"] == ["18"]
    assert u["rule 2.IV.iii"]["rules"] == u["rule 2.iv.iii"]["rules"] == ["2.IV.iii"]  # as the source writes it
    assert (u["rule 3.V"]["rules"], u["rule 3.v"]["rules"], u["rule 3.I.1"]["rules"]) == (["3.V"], ["3.v"], ["3.I.1"])
    assert u["morgul knive"]["near_cards"] == [["morgul knive", "Morgul-knife"]]
    assert len(u["khamul"]["cards"]) > 1 and all(c.startswith("Khamûl") for c in u["khamul"]["cards"])


def test_the_browser_reads_the_numbers_the_terminal_uses(both: dict[str, Any]) -> None:
    assert both["limits"] == {
        "MAX_QUERY": query.MAX_QUERY, "MAX_NAME_WORDS": query.MAX_NAME_WORDS,
        "FIRST_WORD_NAMES": query.FIRST_WORD_NAMES, "NEAR_RUN": query.NEAR_RUN, "NEAR_TRIES": query.NEAR_TRIES,
        "RARE_NAME_WORD": query.RARE_NAME_WORD,
        "RARE": query.RARE, "COVERAGE_FLOOR": ranking.COVERAGE_FLOOR}


def test_text_helpers_agree(real_site: Path) -> None:
    """clean, strip_marks, fold, fold_key, distance (and near_distance, sounded, reach: a name typed as it
    sounds, with kb.search.query.SOUNDS as the site's index ships it) and the index's buckets on awkward text."""
    texts = ["Gollum’s  Fate!", "Adûnaphel", "Ａｄûｎａｐｈｅｌ", "a\u0301b", "x\x00y\x85z\u3000w\ufeffv", "İstanbul ß",
             "🐉 dragon", "“quoted” ‘single’", "e\u0308\u0301", "a" * 2500, "Straße", "½ and ²", "Plain, ASCII: text"]
    pairs = [("movment", "movement"), ("cancled", "canceled"), ("ab", "ba"), ("abcdef", "badcfe"), ("", "abc"),
             ("kitten", "sitting"), ("🐉a", "a🐉"), ("morgul knive", "morgul knife"), ("gandalph", "gandalf"),
             ("wophfung", "woffung"), ("shellob", "shelob"), ("akorahill", "akhorahil"), ("ghost", "gost"),
             ("mind ring", "minor ring"), ("glorfindal", "glorfindel"), ("the one rign", "the one ring")]
    keys = ["about:gandalf", "strike", "", ":x", "a:", "🐉x", "🐉🐉x", "x:🐉y", "x:y:🐉🐉", "número:1",
            "number:annotation:25a",
            "ß", "s"]
    js = parity.run("helpers", real_site, texts=texts, pairs=pairs, limit=query.MAX_QUERY, keys=keys)
    assert js["clean"] == [query.clean(t) for t in texts]
    assert js["strip"] == [query.strip_marks(t) for t in texts]
    assert js["fold"] == [query.fold(t) for t in texts]
    assert js["key"] == [query.fold_key(t) for t in texts]
    assert js["distance"] == [[query.distance(a, b, limit) for limit in (1, 2, 3)] for a, b in pairs]
    assert js["bucket"] == [bucket(k) for k in keys] and bucket("x:🐉y") == "x🐉y" and bucket("🐉🐉x") == "🐉🐉"
    assert js["near"] == [[query.near_distance(a, b, limit) for limit in (0, 1, 2, 3)] for a, b in pairs]
    assert js["sounded"] == [query.sounded(t) for pair in pairs for t in pair]
    assert js["reach"] == [query.reach(n) for n in range(25)]
    assert js["name_reach"] == [query.name_reach(t) for pair in pairs for t in pair]
