"""The deck check: a decklist read in any published format (decklist), the CoE deck-construction rules (deckrules), and the report (deck)."""
