"""The referee's judgements from text and timings alone: one table row per case."""

from __future__ import annotations

import pytest

from tests.referee.conftest import (
    CAR,
    CARPET,
    EIFFEL,
    EINSTEIN,
    GLACIER,
    KANGAROO,
    POST,
    SWIM,
    TELESCOPE,
    entry,
    free,
    phones,
)
from voice_host.deck.model import Entry
from voice_host.referee import Phase, Referee, Situation

TEAMS = ("red", "blue")
#: Einstein with the possessive-less "alberts" among its forms, as the deck build gives it.
#: Bus, with the homophone "buss" among its forms, as the deck build gives it.
BUS = Entry(
    "Bus",
    "Object",
    ("bus", "buses", "the bus"),
    ("buses", "buss", "busy"),
    {"bus": ("B", "AH", "S"), "buss": ("B", "AH", "S"), "busy": ("B", "IH", "Z", "IY")},
)
BOW_AND_ARROW = Entry(
    "Bow and arrow",
    "Object",
    ("bow and arrow", "a bow and arrow"),
    ("bows", "arrows", "arrowhead"),
    {},
)
BUCKET_AND_SPADE = Entry(
    "Bucket and spade",
    "Object",
    ("bucket and spade", "a bucket and spade"),
    ("buckets", "spades"),
    {},
)
EINSTEIN_FORMS = Entry(
    "Albert Einstein",
    "Person",
    ("albert einstein", "einstein"),
    ("albert", "alberts", "einstein's"),
    EINSTEIN.pronunciations,
)

#: An object whose word is also a verb: its -ing and -ed forms say so.
WATCH = entry("Watch", ("watch", "watches"), ("watched", "watching"))
#: Swim as the deck has it: an action, whose answer is a verb.
SWIM_ACTION = Entry("Swim", "Action", SWIM.answers, SWIM.forms, SWIM.pronunciations)
OVERTIME = entry("Overtime", ("overtime", "the overtime"), ("overtime", "overtime's"))
POP_STAR = entry("Pop star", ("pop star", "pop stars"), ("pop", "popping", "star", "stars"))
KNUCKLES = entry("Crack your knuckles", ("crack your knuckles",), ("cracks", "cracked", "knuckle"))


def labels(text: str, entry: Entry | None, phase: Phase = Phase.TURN) -> list[str]:
    situation = Situation(entry=entry, phase=phase, teams=TEAMS)
    return [j.label for j in Referee(phones).judge(free(text), situation)]


