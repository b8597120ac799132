"""Celery tasks of the tournaments app, here so worker autodiscovery finds them: sending a call
to the phones that asked for it (``tournaments.push``)."""

from __future__ import annotations

from celery import shared_task

from tournaments.models import Call
from tournaments.push import send_call


@shared_task(name="tournaments.push_call", ignore_result=True)
def push_call(call_id: int) -> dict[str, int]:
    """Push the call ``call_id`` to its entry's phones. Sent twice (a worker lost mid-task), a
    phone shows it once: the notification's tag is the call's."""
    call = Call.objects.filter(pk=call_id).select_related("entry", "tournament").first()
    if call is None:
        return {"delivered": 0, "gone": 0, "failed": 0}
    sent = send_call(call)
    return {"delivered": sent.delivered, "gone": sent.gone, "failed": sent.failed}
