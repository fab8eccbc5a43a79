"""Common English words the referee takes for a card's answer: text level, every built-in entry.

A recogniser writes words, and the referee matches them to the card's answers
in spelling and in sound, because a recogniser misspells ("glazier" for
"glacier", "tell a scope" for "telescope").  But a word a player really said
can look like the card's without being it: the describer of Palace says
"place", of Waiter "water", of Ireland "it's an island"; a guesser tries
"money?" for Monkey.  Such a word judged as the answer is a false foul or a
false "correct".

For every entry of the built-in deck (3,500) this finds the common English
words (wordfreq's list, Zipf >= 3, letters only) whose spelling is within
``--cutoff`` of an accepted answer and that are neither an answer nor a
forbidden form, and judges each through the real referee, said by a
guesser ("is it a W") and by a describer ("we saw a W there yesterday",
synthetic word times).  Printed: how many are judged a correct guess, and
how many a foul, by the word's frequency, with and without the referee's
word-frequency lookup (``voice_host.referee.frequency``), and the commonest
examples still judged so.  Text only: about a minute.

    .venv/bin/python benchmarks/lookalikes.py [--cutoff 70] [--examples 25]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rapidfuzz import fuzz, process  # noqa: E402
from wordfreq import top_n_list, zipf_frequency  # noqa: E402

from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.referee import (  # noqa: E402
    Referee,
    Situation,
    default_adjective_lookup,
    default_phone_lookup,
    default_word_frequency,
)
from voice_host.referee.text import synthetic_words  # noqa: E402
from voice_host.speech.events import RecognitionEvent  # noqa: E402

#: Frequency bands the counts are given in (Zipf; 4 is the referee's "common").
BANDS = ((3.0, 4.0), (4.0, 5.0), (5.0, 9.0))
GUESS = "is it a {}"
CLUE = "we saw a {} there yesterday"


def said(text: str) -> RecognitionEvent:
    """A free transcript of ``text`` with synthetic word times."""
    words = synthetic_words(text, start=2.0)
    return RecognitionEvent("final", words, words[-1].end, "free")


def candidates(entries: list[Entry], cutoff: float) -> list[tuple[Entry, str]]:
    """(entry, word) pairs: common words spelled like an answer, not an answer or form."""
    vocabulary = [w for w in top_n_list("en", 60000) if w.isalpha() and w.isascii()]
    vocabulary = [w for w in vocabulary if zipf_frequency(w, "en") >= BANDS[0][0]]
    pairs: list[tuple[Entry, str]] = []
    for entry in entries:
        own = set(entry.answers) | set(entry.forms)
        own |= {w for a in entry.answers for w in a.split()}
        found: set[str] = set()
        for answer in entry.answers:
            compact = answer.replace(" ", "")
            for word, _, _ in process.extract(
                compact, vocabulary, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None
            ):
                if word not in own and word != compact:
                    found.add(word)
        pairs.extend((entry, w) for w in sorted(found))
    return pairs


def judged(referee: Referee, kind: str, text: str, word: str, situation: Situation) -> bool:
    """Whether ``text`` is judged ``kind`` on the strength of ``word`` (not of
    another word of the frame that happens to be a card's)."""
    return any(
        j.type == kind and word in j.heard.split() for j in referee.judge(said(text), situation)
    )


def band(word: str) -> int:
    z = zipf_frequency(word, "en")
    return next(i for i, (lo, hi) in enumerate(BANDS) if lo <= z < hi)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cutoff", type=float, default=70.0, help="rapidfuzz ratio to consider")
    ap.add_argument("--examples", type=int, default=25, help="examples to list per count")
    args = ap.parse_args()
    t0 = time.time()
    deck = load_builtin()
    entries = [e for i in range(len(deck)) for e in deck.card(i).entries.values()]
    pairs = candidates(entries, args.cutoff)
    print(f"{len(entries)} entries, {len(pairs)} look-alike (entry, common word) pairs")
    phones = default_phone_lookup()
    for label, frequency in (
        ("without word frequency", None),
        ("with word frequency", default_word_frequency()),
    ):
        referee = Referee(phones, frequency, default_adjective_lookup())
        correct: Counter[int] = Counter()
        fouls: Counter[int] = Counter()
        examples: dict[str, list[tuple[float, str]]] = {"correct": [], "foul": []}
        for entry, word in pairs:
            situation = Situation(entry=entry)
            b = band(word)
            if judged(referee, "guess", GUESS.format(word), word, situation):
                correct[b] += 1
                examples["correct"].append((zipf_frequency(word, "en"), f"{word}={entry.text}"))
            if judged(referee, "foul", CLUE.format(word), word, situation):
                fouls[b] += 1
                examples["foul"].append((zipf_frequency(word, "en"), f"{word}={entry.text}"))
        totals = Counter(band(w) for _, w in pairs)
        print(f"\n{label}")
        print("| word's Zipf | pairs | judged a correct guess | judged a describer's foul |")
        print("|---|---|---|---|")
        for i, (lo, hi) in enumerate(BANDS):
            name = f"{lo:g}-{hi:g}" if hi < 9 else f">= {lo:g}"
            print(f"| {name} | {totals[i]} | {correct[i]} | {fouls[i]} |")
        print(f"| all | {len(pairs)} | {sum(correct.values())} | {sum(fouls.values())} |")
        for kind, found in examples.items():
            top = [text for _, text in sorted(found, reverse=True)[: args.examples]]
            print(f"  commonest judged {kind}: {', '.join(top) or '-'}")
    print(f"\n{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
