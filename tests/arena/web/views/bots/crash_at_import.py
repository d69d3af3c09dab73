"""A bot that fails while being imported: its match ends before the first game."""

raise ImportError("PRIVATE-IMPORT-DETAIL")
