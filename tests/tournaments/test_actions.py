"""The declaration of a step (``tournaments.actions``): the role is asked first, then whether
the object moved on, then the state; a refusal is words with a kind; the service runs in one
transaction and what follows it runs on commit; the API answers each kind with its status."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import AnonymousUser, User
from rest_framework import exceptions

from tournaments.actions import REGISTRY, Action, Forbidden, Kind, Refused, refusals
from tournaments.api.errors import Conflict, as_api_exception

_names = itertools.count()


class Thing:
    def __init__(self, state: str = "open", version: int = 0) -> None:
        self.state = state
        self.version = version


def _closed(thing: Thing) -> str | None:
    return "It is closed." if thing.state == "closed" else None


def _gone(thing: Thing) -> Refused | None:
    return Refused("It is gone.", kind=Kind.NOT_FOUND) if thing.state == "gone" else None


def _fresh(thing: Thing, inputs: dict) -> None:
    if inputs.get("version") not in (None, thing.version):
        raise Refused("Reload it.", kind=Kind.STALE)


def _step(**kw) -> Action:
    """A step of its own for each test, on a permission anybody signed in holds (a superuser
    holds every permission, and nobody else holds this one)."""
    defaults = dict(
        name=f"tests.step_{next(_names)}",
        permission="tests.no_such_permission",
        who="Only a superuser does this.",
        when=(_closed, _gone),
        fields=("version", "note"),
        run=lambda user, thing, **inputs: ("done", thing, inputs),
        fresh=_fresh,
    )
    defaults.update(kw)
    return Action(**defaults)


@pytest.fixture
def boss(db) -> User:
    return User.objects.create_superuser("boss", password="x")


def test_a_user_without_the_permission_is_refused_with_the_words_of_who_may(db):
    step = _step()
    refused = step.refusal(AnonymousUser(), Thing())
    assert isinstance(refused, Forbidden) and refused.kind == Kind.FORBIDDEN
    assert refused.text == "Only a superuser does this."
    with pytest.raises(Forbidden):
        step(AnonymousUser(), Thing())


def test_the_role_is_asked_before_the_state_and_the_apps_words_come_first(db):
    step = _step(denied=lambda user, perm, obj: "You play in this game.")
    refused = step.refusal(AnonymousUser(), Thing("closed"))
    assert refused.kind == Kind.FORBIDDEN and refused.text == "You play in this game."


def test_the_first_unmet_precondition_is_the_refusal_with_its_kind(boss):
    step = _step()
    assert step.refusal(boss, Thing()) is None and step.allows(boss, Thing())
    closed = step.refusal(boss, Thing("closed"))
    assert closed.kind == Kind.CONFLICT and closed.text == "It is closed."
    assert step.refusal(boss, Thing("gone")).kind == Kind.NOT_FOUND
    with pytest.raises(Refused, match=r"It is closed\."):
        step(boss, Thing("closed"))


def test_a_stale_read_is_said_before_the_state_but_never_to_someone_refused(boss):
    step = _step()
    with pytest.raises(Refused) as stale:
        step(boss, Thing("closed", version=3), version=2)
    assert stale.value.kind == Kind.STALE
    with pytest.raises(Forbidden):  # nobody else learns that the version moved on
        step(AnonymousUser(), Thing(version=3), version=2)


def test_taking_the_step_runs_the_service_with_its_inputs(boss):
    step = _step()
    thing = Thing()
    assert step(boss, thing, note="n", version=0) == ("done", thing, {"note": "n", "version": 0})


def test_an_input_the_step_does_not_name_is_a_mistake_of_the_caller(boss):
    with pytest.raises(TypeError, match="no input named colour"):
        _step()(boss, Thing(), colour="red")


@pytest.mark.django_db(transaction=True)
def test_what_follows_runs_once_the_service_committed_and_not_when_it_failed():
    boss = User.objects.create_superuser("boss-tx", password="x")
    seen: list = []

    def failing(user, thing, **inputs):
        raise Refused("The service refused.")

    _step(after=(seen.append,))(boss, Thing())
    assert seen == [("done", seen[0][1], {})]
    with pytest.raises(Refused):
        _step(after=(seen.append,), run=failing)(boss, Thing())
    assert len(seen) == 1


def test_a_step_is_declared_once():
    step = _step()
    assert REGISTRY[step.name] is step
    with pytest.raises(ValueError, match="declared twice"):
        _step(name=step.name)


def test_refusals_are_keyed_by_the_steps_last_name(boss):
    step = _step()
    found = refusals(boss, Thing("closed"), [step])
    assert list(found) == [step.name.rsplit(".", 1)[-1]]
    assert found[step.name.rsplit(".", 1)[-1]].text == "It is closed."


@pytest.mark.parametrize(
    ("refused", "answer", "status"),
    [
        (Forbidden("Only the head referee."), exceptions.PermissionDenied, 403),
        (Refused("Bad round.", round=2), exceptions.ValidationError, 400),
        (Refused("Bad name.", field="name"), exceptions.ValidationError, 400),
        (Refused("Draw it first.", kind=Kind.CONFLICT), Conflict, 409),
        (Refused("Reload.", kind=Kind.STALE), Conflict, 409),
        (Refused("No such row.", kind=Kind.NOT_FOUND), exceptions.NotFound, 404),
    ],
    ids=["forbidden", "invalid", "invalid-field", "conflict", "stale", "not-found"],
)
def test_the_api_answers_each_kind_with_its_status_and_the_same_words(refused, answer, status):
    found = as_api_exception(refused)
    assert isinstance(found, answer) and found.status_code == status == refused.status
    detail = found.detail
    if refused.field:
        assert detail == {refused.field: [refused.text]}
    elif isinstance(detail, dict):
        assert detail == {"detail": refused.text}
    else:
        assert str(detail) == refused.text


def test_each_steps_form_and_serializer_take_exactly_its_fields():
    """A step's inputs are named once, in its declaration: the page's form and the API's
    serializer that it names take exactly those, so that a field added to one is added to all."""
    from tests.test_role_matrix import _import_every_step
    from tournaments.actions import input_names

    _import_every_step()
    checked = 0
    for step in REGISTRY.values():
        for dotted in (step.form, step.serializer):
            if dotted:
                assert input_names(dotted) == set(step.fields), (step.name, dotted)
                checked += 1
    assert checked or not any(s.form or s.serializer for s in REGISTRY.values())
