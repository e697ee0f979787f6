"""Open a page in headless Chromium and report what happened, over the DevTools protocol.

Chromium is started with --remote-debugging-pipe: it reads protocol commands from file
descriptor 3 and writes replies and events to descriptor 4, one JSON message per NUL-
terminated chunk. No websocket, no open port, no extra Python package.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--mute-audio"]


def chromium() -> str | None:
    """Path of the system Chromium, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
        if path:
            return path
    return None


@dataclass
class PageVisit:
    requests: list[str] = field(default_factory=list)   # every URL the page asked for
    errors: list[str] = field(default_factory=list)     # console errors, exceptions, log errors
    screenshot: bytes = b""                             # PNG of the first screen
    loaded: bool = False
    value: object = None                                # what `evaluate` returned


class _Pipe:
    def __init__(self, write_fd: int, read_fd: int):
        self.write_fd, self.read_fd = write_fd, read_fd
        self.buffer = b""
        self.next_id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        return self.next_id

    def messages(self, deadline: float):
        """Yield incoming messages until the deadline."""
        while time.monotonic() < deadline:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                yield json.loads(raw)
            ready, _, _ = select.select([self.read_fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raise TimeoutError("no answer from chromium in time")

    def call(self, method: str, params: dict | None, session: str | None, deadline: float,
             on_event) -> dict:
        """Send a command and wait for its reply, handing events to on_event meanwhile."""
        want = self.send(method, params, session)
        for msg in self.messages(deadline):
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            on_event(msg)
        raise TimeoutError(method)


def _high(fd: int) -> int:
    """The same pipe end on a descriptor >= 10 (close-on-exec), the old one closed."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


def _record(visit: PageVisit, msg: dict) -> None:
    method, params = msg.get("method", ""), msg.get("params", {})
    if method == "Network.requestWillBeSent":
        visit.requests.append(params["request"]["url"])
    elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
        visit.errors.append("console: " + " ".join(str(a.get("value", a.get("description", "")))
                                                   for a in params.get("args", [])))
    elif method == "Runtime.exceptionThrown":
        visit.errors.append("exception: " + params["exceptionDetails"].get("text", ""))
    elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
        visit.errors.append(f"log: {params['entry'].get('text', '')} {params['entry'].get('url', '')}")
    elif method == "Page.loadEventFired":
        visit.loaded = True


def visit(path: Path, width: int = 1200, height: int = 900, timeout: float = 60.0,
          settle: float = 0.5, evaluate: str | None = None) -> PageVisit:
    """Load a local file in a fresh headless Chromium profile; collect requests, errors and
    a screenshot of the first screen, and the value of the JavaScript expression `evaluate`
    once the page has loaded."""
    exe = chromium()
    if exe is None:
        raise FileNotFoundError("chromium is not installed")
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()
    # Keep the child's ends clear of 3 and 4 so the dup2 calls below cannot clobber them.
    to_chrome_r, from_chrome_w = (_high(fd) for fd in (to_chrome_r, from_chrome_w))

    def wire_fds():  # in the child: fd 3 = commands in, fd 4 = replies out
        os.dup2(to_chrome_r, 3)
        os.dup2(from_chrome_w, 4)

    result = PageVisit()
    deadline = time.monotonic() + timeout
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.Popen(
            [exe, *CHROMIUM_FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # close_fds would run after preexec_fn and close 3 and 4 again; os.pipe() ends
            # are non-inheritable, so nothing else of ours leaks into the browser.
            close_fds=False, preexec_fn=wire_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        pipe = _Pipe(to_chrome_w, from_chrome_r)
        try:
            def on_event(msg):
                _record(result, msg)

            target = pipe.call("Target.createTarget", {"url": "about:blank"}, None, deadline,
                               on_event)["targetId"]
            session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                None, deadline, on_event)["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                pipe.call(f"{domain}.enable", {}, session, deadline, on_event)
            pipe.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                      session, deadline, on_event)
            pipe.call("Page.navigate", {"url": Path(path).resolve().as_uri()}, session, deadline,
                      on_event)
            try:
                for msg in pipe.messages(deadline):
                    on_event(msg)
                    if result.loaded:
                        break
            except TimeoutError:
                pass
            # late console messages or requests after load
            try:
                for msg in pipe.messages(min(deadline, time.monotonic() + settle)):
                    on_event(msg)
            except TimeoutError:
                pass
            if evaluate is not None:
                answer = pipe.call("Runtime.evaluate", {"expression": evaluate, "returnByValue": True},
                                   session, deadline, on_event)
                result.value = answer.get("result", {}).get("value")
            shot = pipe.call("Page.captureScreenshot", {"format": "png"}, session, deadline, on_event)
            result.screenshot = base64.b64decode(shot["data"])
            pipe.send("Browser.close")
        finally:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            os.close(to_chrome_w)
            os.close(from_chrome_r)
    return result
