#!/usr/bin/env bash
# `make run`: the development server with a real Celery worker beside it, so long work (dry runs,
# auto-play, previews, PDF batches) runs in the worker with its progress bar, never inside a
# request. Without REDIS_URL the queue is kept in files under var/broker/ (kombu's filesystem
# transport, no server) and results in the database. The worker also runs the periodic check
# that sends stalled work again (beat, -B). A worker that dies is started again, as a process
# manager would in production; it stops when the server stops. The demo tournament is loaded
# unless DEMO=0.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${BIN:-.venv/bin}"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
if [ -z "${REDIS_URL:-}" ]; then
    export BROKER_URL="${BROKER_URL:-filesystem://}"
fi
mkdir -p var

"$BIN/python" manage.py migrate --noinput
# DEMO=0 (`make run DEMO=0`) starts without the demo tournament: on a site with no account yet,
# the one-time link that creates the first organizer account is printed instead.
case "${DEMO:-1}" in
    0 | no | false | off)
        "$BIN/python" manage.py setup_link --if-empty --url "http://$HOST:$PORT"
        ;;
    *)
        "$BIN/python" manage.py load_demo --if-empty
        ;;
esac

# Each worker runs in a session of its own (setsid), so that what a dead worker leaves behind
# (its pool and beat processes) is ended with its process group, and a warm shutdown on TERM.
supervise() {
    local pid=""
    stop() {
        if [ -n "$pid" ]; then
            kill -TERM "$pid" 2>/dev/null || true  # a warm shutdown ends its pool and beat
            for _ in $(seq 1 20); do
                kill -0 -- "-$pid" 2>/dev/null || exit 0
                sleep 0.5
            done
            kill -KILL -- "-$pid" 2>/dev/null || true
        fi
        exit 0
    }
    trap stop TERM INT
    while true; do
        setsid "$BIN/celery" -A config worker -B --schedule var/celerybeat-schedule \
            --loglevel="${WORKER_LOGLEVEL:-warning}" --concurrency="${WORKER_CONCURRENCY:-2}" \
            --without-gossip --without-mingle &
        pid=$!
        wait "$pid" || true
        kill -KILL -- "-$pid" 2>/dev/null || true
        echo "The Celery worker stopped; starting it again in 2 s." >&2
        sleep 2 &
        wait $! || true
    done
}
supervise &
supervisor=$!
stop_supervisor() {
    kill -TERM "$supervisor" 2>/dev/null || true
    wait "$supervisor" 2>/dev/null || true
}
trap stop_supervisor EXIT
trap 'exit 130' INT TERM

"$BIN/python" manage.py runserver "$HOST:$PORT"
