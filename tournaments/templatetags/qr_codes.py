"""``{% qr_svg url %}`` and ``{% qr_data_uri url %}``: QR codes of private links."""

from django import template
from django.utils.safestring import mark_safe

from tournaments.qr import qr_data_uri as _data_uri
from tournaments.qr import qr_svg as _svg

register = template.Library()


@register.simple_tag
def qr_svg(url: str, scale: int = 4) -> str:
    # segno escapes the title it writes; the rest of the markup is its own.
    return mark_safe(_svg(url, scale=scale))


@register.simple_tag
def qr_data_uri(url: str, scale: int = 4) -> str:
    return _data_uri(url, scale=scale)
