"""A running ``mkdocs serve`` as the serve tests drive it: free ports, fetching pages,
waiting for a page or a log line (never a timed assertion: every wait has a generous limit)."""

from __future__ import annotations

import http.client
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

TIMEOUT = 300  # generous: the machine may be busy; no timing is asserted


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(port: int, path: str) -> str | None:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    return body if response.status == 200 else None


def wait_for(port: int, path: str, text: str, server: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        body = fetch(port, path)
        if body is not None and text in body:
            return body
        assert server.poll() is None, "mkdocs serve exited"
        time.sleep(0.2)
    raise AssertionError(f"{path} never showed {text!r}")


EDITED = "backend/indexing/covering-index.yaml"  # a senior question of backend/indexing


PUBLISHED = ("qbank: full rebuild", "qbank: rebuilt what changed")


@dataclass
class Served:
    """A running ``mkdocs serve`` of the small bank."""

    port: int
    content: Path
    project: Path
    log: Path
    server: subprocess.Popen[bytes]

    def text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")

    def builds(self) -> int:
        """How many builds the plugin has published so far."""
        text = self.text()
        return sum(text.count(marker) for marker in PUBLISHED)

    def wait_log(self, text: str, after: int = 0) -> None:
        """Wait until ``text`` shows in the log after its first ``after`` characters."""
        deadline = time.monotonic() + TIMEOUT
        while text not in self.text()[after:]:
            assert self.server.poll() is None, "mkdocs serve exited:\n" + self.text()
            assert time.monotonic() < deadline, f"the log never showed {text!r}:\n" + self.text()
            time.sleep(0.2)

    def wait_builds(self, count: int) -> str:
        """Wait for the ``count``-th published build; return the log line that reported it."""
        deadline = time.monotonic() + TIMEOUT
        while self.builds() < count:
            assert self.server.poll() is None, "mkdocs serve exited:\n" + self.text()
            assert time.monotonic() < deadline, "no rebuild was published:\n" + self.text()
            time.sleep(0.2)
        lines = [line for line in self.text().splitlines() if any(m in line for m in PUBLISHED)]
        return lines[count - 1]

    def site(self) -> Path:
        """The folder ``mkdocs serve`` serves (its temporary ``site_dir``)."""
        (folder,) = (self.project / "tmp").glob("mkdocs_*")
        return folder

    def get(self, path: str) -> str | None:
        return fetch(self.port, path)

    def wait_page(self, path: str, text: str) -> str:
        return wait_for(self.port, path, text, self.server)

    def write_question(self, relative: str, edit: dict[str, object]) -> None:
        path = self.content / relative
        data = yaml.safe_load(path.read_text("utf-8"))
        data.update(edit)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
