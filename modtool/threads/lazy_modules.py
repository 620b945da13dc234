"""Third-party modules imported when first used, not when the module naming them is imported.

lxml.etree costs 13-15 ms of CPU to import (a large extension module and its libraries), a
fifth of a count's start-up, and a count whose post readings are kept parses no HTML.
`etree = lazy_module("lxml.etree")` stands for `from lxml import etree`: the first use of an
attribute imports the module and keeps that attribute on the stand-in, so later uses cost what
a module attribute does (no __getattr__ call after the first). Only for modules whose
attributes are used as `module.name` at call time (an annotation is a string, never used).
"""

from __future__ import annotations

import importlib


class LazyModule:
    """A module imported on the first use of one of its attributes."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str):
        if attribute.startswith("__"):  # copy, pickle and repr ask; nothing to import for them
            raise AttributeError(attribute)
        value = getattr(importlib.import_module(self._name), attribute)
        setattr(self, attribute, value)  # asked again, found on the instance
        return value

    def __repr__(self) -> str:
        return f"lazy_module({self._name!r})"


def lazy_module(name: str) -> LazyModule:
    return LazyModule(name)
