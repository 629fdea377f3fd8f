#!/usr/bin/env python3
"""Real-browser tests of waypoint-web's phone page (headless Chromium at a phone's size).

Run by the Swift test WebCompanionTests against a running `waypointd --simulate` and `waypoint-web`:

    browser_test.py --base http://127.0.0.1:PORT --pair-url URL --socket /path/control.sock \
                    --screenshots DIR --gpx FILE --words Tests/ClientSupportTests/Data/words.tsv \
                    --daemon-pid PID --web-pid PID --web waypoint-web --web-args "--state-dir D --config F" \
                    --web-command JSON

The daemon is paused (SIGSTOP, SIGCONT) and waypoint-web stopped (SIGTERM) and started again
with --web-command on the same port, to see what the page says when either is gone; the
session is revoked at the end with `waypoint-web revoke`.

Prints one line per check, `ok: ...` or `FAIL: ...`, then a summary line, and exits 1 when any
check failed (a missing module, browser or driver is a failure, never a silent skip).

The pairing link is used once, so this script needs a fresh one. The daemon is asked for its
STATUS directly on the control socket, so every check that the page changed something is
checked against the daemon itself, not only against what the page shows.
"""

import argparse
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import xml.etree.ElementTree as ET

RESULTS = {"passed": 0, "failed": 0}


def ok(message):
    RESULTS["passed"] += 1
    print("ok: " + message, flush=True)


def fail(message):
    RESULTS["failed"] += 1
    print("FAIL: " + message, flush=True)


def finish():
    print("browser_test: %d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]), flush=True)
    sys.exit(1 if RESULTS["failed"] else 0)


try:
    from selenium import webdriver
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        NoSuchElementException,
        StaleElementReferenceException,
        TimeoutException,
        WebDriverException,
    )
    from selenium.webdriver.chrome.options import Options as ChromeOptions
    from selenium.webdriver.chrome.service import Service as ChromeService
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:  # pragma: no cover - reported, not skipped
    fail("the Python module selenium is missing (%s): pip install selenium axe-selenium-python" % error)
    finish()

try:
    from axe_selenium_python import Axe
except ImportError as error:  # pragma: no cover - reported, not skipped
    fail("the Python module axe_selenium_python is missing (%s): pip install axe-selenium-python" % error)
    finish()


# The phone: an iPhone 12-15 sized viewport.
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2}
WAIT = 15  # seconds, the longest any single wait may take

EIFFEL_LINK = ("https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2922926,17z/"
               "data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813")
EIFFEL = (48.8583701, 2.2944813)
LOUVRE_TEXT = "48.8606, 2.3376"
LOUVRE = (48.8606, 2.3376)
TOLERANCE = 1e-6

# Roles that are controls and must have an accessible name.
CONTROL_ROLES = {
    "button", "link", "textbox", "combobox", "checkbox", "slider", "menuitem", "switch",
    "listbox", "searchbox", "spinbutton", "radio",
}


# ---------------------------------------------------------------------------------------------
# The daemon's control socket


def daemon_request(socket_path, request, want_class, timeout=5.0):
    """Sends one request on a fresh connection and returns the first reply of class want_class
    (the daemon greets with VERSION first)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(socket_path)
        sock.sendall((json.dumps(request) + "\n").encode())
        buffer = b""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" not in buffer:
                if time.monotonic() > deadline:
                    raise TimeoutError("no %s reply from the daemon in %.0f s" % (want_class, timeout))
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the daemon closed the connection before its %s reply" % want_class)
                buffer += chunk
            line, buffer = buffer.split(b"\n", 1)
            if not line.strip():
                continue
            reply = json.loads(line)
            if reply.get("class") == want_class:
                return reply
            if reply.get("class") == "ERROR":
                raise RuntimeError("the daemon refused %s: %s" % (json.dumps(request), json.dumps(reply)))


def daemon_status(socket_path):
    return daemon_request(socket_path, {"cmd": "status"}, "STATUS")


def destination_is(status, where):
    destination = (status or {}).get("destination")
    if not destination:
        return False
    return (abs(destination.get("lat", 999) - where[0]) <= TOLERANCE
            and abs(destination.get("lon", 999) - where[1]) <= TOLERANCE)


def wait_for_status(socket_path, predicate, timeout=WAIT):
    """Polls the daemon's STATUS until predicate(status) holds; returns (held, last status)."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = daemon_status(socket_path)
            if predicate(last):
                return True, last
        except (OSError, ValueError, RuntimeError) as error:
            last = {"error": str(error)}
        if time.monotonic() > deadline:
            return False, last
        time.sleep(0.25)


def short(status):
    """The parts of a STATUS that matter in a failure message."""
    if not isinstance(status, dict):
        return repr(status)
    keys = ("state", "destination", "route", "error")
    return json.dumps({key: status.get(key) for key in keys if key in status})


# ---------------------------------------------------------------------------------------------
# The browser


def find_program(*candidates):
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
        found = shutil.which(candidate) if candidate else None
        if found:
            return found
    return None


def start_browser(profile_dir):
    chromium = find_program(os.environ.get("CHROMIUM"), "/usr/bin/chromium", "chromium",
                            "chromium-browser", "google-chrome")
    chromedriver = find_program(os.environ.get("CHROMEDRIVER"), "/usr/bin/chromedriver", "chromedriver")
    if not chromium:
        raise RuntimeError("no Chromium found (apt-get install chromium)")
    if not chromedriver:
        raise RuntimeError("no chromedriver found (apt-get install chromium-driver)")
    options = ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                     "--disable-background-networking", "--disable-sync", "--lang=en-US",
                     "--user-data-dir=" + profile_dir,
                     "--window-size=%d,%d" % (PHONE["width"], PHONE["height"])):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
        "width": PHONE["width"], "height": PHONE["height"],
        "pixelRatio": float(PHONE["deviceScaleFactor"]), "touch": True}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Never let Selenium Manager fetch a driver or browser: use Debian's.
    service = ChromeService(executable_path=chromedriver)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    return driver


