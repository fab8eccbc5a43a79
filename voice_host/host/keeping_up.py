"""Whether the listening thread keeps up with the table.

The recognisers cost a fixed share of a core for each second of speech (about a
tenth on a quick machine, a fifth on a slow one: README, Benchmarks), with
bursts at each utterance's end (a transcription, an alignment: up to about a
second and a half on a slow machine).  A machine that cannot keep up falls
further and further behind the room: a guess is answered seconds after it was
called, and once five seconds of audio wait in the microphone's queue, blocks
are dropped and words lost.  Nothing else would tell the players why, so
:class:`ListeningLag` notices it once, in play, and the host says it when the
turn ends (dialogue.md 10: speech is never required, and the keys act at once).
"""

from __future__ import annotations

#: The listening thread counts as behind when a chunk is judged this many seconds
#: after it ended (a slow machine answers within about one: ``host_latency.py``) ...
BEHIND_SECONDS = 2.0
#: ... on this many seconds of audio in play in a row: one long transcription
#: catches up within a second or two, a machine too slow for the room never does.
BEHIND_FOR = 5.0


class ListeningLag:
    """Follows how late the listening thread judges the audio heard in play and
    says, once, when it cannot keep up: behind by :data:`BEHIND_SECONDS` for
    :data:`BEHIND_FOR` seconds of audio in a row, or audio dropped from the
    microphone's full queue.  Between turns the host may take its time."""

    def __init__(self, behind: float = BEHIND_SECONDS, behind_for: float = BEHIND_FOR) -> None:
        self.behind = behind
        self.behind_for = behind_for
        self._late_for = 0.0
        self._dropped = 0
        self.said = False
        """Whether the news has been given (it is given once)."""

    def observe(self, lag: float, seconds: float, in_play: bool, dropped: int = 0) -> bool:
        """One chunk of ``seconds`` of audio, judged ``lag`` seconds after it ended;
        ``dropped``: the microphone's count of blocks dropped so far.  True the
        first time the listening is found behind."""
        newly_dropped = dropped > self._dropped
        self._dropped = max(self._dropped, dropped)
        if self.said or not in_play:
            self._late_for = 0.0
            return False
        self._late_for = self._late_for + seconds if lag >= self.behind else 0.0
        if newly_dropped or self._late_for >= self.behind_for:
            self.said = True
        return self.said
