"""How well the host hears a team's claim in a CONTROL round and a SPIN choice,
and how rarely the room's other talk makes one.

One microphone cannot tell teams apart, so in a CONTROL or FINISH round a team
claims an answer by saying its name, with or without the wake word ("Blue!",
"blue team", "host, blue": R17, dialogue.md 11), and a team that spun green
says whom it pushes back ("push red": R19).  A claim heard for the wrong team
gives the card to the wrong team; a claim made out of a guess that names a
colour ("is it a red apple?" when a team is called Red) gives it to a team
that did not answer.  Both are worse than a claim missed: the buzzer key is
always there.

The CONTROL round's prompt asks for "the answer, then your team's name", so
the tune split also has the card's answer and a claim in one breath ("pizza,
green!", "is it a volcano? blue!"): right when a claim for that team is among
the judgements (the guess is judged too).

Each claim is said by every synthetic voice made on the spot (flite, espeak-ng,
festival and Piper when installed), over a faint noise floor, and heard through
the recogniser with the round's context (the card, the commands, the team
names) and judged by the referee in the round's phase.  A clip is **right**
when the decisive judgement is the claim of the team said, **wrong** when it is
another team's, and **missed** otherwise.  Then talk that is no claim is heard
in a CONTROL round: sentences that name a team's colour or animal inside a guess
or a clue, and every fixture clip that is not a claim or a command
(``fixtures/audio``: guesses, clues, fouls, noise); a team claim judged in any of
them is **invented**.

Held out: other team names ("pink", "gold"; "owls", "foxes"), other ways of
saying a claim ("us! gold!", "hey host, pink") or a choice ("push back owls"),
other talk, and the fixtures of the held-out split.  The rules for a claim's
tail ("lions to you" for "lions team") were written from the tune split's misses
(session 33); the tune split's second team names (purple, eagles) were held out
when that was first measured (``docs/benchmarks.md``).

Names of several words or with a number ("big red", "team 2", "the lions":
``--split names``, session 39) are a third split, measured apart and never
tuned on: ``right`` is the claim of the name said (the referee keys it as one
word, "bigred"), and "lions!" for The Lions counts.

    .venv/bin/python benchmarks/claims.py                 # about 20 minutes
    .venv/bin/python benchmarks/claims.py --split tune --no-fixtures
    .venv/bin/python benchmarks/claims.py --split names --no-fixtures
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
import wave
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from new_cards import chosen_voices, chunks, recording, synth  # noqa: E402
from referee import decisive  # noqa: E402

from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.deck.words import norm_word  # noqa: E402
from voice_host.referee import Phase, Referee, Situation  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams, spoken_team  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import adapt_to, replay  # noqa: E402

FIXTURES = ROOT / "fixtures" / "audio"
#: The cards the rounds are played on, in turn (a claim's words should not depend on them).
CARDS = ("Telescope", "Kangaroo", "Pizza", "Volcano")


@dataclass(frozen=True)
class Group:
    """Teams and the ways a claim or a choice is said for them."""

    teams: tuple[str, ...]
    control: tuple[str, ...]
    """Claims in a CONTROL round, ``{t}`` the team."""
    spin: tuple[str, ...]
    """Choices in a SPIN choice, ``{t}`` the team pushed back."""


@dataclass(frozen=True)
class Split:
    """One split's teams, claim phrasings and talk."""

    groups: tuple[Group, ...]
    talk: tuple[tuple[str, tuple[str, ...]], ...]
    """Talk in a CONTROL round that claims nothing, with the teams playing."""


COLOURS = ("red", "blue", "green")
ANIMALS = ("tigers", "lions", "sharks")
#: Session 33's first held-out set: run once as held out (README), then its misses
#: ("purple, purple", "push they eagles") and its false claims ("it's purple")
#: were read and the rules changed, so it is tuned on now.
COLOURS_2 = ("purple", "orange", "yellow")
ANIMALS_2 = ("eagles", "wolves", "bears")
#: Held out since then.
COLOURS_3 = ("pink", "silver", "gold")
ANIMALS_3 = ("owls", "foxes", "hawks")

