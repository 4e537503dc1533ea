#!/usr/bin/env python3
"""PNG plots of Shoal beside NVSHMEM from the CSV bench_grid and bench_dcoll
write (BENCH_CSV: pes,impl,test,scope,bytes,value,unit), the best of the
repeated rows per point:
   bench/gpu/plot_nvshmem.py OUT.png [PES] CSV...
Panels: the _on_stream all-reduce, fcollect, alltoall and reduce-scatter
(us per call, Shoal and NVSHMEM), and the all-reduce, fcollect and
alltoall inside a kernel (Shoal's grid and block forms against NVSHMEM's
block form and its _on_stream call).  PLOT_WHERE replaces "on one GPU" in the title."""
import csv, os, sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1]
args = sys.argv[2:]
pes = args.pop(0) if args and args[0].isdigit() else "2"
v = defaultdict(list)   # (impl, test, scope, bytes) -> [us]
for path in args:
    for row in csv.reader(open(path)):
        if len(row) != 7 or row[0] != pes or row[6] != "us":
            continue
        _, impl, test, scope, nbytes, value, _ = row
        v[(impl, test, scope, int(nbytes))].append(float(value))


def series(impl, test, scope):
    pts = sorted((b, min(xs)) for (i, t, s, b), xs in v.items() if (i, t, s) == (impl, test, scope))
    return [p[0] for p in pts], [p[1] for p in pts]


panels = [
    ("all-reduce _on_stream", [("shoal", "allreduce_stream", "host"), ("nvshmem", "allreduce_stream", "host")]),
    ("fcollect _on_stream", [("shoal", "fcollect_stream", "host"), ("nvshmem", "fcollect_stream", "host")]),
    ("alltoall _on_stream", [("shoal", "alltoall_stream", "host"), ("nvshmem", "alltoall_stream", "host")]),
    ("reduce-scatter _on_stream", [("shoal", "rscatter_stream", "host"), ("nvshmem", "rscatter_stream", "host")]),
    ("all-reduce in a kernel", [("shoal", "allreduce_kernel", "grid"), ("shoal", "allreduce_kernel", "block"),
                                ("nvshmem", "allreduce_kernel", "block"), ("nvshmem", "allreduce_stream", "host")]),
    ("fcollect in a kernel", [("shoal", "fcollect_kernel", "grid"), ("shoal", "fcollect_kernel", "block"),
                              ("nvshmem", "fcollect_kernel", "block"), ("nvshmem", "fcollect_stream", "host")]),
    ("alltoall in a kernel", [("shoal", "alltoall_kernel", "grid"), ("shoal", "alltoall_kernel", "block"),
                              ("nvshmem", "alltoall_kernel", "block"), ("nvshmem", "alltoall_stream", "host")]),
]
fig, axes = plt.subplots(3, 3, figsize=(15, 12.5))
for ax, (title, lines) in zip(axes.flat, panels):
    for impl, test, scope in lines:
        x, y = series(impl, test, scope)
        if x:
            label = f"{impl} {'_on_stream' if scope == 'host' else scope}"
            ax.plot(x, y, marker="o", ms=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel("bytes")
    ax.set_ylabel("us per call")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
for ax in axes.flat[len(panels):]:
    ax.axis("off")
fig.suptitle(f"Shoal beside NVSHMEM, {pes} PEs {os.environ.get('PLOT_WHERE', 'on one GPU')} ({', '.join(a.split('/')[-1] for a in args)})", fontsize=10)
fig.tight_layout()
fig.savefig(out, dpi=110)
