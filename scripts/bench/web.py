#!/usr/bin/env python3
"""The phone companion's figures for `make bench` (issue 28), on the release programs:
`waypoint-web` in front of `waypointd --simulate`, measured from outside.

- requests a second for GET /api/status (each one a request to the daemon on its socket), with
  wrk when it is installed (scripts/deps.sh --bench), else Python clients on keep-alive
  connections (then the clients, not the server, may be the limit: said so);
- event-stream latency: from a destination set to the page's stream carrying it, set by
  another client on the daemon's socket (the daemon's `watch` at 5 a second bounds it at about
  200 ms) and set by a page (POST /api/request: the companion sends the new state at once);
- waypoint-web's RSS idle and with 5 pages following the events (aim <= 8 MB);
- CPU of waypoint-web and of the daemon with one page open, against the daemon alone.

    scripts/bench/web.py RELEASE_BIN_DIR
"""

import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AIM_RSS_KB = 8 * 1024
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pss_kb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ask(sock_path, request):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(sock_path)
        stream = sock.makefile("rb")
        stream.readline()
        sock.sendall((json.dumps(request) + "\n").encode())
        return json.loads(stream.readline())


class EventStream:
    """One page's GET /api/events, read on a thread; each status event's destination kept."""

    def __init__(self, port, token):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
        self.latest = None
        self.arrivals = []
        self.closed = False
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        while not self.closed:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            for line in buffer.split(b"\n")[:-1]:
                if line.startswith(b"data: {") and b'"class":"STATUS"' in line:
                    status = json.loads(line[6:])
                    destination = status.get("destination")
                    self.arrivals.append((time.monotonic(), destination and destination.get("lat")))
            buffer = buffer.rsplit(b"\n", 1)[-1]

    def close(self):
        self.closed = True
        self.sock.close()


def requests_per_second(port, token):
    url = f"http://127.0.0.1:{port}/api/status"
    if shutil.which("wrk"):
        run = subprocess.run(["wrk", "-t2", "-c8", "-d5s", "-H", f"Authorization: Bearer {token}", url], capture_output=True, text=True)
        for line in run.stdout.splitlines():
            if line.startswith("Requests/sec:"):
                return float(line.split()[1]), "wrk, 8 connections, 5 s"
    import http.client
    done = []
    deadline = time.monotonic() + 5

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port)
        count = 0
        while time.monotonic() < deadline:
            connection.request("GET", "/api/status", headers={"Authorization": f"Bearer {token}"})
            connection.getresponse().read()
            count += 1
        done.append(count)

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / 5, "4 Python clients (install wrk for the server's own limit)"


def main():
    binaries = sys.argv[1]
    rows = []
    with tempfile.TemporaryDirectory(prefix="web-bench-") as work:
        sock = os.path.join(work, "control.sock")
        log = open(os.path.join(work, "daemon.log"), "w")
        daemon = subprocess.Popen([os.path.join(binaries, "waypointd"), "--simulate", "--state-dir", os.path.join(work, "state"),
                                   "--socket", sock], stdout=log, stderr=log)
        config = os.path.join(work, "waypoint-web.conf")
        open(config, "w").close()
        web_state = os.path.join(work, "web")
        web_binary = os.path.join(binaries, "waypoint-web")
        web = None
        streams = []
        try:
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            web = subprocess.Popen([web_binary, "--config", config, "--listen", "127.0.0.1:0", "--socket", sock, "--state-dir", web_state,
                                    "--page-dir", os.path.join(ROOT, "Web")], stderr=subprocess.PIPE, text=True)
            line = web.stderr.readline()
            port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
            token = json.loads(subprocess.run([web_binary, "token", "--json", "--config", config, "--state-dir", web_state],
                                              capture_output=True, text=True, check=True).stdout)["token"]
            time.sleep(2)
            idle, idle_pss = rss_kb(web.pid), pss_kb(web.pid)

            # The daemon alone, then with one page following it.
            daemon_cpu, started = cpu_seconds(daemon.pid), time.monotonic()
            time.sleep(10)
            daemon_alone = (cpu_seconds(daemon.pid) - daemon_cpu) / (time.monotonic() - started) * 100
            page = EventStream(port, token)
            time.sleep(1)
            web_cpu, daemon_cpu, started = cpu_seconds(web.pid), cpu_seconds(daemon.pid), time.monotonic()
            time.sleep(10)
            elapsed = time.monotonic() - started
            web_share = (cpu_seconds(web.pid) - web_cpu) / elapsed * 100
            daemon_share = (cpu_seconds(daemon.pid) - daemon_cpu) / elapsed * 100

            # A change to the page: twenty destinations each way, each timed to its first event,
            # sent at a random phase of the watch's ticks.
            page_client = http.client.HTTPConnection("127.0.0.1", port)

            def through_page(request):
                page_client.request("POST", "/api/request", body=json.dumps(request),
                                    headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
                page_client.getresponse().read()

            latencies = {"socket": [], "page": []}
            for index in range(40):
                way = "socket" if index % 2 == 0 else "page"
                latitude = round(48.85 + index * 0.0011, 7)
                time.sleep(random.uniform(0, 0.2))
                sent = time.monotonic()
                if way == "socket":
                    ask(sock, {"cmd": "go", "lat": latitude, "lon": 2.30})
                else:
                    through_page({"cmd": "go", "lat": latitude, "lon": 2.30})
                deadline = sent + 3
                while time.monotonic() < deadline:
                    seen = [at for at, lat in list(page.arrivals) if at >= sent and lat == latitude]
                    if seen:
                        latencies[way].append((seen[0] - sent) * 1000)
                        break
                    time.sleep(0.002)
            streams = [page] + [EventStream(port, token) for _ in range(4)]
            time.sleep(3)
            five = rss_kb(web.pid)
            rate, how = requests_per_second(port, token)

            rows.append(("web.status.requests", f"{rate:.0f}", f"per second ({how}; each a request to the daemon)"))
            for way, how in (("socket", "set by another client on the daemon's socket; the watch at 5 Hz"),
                             ("page", "set by a page through POST /api/request; sent at once")):
                values = latencies[way]
                if values:
                    rows.append((f"web.events.latency.{way}",
                                 f"median {percentile(values, 0.5):.0f} ms, p95 {percentile(values, 0.95):.0f} ms",
                                 f"({len(values)} destinations {how})"))
                else:
                    rows.append((f"web.events.latency.{way}", "none", "(no event carried the destinations)"))
            for label, value in (("idle", idle), ("five_pages", five)):
                rows.append((f"web.rss.{label}", value, f"kB (aim <= {AIM_RSS_KB}: {'ok' if value <= AIM_RSS_KB else 'OVER AIM'})"))
            rows.append(("web.pss.idle", idle_pss, "kB (shared libraries counted by their share: libc, GnuTLS under libmicrohttpd)"))
            rows.append(("web.cpu.one_page", f"{web_share:.2f}", "% of a core (waypoint-web, one page following the events)"))
            rows.append(("web.cpu.daemon_with_page", f"{daemon_share:.2f}", f"% of a core (waypointd; {daemon_alone:.2f} % with no page)"))
        finally:
            for stream in streams:
                stream.close()
            if web:
                web.terminate()
                web.wait(timeout=10)
            daemon.terminate()
            daemon.wait(timeout=10)
    for row in rows:
        print(" ".join(str(part) for part in row))


if __name__ == "__main__":
    main()