SPLITS = {
    "tune": Split(
        groups=(
            Group(
                COLOURS,
                ("{t}", "{t} team", "host {t}", "okay host, {t}"),
                ("push {t}", "host, push {t}"),
            ),
            Group(
                ANIMALS,
                ("{t}", "{t} team", "host {t}", "okay host, {t}"),
                ("push {t}", "host, push {t}"),
            ),
            Group(
                COLOURS_2,
                ("team {t}", "host, {t} team", "{t}, {t}"),
                ("push the {t}", "okay host, push {t}"),
            ),
            Group(
                ANIMALS_2,
                ("team {t}", "host, {t} team", "{t}, {t}"),
                ("push the {t}", "okay host, push {t}"),
            ),
            # the CONTROL round's own prompt: "shout the answer, then your team's name"
            Group(COLOURS, ("{a}, {t}!", "{a}! {t} team!", "is it a {a}? {t}!"), ()),
        ),
        talk=tuple(
            (line, COLOURS)
            for line in (
                "it's red and round",
                "a blue whale",
                "is it a red apple",
                "the green one",
                "blue sky",
                "green with envy",
                "red in the face",
                "feeling blue",
                "is it green",
                "you go red when you're embarrassed",
                "the sea is blue",
                "red or blue",
                "a green light",
            )
        )
        + tuple(
            (line, ANIMALS)
            for line in ("lions live in africa", "is it a shark", "tigers have stripes")
        )
        + tuple(
            (line, COLOURS_2)
            for line in (
                "is it an orange",
                "a yellow submarine",
                "purple rain",
                "orange juice",
                "a yellow banana",
                "it's purple",
            )
        )
        + tuple(
            (line, ANIMALS_2)
            for line in (
                "bears like honey",
                "is it a bald eagle",
                "the wolves howl at night",
                "a pack of wolves",
            )
        ),
    ),
    "heldout": Split(
        groups=(
            Group(
                COLOURS_3,
                ("{t}!", "us! {t}!", "{t} team, {t}", "hey host, {t}"),
                ("push back {t}", "host, push the {t}"),
            ),
            Group(
                ANIMALS_3,
                ("{t}!", "us! {t}!", "{t} team, {t}", "hey host, {t}"),
                ("push back {t}", "host, push the {t}"),
            ),
        ),
        talk=tuple(
            (line, COLOURS_3)
            for line in (
                "is it a pink flamingo",
                "a gold medal",
                "silver and gold",
                "pink elephants",
                "it's gold",
                "a silver spoon",
            )
        )
        + tuple(
            (line, ANIMALS_3)
            for line in (
                "the owls hoot at night",
                "is it a fox",
                "hawks have sharp eyes",
                "a family of foxes",
            )
        ),
    ),
}


#: Session 39: names of several words or with a number (never tuned on).
SPLITS["names"] = Split(
    groups=(
        Group(
            ("big red", "small blue", "mean green"),
            ("{t}!", "host, {t}", "{a}, {t}!"),
            ("push {t}", "host, push {t}"),
        ),
        Group(
            ("team 1", "team 2", "team 3"),
            ("{t}!", "host, {t}", "{a}, {t}!"),
            ("push {t}", "host, push {t}"),
        ),
        Group(("the lions", "the tigers", "the sharks"), ("{t}!", "host, {t}"), ("push {t}",)),
    ),
    talk=tuple(
        (line, ("big red", "small blue", "mean green"))
        for line in ("it's big and red", "a big red bus", "a small blue car", "mean and green")
    )
    + tuple(
        (line, ("team 1", "team 2", "team 3"))
        for line in ("is it a team sport", "two teams play", "the team won one game")
    )
    + tuple(
        (line, ("the lions", "the tigers", "the sharks"))
        for line in ("lions live in africa", "is it a tiger", "the sharks swim")
    ),
)


class Judge:
    """The recogniser and referee, heard as the host hears a round."""

    def __init__(self) -> None:
        self.recognizer = PocketSphinxRecognizer()
        self.referee = Referee.default()

    def __call__(
        self, data: bytes, entry: Entry, phase: Phase, teams: tuple[str, ...]
    ) -> tuple[list[str], str, str]:
        """(every command's label, the decisive label, the transcripts) for ``data``."""
        heard_teams = listened_teams(tuple(spoken_team(t) for t in teams), phase)
        context = ListenContext.for_entry(entry, command_phrases(heard_teams), heard_teams)
        adapt_to(self.recognizer, chunks(data), context)
        events = replay(self.recognizer, chunks(data), context)
        self.referee.reset()
        judged = self.referee.observe_all(events, Situation(entry=entry, phase=phase, teams=teams))
        heard = " | ".join(e.text for e in events if e.kind == "final" and e.source == "free")
        commands = [j.label for j in judged if j.type == "command"]
        return commands, decisive(judged), heard