@pytest.mark.parametrize(
    ("text", "entry", "phase", "expected"),
    [
        # a list of guesses with the answer inside it, more guesses after it
        ("a microscope? a telescope? a periscope?", TELESCOPE, Phase.TURN, ["guess"]),
        ("is it a camera or a telescope or binoculars", TELESCOPE, Phase.TURN, ["guess"]),
        # NEGATIVE: a describer's words after the answer ("a big one") or no list before it
        ("a big lens a telescope a big one", TELESCOPE, Phase.TURN, ["foul:word"]),
        ("it's a telescope a big lens", TELESCOPE, Phase.TURN, ["foul:word"]),
        # the answer offered with another guess after "or": a guesser's question
        ("telescope or microscope", TELESCOPE, Phase.TURN, ["guess"]),
        ("is it a telescope or a microscope", TELESCOPE, Phase.TURN, ["guess"]),
        ("the telescope or the big microscope", TELESCOPE, Phase.TURN, ["guess"]),
        # NEGATIVE: after "or" the describer's sentence goes on, or a clue frame leads in
        ("a telescope or you can use binoculars", TELESCOPE, Phase.TURN, ["foul:word"]),
        ("telescope or binoculars are used", TELESCOPE, Phase.TURN, ["foul:word"]),
        ("you use a telescope or binoculars", TELESCOPE, Phase.TURN, ["foul:word"]),
        # a bare correct answer
        ("telescope", TELESCOPE, Phase.TURN, ["guess"]),
        # a question-shaped guess
        ("is it a telescope", TELESCOPE, Phase.TURN, ["guess"]),
        # "maybe X" is still a guess
        ("maybe the telescope", TELESCOPE, Phase.TURN, ["guess"]),
        # a plural answer counts
        ("telescopes", TELESCOPE, Phase.TURN, ["guess"]),
        # the answer inside a long clue: the describer said the word
        (
            "you look through a telescope to see the stars at night",
            TELESCOPE,
            Phase.TURN,
            ["foul:word"],
        ),
        # the answer at the end of a long clue is still the describer's
        (
            "it's a long tube you look through at the stars a telescope",
            TELESCOPE,
            Phase.TURN,
            ["foul:word"],
        ),
        # "it's like a X" frames a clue even when short
        ("it's like a telescope", TELESCOPE, Phase.TURN, ["foul:word"]),
        # R11: what a thing is made of is a describer's short clue, not a
        # called-out answer (was judged a correct guess: four words, no clue word)
        ("it's made of carpet", CARPET, Phase.TURN, ["foul:word"]),
        # ... and so are what it is full of and what it is compared with
        ("a bag full of post", POST, Phase.TURN, ["foul:word"]),
        ("bigger than a telescope", TELESCOPE, Phase.TURN, ["foul:word"]),
        # ... and where it is or what stands in for it ("out of a", "next to the")
        ("it's part of a car", CAR, Phase.TURN, ["foul:word"]),
        ("next to the telescope", TELESCOPE, Phase.TURN, ["foul:word"]),
        ("water out of a glacier", GLACIER, Phase.TURN, ["foul:word"]),
        # ... but a guesser's short question that opens with "is it" and ends with
        # the answer asks for it, whatever frames it
        ("is it made of carpet", CARPET, Phase.TURN, ["guess"]),
        ("is it part of a car", CAR, Phase.TURN, ["guess"]),
        ("could it be under the car", CAR, Phase.TURN, ["guess"]),
        ("is it like a telescope", TELESCOPE, Phase.TURN, ["guess"]),
        ("is that bigger than a telescope", TELESCOPE, Phase.TURN, ["guess"]),
        ("oh is it like a telescope", TELESCOPE, Phase.TURN, ["guess"]),
        ("are they made of carpet", CARPET, Phase.TURN, ["guess"]),
        # "is" and a garbled "it" ("is n"), but not "is a": a describer's "it's a"
        ("is n made of carpet", CARPET, Phase.TURN, ["guess"]),
        ("is a kind of telescope", TELESCOPE, Phase.TURN, ["foul:word"]),
        # ... not when the sentence goes on after the answer, is long, or the
        # question comes after the clue has begun
        ("is it made of carpet and wool", CARPET, Phase.TURN, ["foul:word"]),
        ("is it something you sit inside a car in", CAR, Phase.TURN, ["foul:word"]),
        ("the floor is it made of carpet", CARPET, Phase.TURN, ["foul:word"]),
        # a guesser's "ooh!" as the recogniser writes it ("who", "you") before
        # an article or a noun answer: no sentence starts so
        ("who a telescope", TELESCOPE, Phase.TURN, ["guess"]),
        ("you you glacier", GLACIER, Phase.TURN, ["guess"]),
        ("you telescope of", TELESCOPE, Phase.TURN, ["guess"]),
        # ... but "you" before an action's verb is a sentence, and so is more after it
        ("you swim", SWIM_ACTION, Phase.TURN, ["foul:word"]),
        ("you watch tv", WATCH, Phase.TURN, ["foul:word"]),
        ("who a watch", WATCH, Phase.TURN, ["guess"]),
        ("who a telescope is for", TELESCOPE, Phase.TURN, ["foul:word"]),
        ("you telescope you", TELESCOPE, Phase.TURN, ["foul:word"]),
        # a derivative in a short question: a near miss, not a foul
        ("is it telescopic", TELESCOPE, Phase.TURN, ["near_miss"]),
        # a derivative inside a clue: a derivative foul
        ("a telescopic lens folds up small", TELESCOPE, Phase.TURN, ["foul:derivative"]),
        # a garbled lead-in before the answer at the end of a short utterance: a guess
        ("the top telescope", TELESCOPE, Phase.TURN, ["guess"]),
        # ... but a short sentence with a clue word is the describer's
        ("you drive a car", CAR, Phase.TURN, ["foul:word"]),
        # a garbled "is it a kangaroo?": a question opener, one stray word after
        ("is a kangaroo you", KANGAROO, Phase.TURN, ["guess"]),
        # the same shape with the whole lead-in heard
        ("is it a telescope you", TELESCOPE, Phase.TURN, ["guess"]),
        # an article opener inside the matched answer, the stray "you" after
        ("the kangaroo you", KANGAROO, Phase.TURN, ["guess"]),
        # the answer called out alone, the breath after it written as "you"
        # (slt saying "kangaroo!" after a clue: was judged the describer's foul)
        ("kangaroo you", KANGAROO, Phase.TURN, ["guess"]),
        # NEGATIVE: ... but after a word that means something, "you" is the
        # sentence's object (a table-talk slip the referee had counted correct)
        ("a kangaroo kicks you", KANGAROO, Phase.TURN, ["foul:word"]),
        # ... or with a tail word
        ("telescope right", TELESCOPE, Phase.TURN, ["guess"]),
        # ... but two words after the bare answer are a sentence going on
        ("kangaroo you see", KANGAROO, Phase.TURN, ["foul:word"]),
        # a form that sounds exactly like the answer is the answer to a guesser
        # (slt's "bus!" came back as "buss", was a near miss)
        ("buss", BUS, Phase.TURN, ["guess"]),
        # ... while a form that sounds different stays a near miss
        ("busy", BUS, Phase.TURN, ["near_miss"]),
        # ... and in a clue the homophone is the describer's foul all the same
        # (a form of the word, as the stray-ending answers "telescoped" are)
        ("you buss to school every morning in town", BUS, Phase.TURN, ["foul:derivative"]),
        # "what about" opens a guess; a tail word after
        ("what about a telescope then", TELESCOPE, Phase.TURN, ["guess"]),
        # a guesser checking what the describer means: the describer knows the
        # card, and never asks the guessers whether they mean it
        ("you mean the eiffel tower", EIFFEL, Phase.TURN, ["guess"]),
        ("oh do you mean a kangaroo", KANGAROO, Phase.TURN, ["guess"]),
        ("are you thinking of a telescope", TELESCOPE, Phase.TURN, ["guess"]),
        # ... also cutting in as a long clue ends
        ("it hops around australia did you mean a kangaroo", KANGAROO, Phase.TURN, ["guess"]),
        # NEGATIVE: the describer's own "i mean" before a clue frame stays a clue
        ("i mean it's like a kangaroo but smaller", KANGAROO, Phase.TURN, ["foul:word"]),
        # NEGATIVE: "you mean" that the sentence goes on after is no question
        ("you mean a kangaroo jumps over the fence", KANGAROO, Phase.TURN, ["foul:word"]),
        # one garbage word after a short question: pocketsphinx writes "of" for
        # a breath ("cake of", "nebraska of right" were called-out answers)
        ("is it a telescope of", TELESCOPE, Phase.TURN, ["guess"]),
        # ... but two that cannot end a question: the sentence goes on
        ("is it a telescope of the", TELESCOPE, Phase.TURN, ["foul:word"]),
        # the same breath after a derivative called out: a near miss, not the
        # describer's foul (a guesser's "zipper" was heard "zip of")
        ("swimmer of", SWIM, Phase.TURN, ["near_miss"]),
        ("is it swimming to", SWIM, Phase.TURN, ["near_miss"]),
        # ... but a word that means something after it is the describer's sentence
        ("swimming pool", SWIM, Phase.TURN, ["foul:derivative"]),
        ("swimmer of the", SWIM, Phase.TURN, ["foul:derivative"]),
        # an answer that sounds like the wake word, with a stray word after it:
        # "host, pause" misheard (espeak's came back "post follows"), not a guess
        ("post follows", POST, Phase.TURN, ["nothing"]),
        # ... nor is "is it the poster" heard as "excited post a"
        ("excited post a", POST, Phase.TURN, ["nothing"]),
        # ... while the wake-word-like answer called out alone, or with a tail
        # word, is a guess
        ("post", POST, Phase.TURN, ["guess"]),
        ("is it the post right", POST, Phase.TURN, ["guess"]),
        # ... and any other answer keeps its one stray word
        ("kangaroo of", KANGAROO, Phase.TURN, ["guess"]),
        ("the post we", POST, Phase.TURN, ["foul:word"]),
        # two words after the answer: the describer going on
        ("a car you drive", CAR, Phase.TURN, ["foul:word"]),
        # a question opener but the sentence goes on: the describer
        ("is it a telescope you look through at night", TELESCOPE, Phase.TURN, ["foul:word"]),
        # six words is longer than a short question even with one trailing word
        ("is it the a telescope you", TELESCOPE, Phase.TURN, ["foul:word"]),
        # clue words before the answer: no question opener, a clue
        ("they use a telescope too", TELESCOPE, Phase.TURN, ["foul:word"]),
        # two words with no clue word: a called-out answer and a garbled breath
        # ("basil move", "hairstyle move" were guesses), not a describer
        ("kangaroo jumps", KANGAROO, Phase.TURN, ["guess"]),
        # a verb after "is": a describer's short sentence, not a breath
        ("a car is fast", CAR, Phase.TURN, ["foul:word"]),
        # a garbled word after a word of a two-word answer: a near miss
        # ("white hounds" for "white house"), not the describer
        ("eiffel hounds", EIFFEL, Phase.TURN, ["near_miss"]),
        # a word after a derivative: the describer going on ("a telescopic lens")
        ("it is a telescopic lens", TELESCOPE, Phase.TURN, ["foul:derivative"]),
        # "are you ...?": how action cards are guessed; the "you" is the guess's
        # (a guesser's form of this test entry: a near miss, not a foul)
        ("are you swimming", SWIM, Phase.TURN, ["near_miss"]),
        ("you're swimming", SWIM, Phase.TURN, ["near_miss"]),
        ("are you swims", SWIM, Phase.TURN, ["guess"]),
        # ... while a "you" further back is a clue's ("you can swim in it")
        ("you can swim", SWIM, Phase.TURN, ["foul:word"]),
        # a conjunction after the answer carries the sentence on ("you stick a
        # poster on the wall" in noise came back "needs poster while")
        ("needs telescope while", TELESCOPE, Phase.TURN, ["foul:word"]),
        # guesses called out in one breath, the answer last: a guesser's list
        ("is it a cat a dog a kangaroo", KANGAROO, Phase.TURN, ["guess"]),
        ("a mouse a rat a hamster or a kangaroo", KANGAROO, Phase.TURN, ["guess"]),
        # ... with the recogniser's "can't" for "a cat" in it
        ("is it can't adopted kangaroo you", KANGAROO, Phase.TURN, ["guess"]),
        # NEGATIVE: a sentence ending with the answer is no list ("that", "is")
        ("the animal that hops is a kangaroo", KANGAROO, Phase.TURN, ["foul:word"]),
        # NEGATIVE: an "is" that does not ask ("is it", "is that") is a sentence's
        # verb: Piper's neural voice said this clue, and it was judged a list of
        # four guesses, the card counted as guessed
        (
            "kermit the frog is probably the most famous kangaroo",
            KANGAROO,
            Phase.TURN,
            ["foul:word"],
        ),
        ("a wallaby is smaller than a kangaroo", KANGAROO, Phase.TURN, ["foul:word"]),
        # ... while the "is" of "is it" still joins a list
        ("a wallaby is it a kangaroo", KANGAROO, Phase.TURN, ["guess"]),
        # NEGATIVE: three words in a row are a sentence, not one guess
        ("it hops around australia a kangaroo", KANGAROO, Phase.TURN, ["foul:word"]),
        # NEGATIVE: prepositions belong to sentences
        ("a pouch in australia a kangaroo", KANGAROO, Phase.TURN, ["foul:word"]),
        # ... a clue word after it is the describer going on
        ("kangaroo we saw", KANGAROO, Phase.TURN, ["foul:word"]),
        # an innocent clue: nothing
        ("you look through it to see the stars", TELESCOPE, Phase.TURN, ["nothing"]),
        # "car" is not "carpet": neither answer nor form
        ("car", CARPET, Phase.TURN, ["nothing"]),
        # ... nor in a question
        ("is it a car", CARPET, Phase.TURN, ["nothing"]),
        # "carpet" is not "car" either
        ("is it a carpet", CAR, Phase.TURN, ["nothing"]),
        # "carp" is a look-alike (an ending changed), not a misrecognised "carpet"
        ("carp", CARPET, Phase.TURN, ["nothing"]),
        # "poster" is not a form of "post"
        ("is it a poster", POST, Phase.TURN, ["nothing"]),
        # a joined pair: "post man" is the form "postman", said as a guess
        ("post man", POST, Phase.TURN, ["near_miss"]),
        # ... and in a clue it is a derivative foul
        ("the post man brings your letters", POST, Phase.TURN, ["foul:derivative"]),
        # a recogniser's misspelling still counts as the answer (spelling)
        ("glazier", GLACIER, Phase.TURN, ["guess"]),
        # a split word still counts (sound: "tell a scope")
        ("tell a scope", TELESCOPE, Phase.TURN, ["guess"]),
        # a multi-word answer with its article
        ("the eiffel tower", EIFFEL, Phase.TURN, ["guess"]),
        # a multi-word answer without
        ("is it the eiffel tower", EIFFEL, Phase.TURN, ["guess"]),
        # one of the entry's own words in a clue is a word foul
        ("it is a famous tower in paris", EIFFEL, Phase.TURN, ["foul:word"]),
        # a surname alone is an accepted answer here
        ("einstein", EINSTEIN, Phase.TURN, ["guess"]),
        # the first name in a clue is a word foul
        ("his first name is albert and he was clever", EINSTEIN, Phase.TURN, ["foul:word"]),
        # a form as a short guess: near miss ("swimmer?" for swim)
        ("swimmer", SWIM, Phase.TURN, ["near_miss"]),
        # a recogniser's stray ending on the answer (as "telescoped" for slt's "telescope!")
        # is the answer: no guesser means the verb form of a thing
        ("posted", POST, Phase.TURN, ["guess"]),
        # ... but only said exactly: a near miss of "posted" is two steps from the
        # answer ("toasted" was taken for it), so it is not a correct guess
        ("toasted", POST, Phase.TURN, ["nothing"]),
        # a form in a clue
        ("you do it in a swimming pool", SWIM, Phase.TURN, ["foul:derivative"]),
        # letter talk: starts with + letter
        ("it starts with a t", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # letter talk: "ends in" + a spelled letter, as "ends with"
        ("it ends in an e", TELESCOPE, Phase.TURN, ["foul:letter"]),
        ("the word starts in t", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: "ends in" + a word (or a letter-like word) is a clue
        ("the river ends in the sea", TELESCOPE, Phase.TURN, ["nothing"]),
        ("the game ends in a tie", TELESCOPE, Phase.TURN, ["nothing"]),
        # letter talk: first letter
        ("the first letter is t", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # letter talk: number of letters
        ("it has nine letters", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # letter talk: three spelled letters
        ("t e l and then some more", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # ... two of three misheard letters are still the card's ("t e b" for "t e l")
        ("t e b and then some more", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: letters that are not the card's are the recogniser's garbage
        # ("at the seaside" written "at the c side" beside "on p c n")
        ("it is on p c n in the garden", KANGAROO, Phase.TURN, ["nothing"]),
        # NEGATIVE: two of three letters are the card's, but a describer spells
        # from the start ("r n l" in a clue for "hairstyle")
        ("like a god r n l help", EIFFEL, Phase.TURN, ["nothing"]),
        # NEGATIVE: "and" is nobody's to spell: letters from it are garbage
        # ("a n d n s c" in a real broadcast, on the card Bucket and spade)
        ("so a n d n s c in the debut", BUCKET_AND_SPADE, Phase.TURN, ["nothing"]),
        # NEGATIVE: a run from a word's initial, but not in its order: garbage
        # ("a n d n s c" shares only its "a" with "arrow")
        ("so a n d n s c in the debut", BOW_AND_ARROW, Phase.TURN, ["nothing"]),
        # ... but a spelling that runs on into garbage is still spelling
        # ("a l b and" written "a l g n n" by pocketsphinx, slt)
        ("a l g n n some are", EINSTEIN, Phase.TURN, ["foul:letter"]),
        # ... while the card's own words are spelled as any other card's
        ("s p a and then some more", BUCKET_AND_SPADE, Phase.TURN, ["foul:letter"]),
        # ... spelled letter names count by the letter they stand for
        ("kay en gee and then some more", KANGAROO, Phase.TURN, ["foul:letter"]),
        # "a" and "i" are words, not spelling
        ("i think a big one", TELESCOPE, Phase.TURN, ["nothing"]),
        # "starts with" followed by an ordinary word is an innocent clue
        ("the race starts with a gun", TELESCOPE, Phase.TURN, ["nothing"]),
        # "letter" in an ordinary sense is no letter talk
        ("you post a letter in it", TELESCOPE, Phase.TURN, ["nothing"]),
        # a letter name the recogniser wrote as a word ("tea" for T): still letter talk
        ("it starts with a tea", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # "as" for S straight after "starts with the": nobody clues like that
        ("it starts with the as", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # the count of letters misheard ("far" for four): still letter talk
        ("it has far letters", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # letters in the post, not a count: innocent
        ("it has lots of letters inside", TELESCOPE, Phase.TURN, ["nothing"]),
        # rhyme talk
        ("it rhymes with envelope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        # sounds-like talk
        ("it sounds like microscope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        # ... hedged: R11 all the same
        ("it sounds a bit like microscope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        # ... said as "sounds similar to", "sounds the same as": R11 all the same
        ("it sounds similar to microscope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        ("it sounds the same as microscope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        # NEGATIVE: "similar" and "same" without "sounds" are no rhyme talk
        ("it looks similar to a microscope", TELESCOPE, Phase.TURN, ["nothing"]),
        ("it sounds similar", TELESCOPE, Phase.TURN, ["nothing"]),
        # NEGATIVE: "sounds" and a "like" further on are no rhyme talk
        ("it sounds loud like a drum", TELESCOPE, Phase.TURN, ["nothing"]),
        # R11: naming a letter of the card ("the letter t")
        ("it has the letter t in it", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: a letter in the post is no letter of the card
        ("you post a letter to your friend", TELESCOPE, Phase.TURN, ["nothing"]),
        # R11: "the first letter is t", its "first" misheard ("that like letter is t")
        ("that like letter is t", TELESCOPE, Phase.TURN, ["foul:letter"]),
        ("its letter's t", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: "the letter is in the post", "the letter is a bill": no letter named
        ("the letter is in the post", TELESCOPE, Phase.TURN, ["nothing"]),
        ("the letter is a bill you pay", TELESCOPE, Phase.TURN, ["nothing"]),
        # R11: a name's initials are its first letters ("his initials are h s"), said
        # with fewer than three letters, so no spelled run
        ("his initials are h s", EINSTEIN_FORMS, Phase.TURN, ["nothing"]),
        ("his initials are a e", EINSTEIN_FORMS, Phase.TURN, ["foul:letter"]),
        ("his initials are e", EINSTEIN_FORMS, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: "a" alone after "initials are" is a word
        ("his initials are a mystery", EINSTEIN_FORMS, Phase.TURN, ["nothing"]),
        ("her first initial is just e", EINSTEIN_FORMS, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: initials with no letter of the card named, or none at all
        ("he signed it with his initials", EINSTEIN_FORMS, Phase.TURN, ["nothing"]),
        ("what are his initials", EINSTEIN_FORMS, Phase.TURN, ["nothing"]),
        # rhyme talk whose "with" the recogniser lost
        ("it rhymes envelope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        # rhymes that are not about the card: innocent
        ("children learn nursery rhymes at school", TELESCOPE, Phase.TURN, ["nothing"]),
        # a guesser asking whether it is rhyming: a question, no rhyme talk
        ("is it rhyming", TELESCOPE, Phase.TURN, ["nothing"]),
        # "they rhyme" states it: rhyme talk
        ("they rhyme with envelope", TELESCOPE, Phase.TURN, ["foul:rhyme"]),
        # a spell that is magic, not spelling: innocent
        ("a wizard casts a spell to see far", TELESCOPE, Phase.TURN, ["nothing"]),
        # the spelling bee is a contest, not spelling the card
        ("you win the spelling bee with it", TELESCOPE, Phase.TURN, ["nothing"]),
        # how to spell the card: letter talk
        ("you spell it with a t", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # spelled: letter talk
        ("it is spelled with two e", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # a command with the wake word
        ("host pass", TELESCOPE, Phase.TURN, ["command:pass"]),
        # the wake word after a filler
        ("okay host correct", TELESCOPE, Phase.TURN, ["command:correct"]),
        # how pocketsphinx writes "host pass" for some voices
        ("post the past", TELESCOPE, Phase.TURN, ["command:pass"]),
        # ... after "okay" too ("okay host pause" heard as "ok post pause")
        ("ok post pause", TELESCOPE, Phase.TURN, ["command:pause"]),
        # a wake variant and a command word are a command even while the card
        # is Post ("host, pause" was written "post's pause" in pink noise) ...
        ("post quit", POST, Phase.TURN, ["command:quit"]),
        # ... but not when the sentence goes on: the card word said in a clue
        # ("the postman brings your letters" in a reverberant room, espeak m3)
        ("post quit review letters", POST, Phase.TURN, ["foul:word"]),
        # a loose wake word, a command word, then a clue going on: no command
        ("post repeat your letters", TELESCOPE, Phase.TURN, ["nothing"]),
        # a loose wake word after "okay" still needs a short utterance
        ("okay most pass the ball to the left wing today", TELESCOPE, Phase.TURN, ["nothing"]),
        # a homophone of the command word
        ("host fowl", TELESCOPE, Phase.TURN, ["command:foul"]),
        # a command without the wake word is a guesser shouting: nothing
        ("pass", TELESCOPE, Phase.TURN, ["nothing"]),
        # ... likewise "correct!"
        ("correct", TELESCOPE, Phase.TURN, ["nothing"]),
        # "post" inside a clue never wakes the host
        ("you go to the post office to pass it on", TELESCOPE, Phase.TURN, ["nothing"]),
        # the wake word with an unknown word: no command invented
        ("host banana", TELESCOPE, Phase.TURN, ["nothing"]),
        # the other commands
        ("host undo", None, Phase.BETWEEN, ["command:undo"]),
        # politeness after a command keeps it a command
        ("host undo that please", None, Phase.BETWEEN, ["command:undo"]),
        # the game's own words after a command keep it one ("host, pause the game")
        ("host pause the game", TELESCOPE, Phase.TURN, ["command:pause"]),
        ("host pass this card please", TELESCOPE, Phase.TURN, ["command:pass"]),
        ("okay host pause the timer", TELESCOPE, Phase.TURN, ["command:pause"]),
        # a command asked for after "host" itself ("host, what's the score?")
        ("host what's the score", TELESCOPE, Phase.TURN, ["command:status"]),
        ("host what is the status please", TELESCOPE, Phase.TURN, ["command:status"]),
        # NEGATIVE: a sentence about the host, or a question that goes on
        ("the host is the pass", TELESCOPE, Phase.TURN, ["nothing"]),
        ("host what is the score in the football", TELESCOPE, Phase.TURN, ["nothing"]),
        # ... not after a word the recogniser wrote for the wake word, nor a clue's object
        ("post pause the game", TELESCOPE, Phase.TURN, ["nothing"]),
        ("the host passed the food round", TELESCOPE, Phase.TURN, ["nothing"]),
        # babble heard as "host undo commercial": a sentence, never a command
        ("host undo commercial", None, Phase.BETWEEN, ["nothing"]),
        # "host, pass please" with the "please" garbled: a last word that sounds like
        # it closes the command ("police" P AH L IY S), after "host" itself ...
        ("the host foul police", TELESCOPE, Phase.TURN, ["command:foul"]),
        ("host pass lease", TELESCOPE, Phase.TURN, ["command:pass"]),
        # ... and so does the breath a recogniser writes after a phrase ("of")
        ("host repeat of", TELESCOPE, Phase.TURN, ["command:repeat"]),
        ("host help of", None, Phase.BETWEEN, ["command:help"]),
        # ... "and" too, after a command (not after a team's claim)
        ("host correct and", TELESCOPE, Phase.TURN, ["command:correct"]),
        # ... and a stray letter, as after a claim ("hey host, pause now" written
        # "the host pause o", espeak-ng's en-us+Gene; commands.py unseen2)
        ("the host pause o", TELESCOPE, Phase.TURN, ["command:pause"]),
        ("host undo l", None, Phase.BETWEEN, ["command:undo"]),
        # "okay host, pass now" with the "now" garbled: a word of its vowel alone or
        # with one consonant ("how", "out"), after a breath word or not
        ("ok host correct how", TELESCOPE, Phase.TURN, ["command:correct"]),
        ("host pause it out", TELESCOPE, Phase.TURN, ["command:pause"]),
        # a word written for the wake word at the start closes the same way, with
        # that one word ("post quit hanks" for "host quit thanks")
        ("post pause police", TELESCOPE, Phase.TURN, ["command:pause"]),
        ("post quit hanks", TELESCOPE, Phase.TURN, ["command:quit"]),
        # NEGATIVE: a last word that sounds like no "please" ("note") nor "now"
        # ("loud": three phones), two words after the command, or two words after
        # one with a word written for the wake word: still a sentence
        ("host undo note", None, Phase.BETWEEN, ["nothing"]),
        ("host help loud", None, Phase.BETWEEN, ["nothing"]),
        ("host pass the salt", TELESCOPE, Phase.TURN, ["nothing"]),
        ("host pass out the salt", TELESCOPE, Phase.TURN, ["nothing"]),
        ("post pause it out", TELESCOPE, Phase.TURN, ["nothing"]),
        # ... nor a verb's past after a word written for the wake word: a sentence
        # (espeak-ng's "the ghost helped out", benchmarks/commands.py)
        ("the ghost helped out", TELESCOPE, Phase.TURN, ["nothing"]),
        ("the post passed", TELESCOPE, Phase.TURN, ["nothing"]),
        ("post passed", TELESCOPE, Phase.TURN, ["nothing"]),
        # ... nor two words after "most", which leads into a command word in talk:
        # "most correct, thank you" is talk
        ("most correct thank you", TELESCOPE, Phase.TURN, ["nothing"]),
        ("most foul and you", TELESCOPE, Phase.TURN, ["nothing"]),
        # but after another word written for the wake word, a thanks of two words
        # closes a command as one word does (espeak-ng's "host pass, thank you"
        # written "toast past thank you", "coast repeat and you"; commands.py unseen2)
        ("toast past thank you", TELESCOPE, Phase.TURN, ["command:pass"]),
        ("coast repeat and you", TELESCOPE, Phase.TURN, ["command:repeat"]),
        ("okay post status thank you", TELESCOPE, Phase.TURN, ["command:status"]),
        # NEGATIVE: two words that are no thanks stay a sentence going on
        ("post pass it on", TELESCOPE, Phase.TURN, ["nothing"]),
        ("ghost help to you", TELESCOPE, Phase.TURN, ["nothing"]),
        # repeat between turns
        ("host repeat", None, Phase.BETWEEN, ["command:repeat"]),
        # status
        ("host status", None, Phase.BETWEEN, ["command:status"]),
        # pause
        ("host pause", TELESCOPE, Phase.TURN, ["command:pause"]),
        # resume
        ("host resume", TELESCOPE, Phase.TURN, ["command:resume"]),
        # help
        ("host help", None, Phase.BETWEEN, ["command:help"]),
        # quit
        ("host quit", None, Phase.BETWEEN, ["command:quit"]),
        # CONTROL: a bare team name is a claim
        ("blue", TELESCOPE, Phase.CONTROL, ["team:blue"]),
        # CONTROL: "red team!"
        ("red team", TELESCOPE, Phase.CONTROL, ["team:red"]),
        # CONTROL: with the wake word
        ("host blue", TELESCOPE, Phase.CONTROL, ["team:blue"]),
        # CONTROL: with the wake word and a breath after the name
        ("host blue you", TELESCOPE, Phase.CONTROL, ["team:blue"]),
        ("ok host blue he", TELESCOPE, Phase.CONTROL, ["team:blue"]),
        # NEGATIVE: talk going on after "host <team>" (babble heard as words)
        ("don't undo host green also", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # CONTROL: "lions team!" with "team" garbled into stray letters and a breath
        ("blue d u", TELESCOPE, Phase.CONTROL, ["team:blue"]),
        # CONTROL: "red team" written "red to you"
        ("red to you", TELESCOPE, Phase.CONTROL, ["team:red"]),
        # NEGATIVE: the tail words only count at the end: a question is no claim
        ("is it blue", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # NEGATIVE: at most two tail words: a sentence going on is no claim
        ("red to you is it", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # NEGATIVE: a tail word alone is no team
        ("to you", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # CONTROL: the name shouted twice
        ("blue blue", TELESCOPE, Phase.CONTROL, ["team:blue"]),
        # NEGATIVE: two teams' names are no one team's claim
        ("blue red", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # NEGATIVE: "it's red" is a clue or a guess, not Red claiming
        ("it's red", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # CONTROL: a homophone of a team name
        ("read", TELESCOPE, Phase.CONTROL, ["team:red"]),
        # CONTROL: the answer is still a guess
        ("telescope", TELESCOPE, Phase.CONTROL, ["guess"]),
        # CONTROL: the answer, then the team's name garbled with a word after it
        # ("telescope! blue team!"): a guess and a claim, not the describer going on
        ("telescope blue home", TELESCOPE, Phase.CONTROL, ["guess"]),
        # CONTROL: the answer, then the team's name, as the round's prompt asks:
        # the guess, and the claim
        ("telescope blue", TELESCOPE, Phase.CONTROL, ["guess", "team:blue"]),
        ("is it a telescope of red", TELESCOPE, Phase.CONTROL, ["guess", "team:red"]),
        # NEGATIVE: a name after other words than the answer is no claim
        ("the tele blue", TELESCOPE, Phase.CONTROL, ["nothing"]),
        # NEGATIVE: the describer going on after the card's word in a CONTROL round
        ("the telescope shows the stars", TELESCOPE, Phase.CONTROL, ["foul:word"]),
        # NEGATIVE: ... even with a team's colour further on
        ("a telescope is long and red and heavy", TELESCOPE, Phase.CONTROL, ["foul:word"]),
        # a team name in a timed turn means nothing
        ("red", TELESCOPE, Phase.TURN, ["nothing"]),
        # SPIN choice by voice: forward
        ("host forward", None, Phase.SPIN_CHOICE, ["command:forward"]),
        # SPIN choice: push a team
        ("host push blue", None, Phase.SPIN_CHOICE, ["command:push:blue"]),
        # SPIN choice said bare, the utterance being just that
        ("push red", None, Phase.SPIN_CHOICE, ["command:push:red"]),
        # SPIN choice said bare, with the breath the recogniser wrote after it
        ("push blue who", None, Phase.SPIN_CHOICE, ["command:push:blue"]),
        # SPIN choice: "push the red" with "the" written as another little word
        ("push a red", None, Phase.SPIN_CHOICE, ["command:push:red"]),
        # SPIN choice in the rules' own words (R18: an opponent's piece goes back)
        ("push back red", None, Phase.SPIN_CHOICE, ["command:push:red"]),
        ("push the blue back", None, Phase.SPIN_CHOICE, ["command:push:blue"]),
        ("host push back blue", None, Phase.SPIN_CHOICE, ["command:push:blue"]),
        ("host push the red back", None, Phase.SPIN_CHOICE, ["command:push:red"]),
        # NEGATIVE: a word of substance between "push" and the team
        ("push telescope red", None, Phase.SPIN_CHOICE, ["nothing"]),
        # NEGATIVE: ... "back" does not make one slight
        ("push back telescope red", None, Phase.SPIN_CHOICE, ["nothing"]),
        # NEGATIVE: "back" alone is no choice
        ("push back", None, Phase.SPIN_CHOICE, ["nothing"]),
        # push without a team is not a choice
        ("host push", None, Phase.SPIN_CHOICE, ["nothing"]),
        # forward outside a SPIN choice is no command
        ("host forward", TELESCOPE, Phase.TURN, ["nothing"]),
        # between turns guesses are not judged
        ("telescope", TELESCOPE, Phase.BETWEEN, ["nothing"]),
        # a stray letter in a short question's lead-in is recogniser garbage ("is it" -> "is n")
        ("is n a kangaroo you", KANGAROO, Phase.TURN, ["guess"]),
        # stray letters before a guess lead-in: still a short guess
        ("v v the telescope", TELESCOPE, Phase.TURN, ["guess"]),
        # NEGATIVE: a stray letter does not hide a clue word
        ("we n a telescope", TELESCOPE, Phase.TURN, ["foul:word"]),
        # NEGATIVE: a single-letter token inside a clue frame stays a clue
        ("you use a t square like a telescope", TELESCOPE, Phase.TURN, ["foul:word"]),
        # NEGATIVE: stray letter, then the answer, then the sentence goes on
        ("n the telescope you look through", TELESCOPE, Phase.TURN, ["foul:word"]),
        # a multi-word answer counts as one word: a garbled 5-word question is short
        ("the to the eiffel tower", EIFFEL, Phase.TURN, ["guess"]),
        # NEGATIVE: the same count with a clue word before it
        ("we went up the eiffel tower", EIFFEL, Phase.TURN, ["foul:word"]),
        # NEGATIVE: a multi-word answer inside a sentence
        ("in paris the eiffel tower is tall", EIFFEL, Phase.TURN, ["foul:word"]),
        # the whole answer with a stray ending on one word beats the form inside it
        ("repeat alberts einstein", EINSTEIN_FORMS, Phase.TURN, ["guess"]),
        # NEGATIVE: the form alone is still a form (a near miss from a guesser)
        ("alberts", EINSTEIN_FORMS, Phase.TURN, ["near_miss"]),
        # NEGATIVE: ... and in a clue a foul
        (
            "his friends called him alberts einstein and he was clever",
            EINSTEIN_FORMS,
            Phase.TURN,
            ["foul:word"],
        ),
        # NEGATIVE: one word right, the other another word: not the whole answer,
        # only the first name in a two-word utterance, a garbled guess: near miss
        ("albert frankenstein", EINSTEIN_FORMS, Phase.TURN, ["near_miss"]),
        # ... while the first name inside a sentence is the describer's
        ("albert was a clever man who won prizes", EINSTEIN_FORMS, Phase.TURN, ["foul:word"]),
        # a multi-word answer with one word misheard by a phone ("buckels" for
        # "knuckles"): the answer, not the own word "crack" and a clue going on
        ("crack your buckels", KNUCKLES, Phase.TURN, ["guess"]),
        # NEGATIVE: ... inside a sentence it is the describer's
        ("you crack your buckels when you are nervous", KNUCKLES, Phase.TURN, ["foul:word"]),
        # NEGATIVE: the odd word another word ("back", "buckets"): the own word "crack"
        # with the sentence going on after it
        ("crack your back", KNUCKLES, Phase.TURN, ["foul:word"]),
        ("crack your buckets", KNUCKLES, Phase.TURN, ["foul:word"]),
        # the answer said exactly inside talk is the word itself, not its plural answer
        # "misheard" by a stray ending (and so not "a form of" the card)
        ("sing your solemnity pop star", POP_STAR, Phase.TURN, ["foul:word"]),
        (
            "lucky charm who",
            entry("Lucky charm", ("lucky charm", "lucky charms")),
            Phase.TURN,
            ["foul:word"],
        ),
        ("pop star", POP_STAR, Phase.TURN, ["guess"]),
        # a possessive form written without its apostrophe is that form: pocketsphinx
        # wrote "overtimes" for Piper's "overtime's when you stay late at work"
        ("overtimes when you stay late at work", OVERTIME, Phase.TURN, ["foul:derivative"]),
        ("overtime's when you stay late at work", OVERTIME, Phase.TURN, ["foul:derivative"]),
        # ... and a guesser's "overtime's" heard so is the answer, as "overtime's" is
        ("is it overtimes", OVERTIME, Phase.TURN, ["guess"]),
        # ... also for a possessive of a word of the card ("einsteins")
        ("einsteins theory of relativity", EINSTEIN_FORMS, Phase.TURN, ["foul:derivative"]),
        # letter talk with the short "with" lost by the recogniser
        ("it starts a c", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # NEGATIVE: "starts a" + a word is an innocent clue
        ("it starts a fire", TELESCOPE, Phase.TURN, ["nothing"]),
        # NEGATIVE: "starts a" + "i" (a word, not a spelled letter)
        ("the car starts a i think", TELESCOPE, Phase.TURN, ["nothing"]),
        # a letter count with the plural's "s" lost ("it has four letters" -> "fire letter")
        ("it has fire letter is", TELESCOPE, Phase.TURN, ["foul:letter"]),
        # a guesser cutting in with a question as the clue ends: one utterance
        (
            "hops around australia with a baby in its pouch is it a kangaroo",
            KANGAROO,
            Phase.TURN,
            ["guess"],
        ),
        # ... with a question tail after the answer
        (
            "you look through it at the stars is that a telescope right",
            TELESCOPE,
            Phase.TURN,
            ["guess"],
        ),
        (
            "you look through it at the stars could it be a telescope",
            TELESCOPE,
            Phase.TURN,
            ["guess"],
        ),
        # NEGATIVE: "it's a" is how a describer slips, not how a guesser asks
        ("it hops around australia and it's a kangaroo", KANGAROO, Phase.TURN, ["foul:word"]),
        # NEGATIVE: a statement ending with the word is the describer's
        (
            "the animal that hops around australia is a kangaroo",
            KANGAROO,
            Phase.TURN,
            ["foul:word"],
        ),
        # NEGATIVE: the clue goes on after the question
        (
            "is it a kangaroo that hops around australia with a baby",
            KANGAROO,
            Phase.TURN,
            ["foul:word"],
        ),
        # NEGATIVE: one letter in the post, not a count
        ("it has a letter inside", TELESCOPE, Phase.TURN, ["nothing"]),
        # NEGATIVE: singular "letter" needs exactly one word between
        ("it has a love letter", TELESCOPE, Phase.TURN, ["nothing"]),
    ],
)
def test_judgement_table(text: str, entry: Entry | None, phase: Phase, expected: list[str]) -> None:
    assert labels(text, entry, phase) == expected


def test_a_wake_word_like_answer_only_fears_the_wake_word_in_use() -> None:
    # with the wake word "jarvis", "post follows" on the card Post cannot be
    # "host, pause" misheard: the stray word after the answer is noise again
    situation = Situation(entry=POST, phase=Phase.TURN, teams=TEAMS, wake_word="jarvis")
    assert [j.label for j in Referee(phones).judge(free("post follows"), situation)] == ["guess"]
