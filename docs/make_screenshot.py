"""Regenerate ``docs/board.svg`` (and ``docs/board.png`` when ``rsvg-convert`` is installed).

Plays a few turns of a three-team game on the default board, then draws the
table screen headless at 120 x 40 characters::

    .venv/bin/python docs/make_screenshot.py
"""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
# Run from a checkout without installing the package.
sys.path.insert(0, str(DOCS.parent))

from voice_host.rules import Correct, Game, TimeUp, default_board, parse_teams  # noqa: E402
from voice_host.screen import ScreenModel, TimerView, screen_model_from_game  # noqa: E402
from voice_host.screen.app import TableApp  # noqa: E402

SIZE = (120, 40)


def example_game() -> Game:
    """Red on 4, Blue on 7, Green on 4 with Red; Red's turn again with two guessed."""
    game = Game(
        parse_teams("Red:Ann,Bob;Blue:Cat,Dan;Green:Eve,Fay"), default_board(), rng=random.Random(7)
    )
    for guessed in (4, 7, 4, 2):
        for _ in range(guessed):
            game.apply(Correct())
        if guessed != 2:
            game.apply(TimeUp())
    return game


#: The message line of the example: the keys of a turn as the host's help names them.
KEYS_MESSAGE = "Keys: C correct, P pass, F foul, T time is up, space pause"


def example_model() -> ScreenModel:
    """The example game as the board view shows it, mid-turn."""
    return screen_model_from_game(
        example_game(),
        timer=TimerView(seconds_left=23.4, total=30.0),
        card="Telescope",  # the describer's entry, as card_text(game, deck) would give it
        heard="a telescope",
        judgement="Correct: telescope. Two.",
        announcement="Telescope, correct. Two.",
        message=KEYS_MESSAGE,
    )


async def shoot() -> Path:
    """Draw the example and save the SVG; return its path."""
    app = TableApp(example_model())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.save_screenshot("board.svg", str(DOCS))
    return DOCS / "board.svg"


def for_librsvg(svg: str) -> str:
    """The SVG as librsvg draws it right: leading no-break spaces kept, a local monospace font.

    Rich writes runs of spaces as no-break spaces, which librsvg drops at the start of a text
    element (shifting the big digits and centred labels); with ``xml:space="preserve"`` plain
    spaces are kept.  Fira Code is fetched from the web by browsers only.
    """
    svg = svg.replace("&#160;", " ").replace(
        '<svg class="rich-terminal"', '<svg xml:space="preserve" class="rich-terminal"', 1
    )
    return svg.replace("font-family: Fira Code, monospace;", "font-family: DejaVu Sans Mono;")


def main() -> None:
    """Write the SVG, then the PNG if a converter is there."""
    svg = asyncio.run(shoot())
    print(f"wrote {svg}")
    converter = shutil.which("rsvg-convert")
    if converter is None:
        print("no rsvg-convert (Debian: apt-get install librsvg2-bin): PNG not made")
        return
    png = svg.with_suffix(".png")
    subprocess.run(
        [converter, "--zoom", "1.5", "-o", str(png)],
        input=for_librsvg(svg.read_text("utf-8")).encode("utf-8"),
        check=True,
    )
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
