"""Sub-commands of ``voice-host``, one module each (see ``voice_host.cli``)."""
