"""Keyboard play: the key-to-input state machine (``controller``) and its terminal."""

from voice_host.keyboard.controller import EntryText, KeyboardController, card_label

__all__ = ["EntryText", "KeyboardController", "card_label"]
