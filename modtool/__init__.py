"""modtool: read a forum game's thread, find the votes, apply the game's rules, draft host posts."""

__version__ = "0.1.0"
