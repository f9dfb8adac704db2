"""The built knowledge base on disk: its SQLite database (store), its Whoosh index (index) and which build is current
(snapshot)."""