class Page:
    """Helpers on the phone page."""

    def __init__(self, driver):
        self.driver = driver
        self.console = []

    def wait(self, condition, timeout=WAIT):
        """True once condition() is truthy, False after timeout seconds."""
        try:
            WebDriverWait(self.driver, timeout, poll_frequency=0.2,
                          ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                          ).until(lambda _driver: condition())
            return True
        except TimeoutException:
            return False

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def displayed(self, element_id):
        try:
            return self.element(element_id).is_displayed()
        except (NoSuchElementException, StaleElementReferenceException):
            return False

    def text(self, element_id):
        try:
            return self.driver.execute_script(
                "var e = document.getElementById(arguments[0]); return e ? (e.innerText || e.textContent || '') : null;",
                element_id)
        except WebDriverException:
            return None

    def reveal(self, element):
        """Opens every closed <details> around element and scrolls it to the middle of the screen."""
        self.driver.execute_script(
            "var e = arguments[0];"
            "for (var p = e; p; p = p.parentElement) {"
            "  if (p.tagName === 'DETAILS' && !p.open) p.open = true; }"
            "e.scrollIntoView({block: 'center', inline: 'nearest'});", element)
        self.settle()

    def settle(self):
        """Waits for two animation frames, so styles and layout are up to date."""
        self.driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "requestAnimationFrame(function () { requestAnimationFrame(function () { done(true); }); });")

    def click(self, element):
        """Clicks like a finger; if something covers the element, says what and clicks by script."""
        self.reveal(element)
        try:
            element.click()
            return None
        except ElementClickInterceptedException as error:
            self.driver.execute_script("arguments[0].click();", element)
            return str(error).splitlines()[0]

    def submit_box(self, text):
        """Types (or pastes) text into the one box and presses Enter."""
        box = self.element("box")
        self.reveal(box)
        box.clear()
        self.driver.execute_script(
            "var b = arguments[0]; b.value = ''; b.dispatchEvent(new Event('input', {bubbles: true}));", box)
        box.send_keys(text)
        box.send_keys(Keys.ENTER)

    def install_observer(self):
        """Records every text the live regions are given, with the time (ms), skipping the
        empty region an action starts with (the page may overwrite them soon after)."""
        return self.driver.execute_script(
            "if (!window.__wpLive) {"
            "  window.__wpLive = [];"
            "  ['status-region', 'alert-region'].forEach(function (id) {"
            "    var e = document.getElementById(id); if (!e) return;"
            "    var record = function () { var t = e.textContent || '';"
            "      if (t) window.__wpLive.push({id: id, text: t, t: Date.now()}); };"
            "    new MutationObserver(record).observe(e, {childList: true, characterData: true, subtree: true});"
            "  });"
            "}"
            "return window.__wpLive.length;")

    def live_entries(self, since=0, region=None):
        entries = self.driver.execute_script("return (window.__wpLive || []).slice(arguments[0]);", since) or []
        return [entry for entry in entries if region is None or entry["id"] == region]

    def live_texts(self, since=0, region=None):
        return [entry["text"] for entry in self.live_entries(since, region)]

    def latency(self, milliseconds):
        """Every request of the page takes `milliseconds` longer each way (CDP)."""
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": milliseconds, "downloadThroughput": -1, "uploadThroughput": -1})

    def near(self, first, second):
        """Vertical distance in CSS pixels between two elements' boxes (0 when they overlap)."""
        return self.driver.execute_script(
            "var a = arguments[0].getBoundingClientRect(), b = arguments[1].getBoundingClientRect();"
            "return Math.max(0, Math.max(a.top, b.top) - Math.min(a.bottom, b.bottom));", first, second)

    def button_named(self, container_id, pattern):
        """The first button in #container_id whose accessible name matches `pattern`."""
        for candidate in self.element(container_id).find_elements(By.CSS_SELECTOR, "button"):
            name = (candidate.accessible_name or candidate.text or "").strip()
            if re.search(pattern, name):
                return candidate
        return None

    def collect_console(self):
        try:
            self.console.extend(self.driver.get_log("browser"))
        except WebDriverException:
            pass

    def screenshot(self, directory, name, check_name):
        path = os.path.join(directory, name)
        self.settle()
        saved = self.driver.save_screenshot(path)
        if not saved or not os.path.isfile(path) or os.path.getsize(path) < 100:
            fail("%s: the screenshot %s could not be saved" % (check_name, path))
            return False
        with open(path, "rb") as png:
            header = png.read(24)
        width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
        ok("%s: %s saved (%d×%d px)" % (check_name, path, width, height))
        return True

    def set_viewport(self, width, height, scale):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": True})
        self.settle()


def axe_check(page, screen):
    """(h) axe-core finds nothing serious or critical on this screen."""
    try:
        axe = Axe(page.driver)
        axe.inject()
        results = axe.run()
    except WebDriverException as error:
        fail("(h) axe on the %s screen could not run: %s" % (screen, str(error).splitlines()[0]))
        return
    violations = results.get("violations", [])
    bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
    if not bad:
        minor = ", ".join(sorted("%s (%s)" % (v["id"], v.get("impact")) for v in violations)) or "none"
        ok("(h) axe on the %s screen: no serious or critical violation (minor ones: %s)" % (screen, minor))
        return
    for violation in bad:
        targets = []
        for node in violation.get("nodes", []):
            target = node.get("target")
            targets.append(" ".join(t if isinstance(t, str) else json.dumps(t) for t in (target or [])))
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            if summary:
                targets[-1] += " [%s]" % summary[:160]
        fail("(h) axe on the %s screen: %s, impact %s: %s; nodes: %s" % (
            screen, violation.get("id"), violation.get("impact"), violation.get("help", ""),
            "; ".join(targets)))


def describe_backend_node(driver, backend_id):
    try:
        node = driver.execute_cdp_cmd("DOM.describeNode", {"backendNodeId": backend_id})["node"]
    except (WebDriverException, KeyError, TypeError):
        return "backend node %s" % backend_id
    attributes = node.get("attributes") or []
    pairs = dict(zip(attributes[0::2], attributes[1::2]))
    text = node.get("localName") or node.get("nodeName", "?").lower()
    if pairs.get("id"):
        text += "#" + pairs["id"]
    if pairs.get("class"):
        text += "." + ".".join(pairs["class"].split())
    for key in ("type", "role", "href", "title"):
        if key in pairs:
            text += "[%s=%r]" % (key, pairs[key][:60])
    return text


def ax_names_check(page, screen, dump_directory=None):
    """(i) Every control in the accessibility tree has a name. With `dump_directory`, the tree as a
    screen reader walks it (role and name of each node that is not ignored, in document order)
    is written to ax-SCREEN.txt there, to be read by a person."""
    driver = page.driver
    try:
        driver.execute_cdp_cmd("Accessibility.enable", {})
        nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {}).get("nodes", [])
    except WebDriverException as error:
        fail("(i) the accessibility tree of the %s screen could not be read: %s" % (screen, str(error).splitlines()[0]))
        return
    if dump_directory:
        with open(os.path.join(dump_directory, "ax-%s.txt" % screen.replace(" ", "-")), "w") as dump:
            for node in nodes:
                role = str((node.get("role") or {}).get("value") or "")
                name = str((node.get("name") or {}).get("value") or "").strip()
                if not node.get("ignored") and role not in ("none", "generic", "InlineTextBox") and (name or role != "StaticText"):
                    dump.write("%s: %s\n" % (role, name))
    controls, unnamed = 0, []
    for node in nodes:
        if node.get("ignored"):
            continue
        role = str((node.get("role") or {}).get("value") or "").lower()
        if role not in CONTROL_ROLES:
            continue
        properties = {p.get("name"): (p.get("value") or {}).get("value") for p in node.get("properties") or []}
        if properties.get("hidden") is True:
            continue
        controls += 1
        name = str((node.get("name") or {}).get("value") or "").strip()
        if not name:
            unnamed.append("%s %s" % (role, describe_backend_node(driver, node.get("backendDOMNodeId"))))
    if controls == 0:
        fail("(i) the accessibility tree of the %s screen has no control at all (%d nodes)" % (screen, len(nodes)))
    elif unnamed:
        fail("(i) on the %s screen %d of %d controls have no accessible name: %s" % (
            screen, len(unnamed), controls, "; ".join(unnamed)))
    else:
        ok("(i) on the %s screen all %d controls in the accessibility tree have a name" % (screen, controls))


# ---------------------------------------------------------------------------------------------
# The checks, in order. Each returns True when the checks after it may rely on it.


def offset_point(lat, lon, meters, bearing_degrees):
    b = math.radians(bearing_degrees)
    return (lat + meters * math.cos(b) / 111320.0,
            lon + meters * math.sin(b) / (111320.0 * math.cos(math.radians(lat))))


