"""A game folder's templates are data, never code: every known way out of a Jinja template is
tried against the environment drafts are rendered in, and none runs or reads anything."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.host import sandbox
from modtool.host.sandbox import TemplateFileError
from modtool.host.templating import render_post

from .conftest import EXAMPLE

SECRET = "s3cret-outside-the-game"

# Each: a template that tries to leave the sandbox. {secret} is a file outside the templates,
# {mark} a file that would exist if a command ran.
ESCAPES = {
    "cycler globals": "{{ cycler.__init__.__globals__.os.popen('touch {mark}').read() }}",
    "joiner globals": "{{ joiner.__init__.__globals__.os.system('touch {mark}') }}",
    "lipsum builtins": "{{ lipsum.__globals__.__builtins__.open('{secret}').read() }}",
    "namespace globals": "{{ namespace.__init__.__globals__.os.popen('touch {mark}') }}",
    "range self": "{{ range.__self__.open('{secret}').read() }}",
    "class mro subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "class via attr filter": "{{ ()|attr('__class__')|attr('__base__') }}",
    "item access to a private name": "{{ count['__class__'] }}",
    "getitem of __globals__": "{{ (render_post|default(1))['__globals__'] }}",
    "self globals": "{{ self.__init__.__globals__['__builtins__'] }}",
    "self private context": "{{ self._TemplateReference__context }}",
    "format string attribute": "{{ '{0.__class__.__mro__}'.format(count) }}",
    "str.format_map": "{{ '{x.__class__}'.format_map({'x': count}) }}",
    "builtins by name": "{{ __builtins__ }}",
    "a mutating method": "{{ count.update({'day': 99}) }}",
    "list append": "{% set xs = [1] %}{{ xs.append(2) }}",
    "a huge repeat": "{{ 'x' * 10000000000 }}",
    "a huge power": "{{ 9 ** 9 ** 9 }}",
    "a huge range": "{% for i in range(10 ** 9) %}{% endfor %}",
    "a huge centre": "{{ 'x'|center(10 ** 10) }}",
    "a huge format width": "{{ '{:>10000000000}'.format('a') }}",
    "a huge format_map width": "{{ '{x:>10000000000}'.format_map({'x': 1}) }}",
    "a huge percent width": "{{ '%10000000000d' % 1 }}",
    "a huge indent": "{{ 'x'|indent(10 ** 10, true) }}",
    "nested brackets": "{{ " + "(" * 400 + "1" + ")" * 400 + " }}",
    "include an absolute path": "{% include '{secret}' %}",
    "include with ..": "{% include '../outside.txt' %}",
    "extends an absolute path": "{% extends '{secret}' %}",
    "import with ..": "{% import '../outside.txt' as x %}",
    "include a hidden file": "{% include '.hidden' %}",
    "include through a symlink": "{% include 'link.j2' %}",
    "include a symlinked folder": "{% include 'linked/outside.txt' %}",
    "include itself": "{% include 'votecount.en.bbcode.j2' %}",
    "config object": "{{ config.items() }}",
    "request object": "{{ request.environ }}",
}


@pytest.fixture
def world(tmp_path):
    """A game's templates/ next to a secret file outside it, with a symlink pointing out."""
    templates = tmp_path / "game" / "templates"
    templates.mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    (tmp_path / "game" / "outside.txt").write_text(SECRET)
    (templates / ".hidden").write_text(SECRET)
    os.symlink(secret, templates / "link.j2")
    os.symlink(tmp_path / "game", templates / "linked")  # holds outside.txt
    return tmp_path


def _fill(source: str, world) -> str:
    return source.replace("{secret}", str(world / "secret.txt")).replace(
        "{mark}", str(world / "ran")
    )


@pytest.mark.parametrize("form", list(ESCAPES))
def test_no_escape_runs_or_reads_anything(form, world):
    templates = world / "game" / "templates"
    (templates / "votecount.en.bbcode.j2").write_text(_fill(ESCAPES[form], world))
    try:
        out = render_post("votecount", {"count": {"day": 1}}, extra=templates)
    except TemplateFileError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("template ")
        assert SECRET not in message
    else:
        assert SECRET not in out and "Popen" not in out and "subclasses" not in out
        assert "<class" not in out and "module" not in out
    assert not (world / "ran").exists()


def test_the_escape_table_covers_the_known_forms():
    words = " ".join(ESCAPES.values())
    for needle in (
        "cycler",
        "joiner",
        "lipsum",
        "namespace",
        "range",
        "__class__",
        "__mro__",
        "__subclasses__",
        "__globals__",
        "__builtins__",
        "self",
        "include",
        "extends",
        "import",
        "'..",
        "link.j2",
    ):
        assert needle in words, needle


