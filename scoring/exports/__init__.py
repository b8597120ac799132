"""One tournament to a file and back: backups, restores and moving an event between servers.

``services`` holds the file format, ``export_tournament`` and ``import_tournament`` (what is
carried and what is not is said there); ``plan`` finds the models that make up a tournament;
the organizer's download, the import page and the ``export_tournament``/``import_tournament``
management commands all call the services.
"""
