"""Bursts of simultaneous writes on scorecard rows, over HTTP, and what must hold after each.

Three moments of a real event, each released at once by a barrier across 50 client threads:

1. *One row, fifty writers*: fifty fills of the same row, all carrying the version they read.
   Exactly one lands; the others are told the row changed (409); the row holds the rounds of
   the one that landed.
2. *Both validations at once*: at the end of every game both players sign each other's row in
   the same instant (25 games, 50 requests). All land: no deadlock, no "database is locked".
3. *A correction racing a verify*: on every game a referee corrects the row while the scoring
   table verifies the card. Either may land first, but the table never verifies rounds it did
   not see: a corrected row is never left verified.

Throughout: no answer is a 5xx, and every row's version went up by exactly the number of writes
that were answered 200 (no write lost or applied silently).
"""

from __future__ import annotations

import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tests.load.event import CORRECTED, ROUNDS, Plan

CLIENTS = 50
#: Sends one moment's requests (label, function) and returns the answers in the same order.
Release = Callable[[list[tuple[str, Any]]], list["Answer"]]


@dataclass
class Answer:
    what: str
    status: int
    seconds: float
    body: dict[str, Any]


@dataclass
class Report:
    answers: list[Answer] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def codes(self, what: str | None = None) -> Counter:
        return Counter(a.status for a in self.answers if what is None or a.what == what)

    def percentile(self, q: float) -> float:
        times = sorted(a.seconds for a in self.answers)
        if not times:
            return 0.0
        return times[min(len(times) - 1, round(q * (len(times) - 1)))]

    @property
    def p50_ms(self) -> float:
        return 1000 * statistics.median(a.seconds for a in self.answers)

    @property
    def p99_ms(self) -> float:
        return 1000 * self.percentile(0.99)

    @property
    def server_errors(self) -> list[Answer]:
        return [a for a in self.answers if a.status >= 500 or a.status == 0]


