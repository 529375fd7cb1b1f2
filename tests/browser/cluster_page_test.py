"""The cluster page (/cluster on every cluster host) in a real headless Chromium.

Starts a local cluster of three hosts with K = 1 (scripts/cluster: host i on
127.0.0.(i+1), two sites each, so three partitions of two copies, each host
leading one), opens host 0's cluster page in headless Chromium driven through
the DevTools protocol, and checks:

  1. the page shows the three hosts serving, the three partitions with the
     leader, copies and epoch that @Statistics CLUSTER answers over HTTP,
     this host's calls per second once calls arrive, and frames of the
     other two hosts' figures pages (/cluster?view=figures on each host's
     own address; their content is cross-origin and not read here);
  2. after `scripts/cluster kill 1` (SIGKILL), within 60 s (the heartbeat
     timeout is 3 s) the page shows host 1 dead, no partition on host 1, the
     partition host 1 led with a new leader in a new epoch, those changes
     in its list of recent changes, and host 1's frame replaced by 'dead';
     host 2's own view agrees;
  3. after `scripts/cluster restart 1` (a rejoin: host 1 starts again with
     --rejoin and each partition's leader streams it a copy), within 90 s
     the page shows host 1 serving again with its two copies, every
     partition with two copies in a new epoch, host 1 registered again, a
     copy added to host 1 for each partition it took back and host 1
     rejoined in its recent changes, and host 1's figures framed again;
     host 2's own view agrees;
  4. the page threw no uncaught JavaScript exception. A screenshot is saved
     after the rejoin.

Everything started here is stopped in a finally block (scripts/cluster stop,
then SIGKILL to any host pid still alive, by pid), also on SIGTERM (the
wrapper's time bound) and Ctrl-C. Exits 0 when every check passes, 1 on a
failed check, 2 when a prerequisite (Chromium, the built jars) is missing.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the test in the source tree
from devtools import DevToolsError  # noqa: E402
from voter_page_test import (Failure, Prerequisite, expect, find_chromium, open_browser, read_file,  # noqa: E402
                             save_screenshot, spawn, stop)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLUSTER = os.path.join(ROOT, "scripts", "cluster")
VICTIM = 1

# Everything the checks read from the page, in one evaluation.
READ_PAGE = """(() => {
  const rows = (id) => [...document.querySelectorAll(`#${id} tr`)];
  if (!document.querySelector('#hosts-body')) {
    return {status: 'not loaded', refreshes: 0, hosts: [], partitions: [], changes: [], frames: [], tps: '',
            text: ''};
  }
  return {
    status: document.body.dataset.status,
    refreshes: Number(document.body.dataset.refreshes),
    selfHost: document.body.dataset.selfHost,
    tps: document.querySelector('#tps').dataset.value,
    hosts: rows('hosts-body').map((r) => ({host: Number(r.dataset.host), state: r.dataset.state})),
    partitions: rows('partitions-body').map((r) => ({partition: Number(r.dataset.partition),
      leader: Number(r.dataset.leader), replicas: r.dataset.replicas, epoch: Number(r.dataset.epoch)})),
    changes: rows('changes-body').map((r) => ({kind: r.dataset.kind, host: r.dataset.host,
      partition: r.dataset.partition, text: r.innerText})),
    frames: [...document.querySelectorAll('#host-frames .host-frame')].map((e) => ({host: Number(e.dataset.host),
      framed: e.tagName === 'IFRAME', src: e.src || ''})),
    bannerHidden: document.querySelector('#error-banner').hidden,
    text: document.body.innerText,
  };
})()"""


def main():
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("cluster page test: stopped by SIGTERM (time bound?)"))
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="partita-cluster-page-")
    cluster_dir = os.path.join(work, "cluster")
    processes = {}
    browser = None
    try:
        chromium = find_chromium()
        if not os.path.exists(os.path.join(ROOT, "host-java", "server", "target", "classpath.txt")):
            raise Prerequisite("host-java/server not built; run scripts/build")
        pages = start_cluster(cluster_dir)
        browser = open_browser(processes, work, chromium)
        run_checks(args, browser, cluster_dir, pages)
        print(f"cluster page test: passed in {time.monotonic() - started:.1f} s; screenshot {args.screenshot}")
        return 0
    except Prerequisite as missing:
        print(f"cluster page test: FAILED, missing prerequisite: {missing}", file=sys.stderr)
        return 2
    except (Failure, DevToolsError, OSError) as failure:
        print(f"cluster page test: FAILED: {failure}", file=sys.stderr)
        print_host_logs(cluster_dir)
        return 1
    finally:
        if browser is not None:
            browser.close()
        for name in reversed(list(processes)):
            stop(processes[name])
        stop_cluster(cluster_dir)
        shutil.rmtree(work, ignore_errors=True)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshot", default=os.path.join(ROOT, "bench", "cluster", "results", "cluster-page.png"),
                        help="where to save the page's screenshot after the rejoin "
                             "(default bench/cluster/results/cluster-page.png)")
    return parser.parse_args()


def run_checks(args, browser, cluster_dir, pages):
    http0 = pages[0]
    browser.call("Page.navigate", url=f"http://{http0}/cluster")
    formed = wait_for(browser, "three hosts serving and three partitions",
                      lambda p: p["status"] == "live" and len(p["partitions"]) == 3
                      and [h["state"] for h in p["hosts"]] == ["SERVING"] * 3, 20)
    expect(formed["selfHost"] == "0", f"the page says it is host {formed['selfHost']}'s, expected 0")
    expect_partitions_match(formed, cluster_view(http0), "after formation")
    expect(sorted(p["leader"] for p in formed["partitions"]) == [0, 1, 2],
           f"each host should lead one partition: {formed['partitions']}")
    expect(all(len(p["replicas"].split(",")) == 2 for p in formed["partitions"]),
           f"every partition should have two copies: {formed['partitions']}")
    expect(formed["frames"] == [{"host": h, "framed": True, "src": f"http://{pages[h]}/cluster?view=figures"}
                                for h in (1, 2)],
           f"the other hosts' figures should be framed from their own pages: {formed['frames']}")
    for _ in range(60):
        call(http0, "@Ping")
    busy = wait_for(browser, "this host's calls per second above 0", lambda p: int(p["tps"] or 0) > 0, 5)
    print(f"cluster page test: formed; the page shows 3 hosts serving, partitions {formed['partitions']}, "
          f"{busy['tps']} calls/s on host 0")

    moved = next(p for p in formed["partitions"] if p["leader"] == VICTIM)
    run([CLUSTER, "kill", str(VICTIM)], cluster_dir, 20)
    killed_at = time.monotonic()
    after = wait_for(browser, f"host {VICTIM} dead and its partitions moved",
                     lambda p: host_state(p, VICTIM) == "DEAD"
                     and all(str(VICTIM) not in q["replicas"].split(",") for q in p["partitions"]), 60)
    seconds = time.monotonic() - killed_at
    new = next(p for p in after["partitions"] if p["partition"] == moved["partition"])
    expect(new["leader"] != VICTIM and new["epoch"] > moved["epoch"],
           f"partition {moved['partition']} after the failover: {new} (before: {moved})")
    expect([host_state(after, h) for h in (0, 2)] == ["SERVING", "SERVING"], f"survivors: {after['hosts']}")
    kinds = {(c["kind"], c["host"], c["partition"]) for c in after["changes"]}
    expect(("HOST_DEAD", str(VICTIM), "") in kinds, f"no 'host {VICTIM} declared dead' change: {after['changes']}")
    expect(("NEW_LEADER", str(new["leader"]), str(moved["partition"])) in kinds,
           f"no new-leader change for partition {moved['partition']}: {after['changes']}")
    framed = wait_for(browser, f"host {VICTIM}'s frame replaced by 'dead'",
                      lambda p: [(f["host"], f["framed"]) for f in p["frames"]] == [(VICTIM, False), (2, True)], 5)
    expect(framed["frames"][1]["src"] == f"http://{pages[2]}/cluster?view=figures", f"frames: {framed['frames']}")
    expect_partitions_match(after, cluster_view(http0), "after the failover (host 0)")
    expect_partitions_match(after, cluster_view(pages[2]), "after the failover (host 2's own view)")
    print(f"cluster page test: {seconds:.1f} s after kill -9 the page showed host {VICTIM} dead and partition "
          f"{moved['partition']} led by host {new['leader']} in epoch {new['epoch']}; changes: "
          f"{[c['text'].split(chr(9))[-1] for c in after['changes']]}")
    for word in ("NaN", "undefined", "null", "Infinity"):
        expect(word not in after["text"], f"the page shows {word!r}")
    rejoined = check_rejoin(browser, cluster_dir, pages, after)
    save_screenshot(browser, args.screenshot)
    for word in ("NaN", "undefined", "null", "Infinity"):
        expect(word not in rejoined["text"], f"the page shows {word!r} after the rejoin")
    expect(not browser.exceptions, f"the page threw: {browser.exceptions}")


def check_rejoin(browser, cluster_dir, pages, after):
    """Restarts the killed host (a rejoin) and checks that the page shows it back with its copies."""
    http0 = pages[0]
    run([CLUSTER, "restart", str(VICTIM)], cluster_dir, 120)
    restarted_at = time.monotonic()
    states = set()

    def back(page):
        states.add(host_state(page, VICTIM))
        kinds = {(c["kind"], c["host"]) for c in page["changes"]}
        return (host_state(page, VICTIM) == "SERVING" and ("HOST_REJOINED", str(VICTIM)) in kinds
                and all(len(q["replicas"].split(",")) == 2 for q in page["partitions"]))
    rejoined = wait_for(browser, f"host {VICTIM} rejoined with its copies", back, 90)
    seconds = time.monotonic() - restarted_at
    holding = [p for p in rejoined["partitions"] if str(VICTIM) in p["replicas"].split(",")]
    expect(len(holding) == 2, f"host {VICTIM} should hold two copies again: {rejoined['partitions']}")
    for p in holding:
        was = next(q for q in after["partitions"] if q["partition"] == p["partition"])
        expect(p["epoch"] > was["epoch"], f"partition {p['partition']} took host {VICTIM} back in epoch {p['epoch']}, "
               f"not after epoch {was['epoch']}")
    kinds = [(c["kind"], c["host"], c["partition"]) for c in rejoined["changes"]]
    expect(("HOST_UP", str(VICTIM), "") in kinds, f"no 'host {VICTIM} registered again' change: {kinds}")
    for p in holding:
        expect(("COPY_ADDED", str(VICTIM), str(p["partition"])) in kinds,
               f"no 'host {VICTIM} rejoined as a copy' change for partition {p['partition']}: {kinds}")
    expect(states <= {"DEAD", "STARTING", "REJOINING", "SERVING"}, f"host {VICTIM}'s states seen: {states}")
    framed = wait_for(browser, f"host {VICTIM}'s figures framed again",
                      lambda p: [(f["host"], f["framed"]) for f in p["frames"]] == [(VICTIM, True), (2, True)], 5)
    expect(framed["frames"][0]["src"] == f"http://{pages[VICTIM]}/cluster?view=figures", f"frames: {framed['frames']}")
    # Rebalancing may hand a partition back to the rejoined host at any time: compare the views once they agree.
    settled = wait_for(browser, "the page and hosts 0 and 2 agreeing on the partitions",
                       lambda p: partitions_of(p) == cluster_view(http0) == cluster_view(pages[2]), 15)
    rejoin_texts = [c["text"].split(chr(9))[-1] for c in settled["changes"]
                    if c["kind"] in ("HOST_UP", "COPY_ADDED", "HOST_REJOINED")]
    print(f"cluster page test: {seconds:.1f} s after the restart the page showed host {VICTIM} rejoined "
          f"(states seen: {sorted(s for s in states if s)}); changes: {rejoin_texts}")
    return settled


def host_state(page, host):
    return next((h["state"] for h in page["hosts"] if h["host"] == host), None)


def partitions_of(page):
    return [(p["partition"], p["leader"], p["replicas"], p["epoch"]) for p in page["partitions"]]


def expect_partitions_match(page, view, when):
    shown = partitions_of(page)
    expect(shown == view, f"{when}: the page shows partitions {shown}, @Statistics CLUSTER answers {view}")


def cluster_view(http_address):
    """The partitions (id, leader, copies, epoch) @Statistics CLUSTER answers on a host's HTTP API."""
    partitions = call(http_address, "@Statistics", ["CLUSTER"])["results"][1]["data"]
    return [(row[0], row[1], row[2], row[3]) for row in partitions]


