"""The CSS selectors a host may give a source in game.toml (`selectors = {post = ...}`), by
field: checked when game.toml is read, applied by the custom reader (forum/custom.py)."""

SELECTOR_KEYS = ("post", "body", "author", "time", "number", "edited")