def test_a_templates_folder_that_links_out_of_the_game_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "votecount.en.bbcode.j2").write_text(SECRET)
    game = tmp_path / "game"
    game.mkdir()
    os.symlink(elsewhere, game / "templates")
    with pytest.raises(TemplateFileError, match="link out of the game folder"):
        render_post("votecount", {}, extra=game / "templates")


def test_an_error_in_an_included_template_names_that_file(tmp_path):
    templates = tmp_path / "templates"
    (templates / "parts").mkdir(parents=True)
    (templates / "parts" / "x.j2").write_text("one\ntwo\nthree\n{% if %}\n")
    (templates / "votecount.en.bbcode.j2").write_text("{% include 'parts/x.j2' %}")
    with pytest.raises(TemplateFileError, match=r"parts/x\.j2:4"):
        render_post("votecount", {}, extra=templates)


def test_a_plain_template_still_renders_includes_and_macros(tmp_path):
    templates = tmp_path / "templates"
    (templates / "parts").mkdir(parents=True)
    (templates / "parts" / "head.j2").write_text("[b]Day {{ count.day }}[/b]")
    (templates / "votecount.en.bbcode.j2").write_text(
        "{% include 'parts/head.j2' %}\n{% macro w(n) %}<{{ n }}>{% endmacro %}"
        "{{ w('x') }} {% for i in range(3) %}{{ loop.index }}{% endfor %}"
    )
    out = render_post("votecount", {"count": {"day": 2}}, extra=templates)
    assert out == "[b]Day 2[/b]\n<x> 123"


