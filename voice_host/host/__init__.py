"""The live host: clocks, the turn timer, the merged key/voice input queue and the dialogue.

``voice-host play`` calls :func:`voice_host.host.live.run_live`; tests and the
latency benchmark drive the same :class:`~voice_host.host.core.Host` on audio
time through :mod:`voice_host.host.script`.
"""
