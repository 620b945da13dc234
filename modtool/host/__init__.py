"""The host's work on a game: closing days, watching, init, recording, drafts and their template
sandbox, output formats, the group-chat log, archive import."""
