"""`voice-host listen`: run the real listening path and print what was heard.

The output is the integration surface the referee builds on, so its shape is
kept stable (see :func:`event_json` and :func:`event_line`).  The flow is
``source -> recogniser -> (judging step, later) -> printer``: :func:`listen`
yields recogniser events, :func:`render` turns each into output lines, and a
judging step can be slotted in between by passing ``judge``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from voice_host.audio.chunk import AudioChunk
from voice_host.errors import UsageError
from voice_host.speech.events import ListenContext, RecognitionEvent, Recognizer

HELP = "listen to a recording (or the microphone) and print what was heard"

#: Spoken commands spotted by default: the wake word "host" and a command word.
DEFAULT_COMMANDS: tuple[str, ...] = tuple(
    f"host {word}"
    for word in (
        "pass",
        "correct",
        "foul",
        "undo",
        "repeat",
        "status",
        "pause",
        "resume",
        "help",
        "forward",
        "push",
    )
)
#: A judging step: given an event, extra JSON objects to print after it.
Judge = Callable[[RecognitionEvent], Sequence[Mapping[str, Any]]]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("--audio", metavar="FILE", help="a WAV recording (default: microphone)")
    parser.add_argument("--word", metavar="ENTRY", help="the card entry to listen for")
    parser.add_argument(
        "--category",
        default="Object",
        help="category of --word, decides accepted answers (default: Object)",
    )
    parser.add_argument(
        "--teams", default="", metavar="A,B", help="team names to listen for (comma-separated)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")
    parser.add_argument("--model", metavar="PATH", help="speech model folder")
    parser.add_argument(
        "--backend", choices=("auto", "pocketsphinx", "vosk"), default="auto", help="recogniser"
    )
    parser.add_argument("--device", metavar="DEV", help="microphone index or name substring")
    parser.add_argument(
        "--no-free-text",
        action="store_true",
        help="only spot the context's phrases (no free transcript)",
    )


# -- context ------------------------------------------------------------------


def build_context(
    word: str | None, category: str, teams: Sequence[str], free_text: bool = True
) -> ListenContext:
    """The listening context for ``--word``: the entry's answers, forms and pronunciations."""
    team_names = tuple(t.strip().lower() for t in teams if t.strip())
    if not word:
        return ListenContext(commands=DEFAULT_COMMANDS, team_names=team_names, free_text=free_text)
    try:
        from voice_host.deck.knowledge import make_entry
    except ImportError:  # the deck's word knowledge is optional here
        return ListenContext(
            answers=(word.lower(),),
            commands=DEFAULT_COMMANDS,
            team_names=team_names,
            free_text=free_text,
        )
    try:
        entry = make_entry(word, category)
    except (KeyError, ValueError) as exc:
        raise UsageError(f"--word {word!r} / --category {category!r}: {exc}") from None
    return ListenContext(
        answers=entry.answers,
        forms=entry.forms,
        commands=DEFAULT_COMMANDS,
        team_names=team_names,
        pronunciations=entry.pronunciations,
        free_text=free_text,
    )


# -- backend ------------------------------------------------------------------


def open_backend(backend: str, model: str | None, env: Mapping[str, str]) -> tuple[Recognizer, str]:
    """The recogniser to use and a one-line reason for the choice."""
    try:
        from voice_host.speech import choose
    except ImportError:
        choose = None  # type: ignore[assignment]
    if backend == "pocketsphinx" or (backend == "auto" and choose is None):
        from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

        ps_model = model if backend == "pocketsphinx" else None
        why = "asked for" if backend == "pocketsphinx" else "the embedded default"
        return PocketSphinxRecognizer(ps_model), f"using pocketsphinx ({why})"
    if choose is None:
        raise UsageError("the vosk backend is not available in this build")
    from voice_host.speech.models import is_valid_model

    choice = choose.choose_backend(
        model_arg=model,
        env=env,
        models_dir=Path("models"),
        vosk_installed=choose.installed("vosk"),
        pocketsphinx_installed=choose.installed("pocketsphinx"),
        model_is_valid=is_valid_model,
    )
    if backend == "vosk" and choice.name != "vosk":
        raise UsageError(f"--backend vosk: {choice.reason}")
    return choose.open_recognizer(choice), choice.reason


# -- the listening path -----------------------------------------------------------


def listen(
    recognizer: Recognizer, chunks: Iterable[AudioChunk], context: ListenContext
) -> Iterator[RecognitionEvent]:
    """Feed ``chunks`` to ``recognizer``; yield each event as soon as it is reported."""
    recognizer.start(context)
    for chunk in chunks:
        yield from recognizer.feed(chunk)
    yield from recognizer.finish()


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
    text = words or "(nothing recognised)"
    return (
        f"{event.emitted_at:7.2f}s {event.kind:<7} {event.source:<5} {text} {mark} {utt}".rstrip()
    )


def render(
    events: Iterable[RecognitionEvent], as_json: bool, judge: Judge | None = None
) -> Iterator[str]:
    """Output lines for ``events``; ``judge`` adds its objects after each event."""
    for event in events:
        yield json.dumps(event_json(event)) if as_json else event_line(event)
        if judge is not None:
            for extra in judge(event):
                yield json.dumps(dict(extra)) if as_json else "        => " + json.dumps(extra)


def run(args: argparse.Namespace) -> int:
    """Run the command."""
    teams = [t for t in str(args.teams or "").split(",") if t.strip()]
    context = build_context(args.word, args.category, teams, free_text=not args.no_free_text)
    chunks: Iterable[AudioChunk]
    if args.audio:
        from voice_host.audio.wav import WavSource

        chunks = WavSource(args.audio)  # checks the file before the model loads
    else:
        from voice_host.audio.devices import resolve_input_device
        from voice_host.audio.microphone import MicrophoneEvent, MicrophoneSource

        def say(event: MicrophoneEvent) -> None:
            print(f"voice-host: microphone: {event.message}", file=sys.stderr)

        device: int | str | None = args.device
        resolve_input_device(device)  # a missing microphone is reported before the model loads
        mic = MicrophoneSource(device, on_event=say)
        chunks = mic
    recognizer, reason = open_backend(args.backend, args.model, os.environ)
    print(f"voice-host: {reason}", file=sys.stderr)
    for line in render(listen(recognizer, chunks, context), args.json):
        print(line, flush=not args.audio)
    return 0
