"""The host's voice: announcements spoken through pyttsx3, printed when nothing can speak.

Every announcer records when its voice is audible on the host's clock, so the
host can gate the microphone (dialogue rule 1)::

    announcer = open_announcer(AnnounceOptions(rate=170), clock=clock)
    announcer.say("Red team, your turn.")
    if announcer.gate_overlaps(chunk.start_time, chunk.end_time):
        ...  # do not judge this microphone audio

Nothing here imports pyttsx3 or sounddevice until an announcer is opened.
"""

from voice_host.announce.factory import open_announcer, unavailable_notice
from voice_host.announce.live import Pyttsx3Announcer
from voice_host.announce.player import Player, SounddevicePlayer
from voice_host.announce.printed import PrintedAnnouncer
from voice_host.announce.protocol import AnnounceOptions, Announcer
from voice_host.announce.recording import Announcement, RecordingAnnouncer
from voice_host.announce.render import (
    Pyttsx3Renderer,
    RenderedAudio,
    Renderer,
    VoiceSettings,
    estimate_duration,
)
from voice_host.announce.returning import ReturningAnnouncer
from voice_host.announce.timeline import DEFAULT_TAIL, SpeechInterval, SpeechTimeline

__all__ = [
    "DEFAULT_TAIL",
    "AnnounceOptions",
    "Announcement",
    "Announcer",
    "Player",
    "PrintedAnnouncer",
    "Pyttsx3Announcer",
    "Pyttsx3Renderer",
    "RecordingAnnouncer",
    "RenderedAudio",
    "Renderer",
    "ReturningAnnouncer",
    "SounddevicePlayer",
    "SpeechInterval",
    "SpeechTimeline",
    "VoiceSettings",
    "estimate_duration",
    "open_announcer",
    "unavailable_notice",
]
