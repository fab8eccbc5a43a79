"""Shared helpers: hand-built entries, a tiny phone table, events from text."""

from __future__ import annotations

from voice_host.deck.model import Entry
from voice_host.referee.text import synthetic_words
from voice_host.speech.events import HeardWord, RecognitionEvent

#: A few CMU pronunciations (stress removed), enough for the tests' words.
PHONES: dict[str, tuple[str, ...]] = {
    w: tuple(p.split())
    for w, p in {
        "telescope": "T EH L AH S K OW P",
        "telescopes": "T EH L AH S K OW P S",
        "telescopic": "T EH L AH S K AA P IH K",
        "tell": "T EH L",
        "a": "AH",
        "scope": "S K OW P",
        "glacier": "G L EY SH ER",
        "glazier": "G L EY Z IY ER",
        "carpet": "K AA R P AH T",
        "car": "K AA R",
        "cars": "K AA R Z",
        "carp": "K AA R P",
        "post": "P OW S T",
        "poster": "P OW S T ER",
        "postman": "P OW S T M AH N",
        "man": "M AE N",
        "host": "HH OW S T",
        "pass": "P AE S",
        "foul": "F AW L",
        "fowl": "F AW L",
        "blue": "B L UW",
        "blew": "B L UW",
        "red": "R EH D",
        "read": "R EH D",
        "eiffel": "AY F AH L",
        "tower": "T AW ER",
        "albert": "AE L B ER T",
        "einstein": "AY N S T AY N",
        "crack": "K R AE K",
        "your": "Y AO R",
        "knuckles": "N AH K AH L Z",
        "buckels": "B AH K AH L Z",
        "buckets": "B AH K AH T S",
        "back": "B AE K",
        "please": "P L IY Z",
        "police": "P AH L IY S",
        "lease": "L IY S",
        "thanks": "TH AE NG K S",
        "note": "N OW T",
        "salt": "S AO L T",
        "now": "N AW",
        "how": "HH AW",
        "out": "AW T",
        "hanks": "HH AE NG K S",
        "loud": "L AW D",
        # a guesser's "is it a" and how recognisers garble it after a pause
        "is": "IH Z",
        "it": "IH T",
        "an": "AE N",
        "the": "DH AH",
        "that": "DH AE T",
        "this": "DH IH S",
        "visit": "V IH Z IH T",
        "eight": "EY T",
        "irritate": "IH R IH T EY T",
        "big": "B IH G",
    }.items()
}


def phones(word: str) -> tuple[str, ...] | None:
    """The tests' phone lookup."""
    return PHONES.get(word)


def entry(text: str, answers: tuple[str, ...], forms: tuple[str, ...] = ()) -> Entry:
    """An entry built by hand, pronunciations from :data:`PHONES`."""
    words = {w for p in (*answers, *forms, text.lower()) for w in p.split()}
    prons = {w: PHONES[w] for w in words if w in PHONES}
    return Entry(text, "Object", answers, forms, prons)


TELESCOPE = entry("Telescope", ("telescope", "telescopes", "the telescope"), ("telescopic",))
CARPET = entry("Carpet", ("carpet", "carpets"), ("carpeted",))
CAR = entry("Car", ("car", "cars", "the car"), ("cars",))
POST = entry("Post", ("post", "posts", "the post"), ("postman", "postal", "posted"))
GLACIER = entry("Glacier", ("glacier", "glaciers"), ("glacial",))
EIFFEL = entry("Eiffel Tower", ("eiffel tower", "the eiffel tower"), ("eiffel", "tower", "towers"))
EINSTEIN = entry("Albert Einstein", ("albert einstein", "einstein"), ("albert", "einstein's"))
KANGAROO = entry(
    "Kangaroo",
    ("kangaroo", "kangaroos", "the kangaroo", "the kangaroos"),
    ("kangaroo's", "kangaroos"),
)
SWIM = entry("Swim", ("swim", "swims"), ("swimmer", "swimmers", "swimming", "swam"))


def free(text: str, start: float = 0.3, kind: str = "final") -> RecognitionEvent:
    """A free-transcript event for ``text`` with synthetic timings from ``start``."""
    words = synthetic_words(text, start=start)
    end = words[-1].end if words else start
    return RecognitionEvent(kind, words, end, "free")  # type: ignore[arg-type]


def spotted(
    word: str,
    start: float,
    end: float,
    confirmed: bool | None,
    *,
    kind: str = "final",
    span: tuple[float, float] | None = None,
) -> RecognitionEvent:
    """A keyword-spotting hit of ``word`` at ``start..end`` seconds."""
    return RecognitionEvent(
        kind,  # type: ignore[arg-type]
        (HeardWord(word, start, end),),
        end,
        "kws",
        confirmed,
        span,
    )
