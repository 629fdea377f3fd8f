#!/usr/bin/env python3
"""The button's sentences on the phone page (issue 42), in Debian's headless Chromium: the
daemon says a sentence (a button press in its --simulate script), the page announces it in its
polite live region once per sentence, and a screen reader finds it there in the accessibility
tree (a status node, live polite, holding the words).

    said_test.py --pair-url URL --text SENTENCE --times N [--screenshots DIR]

Prints one line per check; exits 0 when all passed. Reuses browser_test.py's browser and page.
"""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as page_tools  # noqa: E402


def status_node_holds(driver, text):
    """Whether the accessibility tree has a live=polite status node whose subtree says `text`."""
    driver.execute_cdp_cmd("Accessibility.enable", {})
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {}).get("nodes", [])
    by_id = {node["nodeId"]: node for node in nodes}

    def words(node):
        name = str((node.get("name") or {}).get("value") or "")
        return name + " " + " ".join(words(by_id[child]) for child in node.get("childIds", []) if child in by_id)

    for node in nodes:
        if node.get("ignored") or (node.get("role") or {}).get("value") != "status":
            continue
        properties = {p.get("name"): (p.get("value") or {}).get("value") for p in node.get("properties") or []}
        if properties.get("live") == "polite" and text in words(node):
            return True
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair-url", required=True)
    parser.add_argument("--text", required=True, help="the sentence the daemon says")
    parser.add_argument("--times", type=int, required=True, help="how many times it is said while the page is open")
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    profile = tempfile.mkdtemp(prefix="said-test-")
    driver = None
    try:
        driver = page_tools.start_browser(profile)
        page = page_tools.Page(driver)
        driver.get(args.pair_url)
        if not page.wait(lambda: page.displayed("app") and not page.displayed("not-paired")):
            page_tools.fail("the pairing link did not open the page")
            return
        page.install_observer()
        said = lambda: [text for text in page.live_texts(region="status-region") if args.text in text]
        if page.wait(lambda: len(said()) >= 1, timeout=60):
            page_tools.ok("the button's sentence is announced in the polite region: %r" % said()[0])
        else:
            page_tools.fail("no %r in the polite region within 60 s; it said %r" % (args.text, page.live_texts()))
            return
        if status_node_holds(driver, args.text):
            page_tools.ok("a screen reader finds it: a status node, live polite, holding the sentence")
        else:
            page_tools.fail("no live=polite status node in the accessibility tree holds %r" % args.text)
        if args.screenshots:
            page.screenshot(args.screenshots, "said.png", "the button's sentence")
        # Each sentence once, however many STATUS lines carry it (the stream sends one at 5 Hz).
        page.wait(lambda: len(said()) >= args.times, timeout=60)
        extra = lambda: len(said()) > args.times
        page.wait(extra, timeout=3)
        (page_tools.fail if len(said()) != args.times else page_tools.ok)(
            "said %d times, announced %d times" % (args.times, len(said())))
    finally:
        if driver is not None:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
    page_tools.finish()
