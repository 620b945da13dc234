"""Drafted posts: templates rendered in the sandbox (`host.sandbox`), every value escaped for
its markup once, here; the game folder's templates/ first, then modtool's own."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import jinja2

from ..core.results import DayCount
from .render import count_to_json, tie_chooser
from .sandbox import (
    TemplateFileError,
    load_template,
    read_template_text,
    render_bounded,
    sandboxed_environment,
)

# The built-in templates: templates/ of the repository, shipped in the wheel as
# modtool/templates (a link in the checkout), so an installed copy finds them too.
TEMPLATES = Path(str(resources.files("modtool") / "templates"))

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>&~|])")  # what can start markup mid-line


# The tags a forum reads: the common BBCode of phpBB, vBulletin, XenForo, SMF and MyBB, and
# the vote, post and countdown tags of the forums in docs (CONVENTIONS: [vote], [v], [unvote],
# [uv], [post], [countdown]). Anything else in brackets ("[winger]") is text to every forum.
BBCODE_TAGS = frozenset(
    "b i u s strike url img quote code color colour size font spoiler list li ul ol * center "
    "left right justify indent email hr sub sup table tr td th youtube media video audio "
    "noparse plain pre highlight user mention attach attachment abbr anchor h1 h2 h3 "
    "vote v unvote uv post countdown".split()
)
_BBCODE_OPENING = re.compile(r"\[(?=/?([a-z0-9*]+)[\]=\s])", re.I)


def escape_bbcode(text: str) -> str:
    """A name shows as written in any BBCode forum: a zero-width space after the "[" of what a
    forum would read as a tag ("[/b]", "[url=…]") keeps it text; "[winger]" stays as written."""
    return _BBCODE_OPENING.sub(lambda m: "[\u200b" if m[1].lower() in BBCODE_TAGS else "[", text)


def escape_markdown(text: str) -> str:
    """A name shows as written in Markdown (Discourse, Discord): every character that could
    start emphasis, a link, code, a table cell or HTML mid-line is backslash-escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


ESCAPES = {"bbcode": escape_bbcode, "markdown": escape_markdown}


def _link_filter(markup: str):
    """`{{ name | link(url) }}`: the name linked to the post of the vote, built here so that
    templates only format; the name is escaped, the URL made safe for the markup."""
    import markupsafe

    escape = ESCAPES[markup]

    def link(name: object, url: object) -> markupsafe.Markup:
        text = escape(str(name))
        if not url:
            return markupsafe.Markup(text)
        href = str(url).replace("]", "%5D").replace(")", "%29").replace(" ", "%20")
        if markup == "bbcode":
            return markupsafe.Markup(f"[url={href}]{text}[/url]")
        return markupsafe.Markup(f"[{text}]({href})")

    return link


def with_the(name: object) -> str:
    """`{{ role | the }}`: "the Priest", and a name that has its own article as it is ("The
    Chosen One", not "the The Chosen One")."""
    text = str(name)
    return text if text.casefold().startswith("the ") else f"the {text}"


def environment(
    extra: Path | None = None, markup: str = "bbcode", own: Path | None = None
) -> jinja2.Environment:
    """Templates from the game folder's templates/ first, then the game's own (`own`,
    `Variant.templates`), then modtool's shared ones, in the sandbox
    (`modtool.sandbox`); an undefined name fails loudly. Every value a template prints is
    escaped for its markup here, once; templates only format (a value marked
    `markupsafe.Markup` is markup the code built)."""
    import markupsafe

    escape = ESCAPES[markup]

    def finalize(value):
        if isinstance(value, markupsafe.Markup) or not isinstance(value, str):
            return value
        return escape(value)

    roots = [p for p in (game_templates(extra), own, TEMPLATES) if p is not None]
    return sandboxed_environment(roots, finalize, {"link": _link_filter(markup), "the": with_the})


def game_templates(folder: Path | None) -> Path | None:
    """A game's templates/ folder, refused when it leads out of the game folder (a symbolic
    link to elsewhere): what a shared folder holds is read from inside it only."""
    if folder is None or not (folder.exists() or folder.is_symlink()):
        return None
    if folder.is_symlink() or not folder.resolve().is_relative_to(folder.parent.resolve()):
        raise TemplateFileError(
            f"{folder}: is a link out of the game folder; copy the templates into it instead"
        )
    return folder


def render_count_post(
    dc: DayCount,
    markup: str = "bbcode",
    language: str = "en",
    extra: Path | None = None,
    template_file: Path | None = None,
    number: int | None = None,
    deadline: dict | None = None,
    own: Path | None = None,
) -> str:
    """A vote-count post for the forum: `template_file` if given, else
    votecount.<language>.<markup>.j2 from the game folder's templates/ (`extra`) or modtool's."""
    context = {
        "count": count_to_json(dc),
        "chooser": tie_chooser(dc, language),
        "number": number,
        "deadline": deadline,
    }
    return render_post("votecount", context, markup, language, extra, template_file, own)


def render_post(
    kind: str,
    context: dict,
    markup: str = "bbcode",
    language: str = "en",
    extra: Path | None = None,
    template_file: Path | None = None,
    own: Path | None = None,
) -> str:
    """Any drafted post: <kind>.<language>.<markup>.j2 (the game folder's first, then the
    game's own, `own`), or one file."""
    env = environment(extra, markup, own)
    if template_file is not None:
        source = read_template_text(template_file)
        template = load_template(env, source=source, where=str(template_file))
        where = str(template_file)
    else:
        template = load_template(env, f"{kind}.{language}.{markup}.j2")
        where = template.filename or template.name
    return render_bounded(template, context, where, lambda exc: _template_line(exc, template))


def _template_line(exc: BaseException, template: jinja2.Template) -> int | None:
    """The template line a render error came from (Jinja puts it in the traceback)."""
    import traceback

    names = {template.filename, "<template>"}
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename in names]
    return lines[-1] if lines else None
