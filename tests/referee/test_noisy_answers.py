"""The forms a recogniser writes for an answer by adding an ending of its own (R7)."""

from __future__ import annotations

import pytest

from voice_host.talk_words import noisy_answer_forms


@pytest.mark.parametrize(
    ("answer", "forms", "expected"),
    [
        # slt's "telescope!" comes back "telescoped": an e-word takes a bare d
        ("telescope", ("telescoped", "telescopes", "telescoping"), ["telescoped"]),
        # the possessive sounds as the plural does, on any word
        ("kangaroo", ("kangaroo's", "kangaroos"), ["kangaroo's"]),
        # a word without the final e takes -ed, not a bare d
        ("jump", ("jumped", "jumpd", "jumping"), ["jumped"]),
        # only forms the card lists: no ending is invented
        ("car", ("cars", "carpet"), []),
        # forms as a deck writes them (capitals, spacing) still match
        ("eiffel tower", ("Eiffel  Tower's",), ["eiffel tower's"]),
    ],
)
def test_R7_answer_variants_a_recogniser_makes(
    answer: str, forms: tuple[str, ...], expected: list[str]
) -> None:
    assert noisy_answer_forms(answer, forms) == expected
