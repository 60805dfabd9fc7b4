# bgmatch: one image for the web, worker, analysis, beat and migrate services of docker-compose.yml.
FROM python:3.11-slim

# GNU Backgammon for the analysis workers (Debian's package, run as a separate program; /health/ of the web reports
# whether the image can run it). Debian installs it as /usr/games/gnubg.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnubg \
    && rm -rf /var/lib/apt/lists/*

# The code runs from /app, ahead of the installed copy, so that templates/ and static/ are found beside config/.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    GNUBG_PATH=/usr/games/gnubg

WORKDIR /app

COPY . .
RUN pip install . \
    && DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --home-dir /app --no-create-home bgmatch

USER bgmatch
EXPOSE 8000

CMD ["gunicorn", "config.wsgi:application", "--config", "config/gunicorn_conf.py"]
