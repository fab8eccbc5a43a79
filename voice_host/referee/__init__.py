"""The referee: judging guesses, describer fouls and spoken commands from what was heard.

Pure code (standard library + rapidfuzz): recogniser events and the game
situation in, :class:`Judgement` values with evidence out.  All times are
seconds of audio time.
"""

from voice_host.referee.frequency import WordFrequency, default_word_frequency
from voice_host.referee.phones import CmuDict, PhoneLookup, default_phone_lookup
from voice_host.referee.referee import Referee
from voice_host.referee.values import (
    GRACE_SECONDS,
    HOST_TAIL_SECONDS,
    Judgement,
    Phase,
    Situation,
    judgement_to_json,
)
from voice_host.referee.wordclass import (
    AdjectiveLookup,
    NameLookup,
    default_adjective_lookup,
    default_name_lookup,
)

__all__ = [
    "GRACE_SECONDS",
    "HOST_TAIL_SECONDS",
    "AdjectiveLookup",
    "CmuDict",
    "Judgement",
    "NameLookup",
    "Phase",
    "PhoneLookup",
    "Referee",
    "Situation",
    "WordFrequency",
    "default_adjective_lookup",
    "default_name_lookup",
    "default_phone_lookup",
    "default_word_frequency",
    "judgement_to_json",
]
