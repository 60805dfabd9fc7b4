"""Run the repository's nginx configuration (bgmatch.conf.template) as an unprivileged nginx on this machine, in front
of a local app: what the proxy tests (tests/test_proxy.py) and the proxy benchmark (bench/proxy_bench.py) use.
Standard library only.

:class:`LocalNginx` renders the template as deploy/nginx/start does (the BGMATCH_* variables only), wraps it in a
minimal nginx.conf whose every path is in a work folder (pid, logs, temporary files, the cache), makes a
self-signed certificate with ``openssl``, and runs ``nginx`` in the foreground until it is stopped.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

TEMPLATE = Path(__file__).resolve().parent / "bgmatch.conf.template"
NGINX = os.environ.get("BGMATCH_NGINX", "/usr/sbin/nginx")
MIME_TYPES = Path("/etc/nginx/mime.types")


def nginx_missing() -> str | None:
    """Why nginx cannot be run here, or None."""
    if not os.access(NGINX, os.X_OK):
        return f"nginx is not installed at {NGINX} (Debian: apt-get install nginx)"
    if shutil.which("openssl") is None:
        return "openssl is not installed (the proxy's certificate is made with it)"
    return None


def render(values: dict[str, str], template: Path = TEMPLATE) -> str:
    """The template with each ``${BGMATCH_*}`` replaced by its value, as envsubst with that list does."""
    text = template.read_text()
    missing = sorted(set(re.findall(r"\$\{(BGMATCH_\w+)\}", text)) - set(values))
    if missing:
        raise KeyError(f"no value for {', '.join(missing)}")
    return re.sub(r"\$\{(BGMATCH_\w+)\}", lambda m: values[m.group(1)], text)


def self_signed(folder: Path, name: str = "localhost") -> tuple[Path, Path]:
    """A certificate and key for ``name``, valid for a day."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    command += ["-days", "1", "-subj", f"/CN={name}"]
    subprocess.run([*command, "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return cert, key


class LocalNginx:
    """nginx with bgmatch.conf in front of ``upstream`` (``host:port``), listening on 127.0.0.1:``http_port`` and
    127.0.0.1:``https_port`` (TLS), everything it writes under ``work``."""

    def __init__(self, work: Path, upstream: str, http_port: int, https_port: int, *, workers: int = 1) -> None:
        self.work, self.upstream = work, upstream
        self.http_port, self.https_port, self.workers = http_port, https_port, workers
        self.process: subprocess.Popen[bytes] | None = None

    def configure(self) -> Path:
        for name in ("cache", "temp", "tls"):
            (self.work / name).mkdir(parents=True, exist_ok=True)
        cert, key = self_signed(self.work / "tls")
        site = render(
            {
                "BGMATCH_SERVER_NAME": "localhost",
                "BGMATCH_UPSTREAM": self.upstream,
                "BGMATCH_TLS_CERT": str(cert),
                "BGMATCH_TLS_KEY": str(key),
                "BGMATCH_CACHE_DIR": str(self.work / "cache"),
                "BGMATCH_HTTP_LISTEN": f"127.0.0.1:{self.http_port}",
                "BGMATCH_HTTPS_LISTEN": f"127.0.0.1:{self.https_port}",
            }
        )
        (self.work / "bgmatch.conf").write_text(site)
        temp = self.work / "temp"
        # Started by root, nginx's workers would run as nobody, who may not enter a private work folder.
        user = "user root;\n" if os.geteuid() == 0 else ""
        main = f"""{user}daemon off;
worker_processes {self.workers};
pid {self.work / "nginx.pid"};
error_log {self.work / "error.log"} warn;
worker_rlimit_nofile 20000;
events {{ worker_connections 8192; }}
http {{
    include {MIME_TYPES};
    default_type application/octet-stream;
    log_format bgmatch_cache '$msec $status $upstream_cache_status $request_time "$request"';
    access_log {self.work / "access.log"} bgmatch_cache;
    client_body_temp_path {temp / "body"};
    proxy_temp_path {temp / "proxy"};
    fastcgi_temp_path {temp / "fastcgi"};
    uwsgi_temp_path {temp / "uwsgi"};
    scgi_temp_path {temp / "scgi"};
    include {self.work / "bgmatch.conf"};
}}
"""
        conf = self.work / "nginx.conf"
        conf.write_text(main)
        return conf

    def __enter__(self) -> LocalNginx:
        conf = self.configure()
        check = subprocess.run([NGINX, "-t", "-q", "-c", str(conf), "-p", str(self.work)], capture_output=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx refused the configuration: {check.stderr.decode(errors='replace')}")
        command = [NGINX, "-c", str(conf), "-p", str(self.work)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while not _listening(self.https_port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"nginx did not start: {(self.work / 'error.log').read_text(errors='replace')}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: fast shutdown of the master and its workers
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0
