"""The site served as production serves it, over ASGI (uvicorn), in a thread of the test
process: what the browser tests talk to in place of pytest-django's WSGI live server, whose
threads cannot hold the live pages' event streams open (an async stream served over WSGI is
read whole before anything is sent)."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.test.utils import modify_settings

from core import live, streams

HOST = "127.0.0.1"


class AsgiLiveServer:
    """Like pytest-django's LiveServer: `url`, and the settings its `_live_server_helper`
    turns on for each test."""

    def __init__(self) -> None:
        with socket.socket() as sock:
            sock.bind((HOST, 0))
            self.port = sock.getsockname()[1]
        self.url = f"http://{HOST}:{self.port}"
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": HOST})
        config = uvicorn.Config(
            # As config/asgi.py serves it: the event streams ahead of Django's handler.
            streams.around(ASGIStaticFilesHandler(get_asgi_application())),
            host=HOST,
            port=self.port,
            log_level="warning",
            lifespan="off",
            # Closing the server does not wait for the browsers' open event streams.
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="asgi-live-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the ASGI live server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        live.hub.stop()

    def __str__(self) -> str:
        return self.url