def call(http_address, procedure, parameters=()):
    body = json.dumps({"Procedure": procedure, "Parameters": list(parameters)}).encode()
    request = urllib.request.Request(f"http://{http_address}/api/1.0/", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.load(response)
    expect(answer["status"] == 1, f"{procedure} over HTTP on {http_address} failed: {answer}")
    return answer


def wait_for(browser, what, predicate, seconds):
    deadline = time.monotonic() + seconds
    while True:
        page = browser.evaluate(READ_PAGE)
        if predicate(page):
            return page
        if time.monotonic() > deadline:
            raise Failure(f"waited {seconds} s for {what}; the page shows status {page['status']}, hosts "
                          f"{page['hosts']}, partitions {page['partitions']}, changes {page['changes']}")
        time.sleep(0.2)


def start_cluster(cluster_dir):
    """Starts three hosts on random ports; returns their HTTP addresses (host:port), by host id."""
    port = 30000 + random.randrange(25000)
    output = run([CLUSTER, "start", "--hosts", "3", "--kfactor", "1", "--sites-per-host", "2",
                  "--schema", os.path.join(ROOT, "bench", "kv", "ddl.sql"), "--port", str(port),
                  "--http-port", str(port + 1), "--internal-port", str(port + 3)], cluster_dir, 180)
    pages = read_file(os.path.join(cluster_dir, "pages")).split()
    expect(len(pages) == 3, f"scripts/cluster printed {len(pages)} cluster page(s), expected 3:\n{output}")
    expect(pages == [f"http://127.0.0.{i + 1}:{port + 1}/cluster" for i in range(3)],
           f"the cluster pages should be on each host's own address: {pages}")
    return [page[len("http://"):-len("/cluster")] for page in pages]


def run(command, cluster_dir, seconds):
    environment = dict(os.environ, PARTITA_CLUSTER_DIR=cluster_dir)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               env=environment, cwd=ROOT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise Failure(f"{' '.join(command[1:3])} took over {seconds} s")
    text = output.decode(errors="replace")
    expect(process.returncode == 0, f"{' '.join(command)} exited {process.returncode}:\n{text}")
    return text


def stop_cluster(cluster_dir):
    """scripts/cluster stop, then SIGKILL to any host still alive, by the pid scripts/cluster recorded."""
    if not os.path.isdir(cluster_dir):
        return
    environment = dict(os.environ, PARTITA_CLUSTER_DIR=cluster_dir)
    try:
        subprocess.run([CLUSTER, "stop"], env=environment, cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=45)
    except subprocess.TimeoutExpired:
        pass
    for name in sorted(os.listdir(cluster_dir)):
        if name.startswith("host-") and name.endswith(".pid"):
            pid = read_file(os.path.join(cluster_dir, name)).strip()
            # Only a process of this cluster (its data directory on its command line), never a reused pid.
            if pid.isdigit() and cluster_dir in read_file(f"/proc/{pid}/cmdline"):
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass


def print_host_logs(cluster_dir):
    if not os.path.isdir(cluster_dir):
        return
    for name in sorted(os.listdir(cluster_dir)):
        if name.startswith("host-") and name.endswith(".log"):
            text = read_file(os.path.join(cluster_dir, name))
            print(f"--- {name} (last 15 lines)\n" + "\n".join(text.splitlines()[-15:]), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
