#!/usr/bin/env python3
"""Commit -> observer latency of live queries on PostgreSQL, across processes.

    python3 Benchmarks/scripts/postgres-live-latency.py [DOCSTORE_BINARY] [COMMITS]

Starts a private PostgreSQL server (Tests/DocStoreTests/Postgres/Server), fills
a collection with 1 000 documents, and starts a `docstore` process watching one
document (`.watch bench.get(1)`: LISTEN/NOTIFY, no polling). Another process
(`psql`, one connection) then commits COMMITS updates of that document, one at a
time, 20 ms apart so that none is coalesced with the next. For each, it records
the time from sending the UPDATE to the watcher printing the new document (an
upper bound: it includes the UPDATE's own execution and commit) and from psql
acknowledging the commit to the print (a lower bound). Prints median, p99 and
max of both. The server is stopped at the end, also on failure.
"""
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.path.join(ROOT, "Tests/DocStoreTests/Postgres/Server/postgres-test-server.sh")


def psql_binary():
    versions = sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: [int(p) for p in v.split(".") if p.isdigit()])
    return f"/usr/lib/postgresql/{versions[-1]}/bin/psql"


def reader(stream, lines):
    for line in stream:
        lines.put((time.perf_counter(), line.rstrip("\n")))
    lines.put((time.perf_counter(), None))


def wait_for(lines, predicate, what, timeout=30):
    deadline = time.perf_counter() + timeout
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise SystemExit(f"timed out waiting for {what}")
        try:
            at, line = lines.get(timeout=remaining)
        except queue.Empty:
            continue
        if line is None:
            raise SystemExit(f"the process ended while waiting for {what}")
        if predicate(line):
            return at


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/docstore")
    commits = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    directory = "/tmp/docstore-latency-" + uuid.uuid4().hex[:8]
    os.mkdir(directory)
    processes = []
    try:
        subprocess.run([SERVER, "start", directory, str(os.getpid())], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([SERVER, "createdb", directory, "latency"], check=True)
        url = f"postgres://docstore@/latency?host={directory}"
        documents = json.dumps([{"id": i, "v": 0, "name": f"doc {i}"} for i in range(1, 1001)])
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            file.write(documents)
        subprocess.run([binary, url, "-c", f".import bench {file.name}"], check=True, stdout=subprocess.DEVNULL)
        os.unlink(file.name)

        watcher = subprocess.Popen([binary, url, "--mode", "ndjson", "-c", ".watch bench.get(1)"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        processes.append(watcher)
        observed = queue.Queue()
        threading.Thread(target=reader, args=(watcher.stdout, observed), daemon=True).start()
        wait_for(observed, lambda line: '"v":0' in line.replace(" ", ""), "the first result")

        writer = subprocess.Popen([psql_binary(), "-X", "-q", "-h", directory, "-U", "docstore", "-d", "latency"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        processes.append(writer)
        acknowledged = queue.Queue()
        threading.Thread(target=reader, args=(writer.stdout, acknowledged), daemon=True).start()
        time.sleep(0.5)

        upper, lower = [], []
        for i in range(1, commits + 1):
            sent = time.perf_counter()
            writer.stdin.write(f"UPDATE bench SET body = jsonb_set(body, '{{v}}', '{i}') WHERE key = 1;\n\\echo ack {i}\n")
            writer.stdin.flush()
            acked = wait_for(acknowledged, lambda line, i=i: line == f"ack {i}", f"psql's commit {i}")
            printed = wait_for(observed, lambda line, i=i: f'"v":{i}' in line.replace(" ", ""), f"the watcher's print of {i}")
            upper.append((printed - sent) * 1000)
            lower.append((printed - acked) * 1000)
            time.sleep(0.02)

        print(f"{commits} commits by psql, observed by `docstore … -c '.watch bench.get(1)'` (milliseconds)")
        for name, values in (("send -> printed", upper), ("commit acknowledged -> printed", lower)):
            print(f"  {name:32} median {statistics.median(values):6.2f}   p99 {percentile(values, 99):6.2f}   max {max(values):6.2f}")
    finally:
        for process in processes:
            process.kill()
            process.wait()
        subprocess.run([SERVER, "stop", directory])


if __name__ == "__main__":
    main()
