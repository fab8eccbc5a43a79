"""voice_host: an offline, voice-driven host for the party game Articulate!."""

__version__ = "0.1.0"
