"""Audio in: self-describing chunks from the microphone, a recording or silence."""

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk

__all__ = ["SAMPLE_RATE", "AudioChunk"]
