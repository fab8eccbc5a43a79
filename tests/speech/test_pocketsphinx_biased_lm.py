"""The context-biased language model: its ARPA text and what goes into it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from voice_host.speech import biased_lm

COMMON = {"the": 0.05, "it": 0.01, "camper": 1e-5, "is": 0.01}


def parse_arpa(text: str) -> dict[int, dict[tuple[str, ...], tuple[float, float | None]]]:
    """order -> n-gram -> (log10 prob, log10 backoff or None)."""
    grams: dict[int, dict[tuple[str, ...], tuple[float, float | None]]] = {}
    order = 0
    for line in text.splitlines():
        if line.startswith("\\") and line.endswith("-grams:"):
            order = int(line[1])
            grams[order] = {}
        elif order and line and not line.startswith("\\"):
            parts = line.split()
            words = tuple(parts[1 : 1 + order])
            bow = float(parts[1 + order]) if len(parts) > 1 + order else None
            grams[order][words] = (float(parts[0]), bow)
    return grams


def spec(mass: float = 0.2) -> biased_lm.LmSpec:
    return biased_lm.LmSpec(
        phrases=(("kangaroo",), ("host", "pass"), ("host", "push", "blue"), ("starts", "with")),
        distractors=COMMON,
        sound_alikes=("camper", "canker"),
        context_mass=mass,
    )


def test_header_counts_match_the_sections() -> None:
    text = biased_lm.arpa_text(spec())
    grams = parse_arpa(text)
    for order, found in grams.items():
        assert f"ngram {order}={len(found)}" in text


def test_unigrams_sum_to_one_and_context_words_get_their_share() -> None:
    grams = parse_arpa(biased_lm.arpa_text(spec(0.3)))
    probs = {w[0]: 10**lp for w, (lp, _) in grams[1].items() if w[0] != "<s>"}
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-3)
    context = ("kangaroo", "host", "pass", "push", "blue", "starts", "with")
    assert sum(probs[w] for w in context) == pytest.approx(0.3, rel=0.01)
    # The bias: a card word is likelier than the common word it sounds like.
    assert probs["kangaroo"] > probs["camper"]


def test_phrases_hold_together_and_backoffs_normalise() -> None:
    grams = parse_arpa(biased_lm.arpa_text(spec()))
    uni = {w[0]: 10**lp for w, (lp, _) in grams[1].items()}
    # "host" is followed by one of its commands most of the time, shared between them.
    after_host = {w[1]: 10**lp for w, (lp, _) in grams[2].items() if w[0] == "host"}
    assert set(after_host) == {"pass", "push"}
    assert sum(after_host.values()) == pytest.approx(biased_lm.PHRASE_HOLD, rel=0.01)
    # backoff mass + explicit bigrams = 1 for the history "host"
    bow = 10 ** (grams[1][("host",)][1] or 0.0)
    rest = sum(p for w, p in uni.items() if w not in after_host and w != "<s>")
    assert sum(after_host.values()) + bow * rest == pytest.approx(1.0, rel=0.01)
    assert ("host", "push", "blue") in grams[3]


def test_sound_alikes_come_from_the_dictionary_by_phones(tmp_path: Path) -> None:
    path = tmp_path / "mini.dict"
    path.write_text(
        "kangaroo K AE NG G ER UW\n"
        "kangaroos K AE NG G ER UW Z\n"
        "canker K AE NG K ER\n"
        "telephone T EH L AH F OW N\n"
        "kangaroo(2) K AE NG G ER UW\n"
    )
    found = biased_lm.sound_alikes(path, {"kangaroo": ("K", "AE1", "NG", "G", "ER0", "UW2")})
    assert found[0] == "kangaroos"
    assert "canker" in found and "telephone" not in found and "kangaroo" not in found


def test_build_spec_keeps_only_pronounceable_phrases_and_adds_letters() -> None:
    known = {"kangaroo": "K AE NG G ER UW", "the": "DH AH", "b": "B IY", "host": "HH OW S T"}
    made = biased_lm.build_spec(
        [("kangaroo",), ("host", "zzyzx")], known.get, None, distractors=50, context_mass=0.1
    )
    assert made.phrases == (("kangaroo",),)
    assert "b" in made.distractors and "the" in made.distractors
    assert made.context_mass == 0.1
    assert math.isclose(made.distractors["b"], biased_lm.LETTER_FREQUENCY) or (
        made.distractors["b"] > biased_lm.LETTER_FREQUENCY
    )


def test_letter_talk_is_held_together_loosely_and_shares_its_own_mass() -> None:
    talk = biased_lm.talk_phrases(("a", "b", "c", "o", "k"))
    assert ("it", "starts", "with", "a", "b") in talk and ("b", "c") in talk
    assert ("a", "b") not in talk  # "a" is a word: "a b..." is not spelling
    assert ("o", "k") not in talk and ("b", "o") not in talk  # "okay" must not become "o k"
    made = biased_lm.LmSpec(
        phrases=(("kangaroo",), ("host", "pass")), distractors=COMMON, talk=talk, talk_mass=0.05
    )
    grams = parse_arpa(biased_lm.arpa_text(made))
    # after "starts with a" a letter is likely, each as likely as the others
    after = {w[2]: 10**lp for w, (lp, _) in grams[3].items() if w[:2] == ("with", "a")}
    assert set(after) == {"a", "b", "c", "o", "k"}
    assert sum(after.values()) == pytest.approx(biased_lm.TALK_HOLD, rel=0.01)
    # a context phrase keeps its stronger hold
    host = {w[1]: 10**lp for w, (lp, _) in grams[2].items() if w[0] == "host"}
    assert sum(host.values()) == pytest.approx(biased_lm.PHRASE_HOLD, rel=0.01)
    # talk words that are not context words share the talk mass
    uni = {w[0]: 10**lp for w, (lp, _) in grams[1].items()}
    assert uni["letters"] > 0.05 / 200 and uni["kangaroo"] > uni["letters"]


def test_build_spec_adds_talk_only_when_asked() -> None:
    known = {"kangaroo": "K AE NG G ER UW", "starts": "S T AA R T S", "with": "W IH DH"}
    known |= {"a": "AH", "b": "B IY", "it": "IH T"}
    with_talk = biased_lm.build_spec([("kangaroo",)], known.get, None, distractors=50)
    assert ("it", "starts", "with", "a", "b") in with_talk.talk
    assert all(all(w in known for w in p) for p in with_talk.talk)  # only pronounceable ones
    plain = biased_lm.build_spec([("kangaroo",)], known.get, None, distractors=50, talk=False)
    assert plain.talk == ()


def test_spelling_phrases_spell_the_cards_words_from_their_start() -> None:
    said = biased_lm.spelling_phrases(["post", "o'clock", "x"], biased_lm.LETTERS)
    assert ("p", "o", "s", "t") in said  # the first SPELL_LETTERS letters, "o" included
    assert ("o", "c", "l", "o") in said  # the apostrophe is not a letter
    assert ("it", "starts", "with", "a", "p") in said and ("starts", "with", "p") in said
    assert ("the", "first", "letter", "is", "o") in said
    assert not any(p[-1] == "x" for p in said)  # one letter is not a word to spell
    assert biased_lm.spelling_phrases(["telescope"])[0] == tuple("tele"[: biased_lm.SPELL_LETTERS])


def test_the_cards_own_letters_are_likelier_after_a_letter_and_after_starts_with() -> None:
    letters = ("a", "b", "c", "o", "p", "s", "t")
    made = biased_lm.LmSpec(
        phrases=(("post",),),
        distractors=COMMON,
        talk=biased_lm.talk_phrases(letters),
        spelling=biased_lm.spelling_phrases(["post"], letters),
    )
    grams = parse_arpa(biased_lm.arpa_text(made))
    after_p = {w[1]: 10**lp for w, (lp, _) in grams[2].items() if w[0] == "p"}
    # the card's next letter outweighs any other letter, and the spelling holds harder
    assert after_p["o"] > biased_lm.SPELL_WEIGHT / 2 * after_p["s"]
    assert sum(after_p.values()) == pytest.approx(biased_lm.SPELL_HOLD, rel=0.01)
    assert ("p", "o", "s") in grams[3]  # "p o" goes on as "s"
    # "with a" is innocent far more often: its hold stays the talk's, the initial takes more of it
    after_with_a = {w[2]: 10**lp for w, (lp, _) in grams[3].items() if w[:2] == ("with", "a")}
    assert sum(after_with_a.values()) == pytest.approx(biased_lm.TALK_HOLD, rel=0.01)
    assert after_with_a["p"] > 5 * after_with_a["b"]
    # a letter the card does not spell keeps the talk's loose hold
    after_b = {w[1]: 10**lp for w, (lp, _) in grams[2].items() if w[0] == "b"}
    assert sum(after_b.values()) == pytest.approx(biased_lm.TALK_HOLD, rel=0.01)


def test_build_spec_spells_only_the_words_it_is_given() -> None:
    known = {"post": "P OW S T", "p": "P IY", "o": "OW", "s": "EH S", "t": "T IY"}
    known |= {"starts": "S T AA R T S", "with": "W IH DH", "a": "AH", "it": "IH T"}
    made = biased_lm.build_spec([("post",)], known.get, None, distractors=50, spell=["post"])
    assert ("p", "o", "s", "t") in made.spelling and ("starts", "with", "p") in made.spelling
    # "the first letter is p" has words the dictionary lacks: left out
    assert all(all(w in known for w in p) for p in made.spelling)
    assert biased_lm.build_spec([("post",)], known.get, None, distractors=50).spelling == ()


def test_the_backend_spells_the_cards_own_words_not_and_or_of() -> None:
    from voice_host.speech.pocketsphinx_backend import _spelled_words

    said = _spelled_words(("bucket and spade", "a bucket and spade", "o'clock", "tv"))
    assert said == ("bucket", "spade", "oclock")


def _unigrams(made: biased_lm.LmSpec) -> dict[str, float]:
    grams = parse_arpa(biased_lm.arpa_text(made))
    return {w[0]: 10**lp for w, (lp, _) in grams[1].items() if w[0] != "<s>"}


def test_near_words_weigh_a_share_of_a_card_word_and_rare_forms_less() -> None:
    made = biased_lm.LmSpec(
        phrases=(("love",), ("loved",), ("lovebird",), ("host", "pass")),
        distractors={"the": 0.05, "glove": 1e-5},
        sound_alikes=(*(f"alike{i}" for i in range(50)), "glove"),
        context_mass=0.4,
        near=("glove",),
        rare=("lovebird",),
    )
    probs = _unigrams(made)
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-3)
    # "glove" is no longer a crumb beside the card: the sound decides between them.
    assert probs["glove"] == pytest.approx(biased_lm.NEAR_SHARE * probs["love"], rel=0.01)
    # A rare forbidden form weighs less than the card's own word.
    assert probs["lovebird"] == pytest.approx(biased_lm.FORM_SHARE * probs["love"], rel=0.01)
    assert probs["loved"] == pytest.approx(probs["love"], rel=0.01)
    # Without near words or rare forms the model is as it was.
    plain = _unigrams(
        biased_lm.LmSpec(made.phrases, made.distractors, made.sound_alikes, made.context_mass)
    )
    assert plain["glove"] < plain["love"] / 10 and plain["lovebird"] == pytest.approx(plain["love"])


def test_near_words_are_common_english_words_the_sound_can_tell_apart(tmp_path: Path) -> None:
    path = tmp_path / "mini.dict"
    path.write_text(
        "love L AH1 V\n"
        "glove G L AH1 V\n"
        "dove D AH1 V\n"
        "lovesick L AH1 V S IH0 K\n"
        "luv L AH1 V\n"
        "singer S IH1 NG ER0\n"
        "sinner S IH1 N ER0\n"
        "ringer R IH1 NG ER0\n"
        "dance D AE1 N S\n"
        "dan D AE1 N\n"
        "chance CH AE1 N S\n"
        "glub G L AH1 B\n"
        "kangaroo K AE1 NG G ER0 UW1\n"
        "kangaroos K AE1 NG G ER0 UW1 Z\n"
        "anger AE1 NG G ER0\n"
        "live L IH1 V\n"
    )
    found = biased_lm.near_words(
        path,
        {
            "love": ("L", "AH", "V"),
            "singer": ("S", "IH", "NG", "ER"),
            "dance": ("D", "AE", "N", "S"),
            "kangaroo": ("K", "AE", "NG", "G", "ER", "UW"),
        },
    )
    # Common words one phone away: what a guesser says near the card.
    assert {"glove", "dove", "ringer", "chance"} <= set(found)
    # Not: a homophone ("luv"), a swap of nasals the sound cannot tell ("sinner"),
    # a name ("dan"), a rare word ("glub"), one too far ("lovesick"), the word itself,
    # its own inflection ("kangaroos"), a run of its phones ("anger": a garble of it),
    # another vowel alone ("live": vowels are what the model and accents blur).
    left_out = {"luv", "sinner", "dan", "glub", "lovesick", "love", "singer", "kangaroos"}
    left_out |= {"anger", "live"}
    assert not left_out & set(found)
    # The closest first, then the most common: "glove" (an added phone) before "dove".
    assert found.index("glove") < found.index("dove")


def test_build_spec_finds_near_words_of_the_answers_and_rare_forms() -> None:
    from voice_host.deck.lexicon import cmudict_path

    known = {
        "frog": "F R AA G",
        "frogs": "F R AA G Z",
        "frogging": "F R AA G IH NG",
        "fog": "F AA G",
        "host": "HH OW S T",
        "the": "DH AH",
    }
    made = biased_lm.build_spec(
        [("frog",), ("frogs",), ("frogging",), ("host",)],
        known.get,
        cmudict_path(),
        distractors=50,
        spell=("frog",),
        forms=("frogs", "frogging"),
    )
    assert "fog" in made.near  # a word the decoder knows, near the answer
    assert made.rare == ("frogging",)  # "frogs" is common, "frog" an answer word
    probs = _unigrams(made)
    assert probs["fog"] == pytest.approx(biased_lm.NEAR_SHARE * probs["frog"], rel=0.01)
