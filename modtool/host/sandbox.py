"""Templates are data, never code: the Jinja environment every drafted post is rendered in.

A game folder's `templates/` may come from anyone (a shared template pack, a friend's game), so
what a template can do is bounded here, in one place:

* Jinja's `ImmutableSandboxedEnvironment`: no attribute or item whose name starts with "_"
  (`__class__`, `__globals__`, `__subclasses__`, …), no method that changes a value, format
  strings checked the same way; and none of Jinja's helper globals (`cycler`, `joiner`,
  `lipsum`, `namespace`), whose functions lead back to Python's globals.
* a loader that reads only regular files inside the game's `templates/` or modtool's own: no
  absolute names, no "..", no symlinks, nothing larger than `MAX_TEMPLATE_BYTES`, UTF-8 only.
* bounded output (`MAX_OUTPUT_CHARS`) and time (`MAX_SECONDS`), so a loop cannot fill a disk or
  hang the command; an include of itself stops at Jinja's recursion as a one-line error.

Every failure is a `TemplateFileError`: one line naming the file (and line) and the fix.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import stat
import threading
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from pathlib import Path

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..errors import ModToolError

MAX_TEMPLATE_BYTES = 256 * 1024  # far above any post template; a bigger file is not a template
MAX_OUTPUT_CHARS = 1_000_000  # a forum post is at most tens of thousands of characters
MAX_SECONDS = 10  # a template that renders longer than this is looping
UNSAFE_GLOBALS = ("cycler", "joiner", "lipsum", "namespace")


class TemplateFileError(ModToolError):
    "A template cannot be read or rendered safely."


def safe_template_name(name: str) -> bool:
    """A name a template may be loaded by: relative, forward slashes, no "..", no "." parts, no
    hidden files, no NUL."""
    if not name or "\\" in name or "\0" in name or name.startswith("/") or ":" in name:
        return False
    parts = name.split("/")
    return all(p and p not in (".", "..") and not p.startswith(".") for p in parts)


def read_template_file(root: Path, name: str) -> str | None:
    """The text of `name` under `root`, or None when there is no such template there. Refuses a
    symlink anywhere on the way (the root itself is chosen by modtool), anything but a regular
    file, a file too large or not UTF-8."""
    if not safe_template_name(name):
        raise TemplateFileError(
            f"template {name!r}: only plain relative names inside templates/ can be loaded "
            "(no absolute paths, '..' or hidden files)"
        )
    path = root
    for part in name.split("/"):
        path = path / part
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise TemplateFileError(f"template {path}: cannot read it ({exc.strerror})") from None
        if stat.S_ISLNK(info.st_mode):
            raise TemplateFileError(
                f"template {path}: is a symbolic link; copy the file into templates/ instead"
            )
    if not stat.S_ISREG(info.st_mode):
        raise TemplateFileError(f"template {path}: is not a regular file")
    return read_template_text(path)


def read_template_text(path: Path) -> str:
    """A template file's text, bounded and UTF-8, or one clear error."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_TEMPLATE_BYTES + 1)
    except OSError as exc:
        raise TemplateFileError(f"template {path}: cannot read it ({exc.strerror})") from None
    if len(data) > MAX_TEMPLATE_BYTES:
        raise TemplateFileError(
            f"template {path}: larger than {MAX_TEMPLATE_BYTES // 1024} KiB; a post template is "
            "far smaller"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TemplateFileError(
            f"template {path}: not UTF-8 (byte {exc.start}); save it as UTF-8"
        ) from None


class FolderLoader(jinja2.BaseLoader):
    """Templates from a list of folders, first match wins, read by `read_template_file`."""

    def __init__(self, roots: Iterable[Path]) -> None:
        self.roots = [Path(r) for r in roots]

    def get_source(self, environment, template):
        for root in self.roots:
            text = read_template_file(root, template)
            if text is not None:
                return text, str(root / template), lambda: True
        raise jinja2.TemplateNotFound(template)


# a width or precision in a format string ("%10000000000d", "{:>10000000000}") that would
# make a string larger than any post
_HUGE_WIDTH = re.compile(r"(?<![0-9])[0-9]{7,}")


def _refuse_huge(args: Iterable[object]) -> None:
    """No number that would make a value larger than a post: a filter's width (`center`,
    `indent`, `wordwrap`, `truncate`), a repeat, a format string's width."""
    for a in args:
        if isinstance(a, int) and not isinstance(a, bool) and abs(a) > MAX_OUTPUT_CHARS:
            raise jinja2.exceptions.SecurityError(f"a number as large as {a} is not formatting")


def _bounded_filter(function: Callable) -> Callable:
    @functools.wraps(function)  # keeps Jinja's pass_context and the like
    def bounded(*args, **kwargs):
        _refuse_huge([*args, *kwargs.values()])
        return function(*args, **kwargs)

    return bounded


class _Environment(ImmutableSandboxedEnvironment):
    """The sandbox, with what can fill the memory before any output bound is reached bounded
    too: "*", "**" and "%" of large numbers, huge widths in format strings and in filters."""

    intercepted_binops = frozenset(["*", "**", "%"])

    def call_binop(self, context, operator, left, right):
        if operator == "**":
            if isinstance(right, int) and abs(right) > 64 and abs(left) not in (0, 1):
                raise jinja2.exceptions.SecurityError("a power this large is not formatting")
            return left**right
        if operator == "%":
            if isinstance(left, str) and _HUGE_WIDTH.search(left):
                raise jinja2.exceptions.SecurityError("a format width this large is not formatting")
            return left % right
        size = [len(x) for x in (left, right) if isinstance(x, str | list | tuple)]
        count = [x for x in (left, right) if isinstance(x, int)]
        if size and count and size[0] * max(count[0], 0) > MAX_OUTPUT_CHARS:
            raise jinja2.exceptions.SecurityError("a repeat this large is not formatting")
        return left * right

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        _refuse_huge([*args, *kwargs.values()])
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value):
        """`"{:>5}".format(x)`: the sandbox's own wrapper, refused for a huge width."""
        owner = getattr(value, "__self__", None)
        if isinstance(owner, str) and _HUGE_WIDTH.search(owner):

            def refused(*args, **kwargs):
                raise jinja2.exceptions.SecurityError("a format width this large is not formatting")

            return refused if super().wrap_str_format(value) is not None else None
        return super().wrap_str_format(value)


