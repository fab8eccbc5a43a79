"""WordNet's look-alikes (R11 "any derivative"): words that only look derived are no fouls."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from voice_host.deck import wordnet
from voice_host.deck.family import families, word_family
from voice_host.deck.lexicon import Lexicon
from voice_host.deck.wordnet import (
    WordNetFacts,
    bundled_kin,
    bundled_lookalikes,
    parse_data_lines,
    parse_index_lines,
    parse_word_lists,
    related,
    unrelated_lookalikes,
    write_word_lists,
)
from voice_host.errors import InputFileError

# Lines in WordNet 3.0's data-file format (offset, file number, kind, word count in
# hex, words with their lex ids, pointers "symbol offset pos source/target", gloss).
NOUNS = [
    "  1 This software and database is being provided to you (the licence lines)",
    "00000001 05 n 01 rain 0 001 + 00000003 a 0101 | water falling in drops",
    "00000002 06 n 01 dial 0 000 | the face of a timepiece",
    "00000004 06 n 01 die 0 000 | a small cube with 1 to 6 spots on the faces",
    "00000005 06 n 01 pen 0 000 | a writing implement with a point",
    "00000006 06 n 01 penny 0 000 | a coin worth one hundredth of a pound",
    "00000007 18 n 01 baker 0 001 + 00000008 v 0101 | someone who bakes commercially",
    "00000009 06 n 01 bakery 0 000 | a workplace where baked goods are produced",
    "00000010 05 n 03 feather 0 plume 0 plumage 0 000 | the covering of birds",
]
VERBS = ["00000008 30 v 01 bake 0 001 + 00000007 n 0101 01 + 08 00 | cook in an oven"]
ADJECTIVES = [
    '00000003 00 a 01 rainy 0 001 + 00000001 n 0101 | wet by showers; "a rainy day"',
]
# Index lines: lemma, pos, synset count, pointer kinds, sense counts, synsets (commonest first).
INDEX = [
    "rain n 1 1 + 1 0 00000001",
    "baker n 1 1 + 1 0 00000007",
    "bake v 1 1 + 1 0 00000008",
    "rainy a 1 1 + 1 0 00000003",
    # a butter that butts: the second sense, linked to "butt", gives the food no kin
    "butter n 2 1 + 2 0 00000012 00000013",
    "butt v 1 1 + 1 0 00000014",
]
BUTTER = [
    "00000012 13 n 01 butter 0 000 | an edible fat",
    "00000013 18 n 01 butter 0 001 + 00000014 v 0101 | a fighter who strikes with the head",
]
BUTT = ["00000014 35 v 01 butt 0 001 + 00000013 n 0101 01 + 08 00 | to strike with the head"]


def facts() -> WordNetFacts:
    lines = [("n", line) for line in NOUNS + BUTTER] + [("v", line) for line in VERBS + BUTT]
    lines += [("a", line) for line in ADJECTIVES]
    return parse_data_lines(lines, parse_index_lines(INDEX))


def test_R11_wordnet_lines_give_words_links_and_definitions() -> None:
    known = facts()
    assert {"rain", "rainy", "dial", "die", "bake", "plumage"} <= known.words
    assert "rainy" in known.links["rain"] and "rain" in known.links["rainy"]
    assert "bake" in known.links["baker"]
    assert "timepiece" in known.definitions["dial"]
    assert "day" not in known.definitions["rainy"]  # the quoted example is no definition
    assert "plume" in known.definitions["plumage"]  # its synonyms are


def test_R11_kin_is_linked_to_the_commonest_sense_and_begins_alike() -> None:
    known = facts()
    assert known.kin["rain"] == {"rainy"} and known.kin["rainy"] == {"rain"}
    assert known.kin["baker"] == {"bake"} and known.kin["bake"] == {"baker"}
    assert "butter" not in known.kin  # its link is from its second sense
    assert known.kin["butt"] == {"butter"}  # butt's only sense is linked


def test_R11_wordnet_index_line_not_in_its_format_is_one_error() -> None:
    with pytest.raises(InputFileError, match="not a lemma line"):
        parse_index_lines(["rain n many"])


def test_R11_related_by_link_definition_kin_or_synonym() -> None:
    known = facts()
    assert related("rain", "rainy", known)  # a derivation link
    assert related("baker", "bakery", known)  # baker -> bake; a bakery's "baked goods"
    assert related("plume", "plumage", known)  # synonyms
    assert not related("die", "dial", known)
    assert not related("pen", "penny", known)


def test_R11_unrelated_lookalikes_are_those_of_checked_endings() -> None:
    pairs = unrelated_lookalikes(facts())
    assert pairs["die"] == {"dial"}
    assert pairs["pen"] == {"penny"}
    assert "rain" not in pairs and "baker" not in pairs and "plume" not in pairs


def test_R11_wordnet_line_not_in_its_format_is_one_error() -> None:
    with pytest.raises(InputFileError, match="not a synset line"):
        parse_data_lines([("n", "00000001 05 n zz rain")])


def test_R11_kept_list_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "lookalikes.txt.gz"
    write_word_lists({"die": {"dial"}, "pen": {"penny", "penal"}, "rain": set()}, path, "test")
    text = gzip.decompress(path.read_bytes()).decode()
    assert "Princeton University" in text  # WordNet's licence notice travels with it
    assert parse_word_lists(text) == {
        "die": frozenset({"dial"}),
        "pen": frozenset({"penal", "penny"}),
    }
    write_word_lists({"die": {"dial"}}, tmp_path / "again.txt.gz", "test")
    write_word_lists({"die": {"dial"}}, tmp_path / "twice.txt.gz", "test")
    assert (tmp_path / "again.txt.gz").read_bytes() == (tmp_path / "twice.txt.gz").read_bytes()


def test_R11_kept_list_bad_line_is_one_error() -> None:
    with pytest.raises(InputFileError, match="line 2"):
        parse_word_lists("# notice\ndie dial\n")


def test_R11_remaking_without_wordnet_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert wordnet.main([str(tmp_path / "no-wordnet")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "apt-get install wordnet-base" in err
    assert err.count("\n") == 1


def test_R11_bundled_list_holds_wordnet_lookalikes() -> None:
    kept = bundled_lookalikes()
    assert {"dial"} <= kept["die"] and {"jackal"} <= kept["jack"] and {"comic"} <= kept["coma"]
    assert "rainy" not in kept.get("rain", frozenset())
    assert "postal" not in kept.get("post", frozenset())


def test_R11_lookalikes_are_no_derivations_of_the_word(lexicon: Lexicon) -> None:
    # "turn the dial" describing Die, "a jackal" describing Jack: no foul
    assert "dial" not in word_family("die", lexicon)
    assert "jackal" not in word_family("jack", lexicon)
    # the same rules without the list take them for derivatives
    assert "dial" in word_family("die", lexicon, lookalikes={})
    assert "jackal" in word_family("jack", lexicon, lookalikes={})
    # and true derivatives stay
    assert {"rainy", "postal"} <= word_family("rain", lexicon) | word_family("post", lexicon)


def test_R11_bundled_kin_holds_derivatives_of_the_commonest_sense() -> None:
    kin = bundled_kin()
    assert "pianist" in kin["piano"] and "musician" in kin["music"]
    assert "inventor" in kin["invent"] and "invent" in kin["invention"]
    assert "live" not in kin.get("liver", frozenset())


def test_R11_kin_joins_the_family_with_its_inflections(lexicon: Lexicon) -> None:
    # "she's a famous pianist" describing Piano is a derivative
    assert {"pianist", "pianists"} <= word_family("piano", lexicon)
    assert "pianist" not in word_family("piano", lexicon, kin={})
    assert {"invent", "invented"} <= word_family("invention", lexicon)


def test_R11_names_take_kin_only_when_no_everyday_word(lexicon: Lexicon) -> None:
    assert {"kenyan", "kenyans"} <= families(["kenya"], lexicon, names=True)
    assert "freudian" in families(["sigmund", "freud"], lexicon, names=True)
    # Harry Styles is no "harrier", Taylor Swift no "swiftly"
    assert "harrier" not in families(["harry", "styles"], lexicon, names=True)
    assert "swiftly" not in families(["taylor", "swift"], lexicon, names=True)


def test_R11_an_er_word_is_a_lookalike_only_where_no_agent_can_be() -> None:
    kept = bundled_lookalikes()
    assert "ladder" in kept["lad"] and "master" in kept["mast"]  # no verb "lad", "mast"
    assert "matter" in kept["mat"]  # far commoner than "matting"
    assert "swimmer" not in kept.get("swim", frozenset())
    assert "fresher" not in kept.get("fresh", frozenset())  # fresh's own comparative


def test_R11_entries_no_deck_holds() -> None:
    # session 61's audit: derivatives of every kind a describer says, and look-alikes
    from voice_host.deck.knowledge import make_entry

    forbidden = [
        ("Persia", "World", "persian"),  # a name's ending, though rarer than Zipf 4
        ("Burma", "World", "burmese"),  # -ese after a final -a
        ("Pensioner", "Person", "pension"),  # a one-word Person takes kin
        ("Erupt", "Action", "eruption"),
        ("Act", "Action", "actor"),
    ]
    for text, category, said in forbidden:
        assert said in make_entry(text, category).forms, (text, said)
    free = [("Mat", "Object", "matter"), ("Dam", "Object", "damages"), ("Pun", "Object", "punish")]
    for text, category, said in free:
        assert said not in make_entry(text, category).forms, (text, said)
