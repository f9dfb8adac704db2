"""The knowledge base read back: every lookup as a typed answer (lookup.Reader), and a ruling's text rendered for the
terminal and as HTML."""
