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
* bounded values, checked before each is built (one C call cannot be stopped by the alarm):
  "*", "+", "~" and joins by the size of their result, no value larger than `MAX_OUTPUT_CHARS`;
  format widths and precisions at most `MAX_FORMAT_WIDTH` however given, no "%*d"; the filters
  and str methods that grow text (replace, indent, wordwrap, center, expandtabs, translate…)
  by their result; and at most `MAX_BUILT_CHARS` built by one render in all.

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
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import (
    ImmutableSandboxedEnvironment,
    SandboxedEscapeFormatter,
    SandboxedFormatter,
)
from markupsafe import Markup

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


MAX_FORMAT_WIDTH = 1000  # a width or precision in a format spec; a post's column is far narrower
MAX_BUILT_CHARS = 50 * MAX_OUTPUT_CHARS  # all the values one render may build, together
MAX_DIGITS = 4000  # a number a template makes; below Python's own bound for printing one


def _size(value: object, limit: int = MAX_OUTPUT_CHARS) -> int:
    """About how many characters `value` takes as text (a list counts every element, shared or
    not, as its repr would), counted only until it passes `limit`."""
    total = 0
    stack = [value]
    while stack and total <= limit:
        v = stack.pop()
        if isinstance(v, str | bytes):
            total += len(v)
        elif isinstance(v, bool) or v is None:
            total += 5
        elif isinstance(v, int):
            total += v.bit_length() // 3 + 1
        elif isinstance(v, list | tuple | set | frozenset):
            total += 2 + 2 * len(v)
            if total <= limit:
                stack.extend(v)
        elif isinstance(v, dict):
            total += 2 + 4 * len(v)
            if total <= limit:
                stack.extend(v.keys())
                stack.extend(v.values())
        else:
            total += 8
    return total


def _too_large(size: int, what: str) -> None:
    if size > MAX_OUTPUT_CHARS:
        raise jinja2.exceptions.SecurityError(
            f"{what} would make a value of {size:,} characters or more; a template's values are "
            f"limited to {MAX_OUTPUT_CHARS:,}"
        )


def _too_many_digits(bits: int) -> None:
    if bits * 0.302 > MAX_DIGITS:  # log10(2) digits a bit
        raise jinja2.exceptions.SecurityError(
            f"a number of more than {MAX_DIGITS:,} digits is not formatting (the template "
            "computes it)"
        )


def _check_spec_numbers(spec: str, what: str) -> None:
    for number in re.findall(r"[0-9]+", spec):
        if len(number) > 6 or int(number) > MAX_FORMAT_WIDTH:
            raise jinja2.exceptions.SecurityError(
                f"{what} width or precision {number[:12]} is above the limit of "
                f"{MAX_FORMAT_WIDTH} for a template"
            )


# one % conversion: %(name)flags width .precision length type
_PERCENT_SPEC = re.compile(
    r"%(?:\([^)]*\))?([#0\- +]*)(\*|[0-9]*)(?:\.(\*|[0-9]*))?[hlL]?(.)", re.S
)


def checked_percent(left: str, right: object) -> object:
    """`left % right`, refused before it runs when a width comes from the values (`%*d`), a
    width or precision is above `MAX_FORMAT_WIDTH`, or the result would be too large."""
    size = len(left) + _size(right)
    for match in _PERCENT_SPEC.finditer(left):
        width, precision = match[2], match[3] or ""
        if "*" in (width, precision):
            raise jinja2.exceptions.SecurityError(
                "a % format with '*' (a width taken from the values) is not allowed in a template"
            )
        _check_spec_numbers(width + " " + precision, "a % format")
        size += max(int(width or 0), int(precision or 0))
    _too_large(size, "this % format")
    return left % right


class _BoundedFormatting:
    """str.format in the sandbox, with every field's width and precision at most
    `MAX_FORMAT_WIDTH` (however given: "{:{}}" too) and the whole result bounded."""

    def vformat(self, format_string, args, kwargs):
        self._written = len(format_string)
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value, format_spec):
        _check_spec_numbers(format_spec, "a format")
        _too_large(self._written + _size(value), "this format")
        text = super().format_field(value, format_spec)
        self._written += len(text)
        _too_large(self._written, "this format")
        return text


