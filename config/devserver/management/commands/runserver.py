"""Django's ``runserver`` (with the static files app's additions), queueing up to ``BACKLOG``
connections while its threads are busy."""

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.core.servers.basehttp import WSGIServer

#: Connections the listening socket holds before refusing more: enough for a round's phones.
BACKLOG = 256


class BurstWSGIServer(WSGIServer):
    request_queue_size = BACKLOG


class Command(StaticRunserver):
    server_cls = BurstWSGIServer
