"""Every word the app shows is marked for translation (Django's i18n), so that a translator
finds all of it in ``locale/<language>/LC_MESSAGES/django.po``.

Two scans, each naming the file and line of what is left unmarked:

- templates: text outside ``{% translate %}`` / ``{% blocktranslate %}``, and the ``title``,
  ``placeholder``, ``aria-label`` and ``alt`` attributes that a visitor reads or hears;
- Python: every string literal that reads as words (two words or more) unless it is a marked
  message (``gettext``, ``gettext_lazy``, ``ngettext``, ``pgettext``, ``gettext_noop`` or the
  pure cores' ``_`` from ``tournaments.translation``), a docstring, a log line, a query
  or a command-line option's help. A literal that no one reads as words (a CSS class list, a
  storage key) says so on its line with ``# untranslated: <why>``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings
from django.template.base import Lexer, TokenType

ROOT = Path(settings.BASE_DIR)
PACKAGES = ("tournaments", "scoring", "simulation", "config")
#: Read before any language can be chosen (the settings refuse to start with a message to
#: whoever deploys), so not translatable.
NOT_SCANNED = {"config/settings.py"}
MARKERS = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
#: Calls whose string arguments are not shown to people as words.
NOT_WORDS = {
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    "critical",
    "getLogger",
    "execute",
    "RawSQL",
    "add_argument",
    "ImproperlyConfigured",
}
ALLOWED = "# untranslated:"
WORD = re.compile(r"[A-Za-z]{2,}")


def reads_as_words(text: str) -> bool:
    """Two words or more, not markup, a path, a URL or code."""
    stripped = text.strip()
    if len(WORD.findall(stripped)) < 2 or " " not in stripped:
        return False
    return not stripped.startswith(("<", "{", "/", "http", "SELECT", "select", "%(")) or (
        stripped.startswith("%(") and " " in stripped.split(")s", 1)[-1].strip()
    )


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _docstrings(tree: ast.AST) -> set[ast.AST]:
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(first.value)
    return found


def _is_marked(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a marker call (through operators, containers and keywords), or a call whose
    strings are not words."""
    parent = parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Call):
            name = _call_name(parent)
            if name in MARKERS or name in NOT_WORDS:
                return True
            if isinstance(parent.func, ast.Attribute) and parent.func.value is node:
                pass  # "...".format(...) / "...".join(...): the string itself is the subject
            elif name not in {"format"}:
                return False
        elif isinstance(parent, ast.Expr):
            return isinstance(parent.value, ast.Constant)  # a bare string: a comment
        elif not isinstance(
            parent,
            (ast.BinOp, ast.IfExp, ast.BoolOp, ast.Tuple, ast.List, ast.Attribute, ast.keyword),
        ):
            return False
        node, parent = parent, parents.get(parent)
    return False


def unmarked_python(path: Path, root: Path = ROOT) -> list[str]:
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node in docstrings or isinstance(parents.get(node), ast.JoinedStr):
                continue
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        else:
            continue
        if not reads_as_words(text) or _is_marked(node, parents):
            continue
        span = lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
        if any(ALLOWED in line for line in span):
            continue
        found.append(f"{path.relative_to(root)}:{node.lineno}: {text[:70]!r}")
    return found


def python_files() -> list[Path]:
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or relative in NOT_SCANNED:
                continue
            files.append(path)
    return files


ATTRIBUTES = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"')


def unmarked_template(path: Path, root: Path = ROOT) -> list[str]:
    """The template's own words outside the translation tags (variables count as filled in)."""
    kept, hidden = [], 0
    # a page's CSS classes (``{% block body_class %}sheet wall{% endblock %}``) are not words
    source = re.sub(r"{% block body_class %}.*?{% endblock %}", "", path.read_text())
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in {"blocktranslate", "blocktrans", "comment"}:
                hidden += 1
            elif name in {"endblocktranslate", "endblocktrans", "endcomment"}:
                hidden -= 1
            kept.append(" ")
        elif token.token_type == TokenType.VAR:
            kept.append("0")
        elif token.token_type == TokenType.TEXT and not hidden:
            kept.append(token.contents)
    text = "".join(kept)
    text = re.sub(r"<(script|style)\b.*?</\1>|<!--.*?-->", " ", text, flags=re.S)
    found = [f"attribute {value!r}" for value in ATTRIBUTES.findall(text) if WORD.search(value)]
    for chunk in re.sub(r"<[^>]*>", "\n", text).split("\n"):
        words = " ".join(chunk.split())
        # a lone token (a CSS class or a query string built around variables) is not words
        if WORD.search(words) and (" " in words or not re.fullmatch(r"[\w.=&;?,-]*", words)):
            found.append(repr(words[:70]))
    return [f"{path.relative_to(root)}: {item}" for item in found]


def test_every_python_message_is_marked_for_translation():
    unmarked = [line for path in python_files() for line in unmarked_python(path)]
    assert not unmarked, f"{len(unmarked)} messages not marked for translation:\n" + "\n".join(
        unmarked
    )


def test_every_template_word_is_marked_for_translation():
    unmarked = [
        line
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for line in unmarked_template(path)
    ]
    assert not unmarked, f"{len(unmarked)} template texts not marked:\n" + "\n".join(unmarked)


def test_the_scans_find_what_is_unmarked(tmp_path):
    """The scans themselves: each finds an unmarked message and passes a marked one."""
    module = tmp_path / "module.py"
    module.write_text(
        "from django.utils.translation import gettext as _\n"
        "def f(x):\n"
        '    """A docstring is not shown."""\n'
        '    a = _("Board %(n)s is free.") % {"n": x}\n'
        '    raise ValueError(f"board {x} is taken")\n'
        'CLASSES = "panel panel-now"  # untranslated: CSS classes\n'
    )
    found = unmarked_python(module, tmp_path)
    assert len(found) == 1 and "board {} is taken" in found[0]
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}<p title="Free board">{% translate "Standings" %}</p>\n'
        "<p>{% blocktranslate %}Round {{ n }}{% endblocktranslate %}</p><p>Next game</p>"
    )
    found = unmarked_template(page, tmp_path)
    assert any("Free board" in line for line in found)
    assert any("Next game" in line for line in found)
    assert not any("Standings" in line or "Round" in line for line in found)
