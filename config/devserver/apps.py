from django.apps import AppConfig


class DevServerConfig(AppConfig):
    name = "config.devserver"
    label = "devserver"
    verbose_name = "Development server"