class _Formatter(_BoundedFormatting, SandboxedFormatter):
    pass


class _EscapeFormatter(_BoundedFormatting, SandboxedEscapeFormatter):
    pass


def _refuse_huge(args: Iterable[object]) -> None:
    """No number that would make a value larger than a post: a filter's width (`center`,
    `indent`, `wordwrap`, `truncate`), a repeat, a format string's width."""
    for a in args:
        if isinstance(a, int) and not isinstance(a, bool) and abs(a) > MAX_OUTPUT_CHARS:
            raise jinja2.exceptions.SecurityError(f"a number as large as {a} is not formatting")


def _lines(s: str) -> int:
    return s.count("\n") + 1


def _replace_size(s, old, new, count=-1) -> int:
    s, old, new = str(s), str(old), str(new)
    times = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and count is not None and count >= 0:
        times = min(times, count)
    return len(s) + times * max(len(new) - len(old), 0)


def _indent_size(s, width=4, first=False, blank=False) -> int:
    pad = len(width) if isinstance(width, str) else int(width)
    return len(str(s)) + _lines(str(s)) * max(pad, 0)


def _wordwrap_size(s, width=79, break_long_words=True, wrapstring=None, *rest) -> int:
    s = str(s)
    pieces = len(s) // max(int(width), 1) + _lines(s)
    return len(s) + pieces * len(str(wrapstring or "\n"))


def _width_size(s, width=80, *rest) -> int:
    return max(len(str(s)), int(width))


def _expandtabs_size(s, tabsize=8) -> int:
    return len(s) + s.count("\t") * max(int(tabsize), 0)


def _translate_size(s, table) -> int:
    widest = max((_size(v) for v in table.values()), default=1) if isinstance(table, dict) else 1
    return len(s) * max(widest, 1)


# What a filter (by name) or a str method would make, estimated before it runs: only the ones
# whose result can be far larger than what they are given.
_FILTER_SIZE = {
    "replace": _replace_size,
    "indent": _indent_size,
    "wordwrap": _wordwrap_size,
    "center": _width_size,
}
_METHOD_SIZE = {
    "replace": _replace_size,
    "center": _width_size,
    "ljust": _width_size,
    "rjust": _width_size,
    "zfill": _width_size,
    "expandtabs": _expandtabs_size,
    "translate": _translate_size,
}


def _bounded_join(items: Iterable, sep: object = "") -> list:
    """The items a join would join, taken one by one and refused as soon as the joined text
    would be too large (a generator too: nothing is built past the limit)."""
    size, taken, gap = 0, [], len(str(sep))
    for item in items:
        size += _size(item) + gap
        _too_large(size, "this join")
        taken.append(item)
    return taken


def _bounded_filter(name: str, function: Callable, env: _Environment) -> Callable:
    """A filter that refuses a result too large before it is made (`_FILTER_SIZE`, join,
    format) and counts what it made against the render's total."""
    passes = getattr(function, "jinja_pass_arg", None) is not None

    @functools.wraps(function)  # keeps Jinja's pass_context and the like
    def bounded(*args, **kwargs):
        _refuse_huge([*args, *kwargs.values()])
        own = list(args[1:] if passes else args)
        if name == "join" and own:
            own[0] = _bounded_join(own[0], own[1] if len(own) > 1 else kwargs.get("d", ""))
            args = (*args[:1], *own) if passes else tuple(own)
        elif name == "format" and own and isinstance(own[0], str):
            return checked_percent(own[0], kwargs or tuple(own[1:]))
        elif name in _FILTER_SIZE and own:
            try:
                size = _FILTER_SIZE[name](*own, **kwargs)
            except (TypeError, ValueError):
                size = 0  # the filter itself will say what is wrong with its arguments
            _too_large(size, f"the {name} filter")
        return env.built(function(*args, **kwargs), f"the {name} filter")

    return bounded


