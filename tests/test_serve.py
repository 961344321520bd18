"""`manage.py serve` (what `make run` runs) starts the web server and the workers beside it,
and stopping it stops them all: a SIGTERM (a supervisor, a terminal closed, the outside
checks' harness) once left the workers running on, orphaned, playing and sending from a site
that was no longer there."""

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.play.test_production_stack import wait_until
from tests.servers import HOST, ROOT, free_port


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = set()
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.add(int(status.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def answers(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex((HOST, port)) == 0


def test_a_sigterm_to_serve_stops_the_web_server_and_every_worker(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
    }
    env.pop("REDIS_URL", None)
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    try:
        wait_until(lambda: answers(port), 30, "the web server answers")
        workers = children_of(serve.pid)
        assert len(workers) >= 2  # the play worker and the tasks' worker
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=20)
        wait_until(lambda: not any(running(pid) for pid in workers), 15, "the workers stop")
        assert not answers(port)
    finally:
        serve.kill()
        for pid in workers:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
