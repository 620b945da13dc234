"""Mafia as forum hosts run it (mafiascum and the like): votes and their thresholds, the
presets' rules, deaths, replacements. Everything it needs is the core's: it adds no hook."""

from __future__ import annotations

from ...core.variant import Variant


class Mafia(Variant):
    name = "mafia"
    title = "Mafia (majority or plurality votes, the hammer, No-Lynch)"
    example = "games/example-mafia"
