"""Cards: the built-in deck, custom decks, and the word knowledge stored with each entry."""