class Api:
    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, token: str, data: dict | None = None) -> Answer:
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(
            self.base + path,
            data=body,
            method=method,
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
            status, raw = 0, json.dumps({"detail": f"no answer: {error}"}).encode()
        took = time.perf_counter() - start
        try:
            parsed = json.loads(raw or b"{}")
        except ValueError:
            parsed = {"detail": raw[:300].decode(errors="replace")}
        return Answer(path, status, took, parsed if isinstance(parsed, dict) else {"list": parsed})

    def rows(self, plan: Plan) -> dict[int, dict[str, Any]]:
        """Every row of the plan's round as the scoring table reads it, in one request (the
        checks around each moment read them all; one at a time, they took longer than the
        burst)."""
        answer = self.call("GET", f"/api/card-rows/?tournament={plan.tournament}", plan.table)
        if answer.status != 200:
            raise AssertionError(f"GET rows: {answer.status} {answer.body}")
        rows = {row["id"]: row for row in answer.body["results"]}
        if answer.body["next"] or len(rows) != 2 * len(plan.pairs):
            raise AssertionError(f"GET rows: {len(rows)} rows, not {2 * len(plan.pairs)}")
        return rows

    def row(self, row_id: int, token: str) -> dict[str, Any]:
        answer = self.call("GET", f"/api/card-rows/{row_id}/", token)
        if answer.status != 200:
            raise AssertionError(f"GET row {row_id}: {answer.status} {answer.body}")
        return answer.body


def one_at_a_time(calls: list[tuple[str, Any]]) -> list[Answer]:
    """Run ``calls`` (label, function) one after the other: the quiet server's baseline."""
    answers = []
    for label, fn in calls:
        answer = fn()
        answer.what = label
        answers.append(answer)
    return answers


def at_once(calls: list[tuple[str, Any]]) -> list[Answer]:
    """Run ``calls`` (label, function) in CLIENTS threads released together by a barrier."""
    gate = threading.Barrier(len(calls))

    def run(call: tuple[str, Any]) -> Answer:
        label, fn = call
        gate.wait()
        answer = fn()
        answer.what = label
        return answer

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def one_row_fifty_writers(api: Api, plan: Plan, report: Report, release: Release) -> None:
    pair = plan.pairs[0]
    before = api.row(pair.a.row, plan.table)
    attempts = []
    for n in range(CLIENTS):
        rounds = [dict(r) for r in ROUNDS]
        rounds[0] = {"points": [2, 0], "twenties": [n % 8, 0]}
        body = {"game": pair.game, "rounds": rounds, "version": before["version"]}
        attempts.append(
            (
                "fill",
                lambda b=body: api.call(
                    "POST", f"/api/scorecards/{pair.a.card}/fill/", pair.a.token, b
                ),
            )
        )
    answers = release(attempts)
    report.answers += answers
    landed = [(i, a) for i, a in enumerate(answers) if a.status == 200]
    after = api.row(pair.a.row, plan.table)
    if len(landed) != 1:
        report.problems.append(f"one row, {CLIENTS} writers: {len(landed)} fills landed, not 1")
    others = Counter(a.status for a in answers if a.status != 200)
    if set(others) - {409}:
        report.problems.append(f"one row, {CLIENTS} writers: refusals other than 409: {others}")
    if after["version"] != before["version"] + len(landed):
        report.problems.append(
            f"one row: version {before['version']} -> {after['version']} after {len(landed)} writes"
        )
    if landed and after["rounds"][0]["twenties"][0] != landed[0][0] % 8:
        report.problems.append("one row: the stored rounds are not those of the fill that landed")
    # The player settles on the rounds the opponent's row agrees with, for the next moment.
    body = {"game": pair.game, "rounds": ROUNDS, "version": after["version"]}
    settled = api.call("POST", f"/api/scorecards/{pair.a.card}/fill/", pair.a.token, body)
    if settled.status != 200:
        report.problems.append(f"one row: refilling afterwards answered {settled.status}")


def both_validations_at_once(api: Api, plan: Plan, report: Report, release: Release) -> None:
    before = {}
    calls = []
    rows = api.rows(plan)
    for pair in plan.pairs:
        for signer, row_owner in ((pair.b, pair.a), (pair.a, pair.b)):
            row = rows[row_owner.row]
            before[row_owner.row] = row["version"]
            body = {"opponent_number": signer.number, "initials": "XX", "version": row["version"]}
            calls.append(
                (
                    "validate",
                    lambda r=row_owner.row, t=signer.token, b=body: api.call(
                        "POST", f"/api/card-rows/{r}/validate/", t, b
                    ),
                )
            )
    answers = release(calls)
    report.answers += answers
    codes = Counter(a.status for a in answers)
    if codes != Counter({200: len(calls)}):
        sample = [a.body for a in answers if a.status != 200][:3]
        report.problems.append(f"both validations at once: {dict(codes)} {sample}")
    after = api.rows(plan)
    for row_id, version in before.items():
        row = after[row_id]
        if row["status"] != "validated" or row["version"] != version + 1:
            report.problems.append(
                f"row {row_id} after both validations: {row['status']} v{row['version']} "
                f"(was v{version})"
            )


def corrections_racing_verifies(api: Api, plan: Plan, report: Report, release: Release) -> None:
    calls, before = [], {}
    rows = api.rows(plan)
    for pair in plan.pairs:
        row = rows[pair.a.row]
        before[pair.a.row] = row
        seen = {"versions": [{"row": row["id"], "version": row["version"]}]}
        fix = {
            "game": pair.game,
            "rounds": CORRECTED,
            "version": row["version"],
            "referee_initials": "RF",
        }
        calls.append(
            (
                "verify",
                lambda p=pair, b=seen: api.call(
                    "POST", f"/api/scorecards/{p.a.card}/verify/", plan.table, b
                ),
            )
        )
        calls.append(
            (
                "correct",
                lambda p=pair, b=fix: api.call(
                    "POST", f"/api/scorecards/{p.a.card}/fill/", plan.referee, b
                ),
            )
        )
    answers = release(calls)
    report.answers += answers
    after = api.rows(plan)
    for index, pair in enumerate(plan.pairs):
        verify, correct = answers[2 * index], answers[2 * index + 1]
        for answer in (verify, correct):
            if answer.status not in (200, 409):
                report.problems.append(
                    f"{answer.what} on game {pair.game}: {answer.status} {answer.body}"
                )
        row = after[pair.a.row]
        writes = (verify.status == 200) + (correct.status == 200)
        # The correction disagrees with the opponent's row: both go to the dispute queue, one
        # more write on this row when it lands.
        writes += correct.status == 200 and row["status"] == "disputed"
        if row["version"] != before[pair.a.row]["version"] + writes:
            report.problems.append(
                f"game {pair.game}: v{before[pair.a.row]['version']} -> v{row['version']} after "
                f"verify {verify.status}, correction {correct.status}"
            )
        if correct.status == 200 and (row["status"] == "verified" or row["verified_at"]):
            report.problems.append(f"game {pair.game}: a corrected row was left verified unseen")
        landed = [a.what for a in (verify, correct) if a.status == 200]
        if len(landed) != 1:
            # Each read the same version: whichever lands first changes it, and the other must
            # be refused (409) rather than act on a row it has not seen.
            report.problems.append(
                f"game {pair.game}: {len(landed)} of verify and correction landed"
            )


def run(base: str, plan: Plan, release: Release = at_once) -> Report:
    """The three moments in order; ``release`` sends each moment's requests (``at_once``, or
    ``one_at_a_time`` for the baseline)."""
    api, report = Api(base), Report()
    for moment in (one_row_fifty_writers, both_validations_at_once, corrections_racing_verifies):
        moment(api, plan, report, release)
    return report
