"""Organizer pages, one module per workflow: setup (creating a tournament, the dashboard),
categories, stages (draws and advances), players and teams, CSV import, check-in, boards, staff
(roles, staff accounts, who may create tournaments).

Every page needs ``tournaments.manage_tournament`` on its tournament (``common.organizer_page``;
the staff page ``tournaments.manage_staff``, held by the same organizers and co-organizers):
anonymous visitors are sent to log in, everyone else gets the one 403 page. Views are thin:
reads are small query functions, writes go through the services; a service's
``ValidationError`` comes back as a form error or a message, never as a server error.
"""
