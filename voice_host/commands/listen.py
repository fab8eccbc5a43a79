"""`voice-host listen`: run the real listening path, print what was heard and how it is judged.

The output is an integration surface, so its shape is kept stable (see
:func:`event_json`, :func:`event_line` and
:func:`voice_host.referee.judgement_to_json`).  The flow is ``source ->
recogniser -> referee -> printer``: :func:`listen` yields recogniser events,
:func:`render` turns each into output lines, and the referee (``judge``) adds
its judgements after the event that decided them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.deck.model import CARD_FIELDS, Entry
from voice_host.deck.problems import has_word, too_long
from voice_host.errors import UsageError
from voice_host.referee.commands import command_phrases, spoken_team
from voice_host.speech.choose import open_backend
from voice_host.speech.events import ListenContext, RecognitionEvent, Recognizer

HELP = "listen to a recording (or the microphone) and print what was heard"

#: Spoken commands spotted by default (no teams): the wake word "host" and a command word.
DEFAULT_COMMANDS: tuple[str, ...] = command_phrases()
#: A judging step: given the events of one ``feed()``, JSON objects to print after them.
Judge = Callable[[Sequence[RecognitionEvent]], Sequence[Mapping[str, Any]]]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument(
        "--audio",
        metavar="FILE",
        help="a recording: WAV, FLAC, OGG, MP3 or AIFF (default: microphone)",
    )
    parser.add_argument("--word", metavar="ENTRY", help="the card entry to listen for")
    parser.add_argument(
        "--category",
        default=None,
        help="category of --word, decides accepted answers and forms (default: for a "
        "word in no deck, both an Object's and an Action's)",
    )
    parser.add_argument(
        "--teams", default="", metavar="A,B", help="team names to listen for (comma-separated)"
    )
    parser.add_argument(
        "--deck", metavar="PATH", help="take --word's entry from this deck (default: built-in)"
    )
    parser.add_argument(
        "--phase",
        choices=("turn", "control", "spin_choice", "between"),
        default=None,
        help="the game phase to judge in (default: a timed turn with --word; without it, "
        "between turns, where spoken commands are judged)",
    )
    parser.add_argument(
        "--show",
        choices=("all", "judgements", "heard"),
        default="all",
        help="print judgements, recogniser events, or both (default; judgements need --word)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="with --audio: replay once with a fresh recogniser (by default the recording "
        "is first heard once, unreported, so the recogniser adapts to its microphone and "
        "room as a live host's has)",
    )
    parser.add_argument("--model", metavar="PATH", help="speech model folder")
    parser.add_argument(
        "--backend", choices=("auto", "pocketsphinx", "vosk"), default="auto", help="recogniser"
    )
    parser.add_argument(
        "--no-second-transcriber",
        dest="second_transcriber",
        action="store_false",
        help="pocketsphinx alone: no Moonshine (tiny-en or base-en) behind it",
    )
    parser.add_argument("--device", metavar="DEV", help="microphone index or name substring")
    parser.add_argument(
        "--no-free-text",
        action="store_true",
        help="only spot the context's phrases (no free transcript)",
    )


# -- context ------------------------------------------------------------------


#: Recordings sampled below this rate (Hz) carry telephone-band speech only.
NARROWBAND_BELOW = 11_025


def find_entry(word: str, category: str | None, deck_path: str | None) -> Entry:
    """``word``'s entry: from the deck when it holds it (in ``category``'s field when
    one is given, else in any field), else worked out on the spot by the code the
    deck build uses (with no ``category``, as an Object and an Action at once).  A
    ``category`` the deck does not hold the word in decides: "Albert Einstein" as
    an Object was read as the deck's Person (session 54's audit)."""
    from voice_host.deck.knowledge import make_entry, make_entry_any_category
    from voice_host.deck.loader import load_builtin, load_players_deck

    deck = load_players_deck(deck_path, os.environ) if deck_path else load_builtin()
    wanted = word.strip().casefold()
    found = next(
        (
            entry
            for card in deck.cards
            for field, entry in card.entries.items()
            if entry.text.casefold() == wanted and (not category or field == category)
        ),
        None,
    )
    if found is not None:
        return found
    try:
        return make_entry(word, category) if category else make_entry_any_category(word)
    except (KeyError, ValueError) as exc:
        raise UsageError(f"--word {word!r} / --category {category!r}: {exc}") from None


def push_commands(team_names: Sequence[str]) -> tuple[str, ...]:
    """``host push <team>`` for each team, so a push is spotted with its team."""
    return tuple(c for c in command_phrases(team_names) if c.startswith("host push "))


def build_context(
    word: str | None,
    category: str | None,
    teams: Sequence[str],
    free_text: bool = True,
    entry: Entry | None = None,
) -> ListenContext:
    """The listening context for ``--word``: the entry's answers, forms and pronunciations."""
    team_names = tuple(spoken_team(t) for t in teams if spoken_team(t))
    commands = command_phrases(team_names)
    if not word:
        return ListenContext(commands=commands, team_names=team_names, free_text=free_text)
    if entry is None:
        entry = find_entry(word, category, None)
    return ListenContext.for_entry(entry, commands, team_names, free_text)


