#!/usr/bin/env python3
"""Markdown tables from the CSV that bench/gpu writes (BENCH_CSV), and
PNG plots when a directory is given and matplotlib is installed:
   bench/gpu/report.py bench_gpu.csv [PNGDIR] > tables.md
REPORT_GPUS (default 2) names the GPU count in the titles; set, it also
suffixes the plots' file names (collectives-4gpu.png)."""
import csv, os, sys
from collections import defaultdict

rows = list(csv.reader(open(sys.argv[1])))
v = defaultdict(dict)   # (test, scope) -> {(impl, bytes): [values]}
for impl, test, scope, nbytes, value, unit in rows:
    v[(test, scope)].setdefault((impl, int(nbytes)), []).append(float(value))
best = lambda xs, low: (min(xs) if low else max(xs))
gpus = os.environ.get("REPORT_GPUS", "2")
suffix = f"-{gpus}gpu" if "REPORT_GPUS" in os.environ else ""

def size(n):
    for u, s in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= s and n % s == 0:
            return f"{n // s} {u}B"
    return f"{n} B"

print("Device put bandwidth, PE 0 -> PE 1 (GB/s; grid split into workers of each scope):\n")
print("| bytes | thread Shoal | thread NVSHMEM | warp Shoal | warp NVSHMEM | block Shoal | block NVSHMEM | Shoal/NVSHMEM (block) |")
print("|---|---|---|---|---|---|---|---|")
sizes = sorted({b for (i, b) in v[("put_bw", "block")]})
for b in sizes:
    cells = []
    for sc in ("thread", "warp", "block"):
        for impl in ("shoal", "nvshmem"):
            x = v[("put_bw", sc)].get((impl, b))
            cells.append(f"{best(x, False):.3g}" if x else "-")
    s, n = v[("put_bw", "block")].get(("shoal", b)), v[("put_bw", "block")].get(("nvshmem", b))
    ratio = f"{best(s, False) / best(n, False):.2f}" if s and n else "-"
    print(f"| {size(b)} | " + " | ".join(cells) + f" | {ratio} |")
print()
print("Copy engine (cudaMemcpyAsync to the peer's mapping; the cudaMemcpyPeer ceiling), GB/s:\n")
print("| bytes | " + " | ".join(size(b) for (i, b) in sorted(v[("memcpy_peer", "host")], key=lambda k: k[1])) + " |")
print("|---|" + "---|" * len(v[("memcpy_peer", "host")]))
print("| GB/s | " + " | ".join(f"{best(x, False):.1f}" for k, x in sorted(v[("memcpy_peer", "host")].items(), key=lambda kv: kv[0][1])) + " |")
print()
print("| latency / rate | Shoal | NVSHMEM | Shoal/NVSHMEM |")
print("|---|---|---|---|")
for test, scope, unit, low in (("putsig_lat", "thread", "us one-way, 8 B put+signal ping-pong (best of 3)", True),
                               ("fadd_lat", "thread", "us, fetch_add on the peer", True),
                               ("add_rate", "grid", "Mops/s, atomic_add from 132x256 threads", False)):
    s, n = v[(test, scope)].get(("shoal", 8)), v[(test, scope)].get(("nvshmem", 8))
    if s and n:
        print(f"| {unit} | {best(s, low):.3f} | {best(n, low):.3f} | {best(s, low) / best(n, low):.2f} |")
print()
print(f"Collectives at {gpus} GPUs, time per call (us) and Shoal/NCCL time ratio:\n")
for op in ("allreduce", "allgather", "reduce_scatter", "alltoall"):
    print(f"| {op} bytes | Shoal us | NCCL us | Shoal/NCCL |")
    print("|---|---|---|---|")
    for b in sorted({b for (i, b) in v[(op, "block")]}):
        s, n = v[(op, "block")].get(("shoal", b)), v[(op, "-")].get(("nccl", b))
        if s and n:
            print(f"| {size(b)} | {best(s, True):.1f} | {best(n, True):.1f} | {best(s, True) / best(n, True):.2f} |")
    print()
graph = v[("allreduce_graph", "block")]
if graph:
    print(f"Small all-reduces at {gpus} GPUs without a launch per call, us per call: each replayed from a CUDA graph,")
    print("and Shoal's called back to back inside one kernel (block and grid scope); ratios against NCCL's graph:\n")
    print("| bytes | Shoal graph | NCCL graph | Shoal in a kernel, block | Shoal in a kernel, grid | graph ratio | block ratio | grid ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for b in sorted({b for (i, b) in graph}):
        s, n = graph.get(("shoal", b)), v[("allreduce_graph", "-")].get(("nccl", b))
        k = [v[("allreduce_inkernel", sc)].get(("shoal", b)) for sc in ("block", "grid")]
        if s and n:
            kk = [f"{best(x, True):.1f}" if x else "-" for x in k]
            rr = [f"{best(x, True) / best(n, True):.2f}" if x else "-" for x in k]
            print(f"| {size(b)} | {best(s, True):.1f} | {best(n, True):.1f} | {kk[0]} | {kk[1]} | "
                  f"{best(s, True) / best(n, True):.2f} | {rr[0]} | {rr[1]} |")
    print()

# ---- plots ------------------------------------------------------------------
if len(sys.argv) > 2:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("report.py: matplotlib is not installed: no plots")
    os.makedirs(sys.argv[2], exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for sc, style in (("thread", ":"), ("warp", "--"), ("block", "-")):
        for impl, color in (("shoal", "tab:blue"), ("nvshmem", "tab:green")):
            pts = sorted((b, best(x, False)) for (i, b), x in v[("put_bw", sc)].items() if i == impl)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color, label=f"{impl} {sc}")
    pts = sorted((b, best(x, False)) for (i, b), x in v[("memcpy_peer", "host")].items())
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color="gray", label="cudaMemcpy to peer")
    ax.set(xscale="log", yscale="log", xlabel="bytes", ylabel="GB/s", title=f"Device put bandwidth, {gpus} GPUs")
    ax.legend(fontsize=7)
    fig.savefig(os.path.join(sys.argv[2], f"put_bw{suffix}.png"), dpi=120, bbox_inches="tight")
    fig, axs = plt.subplots(2, 2, figsize=(10, 7))
    for ax, op in zip(axs.flat, ("allreduce", "allgather", "reduce_scatter", "alltoall")):
        for impl, scope, color in (("shoal", "block", "tab:blue"), ("nccl", "-", "tab:orange")):
            pts = sorted((b, best(x, True)) for (i, b), x in v[(op, scope)].items() if i == impl)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=color, ms=3, label=impl)
        ax.set(xscale="log", yscale="log", xlabel="bytes", ylabel="us per call", title=f"{op}, {gpus} GPUs")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(sys.argv[2], f"collectives{suffix}.png"), dpi=120)