def claims(judge: Judge, split: Split, voices: list[str], entries: list[Entry]) -> None:
    tally: collections.Counter[tuple[str, str]] = collections.Counter()
    errors: list[str] = []
    n = 0
    for group in split.groups:
        teams = group.teams
        for phase, templates in ((Phase.CONTROL, group.control), (Phase.SPIN_CHOICE, group.spin)):
            for template in templates:
                for team in teams:
                    key = norm_word(team)  # "bigred": a name of several words is one
                    want = f"team:{key}" if phase is Phase.CONTROL else f"command:push:{key}"
                    for voice in voices:
                        entry = entries[n % len(entries)]
                        text = template.format(t=team, a=entry.text.lower())
                        data = recording([synth(text, voice)], seed=n)
                        commands, got, heard = judge(data, entry, phase, teams)
                        if "{a}" in template and want in commands:
                            got = want  # the guess and the claim: the claim is what is measured
                        n += 1
                        kind = "right" if got == want else "missed"
                        if got != want and got.rpartition(":")[0] == want.rpartition(":")[0]:
                            kind = "wrong"
                        group_key = f"{teams[0]}.." + (
                            " after the answer" if "{a}" in template else ""
                        )
                        for key in (f"{group_key} {phase.name.lower()}", f"voice {voice}", "all"):
                            tally[(key, kind)] += 1
                        if kind != "right":
                            errors.append(f"    {kind:6} {voice:30} {text!r:26} -> {got} [{heard}]")
    print_tally(tally, "claims said (right / missed / wrong team)")
    if errors:
        print("  not right:")
        print("\n".join(errors))


def print_tally(tally: collections.Counter[tuple[str, str]], heading: str) -> None:
    """One line per key of ``tally`` ((key, "right" / "missed" / "wrong") -> count),
    "all" last."""
    print(f"  {heading}:")
    for key in sorted({k for k, _ in tally}, key=lambda k: (k == "all", k)):
        right, missed, wrong = (tally[(key, k)] for k in ("right", "missed", "wrong"))
        total = right + missed + wrong
        share = f"{right:4}/{total:<4} {100 * right / total:5.1f}%"
        print(f"    {key:40} {share}  missed {missed:3}  wrong {wrong}")


def talk(judge: Judge, split: Split, voices: list[str], entries: list[Entry]) -> None:
    invented: list[str] = []
    n = 0
    for text, teams in split.talk:
        for voice in voices:
            data = recording([synth(text, voice)], seed=10_000 + n)
            commands, _, heard = judge(data, entries[n % len(entries)], Phase.CONTROL, teams)
            n += 1
            claimed = [c for c in commands if c.startswith("team:")]
            if claimed:
                invented.append(f"    {voice:30} {text!r:36} -> {claimed} [{heard}]")
    print(f"  talk naming a team, in a CONTROL round: claims invented on {len(invented)} of {n}")
    print("\n".join(invented))


def fixtures(judge: Judge, split_name: str, entries: dict[str, Entry]) -> None:
    manifest = json.loads((FIXTURES / "manifest.json").read_text())["clips"]
    teams = ("red", "blue", "green")
    invented, clips = [], 0
    for clip in manifest:
        if clip["split"] != split_name or clip["kind"] in ("team", "command"):
            continue
        entry = entries.get(clip.get("entry") or "") or entries["Telescope"]
        with wave.open(str(FIXTURES / clip["file"])) as w:
            data = w.readframes(w.getnframes())
        commands, _, heard = judge(data, entry, Phase.CONTROL, teams)
        clips += 1
        claimed = [c for c in commands if c.startswith("team:")]
        if claimed:
            invented.append(f"    {clip['file']:60} -> {claimed} [{heard}]")
    print(
        "  fixture clips (no claim, no command) in a CONTROL round: "
        f"claims invented on {len(invented)} of {clips}"
    )
    print("\n".join(invented))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "heldout", "both", "names"), default="both")
    ap.add_argument("--no-fixtures", action="store_true", help="leave out the fixture clips' talk")
    ap.add_argument("--voice", action="append", default=[], help="only this voice (repeatable)")
    args = ap.parse_args(argv)
    voices = chosen_voices(args.voice)
    if not args.voice:
        from new_cards import neural_voices

        voices += neural_voices()
    if not voices:
        print("no speech synthesiser (flite, espeak-ng) on PATH: nothing to measure")
        return 0
    deck = load_builtin()
    by_text = {e.text: e for card in deck.cards for e in card.entries.values()}
    entries = [by_text[c] for c in CARDS]
    judge = Judge()
    t0 = time.process_time()
    print(f"voices: {', '.join(voices)}")
    for name in ("tune", "heldout") if args.split == "both" else (args.split,):
        print(f"\nsplit={name}")
        split = SPLITS[name]
        claims(judge, split, voices, entries)
        talk(judge, split, voices, entries)
        if not args.no_fixtures and name != "names":
            fixtures(judge, name, by_text)
    print(f"\n({time.process_time() - t0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
