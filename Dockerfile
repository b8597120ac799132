# The image of the web app (gunicorn) and of the Celery workers: production settings, a user
# without privileges, a healthcheck. Build: `docker build -t crokinole-tournament-manager .`
# (compose.yaml builds it too). Only what runs goes in: .dockerignore lists what may enter the
# build context, and each COPY below names its folder.

# --- the pinned dependencies of pyproject.toml, in a virtualenv; rebuilt only when it changes
FROM python:3.11-slim-bookworm AS deps

WORKDIR /src
COPY pyproject.toml README.md ./
# Installing the project before its code is copied brings in exactly its dependencies; the
# empty project package is then removed, since the code runs from /app.
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir . \
    && /opt/venv/bin/pip uninstall --yes crokinole-tournament-manager

# --- the image that runs
FROM python:3.11-slim-bookworm

# WeasyPrint's pango and harfbuzz for the PDF scorecards, and a font for them. The release is
# fixed by the base image (bookworm); exact package versions are not pinned because Debian keeps
# only the current one of each in the archive, so a pin would break the build at the next
# point release instead of bringing in its security fixes.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 crokinole \
    && useradd --system --uid 10001 --gid crokinole --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin crokinole

COPY --from=deps /opt/venv /opt/venv

# Production settings: config/settings.py is the one settings module, driven by the environment.
# DEBUG is off here; SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL come from the env file
# at run time (see .env.example), never from the image. The app's user may write only to the
# media folder, numba's cache and /tmp, where fontconfig keeps its cache (XDG_CACHE_HOME).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    DEBUG=0 \
    MEDIA_ROOT=/app/media \
    NUMBA_CACHE_DIR=/opt/numba-cache \
    XDG_CACHE_HOME=/tmp/.cache \
    PORT=8000

WORKDIR /app
COPY manage.py ./
COPY config ./config
COPY tournaments ./tournaments
COPY scoring ./scoring
COPY simulation ./simulation
COPY templates ./templates
COPY static ./static
# The translations (LOCALE_PATHS), compiled and committed: without them the site is English only.
COPY locale ./locale

# Static files are collected into the image (WhiteNoise serves them); the key below exists only
# for this command, which needs settings to load and signs nothing. The physics is compiled
# once here into numba's cache (about 10 s of CPU that every process would otherwise spend at
# start); the cache stays writable for the app's user, since numba adds to it on a CPU of
# another kind. The media folder belongs to that user too, so that a fresh volume mounted there
# is writable for it.
RUN SECRET_KEY=collectstatic-only-not-used-at-run-time python manage.py collectstatic --noinput \
    && python -c "import simulation.physics" \
    && mkdir -p /app/media \
    && chown -R crokinole:crokinole /app/media /opt/numba-cache

# Numeric, so that a runtime that checks "not root" (runAsNonRoot) can tell without a passwd file.
USER 10001:10001

EXPOSE 8000
# `python -m config.health` asks this container's gunicorn for /healthz/: whether the web can
# serve (its database answers). Redis is reported there but not required: pages are served
# without the cache, and background work has its own /healthz/background/ (docs/deploy.md).
# The start period covers loading the views (WeasyPrint, the compiled physics) before forking.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "config.health"]

CMD ["gunicorn", "--config", "config/gunicorn.conf.py", "config.wsgi:application"]