def sandboxed_environment(
    roots: Iterable[Path],
    finalize: Callable[[object], object] | None = None,
    filters: Mapping[str, Callable] | None = None,
) -> ImmutableSandboxedEnvironment:
    """The one environment templates are rendered in; an undefined name fails loudly."""
    env = _Environment(
        loader=FolderLoader([r for r in roots if r.is_dir()]),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=finalize,
        auto_reload=False,
    )
    for name in UNSAFE_GLOBALS:
        env.globals.pop(name, None)
    env.filters.update(filters or {})
    env.filters = {name: _bounded_filter(f) for name, f in env.filters.items()}
    return env


def load_template(
    env: jinja2.Environment, name: str | None = None, source: str | None = None, where: str = ""
) -> jinja2.Template:
    """A template by name from the loader, or from `source` text; syntax errors and missing
    templates become one line naming the file and line."""
    try:
        if source is not None:
            return env.from_string(source)
        return env.get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        file = exc.filename or where or name
        raise TemplateFileError(f"template {file}:{exc.lineno}: {exc.message}") from None
    except RecursionError:
        raise TemplateFileError(
            f"template {where or name}: nested too deeply to read (brackets in brackets)"
        ) from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateFileError(
            f"template {exc.name} not found in the game's templates/ or modtool's"
        ) from None


class _TookTooLong(Exception):
    pass


@contextmanager
def _time_limit(seconds: int):
    """SIGALRM bounds a render where it can (the main thread of a POSIX process)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def ring(signum, frame):
        raise _TookTooLong

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def render_bounded(
    template: jinja2.Template,
    context: Mapping,
    where: str,
    line_of: Callable[[BaseException], int | None],
) -> str:
    """Render, stopping at `MAX_OUTPUT_CHARS` or `MAX_SECONDS`; every template failure is one
    line naming `where` and, where Jinja knows it, the line."""
    out: list[str] = []
    size = 0
    try:
        with _time_limit(MAX_SECONDS):
            for chunk in template.generate(**context):
                size += len(chunk)
                if size > MAX_OUTPUT_CHARS:
                    raise TemplateFileError(
                        f"template {where}: writes more than {MAX_OUTPUT_CHARS:,} characters; "
                        "a post is far shorter (a loop that does not end?)"
                    )
                out.append(chunk)
    except _TookTooLong:
        raise TemplateFileError(
            f"template {where}: still rendering after {MAX_SECONDS} s (a loop that does not end?)"
        ) from None
    except RecursionError:
        raise TemplateFileError(f"template {where}: includes or calls itself without end") from None
    except MemoryError:
        raise TemplateFileError(
            f"template {where}: needs more memory than a post can (a value too large)"
        ) from None
    except jinja2.TemplateSyntaxError as exc:  # in a template it includes
        file = exc.filename or where
        raise TemplateFileError(f"template {file}:{exc.lineno}: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateFileError(
            f"template {where}: {exc.name} not found in the game's templates/ or modtool's"
        ) from None
    except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
        line = getattr(exc, "lineno", None) or line_of(exc)
        at = f":{line}" if line else ""
        message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        if isinstance(exc, jinja2.exceptions.SecurityError) or "unsafe" in message:
            message += " (templates may only format the values they are given)"
        raise TemplateFileError(f"template {where}{at}: {message}") from None
    return "".join(out)
