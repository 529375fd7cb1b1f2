"""The Voter live results page (bench/voter/web) in a real headless Chromium.

Starts a Voter server on free loopback ports with --web-root bench/voter/web,
opens the page in headless Chromium driven through the DevTools protocol,
puts a fixed-rate load on the server with NetworkVoterBenchmark, and checks:

  1. while votes arrive, the displayed total grows between two reads of the
     same page (it refreshes itself) and TPS is above 0;
  2. once the load has stopped, every contestant's displayed votes and name,
     the total and the sum of the map's tiles equal the database's (Results,
     read over HTTP), and TPS falls to 0; a screenshot is saved;
  3. with the server stopped, the error banner appears and the last figures
     stay; with a new server on the same ports it disappears by itself, and
     a database with contestants but no votes shows zeros (no NaN, no
     "undefined"); one vote sent over HTTP then shows on the page and the map;
  4. the page threw no uncaught JavaScript exception.

Everything started here is stopped in a finally block, also on SIGTERM
(the wrapper's time bound) and Ctrl-C. Exits 0 when every check passes, 1 on
a failed check, 2 when a prerequisite (Chromium, the built jars) is missing.
"""

import argparse
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the test in the source tree
from devtools import DevTools, DevToolsError  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VOTER = os.path.join(ROOT, "bench", "voter")
NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,Jessie Eichman"
READY = re.compile(r"partita: ready: client port [\d.]+:(\d+), HTTP port [\d.]+:(\d+)")

# Everything the checks read from the page, in one evaluation.
READ_PAGE = """(() => {
  const q = (selector) => document.querySelector(selector);
  if (!q('#total-votes')) {
    return {status: 'not loaded', refreshes: 0, total: '', tps: '', bannerHidden: true, bannerText: '',
            rows: [], tiles: [], text: ''};
  }
  return {
    status: document.body.dataset.status,
    refreshes: Number(document.body.dataset.refreshes),
    total: q('#total-votes').dataset.value,
    tps: q('#tps').dataset.value,
    bannerHidden: q('#error-banner').hidden,
    bannerText: q('#error-banner').textContent.trim(),
    rows: [...document.querySelectorAll('#standings-body tr[data-contestant]')].map((row) => ({
      number: Number(row.dataset.contestant), name: row.dataset.name, votes: Number(row.dataset.votes),
      share: row.querySelector('.share').textContent})),
    tiles: [...document.querySelectorAll('#state-map .tile')].map((tile) => ({
      state: tile.dataset.state, votes: Number(tile.dataset.votes), leader: tile.dataset.leader})),
    text: document.body.innerText,
  };
})()"""


class Failure(Exception):
    """A check failed; the message says which and what was seen."""


class Prerequisite(Exception):
    """Something the test needs is missing from the machine."""


def main():
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("voter page test: stopped by SIGTERM (time bound?)"))
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="partita-voter-page-")
    processes = {}
    browser = None
    try:
        chromium = find_chromium()
        java_classpath()
        server = start_server(processes, work, "server", 0, 0)
        browser = open_browser(processes, work, chromium)
        run_checks(args, processes, work, server, browser)
        print(f"voter page test: passed in {time.monotonic() - started:.1f} s; screenshot {args.screenshot}")
        return 0
    except Prerequisite as missing:
        print(f"voter page test: FAILED, missing prerequisite: {missing}", file=sys.stderr)
        return 2
    except (Failure, DevToolsError, OSError) as failure:
        print(f"voter page test: FAILED: {failure}", file=sys.stderr)
        print_server_logs(work)
        return 1
    finally:
        if browser is not None:
            browser.close()
        for name in reversed(list(processes)):
            stop(processes[name])
        shutil.rmtree(work, ignore_errors=True)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=int, default=2000, help="Vote calls per second of the load (default 2000)")
    parser.add_argument("--seconds", type=float, default=8, help="measured seconds of the load, after a warm-up of a quarter of that (default 8)")
    parser.add_argument("--screenshot", default=os.path.join(VOTER, "results", "voter-page.png"),
                        help="where to save the page's screenshot (default bench/voter/results/voter-page.png)")
    parser.add_argument("--outage-screenshot", help="also save a screenshot of the page while the server is down")
    return parser.parse_args()


def run_checks(args, processes, work, server, browser):
    client_port, http_port = server
    url = f"http://127.0.0.1:{http_port}/"
    browser.call("Page.navigate", url=url)
    page = wait_for(browser, "the page to show the server live", lambda p: p["status"] == "live", 15)
    processes["load"] = start_load(work, client_port, args)

    first = wait_for(browser, "votes on the page", lambda p: int(p["total"] or 0) > 0, 15)
    time.sleep(1.5)
    second = read(browser)
    expect(int(second["total"]) > int(first["total"]),
           f"displayed total did not grow while votes arrived: {first['total']} then {second['total']}")
    expect(second["refreshes"] >= first["refreshes"] + 2,
           f"the page refreshed {second['refreshes'] - first['refreshes']} time(s) in 1.5 s; expected every 400 ms")
    expect(int(second["tps"] or 0) > 0, f"TPS shows {second['tps']!r} while votes arrive")
    print(f"voter page test: under load the page showed {first['total']} then {second['total']} votes, "
          f"TPS {second['tps']}")

    finish_load(processes.pop("load"), args)
    settled = after_refreshes(browser, 9)  # the TPS window (2 s) has then passed
    check_against_database(settled, http_port)
    print(f"voter page test: after the load the page equals Results: {settled['total']} votes, "
          f"{len(settled['rows'])} contestants, {sum(1 for t in settled['tiles'] if t['votes'])} states")
    save_screenshot(browser, args.screenshot)

    check_outage_and_recovery(processes, work, browser, server, settled, args.outage_screenshot)
    expect(not browser.exceptions, f"the page threw: {browser.exceptions}")


