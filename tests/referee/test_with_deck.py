"""A few judgements through the real word knowledge (``voice_host.deck.knowledge.make_entry``)."""

from __future__ import annotations

import pytest

from tests.referee.conftest import free
from voice_host.referee import (
    CmuDict,
    Referee,
    Situation,
    default_adjective_lookup,
    default_name_lookup,
    default_phone_lookup,
    default_word_frequency,
)

knowledge = pytest.importorskip("voice_host.deck.knowledge", reason="deck word knowledge absent")


@pytest.mark.parametrize(
    ("entry", "text", "expected"),
    [
        # a guess of a card word
        ("Telescope", "is it a telescope", "guess"),
        # the word inside a clue
        ("Car", "you drive a car to work", "foul:word"),
        # a plural in a clue is a derivative foul
        ("Car", "the cars are stuck in traffic", "foul:derivative"),
        # "carpet" for "car": nothing
        ("Car", "is it a carpet", "nothing"),
        # a multi-word answer with its article
        ("Eiffel Tower", "is it the eiffel tower", "guess"),
        # a form as a short guess
        ("Swim", "swimmer", "near_miss"),
        # a transcriber that writes accents (Moonshine: "is it a crème brûlée") is
        # read as the deck reads the card: "café" had been "caf", no card's word
        ("Café", "is it a café", "guess"),
        ("Crème brûlée", "is it a crème brûlée", "guess"),
        # an initialism said by its letters is the card's word: a guess (it was letter
        # talk, a foul, and the card was lost) ...
        ("DVD", "a d v d", "guess"),
        ("NASA", "is it n a s a", "guess"),
        ("BBC", "is it the b b c", "guess"),
        # ... in the describer's sentence the word itself ...
        ("DVD", "you watch films on a d v d at home", "foul:word"),
        # ... and after "spelled" still spelling
        ("DVD", "it is spelled d v d", "foul:letter"),
        # a card in ordinary letters spelled out stays a letter foul
        ("Cat", "c a t", "foul:letter"),
        # a card of everyday words only (the film It): the "it" of "is it chess" is no
        # guess of it; said at the end of the guess, it is
        ("It", "is it chess", "nothing"),
        ("It", "is that it", "nothing"),
        ("It", "got it", "nothing"),
        ("It", "stephen king wrote it", "nothing"),
        ("It", "is it it", "guess"),
        ("It", "it", "guess"),
        ("Us", "is it us", "guess"),
        ("Us", "tell us", "nothing"),
        ("Us", "is it us or them", "nothing"),
        # the letters after "the letters are" are spelling, and a dotted initialism is one
        ("NASA", "the letters are n a s a", "foul:letter"),
        ("U.S.A.", "is it the u s a", "guess"),
        # a number's words apart are no foul; the number whole is
        ("21st Century", "the first time i went there it was great", "nothing"),
        ("21st Century", "is it the twenty first century", "guess"),
        ("101 Dalmatians", "one of the disney films with puppies", "nothing"),
        # a stutter is no roman numeral of the card ("ii" of World War II)
        ("World War II", "i i think it is big", "nothing"),
        ("World War II", "is it world war two", "guess"),
        # the card's word glued to the word beside it makes another word the guesser
        # said, which the card-biased recogniser split around the card's: "water
        # melon" is a watermelon, no guess of Water; "angel fish", "star fish" ...
        ("Water", "water melon", "near_miss"),
        ("Angel", "is it an angel fish", "near_miss"),
        ("Fish", "star fish", "near_miss"),
        # ... but not with a guess's own words around it ("a gain" is no "again"),
        # nor with a word that makes nothing with it
        ("Gain", "a gain", "guess"),
        ("Water", "water please", "guess"),
        ("Water", "is it water right", "guess"),
        ("Melon", "water melon", "near_miss"),
        # the answer said twice is no word made of its ends ("decant")
        ("Ant and Dec", "ant and dec ant and dec", "guess"),
        # a describer who says the word glued to another still fouls
        ("Water", "you drink it and a water melon is full of it", "foul:word"),
    ],
)
def test_with_make_entry(entry: str, text: str, expected: str) -> None:
    e = knowledge.make_entry(entry, "Object")
    js = Referee(default_phone_lookup()).judge(free(text), Situation(entry=e))
    assert [j.label for j in js] == [expected]


