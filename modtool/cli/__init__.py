"""The modtool command line (`modtool.cli.app`, `modtool.cli.main`): the app and its options in
`app`, the commands in one module per group, registered in the order help lists them."""

from __future__ import annotations

from . import days, drafting, folders, game_log, nights, record, roles, setup, threads  # noqa: F401
from .app import app, main

__all__ = ["app", "main"]