def check_against_database(page, http_port):
    standings = call(http_port, "Results")["results"][0]["data"]
    database = {number: (name, votes) for name, number, votes in standings}
    total = sum(votes for _, votes in database.values())
    shown = {row["number"]: row for row in page["rows"]}
    expect(len(shown) == 6, f"the page lists {len(shown)} contestants, expected 6: {sorted(shown)}")
    for number, (name, votes) in database.items():
        expect(number in shown, f"contestant {number} ({name}) of Results is not on the page")
        expect(shown[number]["votes"] == votes,
               f"contestant {number}: the page shows {shown[number]['votes']} votes, Results {votes}")
        expect(shown[number]["name"] == name, f"contestant {number}: the page names {shown[number]['name']!r}, Results {name!r}")
    for number, row in shown.items():
        expect(number in database or row["votes"] == 0, f"contestant {number} shows {row['votes']} votes, Results has none")
    expect(int(page["total"]) == total, f"the page's total is {page['total']}, Results add up to {total}")
    tiles = sum(tile["votes"] for tile in page["tiles"])
    expect(tiles == total, f"the map's tiles add up to {tiles} votes, Results to {total}")
    expect(len(page["tiles"]) == 51, f"the map has {len(page['tiles'])} tiles, expected 51 (50 states and DC)")
    expect(page["tps"] == "0", f"TPS shows {page['tps']!r} after the load stopped; expected 0")
    expect(page["bannerHidden"], f"error banner shown while the server is up: {page['bannerText']}")
    expect_clean_text(page)


def check_outage_and_recovery(processes, work, browser, server, before, screenshot):
    client_port, http_port = server
    stop(processes.pop("server"))
    down = wait_for(browser, "the error banner", lambda p: not p["bannerHidden"] and p["status"] == "offline", 10)
    expect("Cannot reach the Partita server" in down["bannerText"], f"banner says {down['bannerText']!r}")
    expect(down["total"] == before["total"], f"the total changed to {down['total']!r} while the server was down")
    print(f"voter page test: server stopped; banner: {down['bannerText'][:80]}...")
    if screenshot:
        save_screenshot(browser, screenshot)

    start_server(processes, work, "server-again", client_port, http_port)
    empty = wait_for(browser, "the page to recover", lambda p: p["bannerHidden"] and p["status"] == "live", 15)
    expect(empty["total"] == "0" and not empty["rows"], f"a new empty database shows total {empty['total']} and rows {empty['rows']}")
    expect("No contestants yet" in empty["text"], "no 'No contestants yet' line for a database without contestants")

    call(http_port, "Initialize", [6, NAMES])
    zeros = wait_for(browser, "6 contestants without votes", lambda p: len(p["rows"]) == 6, 5)
    expect(all(row["votes"] == 0 and row["share"] == "0.0%" for row in zeros["rows"]),
           f"contestants without votes show {zeros['rows']}")
    expect(zeros["total"] == "0", f"total {zeros['total']!r} without votes")
    expect_clean_text(zeros)

    outcome = call(http_port, "Vote", [6175551234, 2, 2])["results"][0]["data"][0][0]
    expect(outcome == 0, f"Vote over HTTP answered {outcome}, expected 0 (accepted)")
    one = wait_for(browser, "the one vote", lambda p: p["total"] == "1", 5)
    tile = next(t for t in one["tiles"] if t["state"] == "MA")
    expect(tile["votes"] == 1 and tile["leader"] == "2", f"MA tile after one vote for 2 from 617: {tile}")
    expect(next(r for r in one["rows"] if r["number"] == 2)["share"] == "100.0%", "contestant 2's share is not 100.0%")
    print("voter page test: recovered after a restart; zeros and a single vote shown correctly")


def expect_clean_text(page):
    for word in ("NaN", "undefined", "null", "Infinity"):
        expect(word not in page["text"], f"the page shows {word!r}")


def expect(condition, message):
    if not condition:
        raise Failure(message)


def read(browser):
    return browser.evaluate(READ_PAGE)


def wait_for(browser, what, predicate, seconds):
    deadline = time.monotonic() + seconds
    while True:
        page = read(browser)
        if predicate(page):
            return page
        if time.monotonic() > deadline:
            raise Failure(f"waited {seconds} s for {what}; page status {page['status']}, total {page['total']}, "
                          f"banner {'hidden' if page['bannerHidden'] else page['bannerText']!r}")
        time.sleep(0.1)