@pytest.mark.parametrize(
    "source, says",
    [
        ("{% if %}", "votecount.en.bbcode.j2:1"),
        ("line\n{{ count.day }\n", "votecount.en.bbcode.j2:2"),
        ("{{ nothing_here }}", "'nothing_here' is undefined"),
        ("{{ 1 / 0 }}", "division by zero"),
        ("{{ 'a' + 1 }}", "votecount.en.bbcode.j2"),
        ("{% include 'missing.j2' %}", "missing.j2 not found"),
    ],
)
def test_a_broken_template_is_one_line_naming_file_and_line(tmp_path, source, says):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "votecount.en.bbcode.j2").write_text(source)
    with pytest.raises(TemplateFileError) as caught:
        render_post("votecount", {"count": {"day": 1}}, extra=templates)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_a_template_not_utf8_or_too_large_is_refused(tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    file = templates / "votecount.en.bbcode.j2"
    file.write_bytes(b"Day \xff\xfe")
    with pytest.raises(TemplateFileError, match="not UTF-8"):
        render_post("votecount", {}, extra=templates)
    file.write_text("x" * (sandbox.MAX_TEMPLATE_BYTES + 1))
    with pytest.raises(TemplateFileError, match="larger than"):
        render_post("votecount", {}, extra=templates)


def test_output_and_time_are_bounded(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    templates.mkdir()
    file = templates / "votecount.en.bbcode.j2"
    file.write_text("{% for i in range(99999) %}{{ 'y' * 99 }}{% endfor %}")
    with pytest.raises(TemplateFileError, match="more than"):
        render_post("votecount", {}, extra=templates)
    monkeypatch.setattr(sandbox, "MAX_SECONDS", 0.2)
    file.write_text(
        "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
    )
    with pytest.raises(TemplateFileError, match="still rendering"):
        render_post("votecount", {}, extra=templates)


def test_the_command_line_runs_nothing_from_a_shared_game_folder(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    (game / "templates").mkdir(exist_ok=True)
    mark = tmp_path / "ran"
    (game / "templates" / "votecount.en.bbcode.j2").write_text(
        f"{{{{ cycler.__init__.__globals__.os.popen('touch {mark}').read() }}}}"
    )
    for args in (
        ["draft", "votecount", str(game), "--stdout"],
        ["count", str(game), "--post", "bbcode"],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, result.output
        assert result.stderr.count("\n") == 1 and "votecount.en.bbcode.j2" in result.stderr
        assert not mark.exists()


# Each: a template that would build a value of gigabytes in one operation, before any output
# bound is reached; and what the one-line refusal names.
BLOW_UPS = {
    "width as a string argument": ('{{ "{:{}}".format(1, "999999999") }}', "limit of 1000"),
    "width from the % values": ('{{ "%*d" % (999999999, 1) }}', "'\\*'"),
    "precision from the % values": ('{{ "%.*f" % (999999, 1.5) }}', "'\\*'"),
    "% width in the format filter": ('{{ "%*d"|format(999999, 1) }}', "'\\*'"),
    "a % width above the limit": ('{{ "%999999d" % 1 }}', "limit of 1000"),
    "many format fields": ('{{ ("{:999}" * 3000).format(*range(3000)) }}', "limited to 1,000,000"),
    "format_map width": ('{{ "{x:{w}}".format_map({"x": 1, "w": "99999999"}) }}', "limit of 1000"),
    "a list of big strings repeated": ('{{ ([("x" * 1000000)] * 3500) | join }}', "limited to"),
    "a join of a generator": (
        '{{ range(3000) | map("string") | map("center", 999999) | join }}',
        "limited to",
    ),
    "str.join": ('{{ "".join([("x" * 999999)] * 50) }}', "limited to"),
    "replace multiplying": ('{{ ("x"*3000)|replace("x", "y"*1000000) }}', "replace filter"),
    "str.replace multiplying": ('{{ ("x"*3000).replace("x", "y"*999999) }}', "str.replace"),
    "indent width as a string": ('{{ ("a\\n"*500000) | indent("x"*1000, true) }}', "indent"),
    "wordwrap with a big wrapstring": (
        '{{ ("x"*100000) | wordwrap(1, wrapstring="y"*100000) }}',
        "wordwrap",
    ),
    "expandtabs": ('{{ ("\\t" * 100000).expandtabs(999999) }}', "str.expandtabs"),
    "translate": ('{{ ("a" * 100000).translate({97: "y" * 100000}) }}', "str.translate"),
    "a macro doubling a string": (
        '{% macro d(s, n) %}{{ d(s ~ s, n - 1) if n else s|length }}{% endmacro %}{{ d("x", 33) }}',
        '"~"',
    ),
    "a macro doubling a list": (
        "{% macro d(s, n) %}{{ d(s + s, n - 1) if n else s|length }}{% endmacro %}"
        '{{ d(["x"], 33) }}',
        '"\\+"',
    ),
    "string doubling at the top": (
        '{% set s = "x" * 999 %}' + "{% set s = s ~ s %}" * 30 + "{{ s|length }}",
        '"~"',
    ),
    "a list of lists printed": ("{{ [[1] * 100000] * 100000 }}", "this repeat"),
    "dict.fromkeys": ('{{ {}.fromkeys(range(99999), "y" * 99999) }}', "fromkeys"),
    "many values in all": (
        '{% for i in range(99999) %}{% set s = "y" * 999999 %}{% endfor %}',
        "in all",
    ),
}


@pytest.mark.parametrize("form", list(BLOW_UPS))
def test_a_value_too_large_is_refused_before_it_is_built(form, tmp_path):
    import tracemalloc

    source, says = BLOW_UPS[form]
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "votecount.en.bbcode.j2").write_text(source)
    tracemalloc.start()
    try:
        with pytest.raises(TemplateFileError) as caught:
            render_post("votecount", {"count": {"day": 1}}, extra=templates)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    assert "\n" not in message and "votecount.en.bbcode.j2" in message
    assert re.search(says, message), message
    assert peak < 60_000_000, f"{peak:,} bytes"


def test_formatting_within_the_limits_still_works(tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "votecount.en.bbcode.j2").write_text(
        '{{ "{:>5}|{:<{}}|".format("a", "b", 3) }}{{ "%-4s|%3d" % ("c", 7) }}|'
        '{{ "%s"|format("d") }}|{{ ["x", "y"]|join(", ") }}|{{ "ab"|replace("a", "z") }}|'
        '{{ "a\nb"|indent(2) }}|{{ ("p" ~ "q") + "r" }}|{{ [1] + [2] }}|{{ "-" * 3 }}|'
        '{{ "{x:.2f}".format_map({"x": 1.5}) }}'
    )
    out = render_post("votecount", {}, extra=templates)
    assert out == "    a|b  |c   |  7|d|x, y|zb|a\n  b|pqr|[1, 2]|---|1.50"


@pytest.mark.parametrize(
    "source", ["{{ ((2**64)**64)**64 }}", "{% set a = 10**64 %}{{ a" + "*a" * 80 + " }}"]
)
def test_a_number_too_long_to_print_is_named_as_the_templates(source, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "votecount.en.bbcode.j2").write_text(source)
    with pytest.raises(TemplateFileError, match="more than 4,000 digits") as caught:
        render_post("votecount", {}, extra=templates)
    assert "sys." not in str(caught.value)
