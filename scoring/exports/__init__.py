"""One tournament to a file and back: backups, restores and moving an event between servers; and
the organizers' tables of an event for spreadsheets.

``services`` holds the file format, ``export_tournament`` and ``import_tournament`` (what is
carried and what is not is said there); ``plan`` finds the models that make up a tournament;
the organizer's download, the import page and the ``export_tournament``/``import_tournament``
management commands all call the services. ``tables`` reads the players, entries, results and
standings as plain tables, ``files`` writes them as CSV and XLSX, and ``standings_input`` turns a
stage's results per round back into the standings tool's input.
"""