# -- the listening path -----------------------------------------------------------


def listen(
    recognizer: Recognizer, chunks: Iterable[AudioChunk], context: ListenContext
) -> Iterator[list[RecognitionEvent]]:
    """Feed ``chunks`` to ``recognizer``; yield the events of each chunk as soon as
    they are reported (one list per chunk that reported any)."""
    recognizer.start(context)
    for chunk in chunks:
        events = recognizer.feed(chunk)
        if events:
            yield events
    events = recognizer.finish()
    if events:
        yield events


def with_level_advice(chunks: Iterable[AudioChunk]) -> Iterator[AudioChunk]:
    """``chunks``, with the host's advice on the table's level printed when the
    microphone hears speech too faintly or overloads (as ``voice-host play`` says
    it: :class:`~voice_host.audio.levels.TableLevelWatch`, each once)."""
    from voice_host.audio.levels import TableLevelWatch
    from voice_host.host import dialogue

    watch = TableLevelWatch()
    advice = {"faint": dialogue.MIC_FAINT, "overload": dialogue.MIC_OVERLOAD}
    for chunk in chunks:
        news = watch.observe(chunk, in_play=True)
        if news is not None:
            print(f"note: {advice[news]}", file=sys.stderr, flush=True)
        yield chunk


def event_json(event: RecognitionEvent) -> dict[str, Any]:
    """The stable JSON object for one recognition event (times in seconds of audio)."""
    return {
        "type": "heard",
        "kind": event.kind,
        "t": round(event.emitted_at, 3),
        "start": round(event.start, 3),
        "end": round(event.end, 3),
        "utterance": list(event.utterance) if event.utterance else None,
        "words": [
            {
                "word": w.text,
                "start": round(w.start, 3),
                "end": round(w.end, 3),
                "conf": None if w.confidence is None else round(w.confidence, 3),
            }
            for w in event.words
        ],
        "source": event.source,
        "confirmed": event.confirmed,
        **({"transcriber": event.transcriber} if event.transcriber else {}),
        **({"pitch": event.pitch} if event.pitch is not None else {}),
    }


def event_line(event: RecognitionEvent) -> str:
    """One human-readable line for an event."""
    mark = {True: "confirmed", False: "unconfirmed", None: ""}[event.confirmed]
    words = " ".join(
        f"{w.text}[{w.start:.2f}-{w.end:.2f}"
        + ("" if w.confidence is None else f" {w.confidence:.2f}")
        + "]"
        for w in event.words
    )
    utt = f"utt {event.utterance[0]:.2f}-{event.utterance[1]:.2f}" if event.utterance else ""
    if event.pitch is not None:
        utt = f"{utt} {event.pitch:.0f} Hz".strip()
    text = words or "(nothing recognised)"
    if event.transcriber:
        text += f" (by {event.transcriber})"
    return (
        f"{event.emitted_at:7.2f}s {event.kind:<7} {event.source:<5} {text} {mark} {utt}".rstrip()
    )


def judgement_line(data: Mapping[str, Any]) -> str:
    """One human-readable line for a judgement (as :func:`judgement_to_json` gives it)."""
    label = str(data["type"]).upper().replace("_", " ")
    if data.get("kind"):
        label += f" ({data['kind']})"
    if data.get("command"):
        label += f" {data['command']}" + (f" {data['argument']}" if data.get("argument") else "")
    return (
        f"{data['t']:7.2f}s {label}: heard {data['heard']!r}. {data.get('evidence', '')}".rstrip()
    )


def render(
    batches: Iterable[Sequence[RecognitionEvent]],
    as_json: bool,
    judge: Judge | None = None,
    *,
    show_heard: bool = True,
) -> Iterator[str]:
    """Output lines for each batch of events; ``judge`` adds its objects after each batch
    (a batch is judged whole, so a spotted word is judged with its utterance's words)."""
    for batch in batches:
        if show_heard:
            for event in batch:
                yield json.dumps(event_json(event)) if as_json else event_line(event)
        if judge is not None:
            for extra in judge(batch):
                yield json.dumps(dict(extra)) if as_json else judgement_line(extra)


def referee_judge(entry: Entry | None, phase: str, teams: Sequence[str]) -> Judge:
    """A judging step: the real referee, remembering what it already judged."""
    from voice_host.referee import Phase, Referee, Situation, judgement_to_json

    referee = Referee.default()
    situation = Situation(
        entry=entry, phase=Phase(phase), teams=tuple(t.strip().lower() for t in teams if t.strip())
    )

    def judge(batch: Sequence[RecognitionEvent]) -> list[dict[str, Any]]:
        judged = referee.observe_all(list(batch), situation)
        return [judgement_to_json(j) for j in judged if j.type != "nothing"]

    return judge


