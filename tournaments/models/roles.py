from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy
from simple_history.models import HistoricalRecords

#: The accounts the simulation enters simulated games with (``simulation.services.system_users``):
#: its referee fills and signs the rows, its scoring table verifies the cards. They hold those
#: roles where games are auto-played only so that simulated results pass the same permission
#: checks as people's; they are nobody's staff. The marker lives here, below the simulation, so
#: that the staff page and the API can leave them out (``tournaments.selectors.staff_roles``)
#: without importing the simulation, and so that no person's account takes one of the names
#: (``tournaments.services.staff.create_account``).
SIMULATION_REFEREE_USERNAME = "simulation-referee"
SIMULATION_TABLE_USERNAME = "simulation-scoring-table"
SIMULATION_USERNAMES = (SIMULATION_REFEREE_USERNAME, SIMULATION_TABLE_USERNAME)


class TournamentRole(models.Model):
    """What a user may do at one tournament. Players are linked through ``Player.user``;
    everyone else (the public) needs no role to read the public pages."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", gettext_lazy("Organizer")
        # Runs the event alongside the organizer, with the same permissions; the staff page
        # gives and takes back this role, while the organizer role stays with the creator.
        CO_ORGANIZER = "co-organizer", gettext_lazy("Co-organizer")
        HEAD_REFEREE = "head-referee", gettext_lazy("Head referee")
        REFEREE = "referee", gettext_lazy("Referee")
        SCORING_TABLE = "scoring-table", gettext_lazy("Scoring table")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    #: Who gave or took back the role, and when, for the organizer's audit page (the history
    #: keeps the tournament, so it travels with the tournament's export).
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="tournament_role_unique"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s — %(role)s at %(tournament)s") % {
            "user": self.user,
            "role": self.get_role_display(),
            "tournament": self.tournament,
        }


class RoleChange(models.Model):
    """One change made on a tournament's staff page (or its API): who did what to whom, when.

    Usernames are copied as they were, so the log still reads right after an account is
    renamed or deleted; the log is only ever appended to.
    """

    class Action(models.TextChoices):
        GRANTED = "granted", gettext_lazy("gave the role")
        REVOKED = "revoked", gettext_lazy("took back the role")
        ACCOUNT_CREATED = "account-created", gettext_lazy("created the account")
        LINK_ISSUED = "link-issued", gettext_lazy("issued a set-password link")
        #: The sign-in lockout (django-axes) of the account lifted from the staff page.
        LOGIN_UNLOCKED = "login-unlocked", gettext_lazy("unlocked the login")
        MAY_CREATE_GRANTED = "may-create-granted", gettext_lazy("allowed to create tournaments")
        MAY_CREATE_REVOKED = (
            "may-create-revoked",
            gettext_lazy("no longer allowed to create tournaments"),
        )
        INVITED = "invited", gettext_lazy("invited")
        INVITATION_WITHDRAWN = "invitation-withdrawn", gettext_lazy("withdrew the invitation of")
        ACCEPTED = "accepted", gettext_lazy("accepted the invitation")
        DECLINED = "declined", gettext_lazy("declined the invitation")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="role_changes"
    )
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    actor_username = models.CharField(max_length=150)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    username = models.CharField(max_length=150)
    action = models.CharField(max_length=20, choices=Action.choices)
    role = models.CharField(max_length=20, choices=TournamentRole.Role.choices, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        what = self.get_action_display()
        if self.role:
            what = f"{what} {self.get_role_display()}"
        return f"{self.actor_username} {what}: {self.username}"
