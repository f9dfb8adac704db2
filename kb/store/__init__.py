"""The built knowledge base on disk: its SQLite database (store), its Whoosh index (index), which build is current
(snapshot), and how its stored texts read (reading)."""
