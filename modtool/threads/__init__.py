"""Reading threads: forum pages of every engine (forum/), polite fetching with a page cache,
game sources, posts and their own text, times. Knows nothing of games."""
