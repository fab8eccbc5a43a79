"""Board layouts shipped with the game (data only)."""
