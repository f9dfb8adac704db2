"""The static site: its pages planned, written and checked, and the data the browser's search and deck check load."""