@pytest.mark.parametrize(
    ("entry", "category", "text", "expected"),
    [
        # R11: the pronoun of a phrase is no word of the card: the describer of
        # "Thank you" cannot avoid "you", nor of "Brush your teeth" "your"
        ("Thank you", "Action", "you say it when someone gives you a present", "nothing"),
        # ("toothbrush" would be a foul: a compound of "tooth")
        ("Brush your teeth", "Action", "you do it every morning before your breakfast", "nothing"),
        # ... while the phrase's own words still are fouls
        ("Thank you", "Action", "you say thank to the person", "foul:word"),
        # an abbreviation said is the card's own word, a word foul, not a derivative
        ("St Paul's Cathedral", "World", "a church in london for saint paul", "foul:word"),
        ("Dr Seuss", "Person", "a doctor who wrote the cat in the hat", "foul:word"),
        # ... and "who" of Doctor Who is free: describers say "a man who ..."
        ("Doctor Who", "Person", "a time lord who travels in a blue box", "nothing"),
        # the name of a possessive is the card's word ("Noah built a boat")
        ("Noah's Ark", "Random", "noah built a big boat for the animals", "foul:word"),
        # R11: "a bit" is no past of Bite, "a wound" none of Wind (session 62's audit) ...
        ("Bite your nails", "Action", "you do it when you are a bit nervous", "nothing"),
        ("Gone with the Wind", "Random", "a soldier with a wound in an old film", "nothing"),
        # ... while the past said as a past still is
        ("Bite your nails", "Action", "my dog bit me on the hand yesterday", "foul:derivative"),
        # the guess said with the abbreviation spoken is right
        ("Mr Bean", "Person", "is it mister bean", "guess"),
        # a letter of a name written as the letter's name is the letter ...
        ("Malcolm X", "Person", "malcolm ex", "guess"),
        ("Mr. T", "Person", "is it mister tee", "guess"),
        # ... but no other word that starts alike
        ("Malcolm X", "Person", "malcolm eggs", "near_miss"),
        ("Mr. T", "Person", "mister bee", "near_miss"),
        # "for" joins, it is not the card's word ("Fit for a king")
        ("Fit for a king", "Random", "what you do for a queen too", "nothing"),
        # R11: "100" is "one hundred" or "a hundred": "one" is free, "hundred" is not
        ("100 metres", "Random", "the sprint race one lap of the track", "nothing"),
        ("100 metres", "Random", "the sprint race of a hundred", "foul:word"),
        # a guesser saying it without the "one" is right
        ("100 metres", "Random", "is it the hundred metres", "guess"),
        # a guess that trails off: "or something", "or what"
        ("Christian Dior", "Person", "is it christian dior or something", "guess"),
        ("Kangaroo", "Nature", "a kangaroo or what", "guess"),
        # a long name counts as one word in time too, as it does in number
        ("Leaning Tower of Pisa", "World", "i think it's the leaning tower of pisa", "guess"),
        ("Little Red Riding Hood", "Person", "it's little red riding hood isn't it", "guess"),
        # ... while a clue that goes on is still the describer's
        ("Leaning Tower of Pisa", "World", "the leaning tower of pisa is in italy", "foul:word"),
        # a guesser calls the answer out again and again: one guess, never the
        # describer's foul for the words after the first ("kangaroo kangaroo")
        ("Kangaroo", "Nature", "kangaroo kangaroo kangaroo", "guess"),
        ("Christian Dior", "Person", "christian dior christian dior", "guess"),
        ("Kangaroo", "Nature", "is it kangaroo is it kangaroo", "guess"),
        ("The Hulk", "Person", "the hulk the hulk", "guess"),
        ("Kangaroo", "Nature", "kangaroo oh a kangaroo", "guess"),
        # ... and asks if that was it
        ("Kangaroo", "Nature", "kangaroo is that it", "guess"),
        ("Kangaroo", "Nature", "is it a kangaroo is that right", "guess"),
        # one utterance holds the clue and a guess called out as it ends: the
        # guesser's doubt marks the guess ("maybe", "i think it's", "what about")
        (
            "Albert Einstein",
            "Person",
            "scientist who explained relativity maybe albert einstein",
            "guess",
        ),
        (
            "Kangaroo",
            "Nature",
            "it hops around with a baby in its pouch i think it's a kangaroo",
            "guess",
        ),
        # ... while "it's a" ending the clue is how a describer slips
        (
            "Kangaroo",
            "Nature",
            "it hops around with a baby in its pouch it's a kangaroo",
            "foul:word",
        ),
        # a part of the body called out with its "your" is a guess ...
        ("Mouth", "Object", "your mouth", "guess"),
        ("Thumb", "Object", "is it your thumb", "guess"),
        # ... and in a sentence the describer's clue frame
        ("Mouth", "Object", "you open your mouth to eat", "foul:word"),
        # wrong tries before the answer in a called-out list are no fouls: the
        # utterance is the guesser's ("new york? new jersey!")
        ("New Jersey", "World", "new york new jersey", "guess"),
        ("Frying pan", "Object", "saucepan wok frying pan", "guess"),
        ("Snowy owl", "Nature", "barn owl eagle snowy owl", "guess"),
        # a question tag the recogniser garbled ("isn't it" written "is did",
        # "is that it" written "not it") still ends a guess ...
        ("Jerusalem", "World", "it's jerusalem is did", "guess"),
        ("Emperor", "Person", "the emperor not it", "guess"),
        # ... and so does one written as other words that sound like it
        # ("nest? is that it?" heard "nest is that good"; table talk, tune audio)
        ("Nest", "Nature", "nest is that good", "guess"),
        ("Boxer", "Person", "boxer is knotted", "guess"),
        ("Cook", "Person", "the cook as that it", "guess"),
        # ... but a short clue that goes on with words that mean something does not
        ("Banana", "Object", "a banana is yellow", "foul:word"),
        ("Hammer", "Object", "a hammer is a tool", "foul:word"),
        ("Nest", "Nature", "a nest is a home", "foul:word"),
        # R11: a hint about the card's words is the describer's, however short
        ("Red Square", "World", "the first word is red", "foul:word"),
        ("Pumpkin pie", "Object", "last word pie", "foul:word"),
        # the card Rhyme asked as a question is a guess, not rhyme talk
        ("Rhyme", "Action", "is it rhyme", "guess"),
        # R11: a common word the describer really said is that word, not the
        # card's: "place" is no "palace", "island" no "Ireland", "a turn" no "Saturn"
        ("Palace", "World", "the king lives in a big place in the city", "nothing"),
        ("Ireland", "World", "it is an island west of britain", "nothing"),
        ("Saturn", "World", "you take a turn round the sun", "nothing"),
        # ... nor are several common words together: "saw a turn", "night there"
        ("Saturn", "World", "we saw a turn of the moon", "nothing"),
        ("Nightmare", "Random", "you wake up in the night there in your bed", "nothing"),
        ("Waiter", "Person", "he brings you water and the menu", "nothing"),
        # the bear of the cards is the animal: "born" is the verb's
        ("Polar bear", "Nature", "the cubs are born in the arctic snow", "nothing"),
        # ... and a guesser's wrong try is no correct guess
        ("Monkey", "Nature", "is it money", "nothing"),
        # ... nor a less common word, seen once per million words or more (real
        # people calling out "camels" and "onions", written right: Castle, Opinion)
        ("Castle", "World", "camels", "nothing"),
        ("Opinion", "Random", "onions", "nothing"),
        # a homophone cannot be told apart: it stands
        ("Knight", "Person", "is it a night", "guess"),
        # a recogniser's misspelling that is no common word still counts
        ("Glacier", "Nature", "is it a glazier", "guess"),
        ("Telescope", "Object", "is it a tell a scope", "guess"),
    ],
)
def test_words_a_player_says(entry: str, category: str, text: str, expected: str) -> None:
    # the host's referee: phones and word frequency
    e = knowledge.make_entry(entry, category)
    referee = Referee(default_phone_lookup(), default_word_frequency())
    js = referee.judge(free(text), Situation(entry=e))
    assert [j.label for j in js] == [expected]


