"""The one error the printing code raises for bad input, with the HTTP status it deserves."""


class PrintError(ValueError):
    """Something asked for cannot be printed; the message says what and where.

    ``status`` is 404 when the thing asked for does not exist (an unknown stage or card) and 400
    when it exists but the request makes no sense (a round of play without matches, a count out
    of range), so views can answer with the right status and never with a server error.
    """

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
