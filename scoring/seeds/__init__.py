"""Seeds from ratings: what a draw that needs seeds is offered before the organizer draws."""