def test_without_a_word_frequency_lookup_spelling_alone_still_decides() -> None:
    # the referee runs without wordfreq too: then "place" is read as Palace
    e = knowledge.make_entry("Palace", "World")
    js = Referee(default_phone_lookup()).judge(
        free("the king lives in a big place in the city"), Situation(entry=e)
    )
    assert [j.label for j in js] == ["foul:word"]


@pytest.mark.parametrize(
    "text", ["a clock is a clock", "a clock a clock tells the time", "clock no not clock"]
)
def test_the_word_twice_in_a_sentence_is_the_describers_first(text: str) -> None:
    # R11: only a guess's own joins ("is it", "oh", an article) make a repeat a
    # guesser's; in a sentence the first "clock" is the describer's foul, and it
    # comes first (the host takes it first: the card is gone when the second counts)
    e = knowledge.make_entry("Clock", "Object")
    js = Referee(default_phone_lookup(), default_word_frequency()).judge(
        free(text), Situation(entry=e)
    )
    assert js[0].label == "foul:word"
    assert js[0].t < min((j.t for j in js[1:]), default=99.0)


def test_the_evidence_names_a_form_as_a_form_and_counts_one_word() -> None:
    # "blinked" is an accepted answer for the Action card Blink (a guesser may
    # say it) and a derivative in a clue: the foul's evidence called it "the
    # answer" while its kind said derivative
    e = knowledge.make_entry("Blink", "Action")
    referee = Referee(default_phone_lookup(), default_word_frequency())
    clue = referee.judge(
        free("you do it with your eyes when you blinked at the light"), Situation(entry=e)
    )
    assert [j.label for j in clue] == ["foul:derivative"]
    assert "'blinked' (a form of 'Blink')" in clue[0].evidence
    guess = referee.judge(free("blinked"), Situation(entry=e))
    assert [j.label for j in guess] == ["guess"]
    assert "(1 word)" in guess[0].evidence


