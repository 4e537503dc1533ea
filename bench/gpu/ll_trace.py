#!/usr/bin/env python3
"""Where the library's LL calls spend their time: reads bench_ll_trace's
stamps (ll-trace-pe<N>.csv, one row a block a call; the PEs share one GPU,
so one clock) and prints, per call and size, medians over the calls of the
last replay, in ns:

  period   one call's start to the next's (start: the first block of any PE
           past its wait for the previous kernel)
  skew     the last PE's start after the first's
  bskew    the last block's start after the first's, within a PE
  wait     a block's entry to its start (the wait for the previous kernel)
  open     start to open done (the call's rings and number, the lane's meeting)
  send     open to this thread's words sent (thread 0 of each block)
  recv     sent to its words received
  close    received to close done
  arrive   a block's words received, after the last word any peer sent
  tail     the last PE's start to the call's end (every block closed)
  gap      the call's end to the next call's start (negative: overlapped)
  last     how often each PE started last

  ll_trace.py DIR [DIR...]      (each: one run's ll-trace-pe*.csv)
"""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict

STEPS = ["entry", "start", "open", "sent", "got", "closed"]


def med(v):
    return statistics.median(v) if v else float("nan")


def load(d):
    # (op, bytes) -> call -> pe -> block -> stamps; us per call by (op, bytes)
    calls = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    us = {}
    for fn in sorted(glob.glob(os.path.join(d, "ll-trace-pe*.csv"))):
        pe = int(fn.rsplit("pe", 1)[1].split(".")[0])
        with open(fn) as f:
            for r in csv.DictReader(f):
                key = (r["op"], int(r["bytes"]))
                us[key] = float(r["us_per_call"]) if pe == 0 else us.get(key, float(r["us_per_call"]))
                calls[key][int(r["call"])][pe][int(r["block"])] = [int(r[s]) for s in STEPS]
    return calls, us


def analyse(calls, us):
    print(f"{'call':10} {'bytes':>8} {'us':>6} {'blk':>4} {'period':>6} {'skew':>5} {'bskew':>5} {'wait':>5} "
          f"{'open':>5} {'send':>5} {'recv':>5} {'close':>5} {'arrive':>6} {'tail':>5} {'gap':>5}  last")
    for key in sorted(calls, key=lambda k: (k[0], k[1])):
        per_call = calls[key]
        npes = max(len(p) for p in per_call.values())
        m = defaultdict(list)
        last = defaultdict(int)
        ids = sorted(c for c in per_call if len(per_call[c]) == npes)
        starts, ends = {}, {}
        for c in ids:
            pes = per_call[c]
            s_pe = {p: min(b[1] for b in blocks.values()) for p, blocks in pes.items()}
            starts[c] = min(s_pe.values())
            ends[c] = max(b[5] for blocks in pes.values() for b in blocks.values())
            m["skew"].append(max(s_pe.values()) - starts[c])
            m["tail"].append(ends[c] - max(s_pe.values()))
            last[max(s_pe, key=s_pe.get)] += 1
            sent = {p: max(b[3] for b in blocks.values()) for p, blocks in pes.items()}
            for p, blocks in pes.items():
                m["bskew"].append(max(b[1] for b in blocks.values()) - s_pe[p])
                peers_sent = max((sent[q] for q in pes if q != p), default=0)
                for b in blocks.values():
                    m["wait"].append(b[1] - b[0])
                    m["open"].append(b[2] - b[1])
                    if b[3]:
                        m["send"].append(b[3] - b[2])
                    if b[3] and b[4]:
                        m["recv"].append(b[4] - b[3])
                    if b[4]:
                        m["close"].append(b[5] - b[4])
                        if peers_sent:
                            m["arrive"].append(b[4] - peers_sent)
        for a, b in zip(ids, ids[1:]):
            if b == a + 1:
                m["period"].append(starts[b] - starts[a])
                m["gap"].append(starts[b] - ends[a])
        blk = med([len(bl) for c in ids for bl in per_call[c].values()])
        lastpe = " ".join(f"{p}:{last[p]}" for p in sorted(last))
        vals = " ".join(f"{med(m[k]):5.0f}" for k in ["skew", "bskew", "wait", "open", "send", "recv", "close"])
        print(f"{key[0]:10} {key[1]:8} {us[key]:6.2f} {blk:4.0f} {med(m['period']):6.0f} {vals} "
              f"{med(m['arrive']):6.0f} {med(m['tail']):5.0f} {med(m['gap']):5.0f}  {lastpe}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for d in sys.argv[1:]:
        print(f"== {d}")
        analyse(*load(d))
