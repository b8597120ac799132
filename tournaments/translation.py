"""Words of the pure cores, marked for the translators and translated when the app runs.

The pure cores (``tournaments.formats``, ``tournaments.svg``, ``scoring.engine``, the
simulation's rules and players) import no Django, yet their messages reach the pages: an
impossible board score, a bracket's round names, a refused seat. They write them as
``_("board score %(score)s is impossible") % {"score": score}``: ``makemessages`` collects the
``_("...")`` calls, and the text is translated at the moment it is built, in the language of the
request, because the app installs Django's ``gettext`` here when it starts
(``TournamentsConfig.ready``). Run without Django (the command-line tools, the benchmarks), the
words stay English.

Words fixed at import time (constants, labels of a table) cannot be translated then, as no
request has chosen a language yet: mark them with ``gettext_noop`` and translate them where
they are shown (``gettext(LABEL)`` in a view, ``{% translate label %}`` in a template).
"""

from __future__ import annotations

from collections.abc import Callable

_translate: Callable[[str], str] | None = None
_translate_plural: Callable[[str, str, int], str] | None = None
_translate_in_context: Callable[[str, str], str] | None = None


def install(
    translate: Callable[[str], str],
    translate_plural: Callable[[str, str, int], str],
    translate_in_context: Callable[[str, str], str] | None = None,
) -> None:
    """Translate the cores' messages with the app's catalogue from now on."""
    global _translate, _translate_plural, _translate_in_context
    _translate, _translate_plural = translate, translate_plural
    _translate_in_context = translate_in_context


def gettext(message: str) -> str:
    """The message in the active language (English without the app)."""
    return _translate(message) if _translate is not None else message


def ngettext(singular: str, plural: str, number: int) -> str:
    """The singular or plural message for ``number``, in the active language."""
    if _translate_plural is not None:
        return _translate_plural(singular, plural, number)
    return singular if number == 1 else plural


def pgettext(context: str, message: str) -> str:
    """The message in the active language, told apart by ``context`` from the same English
    words meaning something else ("Round 3" of a game, a *manche*, or of play, a *ronde*)."""
    if _translate_in_context is not None:
        return _translate_in_context(context, message)
    return gettext(message)


def gettext_noop(message: str) -> str:
    """Marks a message for the translators and returns it unchanged: translate it when shown."""
    return message


_ = gettext