def _teams(given: str | None) -> list[str]:
    """The team names of ``--teams`` ("Red,Blue"), refused where one is empty or has no
    word to listen for (",", "Red,,Blue", "Red,!!"): listening for fewer teams than
    were named would leave a claim unheard without a word said of it."""
    if not given:
        return []
    names = [t.strip() for t in given.split(",")]
    for name in names:
        if not spoken_team(name):
            raise UsageError(
                f"--teams: expected team names separated by commas (Red,Blue), got {given!r}"
                + (" (an empty name)" if not name else f" ({name!r} has no word to listen for)")
            )
    said = [spoken_team(name) for name in names]
    for i, name in enumerate(names):
        if said[i] in said[:i]:
            # as play refuses it: a claim would be heard for one of the two at random
            raise UsageError(f"--teams: {name!r} is said as another team's name, in {given!r}")
    return names


def run(args: argparse.Namespace) -> int:
    """Run the command."""
    teams = _teams(args.teams)
    if args.category is not None:
        by_key = {c.casefold(): c for c in CARD_FIELDS}
        if args.category.strip().casefold() not in by_key:
            raise UsageError(
                f"--category: expected one of {', '.join(CARD_FIELDS)}, got {args.category!r}"
            )
        args.category = by_key[args.category.strip().casefold()]  # "nature" is Nature
    if args.word is None:
        # each of these means nothing without a card: say so rather than print nothing
        if args.show == "judgements":
            raise UsageError("--show judgements needs --word: judgements are about a card")
        if args.category is not None:
            raise UsageError("--category needs --word: it is the category of that card")
        if args.deck is not None:
            raise UsageError("--deck needs --word: it is the deck that card is taken from")
    if args.model is not None and not args.model.strip():  # as play says of it
        raise UsageError(f"--model: expected a file or folder path, got {args.model!r}")
    if args.audio and args.device is not None:
        print(f"note: --device does nothing with --audio ({args.audio} is heard)", file=sys.stderr)
    if args.word is not None and not args.word.strip():
        raise UsageError("--word: give the card entry to listen for, e.g. --word Telescope")
    if args.word is not None and (long := too_long(args.word.strip())):
        raise UsageError(f"--word: {long}, as in a deck")
    if args.word is not None and not has_word(args.word):
        raise UsageError(
            f"--word {args.word!r}: no word in it to listen for (letters of the English "
            "alphabet or digits), e.g. --word Telescope"
        )
    entry = find_entry(args.word, args.category, args.deck) if args.word else None
    context = build_context(
        args.word, args.category, teams, free_text=not args.no_free_text, entry=entry
    )
    chunks: Iterable[AudioChunk]
    if args.audio:
        from voice_host.audio.recording import open_recording
        from voice_host.audio.wav import WavSource

        source = open_recording(args.audio)  # checks the file before the model loads
        if isinstance(source, WavSource) and (promised := source.format.promised_duration):
            print(
                f"note: {args.audio} is cut short: its header promises {promised:.1f} s, "
                f"it holds {source.format.duration:.1f} s; heard as far as it goes",
                file=sys.stderr,
            )
        if source.rate < NARROWBAND_BELOW:
            # information, not an error: the recording is still heard
            print(
                f"note: {args.audio} is {source.rate} Hz; the recogniser is trained on "
                f"{SAMPLE_RATE} Hz speech and hears little in telephone-band audio",
                file=sys.stderr,
            )
        chunks = source
    else:
        from voice_host.audio.devices import resolve_input_device
        from voice_host.audio.microphone import MicrophoneEvent, MicrophoneSource

        def say(event: MicrophoneEvent) -> None:
            print(f"voice-host: microphone: {event.message}", file=sys.stderr)

        device: int | str | None = args.device
        resolve_input_device(device)  # a missing microphone is reported before the model loads
        mic = MicrophoneSource(device, on_event=say)
        chunks = with_level_advice(mic)
    recognizer, reason = open_backend(
        args.backend, args.model, os.environ, second=args.second_transcriber
    )
    print(reason, file=sys.stderr)  # information, not an error: no "voice-host:" prefix
    judge = None
    # without a card nothing of a turn can be judged: between turns, commands are
    phase = args.phase or ("turn" if entry is not None else "between")
    if args.show != "heard":
        judge = referee_judge(entry, phase, teams)
    if args.audio and not args.cold:
        from voice_host.speech.replay import adapt_to

        adapt_to(recognizer, chunks, context)
    from voice_host.audio.levels import CLIPPED_SHARE, QUIET_BELOW_DBFS, LevelWatch

    level = LevelWatch()
    events = listen(recognizer, level.counting(chunks) if args.audio else chunks, context)
    for line in render(events, args.json, judge, show_heard=args.show != "judgements"):
        print(line, flush=not args.audio)
    if level.share() >= CLIPPED_SHARE:
        print(
            f"note: {args.audio} is clipped ({100 * level.share():.1f}% of samples at full "
            "scale): recognition suffers; record with less gain",
            file=sys.stderr,
        )
    if args.audio and level.samples and level.loudest < QUIET_BELOW_DBFS:
        loudest = level.loudest
        said = "digital silence" if loudest == -math.inf else f"at most {loudest:.0f} dBFS"
        print(
            f"note: {args.audio} is very quiet ({said}): the recogniser may hear nothing; "
            "record closer or with more gain",
            file=sys.stderr,
        )
    return 0
