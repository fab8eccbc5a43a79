"""Recognisers behind one small interface (see ``voice_host.speech.events``)."""