def after_refreshes(browser, count):
    """Waits until the page has refreshed `count` more times (at 400 ms each) and returns what it shows."""
    start = read(browser)["refreshes"]
    return wait_for(browser, f"{count} refreshes", lambda p: p["refreshes"] >= start + count, count * 0.4 + 5)


def call(http_port, procedure, parameters=()):
    body = json.dumps({"Procedure": procedure, "Parameters": list(parameters)}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{http_port}/api/1.0/", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.load(response)
    expect(answer["status"] == 1, f"{procedure} over HTTP failed: {answer}")
    return answer


def find_chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise Prerequisite("no Chromium (looked for $CHROMIUM, chromium, chromium-browser, google-chrome); "
                       "run scripts/install-deps")


def java_classpath():
    needed = [os.path.join(ROOT, "host-java", "server", "target", "classpath.txt"),
              os.path.join(VOTER, "target", "classpath.txt")]
    missing = [path for path in needed if not os.path.exists(path)]
    if missing:
        raise Prerequisite(f"{', '.join(missing)} not built; run scripts/build")
    with open(needed[1]) as file:
        return os.path.join(VOTER, "target", "classes") + os.pathsep + file.read().strip()


def start_server(processes, work, name, client_port, http_port):
    """Starts a Voter server (ports 0 = any free one), waits for its ready line, returns (client port, HTTP port)."""
    log_path = os.path.join(work, f"{name}.log")
    command = [os.path.join(ROOT, "scripts", "partita"), "start", "--schema", os.path.join(VOTER, "ddl.sql"),
               "--classes", os.path.join(VOTER, "target", "classes"), "--sites", "2",
               "--port", str(client_port), "--http-port", str(http_port), "--web-root", os.path.join(VOTER, "web")]
    deadline = time.monotonic() + 60
    while True:
        process = spawn(command, log_path)
        processes[name] = process
        ports = wait_for_ready(process, log_path, deadline)
        if ports:
            return ports
        if "in use" not in read_file(log_path) or time.monotonic() > deadline:
            raise Failure(f"the server did not start:\n{read_file(log_path)}")
        time.sleep(0.5)


def wait_for_ready(process, log_path, deadline):
    while time.monotonic() < deadline:
        match = READY.search(read_file(log_path))
        if match:
            return int(match.group(1)), int(match.group(2))
        if process.poll() is not None:
            return None
        time.sleep(0.1)
    raise Failure(f"no ready line from the server within 60 s:\n{read_file(log_path)}")


def open_browser(processes, work, chromium):
    profile = os.path.join(work, "chromium-profile")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
               "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={profile}",
               "--no-first-run", "--no-default-browser-check", "--disable-extensions", "about:blank"]
    processes["chromium"] = spawn(command, os.path.join(work, "chromium.log"))
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 30
    while not (os.path.exists(port_file) and read_file(port_file).strip()):
        if processes["chromium"].poll() is not None or time.monotonic() > deadline:
            raise Failure(f"Chromium did not open its DevTools port:\n{read_file(os.path.join(work, 'chromium.log'))}")
        time.sleep(0.1)
    port = int(read_file(port_file).split()[0])
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
        targets = [t for t in json.load(response) if t.get("type") == "page"]
    expect(targets, "Chromium has no page target")
    browser = DevTools(targets[0]["webSocketDebuggerUrl"])
    browser.call("Runtime.enable")
    browser.call("Page.enable")
    # The viewport itself 1280 × 900 (the window size includes the window's frame).
    browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    return browser


def start_load(work, client_port, args):
    command = ["java", "-cp", java_classpath(), "org.partita.bench.voter.network.NetworkVoterBenchmark",
               f"127.0.0.1:{client_port}", str(args.seconds), str(args.rate)]
    return spawn(command, os.path.join(work, "load.log"))


def finish_load(process, args):
    limit = args.seconds * 1.25 + 30
    try:
        code = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        raise Failure(f"the load did not finish within {limit:.0f} s")
    expect(code == 0, f"NetworkVoterBenchmark exited {code}:\n{read_file(process.log_path)}")


def save_screenshot(browser, path):
    png = browser.call("Page.captureScreenshot", format="png")["data"]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as file:
        file.write(base64.b64decode(png))


def spawn(command, log_path):
    log = open(log_path, "wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True, cwd=ROOT)
    log.close()
    process.log_path = log_path
    return process


def stop(process):
    """SIGTERM to the process's group, then SIGKILL after 15 s."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)
    except ProcessLookupError:
        pass


def read_file(path):
    try:
        with open(path, errors="replace") as file:
            return file.read()
    except FileNotFoundError:
        return ""


def print_server_logs(work):
    for name in ("server.log", "server-again.log", "load.log"):
        text = read_file(os.path.join(work, name))
        if text:
            print(f"--- {name} (last 20 lines)\n" + "\n".join(text.splitlines()[-20:]), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
