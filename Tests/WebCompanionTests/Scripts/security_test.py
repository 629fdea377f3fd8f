#!/usr/bin/env python3
"""Security and robustness tests of waypoint-web, with the standard library only.

Run by the Swift test WebCompanionTests against a running `waypointd --simulate` and `waypoint-web`:

    security_test.py --base http://127.0.0.1:PORT --pair-url URL1 --bearer TOKEN --socket /path/control.sock

Prints one line per check, `ok: ...` or `FAIL: ...`, then a summary line, and exits 1 when any
check failed.

The pairing link URL1 is used here (once successfully, once more to see it refused), and the
pairing rate limit is then tripped on purpose: for about a minute after this script, no pairing
link works from 127.0.0.1. The second link (--second-pair-url) is then opened from 127.0.0.2,
which the throttle of 127.0.0.1 must not lock out. Run the browser test before this one, or
against another server.

The flood (--web-pid) comes from 127.0.0.2 and 127.0.0.3 while the paired client searches from
127.0.0.1: on Linux every 127/8 address is the loopback's, so one machine plays three.
"""

import argparse
import http.client
import subprocess
import json
import secrets
import select
import socket
import string
import sys
import threading
import time
import urllib.parse

RESULTS = {"passed": 0, "failed": 0}
PRINT_LOCK = threading.Lock()


def ok(message):
    with PRINT_LOCK:
        RESULTS["passed"] += 1
        print("ok: " + message, flush=True)


def fail(message):
    with PRINT_LOCK:
        RESULTS["failed"] += 1
        print("FAIL: " + message, flush=True)


def expect(condition, good, bad):
    if condition:
        ok(good)
    else:
        fail(bad)
    return condition


