"""The deck check: a decklist's lines read (decklist) in any published format (deckformats), its cards, what the list is
and whose deck it is (deckcards), the CoE deck-construction rules (deckrules), and the report (deck)."""
