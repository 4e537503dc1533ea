#!/usr/bin/env python3
"""PNG plots of the session jobs' bench_grid CSV (job, machine, PEs, round,
graph, impl, op, scope, bytes, value, unit; the median of the rounds per
point): the _on_stream all-reduce, fcollect, alltoall and reduce-scatter,
us per call against bytes, on the stream (top) and in graph replay
(bottom), one line per impl, and NVSHMEM's time halved (issue 13's
target) dashed.
   bench/gpu/plot_jobs.py OUT.png PES CSV [IMPL ...]   (default: every impl)"""
import csv, statistics, sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

out, pes, path = sys.argv[1], sys.argv[2], sys.argv[3]
want = sys.argv[4:]
v = defaultdict(list)   # (impl, op, graph, bytes) -> [us]
for row in csv.reader(open(path)):
    if len(row) != 11 or row[2] != pes or row[10] != "us" or row[7] == "cpu" or row[6] == "floor":
        continue
    v[(row[5], row[6], row[4], int(row[8]))].append(float(row[9]))
impls = want or sorted({k[0] for k in v})
ops = [("allreduce_stream", "all-reduce"), ("fcollect_stream", "fcollect"), ("alltoall_stream", "alltoall"),
       ("rscatter_stream", "reduce-scatter")]
fig, axes = plt.subplots(2, 4, figsize=(18, 8), squeeze=False)
for row, (graph, mode) in enumerate((("0", "on the stream"), ("1", "graph replay"))):
    for col, (op, title) in enumerate(ops):
        ax = axes[row][col]
        for impl in impls:
            pts = sorted((b, statistics.median(xs)) for (i, o, g, b), xs in v.items() if (i, o, g) == (impl, op, graph))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=impl)
            if impl == "nvshmem" and pts:
                ax.plot([p[0] for p in pts], [p[1] / 2 for p in pts], ls="--", color="gray", label="nvshmem / 2")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{title}, {mode}")
        ax.set_xlabel("bytes (dest per PE)")
        ax.set_ylabel("us per call")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
fig.suptitle(f"{pes} PEs, {path.split('/')[-1]}")
fig.tight_layout()
fig.savefig(out, dpi=90)
