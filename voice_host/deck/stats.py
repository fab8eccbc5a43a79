"""Figures about a deck, for ``voice-host deck stats``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from voice_host.deck.model import CARD_FIELDS, Deck
from voice_host.deck.words import significant_words

#: A word at or above this Zipf frequency counts as familiar (about once per million words).
FAMILIAR_ZIPF = 3.0


@dataclass(frozen=True)
class FieldStats:
    """Figures for one card field."""

    field: str
    entries: int
    """Non-empty entries."""
    duplicates: int
    """Entries that repeat an earlier one of the same field."""
    with_forms: int
    """Entries with forbidden forms beyond their own words."""
    familiar: int | None
    """Entries whose every significant word has Zipf >= 3 (None without wordfreq)."""


@dataclass(frozen=True)
class DeckStats:
    """Figures for a whole deck."""

    name: str
    cards: int
    fields: tuple[FieldStats, ...]
    answer_words: int
    """Distinct words in entries and accepted answers."""
    answer_words_made_up: Counter[str]
    """Of those, method -> how many needed a pronunciation not in the CMU dictionary."""
    all_words: int
    """Distinct words in entries, answers and forms."""
    all_words_made_up: Counter[str]
    """Of those, method -> how many needed a made-up pronunciation."""


def _zipf(word: str) -> float | None:
    try:
        import wordfreq
    except ImportError:
        return None
    value: float = wordfreq.zipf_frequency(word, "en")
    return value


def deck_stats(deck: Deck) -> DeckStats:
    """Count entries, duplicates, forms, familiarity and made-up pronunciations."""
    per_field: list[FieldStats] = []
    answer_words: set[str] = set()
    all_words: set[str] = set()
    for card_field in CARD_FIELDS:
        entries = [card.entries[card_field] for card in deck.cards if card_field in card.entries]
        texts = Counter(e.text.casefold() for e in entries if e.text.strip())
        familiar: int | None = 0
        with_forms = 0
        for entry in entries:
            own = significant_words(entry.text)
            if set(entry.forms) - set(own) - {w + "'s" for w in own}:
                with_forms += 1
            answer_words.update(w for a in entry.answers for w in a.split())
            all_words.update(w for p in (*entry.answers, *entry.forms) for w in p.split())
            if familiar is not None:
                zipfs = [_zipf(w) for w in own]
                if any(z is None for z in zipfs):
                    familiar = None
                elif own and all(z is not None and z >= FAMILIAR_ZIPF for z in zipfs):
                    familiar += 1
        per_field.append(
            FieldStats(
                field=card_field,
                entries=sum(texts.values()),
                duplicates=sum(n - 1 for n in texts.values()),
                with_forms=with_forms,
                familiar=familiar,
            )
        )
    return DeckStats(
        name=deck.name,
        cards=len(deck.cards),
        fields=tuple(per_field),
        answer_words=len(answer_words),
        answer_words_made_up=Counter(deck.methods[w] for w in answer_words if w in deck.methods),
        all_words=len(all_words),
        all_words_made_up=Counter(deck.methods[w] for w in all_words if w in deck.methods),
    )


def format_stats(stats: DeckStats) -> str:
    """The stats as the plain-text table ``voice-host deck stats`` prints."""
    lines = [
        f"deck: {stats.name}",
        f"cards: {stats.cards}",
        "",
        f"{'field':<8} {'entries':>7} {'empty':>5} {'dupes':>5} {'forms':>5} {'familiar':>8}",
    ]
    for fs in stats.fields:
        familiar = "-" if fs.familiar is None else str(fs.familiar)
        lines.append(
            f"{fs.field:<8} {fs.entries:>7} {stats.cards - fs.entries:>5} {fs.duplicates:>5} "
            f"{fs.with_forms:>5} {familiar:>8}"
        )

    def made_up(counter: Counter[str]) -> str:
        total = sum(counter.values())
        parts = ", ".join(f"{method} {counter[method]}" for method in sorted(counter))
        return f"{total}" + (f" ({parts})" if parts else "")

    lines += [
        "",
        "forms: entries with forbidden forms beyond their own words; "
        f"familiar: every word Zipf >= {FAMILIAR_ZIPF:g}",
        f"entry and answer words: {stats.answer_words}, "
        f"made-up pronunciations: {made_up(stats.answer_words_made_up)}",
        f"all words incl. forms: {stats.all_words}, "
        f"made-up pronunciations: {made_up(stats.all_words_made_up)}",
    ]
    return "\n".join(lines)