class Server:
    """waypoint-web at --base."""

    def __init__(self, base, bearer):
        parts = urllib.parse.urlsplit(base)
        if parts.scheme != "http" or not parts.hostname:
            raise SystemExit("--base must be http://HOST:PORT, not %r" % base)
        self.host = parts.hostname
        self.port = parts.port or 80
        self.netloc = parts.netloc
        self.origin = "http://" + parts.netloc
        self.bearer = bearer

    def auth(self):
        return {"Authorization": "Bearer " + self.bearer}

    def request(self, method, path, headers=None, body=None, timeout=10.0, read_body=True, source=None):
        """One request on its own connection: (status, headers, body bytes). read_body=False
        reads the status line and headers only (for event streams). `source` is the local
        address to connect from (another 127/8 address plays another client)."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout,
                                                source_address=(source, 0) if source else None)
        try:
            all_headers = {"Host": self.netloc}
            all_headers.update(headers or {})
            if body is not None and "Content-Type" not in all_headers:
                all_headers["Content-Type"] = "application/json"
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            data = response.read() if read_body else b""
            return response.status, response.headers, data
        finally:
            connection.close()

    def raw(self, head, body=b"", timeout=10.0):
        """Sends head (bytes, the request line and headers), then body, and returns the status
        code of the answer, or None when the connection was closed or reset with no answer. A
        server that answers as soon as it has the headers (413 from Content-Length) gets its
        answer read before the body is sent, so it is not lost to a reset."""
        sock = socket.create_connection((self.host, self.port), timeout=timeout)
        received = b""
        try:
            try:
                sock.sendall(head)
                readable, _, _ = select.select([sock], [], [], 0.5)
                if not readable and body:
                    view = memoryview(body)
                    for start in range(0, len(body), 65536):
                        sock.sendall(view[start:start + 65536])
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                pass
            deadline = time.monotonic() + timeout
            while b"\r\n" not in received and time.monotonic() < deadline:
                try:
                    chunk = sock.recv(65536)
                except (ConnectionResetError, socket.timeout):
                    break
                if not chunk:
                    break
                received += chunk
        finally:
            sock.close()
        line = received.split(b"\r\n", 1)[0].split()
        if len(line) >= 2 and line[0].startswith(b"HTTP/") and line[1].isdigit():
            return int(line[1])
        return None


def json_body(data):
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def daemon_status_seconds(socket_path, timeout=5.0):
    """Connects to the daemon, asks for status, reads up to the STATUS line: seconds taken."""
    start = time.monotonic()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(socket_path)
        sock.sendall(b'{"cmd":"status"}\n')
        buffer = b""
        while True:
            while b"\n" not in buffer:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the daemon closed the connection")
                buffer += chunk
            line, buffer = buffer.split(b"\n", 1)
            if line.strip() and json.loads(line).get("class") == "STATUS":
                return time.monotonic() - start


SMALL_GPX = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
             b'<gpx version="1.1" creator="security_test" xmlns="http://www.topografix.com/GPX/1/1">'
             b'<rte><name>Test</name><rtept lat="48.8570" lon="2.2990"/><rtept lat="48.8580" lon="2.3000"/></rte></gpx>\n')

ENDPOINTS = [
    ("GET", "/api/status", None),
    ("GET", "/api/events", None),
    ("POST", "/api/request", b'{"cmd":"status"}'),
    ("POST", "/api/place", b'{"text":"48.8584, 2.2945"}'),
    ("POST", "/api/route", SMALL_GPX),
    ("GET", "/api/trail.gpx", None),
    ("GET", "/api/map", None),
]


class Run:
    def __init__(self, args):
        self.args = args
        self.server = Server(args.base, args.bearer)
        pair = urllib.parse.urlsplit(args.pair_url)
        self.pair_path = pair.path + ("?" + pair.query if pair.query else "")
        self.pair_token = urllib.parse.parse_qs(pair.query).get("token", [""])[0]
        self.cookie = None

    # (h) ---------------------------------------------------------------------------------
    def check_headers(self):
        server = self.server
        status, headers, _ = server.request("GET", "/")
        if status != 200:
            fail("(h) GET / answered %s, not 200" % status)
        csp = headers.get("Content-Security-Policy") or ""
        expect("default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
               and "unsafe-inline" not in csp and "unsafe-eval" not in csp,
               "(h) / sends Content-Security-Policy: %s" % csp,
               "(h) / sends no strict Content-Security-Policy (default-src 'self', script-src 'self', "
               "frame-ancestors 'none', nothing unsafe): %r" % csp)
        for name, wanted in (("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
                             ("Referrer-Policy", "no-referrer")):
            value = (headers.get(name) or "").strip()
            expect(value.lower() == wanted.lower(), "(h) / sends %s: %s" % (name, value),
                   "(h) / sends %s: %r, not %s" % (name, value or None, wanted))
        # With nosniff the browser refuses a script or style sheet of the wrong type.
        for path, types in (("/app.js", ("text/javascript", "application/javascript")), ("/app.css", ("text/css",))):
            status, headers, _ = server.request("GET", path)
            kind = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
            expect(status == 200 and kind in types, "(h) %s is served as %s" % (path, kind),
                   "(h) %s answered %s with Content-Type %r (wanted %s)" % (path, status, kind, " or ".join(types)))
        status, headers, _ = server.request("GET", "/api/status", headers=server.auth())
        cache = headers.get("Cache-Control") or ""
        expect(status == 200 and "no-store" in cache.lower(), "(h) /api/status sends Cache-Control: %s" % cache,
               "(h) /api/status answered %s with Cache-Control %r, not no-store" % (status, cache or None))

    # (a) ---------------------------------------------------------------------------------
    def check_no_session(self):
        server = self.server
        for method, path, body in ENDPOINTS:
            headers = {"Origin": server.origin} if method == "POST" else {}
            if path == "/api/route":
                headers["Content-Type"] = "application/gpx+xml"
            try:
                status, reply_headers, data = server.request(method, path, headers=headers, body=body,
                                                             read_body=(path != "/api/events"), timeout=5)
            except OSError as error:
                fail("(a) %s %s without a session: %s" % (method, path, error))
                continue
            reply = json_body(data) if path != "/api/events" else None
            if status != 401:
                fail("(a) %s %s without a session answered %s, not 401" % (method, path, status))
            elif path != "/api/events" and not (isinstance(reply, dict) and isinstance(reply.get("error"), str)):
                fail("(a) %s %s without a session: 401 but not {\"error\": sentence}: %r" % (method, path, data[:200]))
            else:
                ok("(a) %s %s without a session → 401" % (method, path))

    # (b) ---------------------------------------------------------------------------------
    def check_bearer(self):
        server = self.server
        status, _, data = server.request("GET", "/api/status", headers=server.auth())
        reply = json_body(data)
        expect(status == 200 and isinstance(reply, dict) and reply.get("class") == "STATUS",
               "(b) GET /api/status with the bearer token → 200, a STATUS (state %s)" % (reply or {}).get("state"),
               "(b) GET /api/status with the bearer token answered %s: %r" % (status, data[:200]))
        status, _, _ = server.request("GET", "/api/status", headers={"Authorization": "Bearer " + "0" * max(8, len(server.bearer))})
        expect(status == 401, "(b) a wrong bearer token → 401", "(b) a wrong bearer token answered %s, not 401" % status)

    # (e) ---------------------------------------------------------------------------------
    def check_pairing_once(self):
        server = self.server
        status, headers, _ = server.request("GET", self.pair_path)
        cookies = headers.get_all("Set-Cookie") or []
        location = headers.get("Location") or ""
        if status != 303 or not cookies:
            fail("(e) the first GET of the pairing link answered %s with %d Set-Cookie, not 303 and a cookie"
                 % (status, len(cookies)))
        else:
            cookie = cookies[0]
            attributes = [part.strip().lower() for part in cookie.split(";")[1:]]
            strict = any(a.replace(" ", "") == "samesite=strict" for a in attributes)
            expect("httponly" in attributes and strict,
                   "(e) the first GET of the pairing link → 303 to %s with an HttpOnly, SameSite=Strict cookie" % location,
                   "(e) the pairing cookie is not HttpOnly and SameSite=Strict: %r" % cookie)
            if urllib.parse.urlsplit(location).path != "/":
                fail("(e) the pairing link redirects to %r, not /" % location)
            self.cookie = cookie.split(";", 1)[0].strip()
        status, headers, _ = server.request("GET", self.pair_path)
        cookies = headers.get_all("Set-Cookie") or []
        expect(400 <= status < 500 and not cookies,
               "(e) the pairing link used again → %s with no cookie" % status,
               "(e) the pairing link used again answered %s with %d Set-Cookie (wanted 4xx and none)" % (status, len(cookies)))
        if self.cookie:
            status, _, _ = server.request("GET", "/api/status", headers={"Cookie": self.cookie})
            expect(status == 200, "(e) the session cookie opens /api/status (200)",
                   "(e) the session cookie from pairing does not open /api/status: %s" % status)

    def session(self):
        return {"Cookie": self.cookie} if self.cookie else {}

    # (c) ---------------------------------------------------------------------------------
    def check_host(self):
        server = self.server
        if not self.cookie:
            fail("(c) not run: no session cookie from pairing")
            return
        status, _, _ = server.request("GET", "/api/status", headers=dict(self.session(), Host="evil.example"))
        expect(status in (403, 421), "(c) a session request with Host: evil.example → %s" % status,
               "(c) a session request with Host: evil.example answered %s, not 403 or 421" % status)
        status, _, _ = server.request("GET", "/api/status", headers=dict(self.session(), Host="evil.example:%d" % server.port))
        expect(status in (403, 421), "(c) a session request with Host: evil.example:%d → %s" % (server.port, status),
               "(c) a session request with Host: evil.example:%d answered %s, not 403 or 421" % (server.port, status))
        status, _, _ = server.request("GET", "/api/status", headers=dict(self.session(), Host="127.0.0.1:%d" % server.port))
        expect(status == 200, "(c) a session request with Host: 127.0.0.1:%d → 200" % server.port,
               "(c) a session request with Host: 127.0.0.1:%d answered %s, not 200" % (server.port, status))

    # (d) ---------------------------------------------------------------------------------
    def check_origin(self):
        server = self.server
        if not self.cookie:
            fail("(d) not run: no session cookie from pairing")
            return
        body = b'{"cmd":"status"}'
        status, _, _ = server.request("POST", "/api/request", body=body,
                                      headers=dict(self.session(), Origin="http://evil.example"))
        expect(status == 403, "(d) POST /api/request with Origin: http://evil.example → 403",
               "(d) POST /api/request with Origin: http://evil.example answered %s, not 403" % status)
        status, _, data = server.request("POST", "/api/request", body=body,
                                         headers=dict(self.session(), Origin="http://127.0.0.1:%d" % server.port))
        reply = json_body(data)
        expect(status == 200 and isinstance(reply, dict) and reply.get("class") == "STATUS",
               "(d) POST /api/request with Origin: http://127.0.0.1:%d → 200, a STATUS" % server.port,
               "(d) POST /api/request with the page's own origin answered %s: %r" % (status, data[:200]))

    # (g) ---------------------------------------------------------------------------------
    def post_head(self, path, length, kind):
        server = self.server
        return ("POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nOrigin: %s\r\n"
                "Content-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                % (path, server.netloc, server.bearer, server.origin, kind, length)).encode()

    def check_bodies(self):
        server = self.server
        pad = 200 * 1024 - len(b'{"cmd":"status","pad":""}')
        body = b'{"cmd":"status","pad":"' + b"x" * pad + b'"}'
        status = server.raw(self.post_head("/api/request", len(body), "application/json"), body)
        expect(status == 413, "(g) POST /api/request with a %d KiB body → 413" % (len(body) // 1024),
               "(g) POST /api/request with a %d KiB body answered %s, not 413" % (len(body) // 1024, status))
        head = (b'<?xml version="1.0"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><rte>')
        tail = b"</rte></gpx>\n"
        point = b'<rtept lat="48.8570" lon="2.2990"/>\n'
        count = (6 * 1024 * 1024 - len(head) - len(tail)) // len(point) + 1
        body = head + point * count + tail
        status = server.raw(self.post_head("/api/route", len(body), "application/gpx+xml"), body, timeout=15)
        expect(status == 413, "(g) POST /api/route with %.1f MiB → 413" % (len(body) / 1048576),
               "(g) POST /api/route with %.1f MiB answered %s, not 413" % (len(body) / 1048576, status))

    def check_big_header(self):
        server = self.server
        head = ("GET /api/status HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nX-Padding: %s\r\n"
                "Connection: close\r\n\r\n" % (server.netloc, server.bearer, "a" * 65536)).encode()
        status = server.raw(head)
        expect(status is None or status in (400, 413, 414, 431),
               "(g) a request with a 64 KiB header → %s" % (status if status else "the connection closed with no answer"),
               "(g) a request with a 64 KiB header answered %s (wanted 431, 400, or a closed connection)" % status)
        self.still_answers("after the 64 KiB header")

    def still_answers(self, when, within=5.0):
        """GET /api/status answers 200 within `within` seconds. A connection refused or reset
        is tried again every 0.1 s until then: the server closes a connection it accepts while at
        its 32-connection limit, and connections just closed by their clients take it a moment
        to notice; recovering is the property, not the first attempt's luck."""
        start = time.monotonic()
        attempts = 0
        while True:
            attempts += 1
            try:
                status, _, _ = self.server.request("GET", "/api/status", headers=self.server.auth(), timeout=within)
                break
            except OSError as error:
                status = "no answer (%s)" % error
                if time.monotonic() - start + 0.1 >= within:
                    break
                time.sleep(0.1)
        seconds = time.monotonic() - start
        if attempts > 1:
            when = "%s (%d attempts)" % (when, attempts)
        return expect(status == 200 and seconds <= within,
                      "(g) %s, GET /api/status answers 200 in %.2f s" % (when, seconds),
                      "(g) %s, GET /api/status answered %s in %.2f s" % (when, status, seconds))

    def check_slow_clients(self):
        server = self.server
        stop = threading.Event()
        sockets = []

        def trickle(sock):
            request = ("GET /api/status HTTP/1.1\r\nHost: %s\r\nX-Slow: %s\r\n" % (server.netloc, "s" * 60)).encode()
            for index in range(len(request)):
                if stop.is_set():
                    return
                try:
                    sock.sendall(request[index:index + 1])
                except OSError:
                    return
                stop.wait(1.0)

        threads = []
        try:
            for _ in range(3):
                sock = socket.create_connection((server.host, server.port), timeout=5)
                sockets.append(sock)
                thread = threading.Thread(target=trickle, args=(sock,), daemon=True)
                thread.start()
                threads.append(thread)
            time.sleep(2.5)
            times = []
            good = True
            for _ in range(3):
                start = time.monotonic()
                try:
                    status, _, _ = server.request("GET", "/api/status", headers=server.auth(), timeout=2.0)
                except OSError as error:
                    status = "no answer (%s)" % error
                times.append(time.monotonic() - start)
                if status != 200 or times[-1] > 2.0:
                    good = False
                    fail("(g) with 3 slow clients sending a byte a second, GET /api/status answered %s in %.2f s"
                         % (status, times[-1]))
                time.sleep(0.5)
            if good:
                ok("(g) with 3 slow clients sending a byte a second, GET /api/status answers in at most %.2f s"
                   % max(times))
        finally:
            stop.set()
            for sock in sockets:
                sock.close()
            for thread in threads:
                thread.join(2)

    def check_idle_connections(self):
        server = self.server
        sockets = []
        try:
            for _ in range(60):
                try:
                    sockets.append(socket.create_connection((server.host, server.port), timeout=5))
                except OSError:
                    break
            ok("(g) opened %d idle TCP connections at once" % len(sockets))
            time.sleep(1.0)
        finally:
            for sock in sockets:
                sock.close()
        self.still_answers("after 60 idle connections closed")

    def open_stream(self):
        """Opens an event stream with the bearer token and reads its head: (connection, status)."""
        server = self.server
        connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
        try:
            connection.request("GET", "/api/events", headers=dict(server.auth(), Host=server.netloc,
                                                                  Accept="text/event-stream"))
            response = connection.getresponse()
            status = response.status
            if status != 200:
                response.read()
            return connection, status
        except OSError as error:
            connection.close()
            return None, "no answer (%s)" % error

    def check_streams(self):
        connections, statuses = [], []
        try:
            for _ in range(12):
                connection, status = self.open_stream()
                statuses.append(status)
                if connection is not None:
                    connections.append(connection)
                if status == 503:
                    break
            first_refused = statuses.index(503) + 1 if 503 in statuses else None
            expect(first_refused is not None and first_refused >= 9
                   and all(status == 200 for status in statuses[:8]),
                   "(g) event streams: the first 8 open (200), stream %s → 503" % first_refused,
                   "(g) event streams opened one after another answered %s (wanted 200 for 8, then 503 by the 12th)"
                   % statuses)
        finally:
            for connection in connections:
                connection.close()
        # The slots come back once the streams are closed.
        deadline = time.monotonic() + 15
        while True:
            connection, status = self.open_stream()
            if connection is not None:
                connection.close()
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(1)
        expect(status == 200, "(g) once those streams are closed, a new event stream opens (200)",
               "(g) 15 s after closing the streams, a new event stream still answers %s" % status)

    # (f) ---------------------------------------------------------------------------------
    def token_like(self):
        token = self.pair_token or "x" * 32
        if all(c in string.hexdigits for c in token):
            alphabet = "0123456789abcdef" if token == token.lower() else string.hexdigits
        else:
            alphabet = string.ascii_letters + string.digits + ("-_" if any(c in "-_" for c in token) else "")
        while True:
            candidate = "".join(secrets.choice(alphabet) for _ in token)
            if candidate != token:
                return candidate

    def check_rate_limit(self):
        server = self.server
        total, workers = 1000, 4
        tokens = [self.token_like() for _ in range(total)]
        statuses, cookies, errors = [], [], []
        lock = threading.Lock()
        done = threading.Event()
        latencies, daemon_errors = [], []

        def hammer(share):
            connection = None
            for token in share:
                for attempt in range(2):
                    try:
                        if connection is None:
                            connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
                        connection.request("GET", "/pair?token=" + token, headers={"Host": server.netloc})
                        response = connection.getresponse()
                        response.read()
                        with lock:
                            statuses.append(response.status)
                            if response.headers.get_all("Set-Cookie"):
                                cookies.append(response.status)
                        if response.will_close:
                            connection.close()
                            connection = None
                        break
                    except (OSError, http.client.HTTPException) as error:
                        if connection is not None:
                            connection.close()
                        connection = None
                        if attempt == 1:
                            with lock:
                                errors.append(str(error) or type(error).__name__)
            if connection is not None:
                connection.close()

        def watch_daemon():
            while not done.is_set():
                try:
                    latencies.append(daemon_status_seconds(self.args.socket, timeout=5))
                except (OSError, ValueError) as error:
                    daemon_errors.append(str(error))
                done.wait(0.1)

        watcher = threading.Thread(target=watch_daemon, daemon=True)
        watcher.start()
        start = time.monotonic()
        threads = [threading.Thread(target=hammer, args=(tokens[i::workers],), daemon=True) for i in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        seconds = time.monotonic() - start
        done.set()
        watcher.join(10)

        counts = {}
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
        summary = ", ".join("%s×%d" % (status, n) for status, n in sorted(counts.items()))
        expect(429 in counts, "(f) %d wrong pairing tokens in %.1f s: %s; 429 came" % (len(statuses), seconds, summary),
               "(f) %d wrong pairing tokens in %.1f s never got 429: %s" % (len(statuses), seconds, summary))
        wrong = [s for s in counts if 200 <= s < 400]
        expect(not wrong and not cookies, "(f) no wrong token was accepted (no 2xx/3xx, no Set-Cookie)",
               "(f) wrong tokens were answered %s, %d of them with Set-Cookie" % (wrong, len(cookies)))
        if errors:
            fail("(f) %d of the wrong-token requests got no answer: %s" % (len(errors), errors[0]))
        status, headers, _ = server.request("GET", "/pair?token=" + self.token_like())
        expect(status == 429,
               "(f) right after, a fresh correct-looking token is refused too: 429 (Retry-After: %s)" % headers.get("Retry-After"),
               "(f) right after, a fresh correct-looking token answered %s, not 429" % status)
        slowest = max(latencies) if latencies else None
        expect(latencies and not daemon_errors and slowest <= 1.0,
               "(f) meanwhile the daemon answered status %d times on its socket, the slowest in %.3f s"
               % (len(latencies), slowest or 0),
               "(f) meanwhile the daemon's status: %d answers, the slowest in %s s, %d errors %s"
               % (len(latencies), "%.3f" % slowest if slowest is not None else "-", len(daemon_errors),
                  daemon_errors[:1]))


    # (i) ---------------------------------------------------------------------------------
    def check_revoke(self):
        """A stream opened before its session is revoked ends within 1 s of the revoke."""
        made = subprocess.run([self.args.web, "token", "--json", "--name", "to revoke"] + self.args.web_args.split(),
                              capture_output=True, text=True, timeout=30)
        try:
            token = json.loads(made.stdout)
        except ValueError:
            fail("(i) waypoint-web token did not print JSON: %r %r" % (made.stdout, made.stderr))
            return
        server = self.server
        sock = socket.create_connection((server.host, server.port), timeout=10)
        try:
            sock.sendall(("GET /api/events HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
                          "Accept: text/event-stream\r\n\r\n" % (server.netloc, token["token"])).encode())
            received = b""
            while b"event: status" not in received:
                chunk = sock.recv(65536)
                if not chunk:
                    fail("(i) the stream ended before its first state: %r" % received[:200])
                    return
                received += chunk
            revoked = subprocess.run([self.args.web, "revoke", token["id"]] + self.args.web_args.split(),
                                     capture_output=True, text=True, timeout=30)
            start = time.monotonic()
            if revoked.returncode != 0:
                fail("(i) waypoint-web revoke %s exited %d: %s" % (token["id"], revoked.returncode, revoked.stderr))
                return
            after, ended = b"", False
            sock.settimeout(0.25)
            while time.monotonic() - start < 5:
                try:
                    chunk = sock.recv(65536)
                except socket.timeout:
                    continue
                if not chunk or b"0\r\n\r\n" in chunk:
                    ended = True
                    break
                after += chunk
            seconds = time.monotonic() - start
            events = after.count(b"event: status")
            expect(ended and seconds <= 1.0,
                   "(i) the revoked session's open stream ended %.2f s after the revoke (%d states after it)" % (seconds, events),
                   "(i) the revoked session's stream %s %.2f s after the revoke, with %d states after it"
                   % ("ended" if ended else "still ran", seconds, events))
        finally:
            sock.close()
        status, _, _ = server.request("GET", "/api/status", headers={"Authorization": "Bearer " + token["token"]})
        expect(status == 401, "(i) the revoked token is refused: 401", "(i) the revoked token answered %s" % status)

    # (j) ---------------------------------------------------------------------------------
    @staticmethod
    def rss_kib(pid):
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def check_flood(self):
        """40 slow-header connections and 31 unpaired 4 MiB POSTs, from two other addresses,
        while the paired client searches: every search answered within 1 s, and the server's
        memory back within 4 MB of its start 10 s after."""
        server = self.server
        stop = threading.Event()
        before = self.rss_kib(self.args.web_pid)
        counts = {"slow": 0, "slow cut": 0, "posts": 0, "post answers": {}}
        lock = threading.Lock()

        def slow_headers():
            # A request line, then one header line every 10 s, for as long as it is let in;
            # again when the server closes it.
            while not stop.is_set():
                try:
                    sock = socket.create_connection((server.host, server.port), timeout=5, source_address=("127.0.0.2", 0))
                except OSError:
                    stop.wait(0.5)
                    continue
                with lock:
                    counts["slow"] += 1
                try:
                    sock.sendall(("GET / HTTP/1.1\r\nHost: %s\r\n" % server.netloc).encode())
                    sock.settimeout(10)
                    while not stop.is_set():
                        readable, _, _ = select.select([sock], [], [], 10)
                        if readable and not sock.recv(4096):
                            with lock:
                                counts["slow cut"] += 1
                            break
                        sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    with lock:
                        counts["slow cut"] += 1
                finally:
                    sock.close()

        body = b"x" * (4 * 1024 * 1024)

        def big_posts():
            while not stop.is_set():
                try:
                    sock = socket.create_connection((server.host, server.port), timeout=10, source_address=("127.0.0.3", 0))
                except OSError:
                    stop.wait(0.5)
                    continue
                answer = None
                try:
                    sock.sendall(("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/octet-stream\r\n"
                                  "Content-Length: %d\r\n\r\n" % (server.netloc, len(body))).encode())
                    view = memoryview(body)
                    for start in range(0, len(body), 65536):
                        if stop.is_set():
                            break
                        sock.sendall(view[start:start + 65536])
                    answer = sock.recv(64)
                except OSError:
                    pass
                finally:
                    sock.close()
                line = (answer or b"").split(b"\r\n", 1)[0].split()
                code = line[1].decode() if len(line) >= 2 else "closed"
                with lock:
                    counts["posts"] += 1
                    counts["post answers"][code] = counts["post answers"].get(code, 0) + 1

        threads = [threading.Thread(target=slow_headers, daemon=True) for _ in range(40)]
        threads += [threading.Thread(target=big_posts, daemon=True) for _ in range(31)]
        for thread in threads:
            thread.start()
        times, failures = [], []
        flood_start = time.monotonic()
        try:
            while time.monotonic() - flood_start < 25:
                start = time.monotonic()
                try:
                    status, _, data = server.request("POST", "/api/place", headers=dict(server.auth(), Origin=server.origin),
                                                     body=b'{"text":"bakery"}', timeout=5)
                except OSError as error:
                    status, data = "no answer (%s)" % error, b""
                seconds = time.monotonic() - start
                times.append(seconds)
                if status != 200 or seconds > 1.0:
                    failures.append("%s in %.2f s at %.1f s: %r" % (status, seconds, start - flood_start, data[:120]))
                time.sleep(0.25)
        finally:
            stop.set()
            for thread in threads:
                thread.join(15)
        flooded = self.rss_kib(self.args.web_pid)
        expect(not failures and times,
               "(j) under 40 slow-header connections (%d made, %d cut) and 31 unpaired 4 MiB POSTs (%d, answered %s), "
               "the paired client's %d searches were answered, the slowest in %.2f s"
               % (counts["slow"], counts["slow cut"], counts["posts"], counts["post answers"], len(times), max(times or [0])),
               "(j) under the flood the paired client's searches failed %d of %d times: %s"
               % (len(failures), len(times), "; ".join(failures[:3])))
        expect(counts["slow"] > 40, "(j) the slow-header connections were cut and came back: %d made" % counts["slow"],
               "(j) the slow-header connections were never cut: only %d made in 25 s" % counts["slow"])
        time.sleep(10)
        after = self.rss_kib(self.args.web_pid)
        expect(after is not None and before is not None and after - before <= 4096,
               "(j) waypoint-web's RSS: %d kB before, %d kB during, %d kB 10 s after the flood" % (before, flooded, after),
               "(j) waypoint-web's RSS: %s kB before, %s kB during, %s kB 10 s after the flood (more than 4 MB above)"
               % (before, flooded, after))

    # (k) ---------------------------------------------------------------------------------
    def check_pairing_elsewhere(self):
        """Right after 127.0.0.1 was throttled, a right link opened from 127.0.0.2 pairs."""
        pair = urllib.parse.urlsplit(self.args.second_pair_url)
        path = pair.path + ("?" + pair.query if pair.query else "")
        status, headers, _ = self.server.request("GET", path, source="127.0.0.2")
        expect(status == 303 and headers.get("Set-Cookie"),
               "(k) while 127.0.0.1 is throttled, a right pairing link from 127.0.0.2 pairs (303 with a cookie)",
               "(k) while 127.0.0.1 is throttled, a right pairing link from 127.0.0.2 answered %s" % status)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="waypoint-web's address, e.g. http://127.0.0.1:8740")
    parser.add_argument("--pair-url", required=True, help="a fresh pairing link")
    parser.add_argument("--bearer", required=True, help="a bearer token")
    parser.add_argument("--socket", required=True, help="the daemon's control socket")
    parser.add_argument("--second-pair-url", required=True, help="another fresh pairing link, opened from 127.0.0.2")
    parser.add_argument("--web", required=True, help="the waypoint-web program, for token and revoke")
    parser.add_argument("--web-args", required=True, help="the options its commands need (--state-dir, --config)")
    parser.add_argument("--web-pid", required=True, type=int, help="the running waypoint-web's process id")
    args = parser.parse_args()
    run = Run(args)
    steps = [
        ("(h) headers", run.check_headers),
        ("(a) no session", run.check_no_session),
        ("(b) bearer", run.check_bearer),
        ("(e) pairing once", run.check_pairing_once),
        ("(c) Host", run.check_host),
        ("(d) Origin", run.check_origin),
        ("(g) bodies", run.check_bodies),
        ("(g) header", run.check_big_header),
        ("(g) slow clients", run.check_slow_clients),
        ("(g) idle connections", run.check_idle_connections),
        ("(g) event streams", run.check_streams),
        ("(i) revoke", run.check_revoke),
        ("(j) flood", run.check_flood),
        ("(f) rate limit", run.check_rate_limit),
        ("(k) pairing elsewhere", run.check_pairing_elsewhere),
    ]
    for name, step in steps:
        try:
            step()
        except Exception as error:  # a broken step is a failure, and the others still run
            fail("%s: %s: %s" % (name, type(error).__name__, error))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        fail("interrupted")
    print("security_test: %d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]), flush=True)
    sys.exit(1 if RESULTS["failed"] else 0)