class _CodeGenerator(CodeGenerator):
    """Jinja's code, with "~" going through `_Environment.bounded_concat`, bounded too."""

    def visit_Concat(self, node, frame) -> None:
        self.write("environment.bounded_concat(")
        super().visit_Concat(node, frame)
        self.write(")")


class _Environment(ImmutableSandboxedEnvironment):
    """The sandbox, with what can fill the memory before any output bound is reached bounded
    too, each before it runs: "*", "+", "~", "**" and "%", str.format, the filters and str
    methods that grow text; and every render may build at most `MAX_BUILT_CHARS` in all."""

    intercepted_binops = frozenset(["*", "**", "%", "+"])
    code_generator_class = _CodeGenerator
    built_chars = 0

    def built(self, value, what: str):
        """`value`, made by `what`, refused when larger than a value may be or when the render
        has built too much in all."""
        if isinstance(value, str | bytes | list | tuple | dict | set | frozenset):
            size = _size(value)
            _too_large(size, what)
            self.built_chars += size
            if self.built_chars > MAX_BUILT_CHARS:
                raise jinja2.exceptions.SecurityError(
                    f"the template builds more than {MAX_BUILT_CHARS:,} characters of values in "
                    "all; a post is far shorter (a loop that does not end?)"
                )
        return value

    def bounded_concat(self, text: str) -> str:
        return self.built(text, '"~"')

    def call_binop(self, context, operator, left, right):
        if operator == "**":
            if isinstance(right, int) and abs(right) > 64 and abs(left) not in (0, 1):
                raise jinja2.exceptions.SecurityError("a power this large is not formatting")
            if isinstance(left, int) and isinstance(right, int) and right > 0:
                _too_many_digits(left.bit_length() * right)
            return left**right
        if operator == "%":
            if isinstance(left, str):
                return self.built(checked_percent(left, right), '"%"')
            return left % right
        sized = [x for x in (left, right) if isinstance(x, str | bytes | list | tuple)]
        if operator == "+":
            if sized:
                _too_large(sum(_size(x) for x in sized), '"+"')
                return self.built(left + right, '"+"')
            return left + right
        count = [x for x in (left, right) if isinstance(x, int)]
        if len(count) == 2:
            _too_many_digits(left.bit_length() + right.bit_length())
        if sized and count:
            _too_large(_size(sized[0]) * max(count[0], 0), "this repeat")
            return self.built(left * right, "this repeat")
        return left * right

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        _refuse_huge([*args, *kwargs.values()])
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, str) and name == "join" and args:
            args = (_bounded_join(args[0], owner), *args[1:])
        elif isinstance(owner, str) and name in _METHOD_SIZE:
            try:
                size = _METHOD_SIZE[name](owner, *args, **kwargs)
            except (TypeError, ValueError):
                size = 0  # the method itself will say what is wrong with its arguments
            _too_large(size, f"str.{name}")
        result = super().call(__context, __obj, *args, **kwargs)
        return __self.built(result, f"{name or 'this call'}()")

    def wrap_str_format(self, value):
        """`"{:>5}".format(x)`: the sandbox's own wrapper, with `_BoundedFormatting`."""
        if super().wrap_str_format(value) is None:
            return None
        owner = value.__self__
        is_map = value.__name__ == "format_map"
        if isinstance(owner, Markup):
            formatter = _EscapeFormatter(self, escape=owner.escape)
        else:
            formatter = _Formatter(self)

        def bounded(*args, **kwargs):
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                args, kwargs = (), args[0]
            return self.built(type(owner)(formatter.vformat(owner, args, kwargs)), "this format")

        return bounded


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
    env.filters = {name: _bounded_filter(name, f, env) for name, f in env.filters.items()}
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
    template.environment.built_chars = 0
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
        if "integer string conversion" in message:  # Python's own bound, reached another way
            message = "makes a number too long to print (thousands of digits); it is not formatting"
        if isinstance(exc, jinja2.exceptions.SecurityError) or "unsafe" in message:
            message += " (templates may only format the values they are given)"
        raise TemplateFileError(f"template {where}{at}: {message}") from None
    return "".join(out)