@pytest.mark.parametrize(
    ("entry", "text", "expected"),
    [
        # R11: a describer's short sentence with the card word's 's for "is"
        ("Mouse", "a mouse's tiny", "foul:derivative"),
        ("Banana", "and banana's yellow", "foul:derivative"),
        # ... but a stray word after a called-out answer is the recogniser's
        # ("goodbye, is that it?" written "goodbye's repeat")
        ("Goodbye", "goodbye's repeat", "guess"),
        # and the card word with its 's alone, or with a question tail, is a guess
        ("Banana", "banana's right", "guess"),
    ],
)
def test_R11_the_card_words_s_before_an_adjective_is_is(
    entry: str, text: str, expected: str
) -> None:
    assert first_label(entry, "Object", text) == expected


def first_label(entry: str, category: str, text: str) -> str:
    """The first judgement the host's referee (phones, word frequency, adjectives)
    makes of ``text`` said on the card ``entry``."""
    e = knowledge.make_entry(entry, category)
    referee = Referee.default()
    js = [j for j in referee.judge(free(text), Situation(entry=e)) if j.type != "nothing"]
    assert js, f"nothing judged in {text!r}"
    return js[0].label


def test_the_adjective_lookup_knows_describing_words() -> None:
    adjective = default_adjective_lookup()
    assert adjective is not None
    assert all(adjective(w) for w in ("yellow", "tiny", "famous", "long"))
    assert not any(adjective(w) for w in ("repeat", "except", "now", "dog", ""))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # R7: a guesser's list, asked, its last guess joined by "and"
        ("is it a lion a tiger and an elephant", "guess"),
        # ... as Moonshine wrote espeak's "an elephant" in a room with reverb
        ("is it a lion a tiger and elephant", "guess"),
        # not asked: a describer's sentence listing things
        ("a lion a tiger and an elephant", "foul:word"),
        # two "and"s and a verb: a sentence, asked or not
        ("is it grey and has a trunk and an elephant", "foul:word"),
    ],
)
def test_R7_an_asked_list_may_end_with_and(text: str, expected: str) -> None:
    assert first_label("Elephant", "Nature", text) == expected


def test_the_default_referee_has_all_its_word_knowledge() -> None:
    # what the live host and `voice-host listen` judge with: phones, how common a
    # word is, and which words are adjectives; a given phone lookup is kept
    referee = Referee.default()
    assert referee.phones is default_phone_lookup()
    assert referee.frequency is not None and referee.frequency("the") > referee.frequency("zygote")
    assert referee.adjective is not None and referee.adjective("blue")
    assert not referee.adjective("telescope")
    phones = CmuDict()
    assert Referee.default(phones).phones is phones


@pytest.mark.parametrize(
    ("entry", "text", "expected"),
    [
        # another person of the same surname is no guess of the card, though the
        # surname alone is an answer (session 62's audit)
        ("Venus Williams", "serena williams", "near_miss"),
        ("David Beckham", "is it victoria beckham", "near_miss"),
        # ... nor another person of a name the card is guessed by alone
        ("Queen Victoria", "victoria beckham", "near_miss"),
        ("Princess Diana", "diana ross", "near_miss"),
        ("Bart Simpson", "homer simpson", "near_miss"),  # a first name that is a word too
        # surnames called out one after another are guesses, the last one right
        ("Alfred Hitchcock", "spielberg kubrick hitchcock", "guess"),
        ("Venus Williams", "will williams", "guess"),  # "will" is read as the word
        # the card's own name, the surname alone, or with a guess's words, is right
        ("Venus Williams", "venus williams", "guess"),
        ("Venus Williams", "williams", "guess"),
        ("Venus Williams", "is it williams", "guess"),
        ("Venus Williams", "um williams", "guess"),  # a filler is no first name
        ("Queen Victoria", "victoria", "guess"),
    ],
)
def test_R7_a_namesake_is_another_person(entry: str, text: str, expected: str) -> None:
    e = knowledge.make_entry(entry, "Person")
    referee = Referee(
        default_phone_lookup(),
        default_word_frequency(),
        default_adjective_lookup(),
        default_name_lookup(),
    )
    assert [j.label for j in referee.judge(free(text), Situation(entry=e))] == [expected]


def test_without_a_name_lookup_a_namesake_stands() -> None:
    # the rule needs to know names from everyday words: without the lookup the
    # surname alone decides, as before
    e = knowledge.make_entry("Venus Williams", "Person")
    js = Referee(default_phone_lookup()).judge(free("serena williams"), Situation(entry=e))
    assert [j.label for j in js] == ["guess"]
