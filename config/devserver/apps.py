from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DevServerConfig(AppConfig):
    name = "config.devserver"
    label = "devserver"
    verbose_name = _("Development server")
