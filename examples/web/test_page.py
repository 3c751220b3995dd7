#!/usr/bin/env python3
"""Opens the web page (examples/web) in headless Chromium, drives it as a person would, and
checks what it displays: the adapter is the browser's WebGPU, and each operation (sum, max,
argmax, mean, cumsum) at two sizes reports a result that matches the CPU, with a time and a
bandwidth. Speaks the WebDriver protocol to chromedriver over loopback (standard library only).

    python3 examples/web/test_page.py [--screenshot PATH]

Expects the page built (examples/web/build.sh) and `chromedriver` and `chromium` installed.
Exits 0 when every check passed, 1 otherwise; prints `N passed, M failed`.
"""

import argparse
import base64
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """The few WebDriver calls the test needs."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.sid = None

    def call(self, method, path, body=None, timeout=120):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.code} {e.read()[:500]!r}") from None

    def start(self, args):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                   "args": args}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path):
        return f"/session/{self.sid}{path}"

    def goto(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def find(self, css):
        v = self.call("POST", self.s("/element"), {"using": "css selector", "value": css})
        return next(iter(v.values()))

    def text(self, css):
        return self.call("GET", self.s(f"/element/{self.find(css)}/text"))

    def script(self, js, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": js, "args": list(args)})

    def click(self, css):
        self.call("POST", self.s(f"/element/{self.find(css)}/click"), {})

    def screenshot(self, path):
        png = self.call("GET", self.s("/screenshot"))
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))

    def quit(self):
        if self.sid:
            try:
                self.call("DELETE", self.s(""), timeout=20)
            except Exception:
                pass


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def wait_for(what, pred, timeout):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.2)
    raise TimeoutError(f"timed out after {timeout} s waiting for {what}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--screenshot", help="save a screenshot of the page after the last run")
    ap.add_argument("--timeout", type=float, default=240, help="seconds per run (default 240)")
    opts = ap.parse_args()
    if not os.path.exists(os.path.join(HERE, "pkg", "web.js")):
        sys.exit("the page is not built: run bash examples/web/build.sh first")

    http_port = free_port()
    handler = functools.partial(Quiet, directory=HERE)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", http_port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    drv_port = free_port()
    chromedriver = subprocess.Popen(
        [os.environ.get("CHROMEDRIVER", "chromedriver"), f"--port={drv_port}",
         "--allowed-ips=127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = Driver(drv_port)
    passed, failed = 0, 0
    try:
        wait_for("chromedriver", lambda: _up(d), 30)
        with open(os.path.join(ROOT, "webdriver.json")) as f:
            args = json.load(f)["goog:chromeOptions"]["args"]
        d.start(["--headless", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=900,720"] + args)
        d.goto(f"http://127.0.0.1:{http_port}/")
        adapter = wait_for("the adapter", lambda: _ready(d), 120)
        print(f"page adapter: {adapter}")
        if "BrowserWebGpu" not in adapter:
            raise AssertionError(f"the page did not run on the browser's WebGPU: {adapter}")
        for n in ["65536", "1048576"]:
            for op in ["sum", "max", "argmax", "mean", "cumsum"]:
                d.script("document.getElementById('op').value = arguments[0];"
                         "document.getElementById('n').value = arguments[1];", op, n)
                d.click("#go")
                status = wait_for(f"{op} of {n}", lambda: _done(d), opts.timeout)
                row = {k: d.text(f"#{k}") for k in ["gpu", "cpu", "check", "time", "gbs"]}
                ok = ("matches the CPU" in status and row["time"].endswith(" ms")
                      and row["gbs"].endswith(" GB/s") and row["gpu"] != "")
                print(f"{'ok  ' if ok else 'FAIL'} {status} | GPU {row['gpu']} | CPU {row['cpu']}"
                      f" | {row['check']} | {row['time']} | {row['gbs']}")
                passed, failed = passed + ok, failed + (not ok)
        if opts.screenshot:
            d.screenshot(opts.screenshot)
            print(f"screenshot: {opts.screenshot}")
    except Exception as e:
        print(f"FAIL {e}")
        failed += 1
    finally:
        d.quit()
        chromedriver.terminate()
        server.shutdown()
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and passed > 0 else 1)


def _up(d):
    try:
        return d.call("GET", "/status", timeout=5).get("ready")
    except Exception:
        return False


def _ready(d):
    status = d.text("#status")
    if "No GPU" in status or "no WebGPU" in status:
        raise AssertionError(f"the page says: {status}")
    return d.text("#adapter") if status == "ready" else None


def _done(d):
    status = d.text("#status")
    return status if (": matches" in status or "DIFFERS" in status or "error" in status) else None


if __name__ == "__main__":
    main()