class Run:
    def __init__(self, args, driver):
        self.args = args
        self.page = Page(driver)
        self.driver = driver
        self.paired = False
        self.started = []  # programs this script started (waypoint-web again), stopped at the end

    def check_not_paired(self):
        """(a) Before pairing, / shows the not-paired notice."""
        page = self.page
        self.driver.get(self.args.base.rstrip("/") + "/")
        if page.wait(lambda: page.displayed("not-paired")):
            ok("(a) before pairing, / shows #not-paired: %r" % (page.text("not-paired") or "").strip()[:120])
        else:
            fail("(a) before pairing, #not-paired is not visible on / within %d s" % WAIT)
        page.settle()
        axe_check(page, "not paired")
        ax_names_check(page, "not paired", self.args.screenshots)
        page.collect_console()

    def check_words(self):
        """(m) The page's words (words.js) read every row of the table waypointctl's are held to."""
        rows = []
        with open(self.args.words, encoding="utf-8") as table:
            for number, line in enumerate(table, 1):
                fields = line.rstrip("\n").split("\t")
                if line.startswith("#") or len(fields) != 3:
                    continue
                rows.append([number] + fields)
        if not rows:
            fail("(m) no rows in %s" % self.args.words)
            return
        self.driver.set_script_timeout(WAIT)
        said = self.driver.execute_async_script(
            "const [rows, done] = arguments;"
            "import('/words.js').then((w) => done(rows.map(([line, kind, input]) => {"
            "  const n = Number(input);"
            "  switch (kind) {"
            "    case 'distance': return w.formatDistance(n);"
            "    case 'compass': return w.compassName(n);"
            "    case 'whole-degrees': return String(w.wholeDegrees(n));"
            "    case 'dms': { const [lat, lon] = input.split(',').map(Number); return w.formatDMS(lat, lon); }"
            "    default: return 'no such kind ' + kind;"
            "  }"
            "}))).catch((e) => done('cannot import /words.js: ' + e));",
            rows)
        if not isinstance(said, list):
            fail("(m) %s" % said)
            return
        wrong = [(row, text) for row, text in zip(rows, said) if text != row[3]]
        for (number, kind, given, expected), text in wrong[:10]:
            fail("(m) words.js, line %d: %s %s reads %r, not %r" % (number, kind, given, text, expected))
        if not wrong:
            ok("(m) words.js reads all %d rows of %s as waypointctl does" % (len(rows), os.path.basename(self.args.words)))
        # (n8) The daemon's sentences that speak to a terminal, as the page says them: the
        # refusals as ControlError+Refusal.swift writes them.
        terminal = [
            'a place called "Home" exists already; replace it (place add --replace, or "replace":true), or pick another name',
            "no trail since guidance last started: it keeps one while it has a fix; try back --minutes N for an older one",
            "no route is loaded; load one with route load",
        ]
        spoken = self.driver.execute_async_script(
            "const [texts, done] = arguments;"
            "import('/words.js').then((w) => done(texts.map(w.phoneWords))).catch((e) => done(String(e)));", terminal)
        left = [text for text in (spoken if isinstance(spoken, list) else [str(spoken)])
                if re.search(r"--|\"replace\"|route load|waypointctl", text)]
        (fail if left or not isinstance(spoken, list) else ok)(
            "(n8) the daemon's terminal words, on the page: %s" % (left or spoken))

    def check_pairing(self):
        """(b) The pairing link lands on /, hides the notice and sets an HttpOnly, Strict cookie."""
        page, driver = self.page, self.driver
        pair = urllib.parse.urlsplit(self.args.pair_url)
        driver.get(self.args.pair_url)
        landed = lambda: urllib.parse.urlsplit(driver.current_url)
        if page.wait(lambda: landed().path == "/" and landed().netloc == pair.netloc):
            if landed().query:
                fail("(b) after pairing the address still has a query (the token?): %s" % driver.current_url)
            else:
                ok("(b) the pairing link lands on %s" % driver.current_url)
        else:
            fail("(b) the pairing link did not land on / within %d s (at %s)" % (WAIT, driver.current_url))
            return False
        if page.wait(lambda: not page.displayed("not-paired")):
            ok("(b) after pairing, #not-paired is hidden")
        else:
            fail("(b) after pairing, #not-paired is still visible: %r" % (page.text("not-paired") or "")[:120])
            return False
        cookies = driver.get_cookies()
        session = [c for c in cookies if c.get("httpOnly") and c.get("sameSite") == "Strict"]
        weak = [c for c in cookies if not (c.get("httpOnly") and c.get("sameSite") == "Strict")]
        visible = driver.execute_script("return document.cookie;") or ""
        if not session:
            fail("(b) no cookie is HttpOnly with SameSite=Strict; the cookies: %s" % json.dumps(
                [{k: c.get(k) for k in ("name", "httpOnly", "sameSite", "path")} for c in cookies]))
            return False
        if weak:
            fail("(b) cookies without HttpOnly and SameSite=Strict: %s" % json.dumps(
                [{k: c.get(k) for k in ("name", "httpOnly", "sameSite")} for c in weak]))
        leaked = [c["name"] for c in session if c["name"] + "=" in visible or (c.get("value") and c["value"] in visible)]
        if leaked:
            fail("(b) document.cookie shows the session cookie %s: %r" % (", ".join(leaked), visible))
        else:
            ok("(b) the session cookie %s is HttpOnly and SameSite=Strict, and document.cookie (%r) does not show it"
               % (", ".join(c["name"] for c in session), visible))
        return True

    def check_first_field(self):
        """(j) #box is the first text field of the page."""
        fields = self.driver.execute_script(
            "return Array.prototype.filter.call(document.querySelectorAll('input, textarea'), function (e) {"
            "  return e.tagName === 'TEXTAREA' || ['text', 'search', 'url'].indexOf(e.type) >= 0;"
            "}).map(function (e) { return e.id || e.name || e.outerHTML.slice(0, 80); });")
        if fields and fields[0] == "box":
            ok("(j) #box is the first text field of the page (of %d: %s)" % (len(fields), ", ".join(fields)))
        else:
            fail("(j) #box is not the first text field; in document order: %s" % (", ".join(fields or []) or "none"))

    def check_compass_moves(self):
        """(c) #heading-text changes while the simulated wearer turns.

        The simulated wearer only turns on the spot while there is a destination (standing still
        when idle), so a destination a quarter turn to the right of them is set on the socket
        first: they then turn for about 3 s at 30°/s."""
        page, socket_path = self.page, self.args.socket
        try:
            status = daemon_status(socket_path)
            fix = status.get("fix") or {}
            heading = (status.get("heading") or {}).get("true")
            if fix.get("lat") is not None and fix.get("lon") is not None:
                target = offset_point(fix["lat"], fix["lon"], 300, (heading or 0) + 90)
            else:
                target = (48.8530, 2.3499)
            daemon_request(socket_path, {"cmd": "go", "lat": round(target[0], 7), "lon": round(target[1], 7)}, "OK")
        except (OSError, ValueError, RuntimeError) as error:
            fail("(c) could not set a destination on the daemon's socket to make the wearer turn: %s" % error)
        if not page.displayed("compass"):
            fail("(c) #compass is not visible")
        seen = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            text = (page.text("heading-text") or "").strip()
            if text and text not in seen:
                seen.append(text)
            if len(seen) >= 2:
                break
            time.sleep(0.25)
        if len(seen) >= 2:
            ok("(c) the compass moves: #heading-text went %s" % " → ".join(repr(s) for s in seen))
        else:
            fail("(c) #heading-text did not change within 10 s (saw %s)" % (", ".join(repr(s) for s in seen) or "nothing"))
        page.collect_console()

    def check_link_destination(self):
        """(d) A Google Maps link pasted into the box sets the destination."""
        page = self.page
        start = page.install_observer()
        page.submit_box(EIFFEL_LINK)
        held, status = wait_for_status(self.args.socket, lambda s: destination_is(s, EIFFEL))
        if held:
            ok("(d) the Google Maps link set the daemon's destination to %s" % json.dumps(status["destination"]))
        else:
            fail("(d) after the Google Maps link, the daemon's destination is not %s within %d s: %s"
                 % (EIFFEL, WAIT, short(status)))
        mentions = lambda: [t for t in page.live_texts(start, "status-region") + [page.text("status-region") or ""]
                            if "eiffel" in t.lower()]
        if page.wait(lambda: mentions()):
            ok("(d) #status-region said %r" % mentions()[0].strip()[:160])
        else:
            fail("(d) #status-region never mentioned the Eiffel Tower; it said: %s" % (
                " | ".join(t.strip() for t in page.live_texts(start, "status-region")) or repr(page.text("status-region"))))
        # The page's own change is said once, by its answer: the STATUS that follows it comes
        # marked with the page's change id (X-Change-Id) and is not announced again.
        time.sleep(1.5)
        said = [t.strip() for t in page.live_texts(start, "status-region") if t.strip()]
        again = [t for t in said if t.lower().startswith("new destination")]
        if again:
            fail("(d) the page's own change was announced a second time: %s" % " | ".join(said))
        else:
            ok("(d) the change was said once, as the answer to the action: %s" % " | ".join(said)[:200])
        page.collect_console()
        return held

    def find_recent_eiffel(self):
        recent = self.page.element("recent-list")
        self.page.reveal(recent)
        for candidate in recent.find_elements(By.CSS_SELECTOR, "button, [role=button], a[href]"):
            name = (candidate.accessible_name or candidate.text or candidate.get_attribute("aria-label") or "").strip()
            if "eiffel" in name.lower() and not re.search(r"\b(remove|delete|forget|rename|edit|save)\b", name, re.I):
                return candidate, name
        return None

    def check_recent(self):
        """(e) A recent destination chosen from the list guides there again."""
        page = self.page
        start = page.install_observer()
        page.submit_box(LOUVRE_TEXT)
        held, status = wait_for_status(self.args.socket, lambda s: destination_is(s, LOUVRE))
        if held:
            ok("(e) typing %r set the daemon's destination to %s" % (LOUVRE_TEXT, json.dumps(status["destination"])))
        else:
            fail("(e) typing %r did not set the daemon's destination within %d s: %s" % (LOUVRE_TEXT, WAIT, short(status)))
            return
        # (n10) Confirmed as the readout shows positions: degrees, minutes, seconds.
        page.wait(lambda: any(t.startswith("Guiding to") for t in page.live_texts(start, "status-region")))
        said = [t for t in page.live_texts(start, "status-region") if t.startswith("Guiding to")]
        good = said and "48°51'38.2\"N 2°20'15.4\"E" in said[0] and "48.8606" not in said[0]
        (ok if good else fail)("(n10) the typed coordinates are confirmed as %r" % (said[:1] or ["nothing"])[0])
        # The list is drawn again once the new destination is in it, first: a click before
        # then may land on the item that moved into the button's place.
        first_named = lambda: [(b.accessible_name or "") for b in page.element("recent-list").find_elements(By.CSS_SELECTOR, "button")][:1]
        if not page.wait(lambda: first_named() == ["Go to Unnamed place (recent 1)"]):
            fail("(e) the typed destination is not first in the recent list: %s" % first_named())
        found = None
        if page.wait(lambda: self.find_recent_eiffel()):
            found = self.find_recent_eiffel()
        if not found:
            names = []
            try:
                names = [(b.accessible_name or b.text or "").strip()
                         for b in page.element("recent-list").find_elements(By.CSS_SELECTOR, "button, [role=button], a[href]")]
            except (NoSuchElementException, WebDriverException):
                pass
            fail("(e) no button in #recent-list names the Eiffel Tower within %d s; its buttons: %s" % (WAIT, names))
            return
        button, name = found
        covered = page.click(button)
        held, status = wait_for_status(self.args.socket, lambda s: destination_is(s, EIFFEL))
        if held:
            ok("(e) the recent button %r guides to the Eiffel Tower again%s" % (
                name, " (clicked by script: %s)" % covered if covered else ""))
        else:
            fail("(e) after the recent button %r, the daemon's destination is not %s within %d s: %s (alert %r, status %r, answers %s)"
                 % (name, EIFFEL, WAIT, short(status), page.text("alert-region"), page.text("status-region"),
                    self.driver.execute_script("return Array.from(document.querySelectorAll('.answer')).map(e => e.id + ': ' + e.textContent);")))
        page.collect_console()

    def main_screen(self):
        """main.png while guiding with the compass on screen; axe and names on the main screen."""
        page = self.page
        held, status = wait_for_status(self.args.socket, lambda s: s.get("state") == "guiding")
        if not held:
            fail("(k) the daemon is not guiding before main.png within %d s: %s" % (WAIT, short(status)))
        # The box's answer at the top, then the compass and its distance and direction below it.
        self.driver.execute_script(
            "var b = document.getElementById('box'); if (b) b.scrollIntoView({block: 'start'});")
        in_view = self.driver.execute_script(
            "var c = document.getElementById('compass'); if (!c) return false;"
            "var r = c.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;")
        if not in_view:
            try:
                page.reveal(page.element("compass"))
            except NoSuchElementException:
                pass
        if page.displayed("compass"):
            page.screenshot(self.args.screenshots, "main.png", "(k) main screen, guiding")
        else:
            fail("(k) #compass is not visible on the main screen")
        axe_check(page, "main")
        ax_names_check(page, "main", self.args.screenshots)
        page.collect_console()

    def places_screen(self):
        page = self.page
        try:
            places = page.element("places-list")
            page.reveal(places)
            recent = page.element("recent-list")
            page.reveal(recent)
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", recent)
        except NoSuchElementException as error:
            fail("(k) no #recent-list or #places-list: %s" % str(error).splitlines()[0])
            return
        page.screenshot(self.args.screenshots, "places.png", "(k) recent destinations and places")

    def gpx_route_name(self):
        try:
            root = ET.parse(self.args.gpx).getroot()
        except (ET.ParseError, OSError):
            return None
        for element in root.iter():
            if element.tag.rsplit("}", 1)[-1] == "name" and (element.text or "").strip():
                return element.text.strip()
        return None

    def check_route_upload(self):
        """(f) A GPX file uploaded from the page becomes the daemon's route."""
        page = self.page
        path = os.path.abspath(self.args.gpx)
        if not os.path.isfile(path):
            fail("(f) the GPX file %s does not exist" % path)
            return
        try:
            chooser = page.element("route-file")
            self.driver.execute_script(
                "for (var p = arguments[0]; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;", chooser)
            chooser.send_keys(path)
            covered = page.click(page.element("route-upload"))
        except (NoSuchElementException, WebDriverException) as error:
            fail("(f) could not choose and upload the GPX file: %s" % str(error).splitlines()[0])
            return
        held, status = wait_for_status(self.args.socket, lambda s: s.get("route") is not None)
        if not held:
            fail("(f) after uploading %s, the daemon's route is still null within %d s: %s" % (path, WAIT, short(status)))
            return
        route = status["route"]
        ok("(f) the uploaded GPX is the daemon's route: %s%s" % (
            json.dumps(route), " (clicked by script: %s)" % covered if covered else ""))
        name = (route.get("name") or self.gpx_route_name() or "").strip()
        if name:
            mentions = lambda: name.lower() in (page.text("route-text") or "").lower()
            wanted = "the route's name %r" % name
        else:
            mentions = lambda: str(route.get("count")) in (page.text("route-text") or "")
            wanted = "its %s waypoints" % route.get("count")
        if page.wait(mentions):
            ok("(f) #route-text mentions %s: %r" % (wanted, (page.text("route-text") or "").strip()[:160]))
        else:
            fail("(f) #route-text does not mention %s within %d s: %r" % (wanted, WAIT, page.text("route-text")))
        page.collect_console()

    def check_trail_download(self):
        """(g) The trail downloads as GPX with the browser's session, and the link points there."""
        page = self.page
        reply = self.driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "fetch('/api/trail.gpx', {credentials: 'same-origin'}).then(function (r) {"
            "  return r.text().then(function (t) { done({status: r.status, text: t,"
            "    type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition')}); });"
            "}).catch(function (e) { done({error: String(e)}); });")
        if reply.get("error") or reply.get("status") != 200:
            fail("(g) GET /api/trail.gpx with the page's session: %s" % json.dumps(reply)[:300])
        else:
            try:
                root = ET.fromstring(reply["text"].encode("utf-8"))
                local = root.tag.rsplit("}", 1)[-1]
                if local == "gpx":
                    points = sum(1 for e in root.iter() if e.tag.rsplit("}", 1)[-1] == "trkpt")
                    ok("(g) /api/trail.gpx is GPX (%d bytes, %d track points, %s, %s)" % (
                        len(reply["text"]), points, reply.get("type"), reply.get("disposition")))
                else:
                    fail("(g) /api/trail.gpx's root element is <%s>, not <gpx>" % root.tag)
            except ET.ParseError as error:
                fail("(g) /api/trail.gpx is not XML (%s): %r" % (error, reply["text"][:200]))
        try:
            link = page.element("trail-download")
            href = link.get_attribute("href") or ""
            if href.endswith("/api/trail.gpx"):
                ok("(g) #trail-download links to %s" % href)
            else:
                fail("(g) #trail-download's href %r does not end with /api/trail.gpx" % href)
        except NoSuchElementException:
            fail("(g) there is no #trail-download link")

    def search_screen(self):
        """The box with words: results, or (with no map imported) a message saying why not."""
        page = self.page
        start = page.install_observer()
        page.submit_box("bakery")
        answer = {}

        def answered():
            results = (page.text("results") or "").strip()
            if results and page.displayed("results"):
                answer["what"] = "#results: %r" % results[:120]
                return True
            for text in page.live_texts(start):
                if re.search(r"bakery|bakeries|map|search|found|place", text, re.I):
                    answer["what"] = "a live region: %r" % text.strip()[:120]
                    return True
            return False

        if page.wait(answered):
            ok("(h) searching for 'bakery' shows %s" % answer["what"])
        else:
            fail("(h) searching for 'bakery' showed nothing in #results or the live regions within %d s" % WAIT)
        self.driver.execute_script("window.scrollTo(0, 0);")
        try:
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", page.element("box"))
        except NoSuchElementException:
            pass
        page.screenshot(self.args.screenshots, "search.png", "(k) search")
        axe_check(page, "search")
        ax_names_check(page, "search", self.args.screenshots)
        page.collect_console()
        self.choose_first_result()

    def choose_first_result(self):
        """(h2) choosing the first result guides to it: the daemon's own first answer to the
        same search is the destination afterwards."""
        try:
            expected = daemon_request(self.args.socket, {"cmd": "search", "query": "bakery", "limit": 10}, "SEARCH")["results"]
        except RuntimeError as error:
            ok("(h2) no result to choose: the daemon has no map (%s)" % str(error)[:80])
            return
        if not expected:
            fail("(h2) the daemon found no bakery, so no result can be chosen")
            return
        buttons = self.driver.find_elements(By.CSS_SELECTOR, "#results button")
        if not buttons:
            fail("(h2) #results holds no button to choose")
            return
        # (h3) Issue 40: two unnamed bakeries read "Go to a bakery, 692 km southeast" alike. Each
        # button says whose the place is and where, as the daemon knows them.
        unsaid = []
        for result, button in zip(expected, buttons):
            text = button.text
            for part in [result.get("operator"), result.get("address") or
                         (result.get("near_street") and "near " + result["near_street"])]:
                if part and part not in text:
                    unsaid.append("%r lacks %r" % (text[:80], part))
        if unsaid:
            fail("(h3) results do not say what tells them apart: %s" % "; ".join(unsaid[:3]))
        else:
            ok("(h3) each of %d results says its operator and its address or street, as the daemon gave them" % len(buttons))
        buttons[0].click()
        where = (expected[0]["lat"], expected[0]["lon"])
        held, status = wait_for_status(self.args.socket, lambda s: destination_is(s, where))
        if held:
            ok("(h2) choosing the first result guides to it: %s" % json.dumps(status.get("destination")))
        else:
            fail("(h2) after choosing the first result the destination is %s, not %s"
                 % (json.dumps((status or {}).get("destination")), where))

    def zoom_screen(self):
        """200 % zoom: the same phone with a 195 CSS px wide viewport."""
        page = self.page
        page.set_viewport(PHONE["width"] // 2, PHONE["height"] // 2, PHONE["deviceScaleFactor"] * 2)
        try:
            self.driver.execute_script("window.scrollTo(0, 0);")
            axe_check(page, "200 % zoom")
            overflow = self.driver.execute_script(
                "var d = document.documentElement; return [d.scrollWidth, d.clientWidth];")
            if overflow[0] <= overflow[1] + 1:
                ok("(h) at 200 %% zoom the page reflows without scrolling sideways (%d px wide)" % overflow[1])
            else:
                fail("(h) at 200 %% zoom the page scrolls sideways: %d px of content in %d px" % tuple(overflow))
            page.screenshot(self.args.screenshots, "zoom200.png", "(k) 200 % zoom")
        finally:
            page.set_viewport(PHONE["width"], PHONE["height"], PHONE["deviceScaleFactor"])
        page.collect_console()

    def dark_screen(self):
        page = self.page
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        page.settle()
        dark = self.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches;")
        if not dark:
            fail("(h) the browser does not report prefers-color-scheme: dark")
        background = self.driver.execute_script(
            "return getComputedStyle(document.body).backgroundColor + ' / ' + getComputedStyle(document.documentElement).backgroundColor;")
        self.driver.execute_script("window.scrollTo(0, 0);")
        axe_check(page, "dark mode (background %s)" % background)
        page.screenshot(self.args.screenshots, "dark.png", "(k) dark mode")
        page.collect_console()

    def check_console(self):
        """The page broke no Content-Security-Policy rule and threw no uncaught error."""
        self.page.collect_console()
        bad = [entry.get("message", "") for entry in self.page.console
               if re.search(r"Content[ -]Security[ -]Policy|Uncaught", entry.get("message", ""), re.I)]
        if bad:
            for message in bad[:10]:
                fail("(l) the browser console: %s" % message[:300])
        else:
            ok("(l) no Content-Security-Policy violation or uncaught error in the console (%d messages)" % len(self.page.console))

    # ------------------------------------------------------------------------------------
    # Issue 38: what the page says when something is gone, what it does with quick taps,
    # where its answers go, and its words.

    def set_guiding_far(self, meters=2000):
        """A destination `meters` ahead of the wearer, so that the simulated wearer walks."""
        status = daemon_status(self.args.socket)
        fix = status.get("fix") or {}
        heading = (status.get("heading") or {}).get("true") or 0
        target = offset_point(fix.get("lat", 48.8556), fix.get("lon", 2.2986), meters, heading)
        daemon_request(self.args.socket, {"cmd": "go", "lat": round(target[0], 7), "lon": round(target[1], 7),
                                          "name": "Far test"}, "OK")
        return wait_for_status(self.args.socket, lambda s: s.get("state") == "guiding")[0]

    def distance_said(self, texts):
        return [t for t in texts if re.search(r"^\d+(\.\d+)? k?m, ", t.strip())]

    def check_daemon_gone(self):
        """(n1) With the daemon gone, every live value reads Unknown and nothing periodic is
        said; Where am I says so in a phone's words; its return is said once."""
        page, driver = self.page, self.driver
        if not self.set_guiding_far():
            fail("(n1) the daemon is not guiding before it is paused")
        Select(page.element("announce-interval")).select_by_value("10")
        page.wait(lambda: (page.text("distance-text") or "Unknown") != "Unknown")
        start = page.install_observer()
        os.kill(self.args.daemon_pid, signal.SIGSTOP)
        try:
            down = page.wait(lambda: "not answering" in (page.text("state-text") or ""), timeout=20)
            if not down:
                fail("(n1) 20 s after the daemon stopped, the state still reads %r" % page.text("state-text"))
            page.click(page.element("where-button"))
            page.wait(lambda: "Asking" not in (page.text("where-text") or ""), timeout=15)
            where = (page.text("where-text") or "").strip()
            expect_words = "navigation service on the Pi is not answering" in where and not re.search(r"sock|waypointd running", where)
            (ok if expect_words else fail)("(n1) Where am I, with the daemon gone, says %r" % where)
            marked = page.install_observer()
            time.sleep(22)  # two periods of the 10 s announcement
            values = {key: (page.text(key) or "").strip() for key in ("distance-text", "direction-text", "heading-text")}
            said = self.distance_said(page.live_texts(marked))
            if all(value == "Unknown" for value in values.values()) and not said:
                ok("(n1) with the daemon gone for 22 s: %s, and no distance said" % values)
            else:
                fail("(n1) with the daemon gone: %s; said meanwhile: %s" % (values, said))
        finally:
            os.kill(self.args.daemon_pid, signal.SIGCONT)
        back = page.wait(lambda: "not answering" not in (page.text("state-text") or ""), timeout=20)
        time.sleep(3)
        returns = [t for t in page.live_texts(start) if "answering again" in t]
        if back and len(returns) == 1:
            ok("(n1) the daemon's return is said once: %r" % returns[0])
        else:
            fail("(n1) after the daemon came back (state %r), its return was said %d times: %s"
                 % (page.text("state-text"), len(returns), page.live_texts(start)))
        where = (page.text("where-text") or "").strip()
        (fail if "not answering" in where else ok)("(n1) once it answers, Where am I's paragraph reads %r" % where)
        Select(page.element("announce-interval")).select_by_value("0")

    def check_web_gone(self):
        """(n1) With waypoint-web stopped, the page says the connection is lost, reads every
        value as Unknown and says no distance; started again, its return is said once, and
        not cut short by the next message."""
        page = self.page
        if not self.set_guiding_far():
            fail("(n1) the daemon is not guiding before waypoint-web is stopped")
        Select(page.element("announce-interval")).select_by_value("10")
        page.wait(lambda: (page.text("distance-text") or "Unknown") != "Unknown")
        start = page.install_observer()
        os.kill(self.args.web_pid, signal.SIGTERM)
        for _ in range(100):
            try:
                os.kill(self.args.web_pid, 0)
            except OSError:
                break
            time.sleep(0.1)
        time.sleep(22)
        values = {key: (page.text(key) or "").strip() for key in ("state-text", "distance-text", "heading-text")}
        said = self.distance_said(page.live_texts(start))
        if values["distance-text"] == "Unknown" and values["heading-text"] == "Unknown" \
                and not values["state-text"].startswith("Guiding") and not said:
            ok("(n1) with waypoint-web stopped for 22 s: %s, and no distance said" % values)
        else:
            fail("(n1) with waypoint-web stopped: %s; said meanwhile: %s" % (values, said))
        restarted = subprocess.Popen(json.loads(self.args.web_command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.started.append(restarted)
        again = page.wait(lambda: page.live_texts(start, "status-region").count("Connected to the Pi again.") >= 1, timeout=30)
        time.sleep(4)
        entries = page.live_entries(start, "status-region")
        returns = [e for e in entries if e["text"] == "Connected to the Pi again."]
        if not again or len(returns) != 1:
            fail("(n1) after waypoint-web came back, 'Connected to the Pi again.' was said %d times: %s"
                 % (len(returns), [e["text"] for e in entries]))
        else:
            after = [e for e in entries if e["t"] > returns[0]["t"]]
            gap = (after[0]["t"] - returns[0]["t"]) / 1000.0 if after else None
            if gap is None or gap >= 1.5:
                ok("(n1) the return is said once, and stays %s before the next message"
                   % ("%.1f s" % gap if gap is not None else "until now"))
            else:
                fail("(n1) 'Connected to the Pi again.' was replaced by %r %.2f s later" % (after[0]["text"], gap))
        Select(page.element("announce-interval")).select_by_value("0")

    def check_swapped_coordinates(self):
        """(n2) Coordinates typed longitude first are not set: both readings are offered, and
        the one chosen is set."""
        page = self.page
        before = daemon_status(self.args.socket).get("destination")
        page.submit_box("2.2945 48.8584")
        if page.wait(lambda: "latitude first" in (page.text("box-error") or "")):
            ok("(n2) '2.2945 48.8584' in Paris is answered beside the box: %r" % (page.text("box-error") or "").strip()[:160])
        else:
            fail("(n2) '2.2945 48.8584' gave no answer about the order beside the box: %r, status %r"
                 % (page.text("box-error"), page.text("status-region")))
        time.sleep(2.5)
        now = daemon_status(self.args.socket).get("destination")
        if destination_is({"destination": now}, (2.2945, 48.8584)):
            fail("(n2) the destination was set 6790 km away: %s" % json.dumps(now))
        else:
            ok("(n2) nothing was set (the destination is still %s)" % json.dumps((now or {}).get("name") or now))
        still = (page.text("box-error") or "")
        (ok if "latitude first" in still else fail)("(n2) 2.5 s later the answer is still beside the box: %r" % still.strip()[:80])
        choice = page.button_named("box-error", r"^Go to 48°51'30\.2\"N")
        if choice is None:
            fail("(n2) no button offers 48°51'30.2\"N 2°17'40.2\"E")
            return
        page.click(choice)
        held, status = wait_for_status(self.args.socket, lambda s: destination_is(s, (48.8584, 2.2945)))
        (ok if held else fail)("(n2) the offered reading, chosen, is the destination: %s" % short(status))

    def check_quick_taps(self):
        """(n3) With 150 ms of latency, two quick taps on the recent list do what was tapped:
        the place tapped last is the destination, and the two places removed are the two
        tapped. One of the five has no name: its buttons are not named in degrees."""
        page, socket_path = self.page, self.args.socket
        places = [(48.8600 + 0.001 * i, 2.2950 + 0.001 * i) for i in range(5)]
        for i, (lat, lon) in enumerate(places):
            request = {"cmd": "go", "lat": lat, "lon": lon}
            if i != 2:
                request["name"] = "Tap %d" % (i + 1)
            daemon_request(socket_path, request, "OK")
        self.driver.refresh()
        page.wait(lambda: len(page.element("recent-list").find_elements(By.CSS_SELECTOR, "button")) >= 10)
        names = [(b.accessible_name or "").strip() for b in page.element("recent-list").find_elements(By.CSS_SELECTOR, "button")]
        degrees = [n for n in names if "°" in n]
        (fail if degrees else ok)("(n3) the recent list's buttons: %s" % names[:4] + (" (named in degrees: %s)" % degrees if degrees else ""))
        page.latency(150)
        try:
            def recent_buttons(kind):
                return [b for b in page.element("recent-list").find_elements(By.CSS_SELECTOR, "button")
                        if (b.accessible_name or "").startswith(kind)]

            def place_of(button_element):
                item = button_element.find_element(By.XPATH, "./ancestor::li[1]")
                span = item.find_element(By.CSS_SELECTOR, ".item-distance")
                return float(span.get_attribute("data-lat")), float(span.get_attribute("data-lon"))

            # 150 ms apart, then with no gap at all (both clicks in one script), four times.
            wrong = []
            for attempt, (first, second, gap) in enumerate([(4, 2, 0.15), (4, 1, 0), (3, 0, 0), (2, 4, 0), (1, 3, 0)]):
                page.wait(lambda: len(recent_buttons("Go to")) == 5)
                buttons = recent_buttons("Go to")
                expected = place_of(buttons[second])
                if gap:
                    buttons[first].click()
                    time.sleep(gap)
                    buttons[second].click()
                else:
                    self.driver.execute_script("arguments[0].click(); arguments[1].click();", buttons[first], buttons[second])
                held, status = wait_for_status(socket_path, lambda s: destination_is(s, expected), timeout=5)
                time.sleep(1.0)  # both answers in, the list drawn again
                status = daemon_status(socket_path)
                if not destination_is(status, expected):
                    wrong.append("try %d: tapped #%d then #%d %s, the destination is %s"
                                 % (attempt + 1, first + 1, second + 1, expected, json.dumps(status.get("destination"))))
            (fail if wrong else ok)("(n3) quick taps on Go to: %s" % ("; ".join(wrong) if wrong else "5 of 5 guided to the place tapped last"))
            page.wait(lambda: len(recent_buttons("Remove")) == 5)
            removes = recent_buttons("Remove")
            tapped = [place_of(removes[1]), place_of(removes[3])]
            start = page.install_observer()
            self.driver.execute_script("arguments[0].click(); arguments[1].click();", removes[1], removes[3])
            time.sleep(3)
            left = [(d["lat"], d["lon"]) for d in daemon_request(socket_path, {"cmd": "recent"}, "RECENT")["destinations"]]
            gone = [p for p in tapped if any(abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for q in left)]
            said = [t for t in page.live_texts(start) if "removed" in t]
            if not gone and len(left) == 3:
                ok("(n3) removing #2 and #4 at once removed those two; said: %s" % said)
            else:
                fail("(n3) removing #2 and #4 at once left %s (the tapped %s still there: %s); said: %s" % (left, tapped, gone, said))
        finally:
            page.latency(0)

    def check_answers_beside(self):
        """(n7, n8) A refused Save this spot is answered under its field, marked invalid,
        with Hold still gone; a rename to a name taken is answered under its field, in a
        phone's words."""
        page, driver = self.page, self.driver
        if not self.set_guiding_far():
            fail("(n7) the wearer is not guided")
        # The simulated wearer turns to face the destination, then walks: wait for the walk.
        def moved():
            first = (daemon_status(self.args.socket).get("fix") or {})
            time.sleep(2)
            second = (daemon_status(self.args.socket).get("fix") or {})
            if first.get("lat") is None or second.get("lat") is None:
                return False
            return math.hypot((second["lat"] - first["lat"]) * 111320,
                              (second["lon"] - first["lon"]) * 111320 * math.cos(math.radians(first["lat"]))) >= 2
        if not page.wait(moved, timeout=30):
            fail("(n7) the simulated wearer did not walk within 30 s")
        field = page.element("mark-name")
        page.reveal(field)
        field.clear()
        field.send_keys("Walking spot")
        page.click(page.element("mark-button"))
        if not page.wait(lambda: (page.text("mark-error") or "").strip() != "", timeout=15):
            fail("(n7) Save this spot while walking: no error under the field within 15 s (status %r, alert %r)"
                 % (page.text("status-region"), page.text("alert-region")))
        else:
            error = page.element("mark-error")
            invalid = field.get_attribute("aria-invalid")
            described = (field.get_attribute("aria-describedby") or "").split()
            gap = page.near(error, page.element("mark-button"))
            beside = (page.text("mark-button-answer") or "")
            good = invalid == "true" and "mark-error" in described and gap < 120 and "Hold still" not in beside
            (ok if good else fail)("(n7) Save this spot while walking: %r under the field (%d px from the button), "
                                   "aria-invalid %s, described by %s, beside the button %r"
                                   % (page.text("mark-error").strip()[:100], gap, invalid, described, beside))
        daemon_request(self.args.socket, {"cmd": "place", "action": "add", "name": "Alpha", "lat": 48.857, "lon": 2.299}, "OK")
        daemon_request(self.args.socket, {"cmd": "place", "action": "add", "name": "Beta", "lat": 48.858, "lon": 2.300}, "OK")
        driver.refresh()
        page.wait(lambda: page.button_named("places-list", r"^Rename Alpha$") is not None)
        rename = page.button_named("places-list", r"^Rename Alpha$")
        if rename is None:
            fail("(n7) no Rename Alpha button")
            return
        page.click(rename)
        item = rename.find_element(By.XPATH, "./ancestor::li[1]")
        field = item.find_element(By.CSS_SELECTOR, "input[type=text]")
        field.clear()
        field.send_keys("Beta")
        page.click(item.find_element(By.CSS_SELECTOR, "button[type=submit]"))
        error_id = field.get_attribute("id") + "-error"
        if not page.wait(lambda: (page.text(error_id) or "").strip() != ""):
            fail("(n7) renaming Alpha to Beta: no error under its field (alert %r)" % page.text("alert-region"))
            return
        text = page.text(error_id).strip()
        gap = page.near(page.element(error_id), field)
        terminal = re.search(r"--replace|\"replace\"|waypointctl", text)
        good = field.get_attribute("aria-invalid") == "true" and gap < 80 and not terminal
        (ok if good else fail)("(n7, n8) renaming Alpha to Beta: %r under the field (%d px)" % (text, gap))

    def check_calibration_words(self):
        """(n8, n9) Finishing a calibration at once is refused in the page's own words for
        the directions; the answer to Cancel stays while it is read."""
        page = self.page
        page.click(page.element("calibrate-start"))
        # Enough samples for a fit, all from a wearer turning level: directions are missing.
        samples = lambda: int((re.search(r"Collecting: (\d+) samples", page.text("calibrate-text") or "") or [0, 0])[1])
        if not page.wait(lambda: samples() >= 160, timeout=40):
            fail("(n8) only %d calibration samples after 40 s" % samples())
        page.click(page.element("calibrate-finish"))
        answer = lambda: (page.text("calibrate-finish-answer") or "").strip()
        if page.wait(lambda: answer() != ""):
            octants = re.findall(r"\b(?:forward|back)-(?:left|right)-(?:up|down)\b", answer())
            good = not octants and "still to do" in answer()
            (ok if good else fail)("(n8) Finish with directions missing is answered beside it: %r" % answer()[:200])
        else:
            fail("(n8) Finish at once: nothing beside the button (alert %r)" % page.text("alert-region"))
        start = page.install_observer()
        page.click(page.element("calibrate-cancel"))
        page.wait(lambda: page.live_texts(start, "status-region"))
        time.sleep(3)
        said = page.live_entries(start, "status-region")
        if said and len(said) == 1:
            ok("(n9) Cancel's answer %r stayed for 3 s" % said[0]["text"])
        elif said:
            gap = (said[1]["t"] - said[0]["t"]) / 1000.0
            (ok if gap >= 2.0 else fail)("(n9) Cancel's answer %r was followed %.2f s later by %r" % (said[0]["text"], gap, said[1]["text"]))
        else:
            fail("(n9) Cancel said nothing")

    def check_said_once(self):
        """(n9) A search with no result is said once."""
        page = self.page
        start = page.install_observer()
        page.submit_box("zzzzqqq")
        page.wait(lambda: any("zzzzqqq" in t for t in page.live_texts(start)))
        time.sleep(3)
        said = [t for t in page.live_texts(start) if "zzzzqqq" in t]
        (ok if len(said) == 1 else fail)("(n9) 'zzzzqqq' found nothing, said %d times: %s" % (len(said), said))

    def check_offline_map(self):
        """(n10) With the tile server out of reach, the open map says why it is grey."""
        page, driver = self.page, self.driver
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*tile.openstreetmap.org*"]})
        try:
            toggle = page.element("map-toggle")
            if not toggle.is_displayed():
                fail("(n10) the map cannot be opened (no Leaflet?)")
                return
            page.click(toggle)
            if page.wait(lambda: page.displayed("map-offline")):
                ok("(n10) with no tile server, under the map: %r" % page.text("map-offline").strip()[:140])
            else:
                fail("(n10) with no tile server, the map says nothing about it")
            page.click(toggle)
        finally:
            driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})

    def check_revoked(self):
        """(n4) Revoking the page's session stops its updates at once and shows the notice."""
        page = self.page
        listed = subprocess.run([self.args.web, "sessions", "--json"] + self.args.web_args.split(),
                                capture_output=True, text=True, timeout=30)
        phones = [s for s in json.loads(listed.stdout or "[]") if s.get("kind") == "phone"]
        if len(phones) != 1:
            fail("(n4) expected the browser's one phone session, found %s" % phones)
            return
        self.set_guiding_far()
        revoked = subprocess.run([self.args.web, "revoke", phones[0]["id"]] + self.args.web_args.split(),
                                 capture_output=True, text=True, timeout=30)
        start = time.monotonic()
        if revoked.returncode != 0:
            fail("(n4) waypoint-web revoke exited %d: %s" % (revoked.returncode, revoked.stderr))
            return
        shown = page.wait(lambda: page.displayed("not-paired"), timeout=15)
        seconds = time.monotonic() - start
        heading = page.text("heading-text")
        time.sleep(2)
        still = page.text("heading-text") == heading
        if shown and seconds <= 8 and still:
            ok("(n4) after the revoke the page shows #not-paired in %.1f s and no longer updates" % seconds)
        else:
            fail("(n4) after the revoke: #not-paired %s after %.1f s; the heading %s"
                 % ("shown" if shown else "not shown", seconds, "stopped" if still else "still changes"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="waypoint-web's address, e.g. http://127.0.0.1:8740")
    parser.add_argument("--pair-url", required=True, help="a fresh pairing link")
    parser.add_argument("--socket", required=True, help="the daemon's control socket")
    parser.add_argument("--screenshots", required=True, help="the directory for the screenshots")
    parser.add_argument("--gpx", required=True, help="a GPX route to upload")
    parser.add_argument("--words", required=True, help="the table of words both clients share (words.tsv)")
    parser.add_argument("--daemon-pid", required=True, type=int, help="the daemon's process id (paused and resumed)")
    parser.add_argument("--web-pid", required=True, type=int, help="waypoint-web's process id (stopped, then started again)")
    parser.add_argument("--web-command", required=True, help="waypoint-web's command line, as a JSON list, to start it again")
    parser.add_argument("--web", required=True, help="the waypoint-web program, for sessions and revoke")
    parser.add_argument("--web-args", required=True, help="the options its commands need (--state-dir, --config)")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)

    try:
        daemon_status(args.socket)
        ok("the daemon answers status on %s" % args.socket)
    except (OSError, ValueError, RuntimeError) as error:
        fail("the daemon does not answer status on %s: %s" % (args.socket, error))

    profile = tempfile.mkdtemp(prefix="waypoint-web-chromium-")
    driver = None
    run = None
    try:
        try:
            driver = start_browser(profile)
        except (RuntimeError, WebDriverException) as error:
            fail("could not start headless Chromium: %s" % str(error).splitlines()[0])
            return
        run = Run(args, driver)
        steps = [
            ("(a) not paired", run.check_not_paired, False),
            ("(m) words", run.check_words, False),
            ("(b) pairing", run.check_pairing, True),
            ("(j) first field", run.check_first_field, False),
            ("(c) compass", run.check_compass_moves, False),
            ("(d) link", run.check_link_destination, False),
            ("(e) recent", run.check_recent, False),
            ("main screen", run.main_screen, False),
            ("places screen", run.places_screen, False),
            ("(f) route upload", run.check_route_upload, False),
            ("(g) trail download", run.check_trail_download, False),
            ("search screen", run.search_screen, False),
            ("200 % zoom", run.zoom_screen, False),
            ("dark mode", run.dark_screen, False),
            ("(n2) swapped coordinates", run.check_swapped_coordinates, False),
            ("(n9) said once", run.check_said_once, False),
            ("(n3) quick taps", run.check_quick_taps, False),
            ("(n7) answers beside", run.check_answers_beside, False),
            ("(n8) calibration words", run.check_calibration_words, False),
            ("(n10) offline map", run.check_offline_map, False),
            ("(n1) daemon gone", run.check_daemon_gone, False),
            ("(n1) waypoint-web gone", run.check_web_gone, False),
            ("(l) console", run.check_console, False),
            ("(n4) revoked", run.check_revoked, False),
        ]
        paired = True
        for index, (name, step, needed) in enumerate(steps):
            if not paired and index > 1:
                fail("%s: not run, since pairing failed" % name)
                continue
            try:
                result = step()
                if needed and result is not True:
                    paired = False
            except Exception as error:  # a broken step is a failure, and the others still run
                fail("%s: %s: %s" % (name, type(error).__name__, str(error).splitlines()[0] if str(error) else ""))
                if needed:
                    paired = False
    finally:
        for program in (run.started if run is not None else []):
            program.terminate()
            try:
                program.wait(10)
            except subprocess.TimeoutExpired:
                program.kill()
        if driver is not None:
            try:
                driver.quit()
            except Exception as error:
                print("note: the driver did not quit cleanly: %s" % error, flush=True)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        fail("interrupted")
    finish()
