"""GPU tensors (a CUDA build of Shoal, torch with CUDA): collectives
enqueued on the current stream, checked element by element against NumPy;
a CUDA graph of all_reduce captured once and replayed 100 times with fresh
data; stores through shoal.ptr into a peer's heap.  Skips (exit 77) where
CUDA torch or a GPU build is missing.

    mpirun -np 2 python3 tests/python/test_gpu.py      # the GPU machine
"""
import os
import sys
import zlib

import numpy as np

try:
    import torch
except ImportError:
    torch = None
import shoal
from shoal import _shoal

if torch is None or not torch.cuda.is_available() or not _shoal.gpu:
    print("SKIP: test_gpu needs torch with CUDA and a CUDA build of Shoal")
    sys.exit(77)

shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
torch.cuda.set_device(_shoal.gpu_device())
dev = torch.device("cuda", _shoal.gpu_device())
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"PE {me}: FAIL: {what}", file=sys.stderr, flush=True)


seed = int.from_bytes(os.urandom(4), "little")
s = shoal.empty(1, torch.int64)
s.fill_(seed)
shoal.broadcast(s, 0)
SEED = int(s.item())


def data(pe, tag, count, dt):
    rng = np.random.default_rng([SEED, pe, zlib.crc32(tag.encode())])
    if np.dtype(dt).kind in "iu":
        return rng.integers(-50 if np.dtype(dt).kind == "i" else 0, 50, count).astype(dt)
    return rng.uniform(0.5, 2, count).astype(dt)


OPS = {shoal.ReduceOp.SUM: np.add, shoal.ReduceOp.MAX: np.maximum, shoal.ReduceOp.MIN: np.minimum,
       shoal.ReduceOp.BXOR: np.bitwise_xor}
for dt, tdt in (("float32", torch.float32), ("float64", torch.float64), ("int32", torch.int32),
                ("int64", torch.int64), ("uint8", torch.uint8)):
    for op, f in OPS.items():
        if op == shoal.ReduceOp.BXOR and dt.startswith("float"):
            continue
        for count in (1, 1000, 300000):
            ins = [data(p, f"{dt}{op}{count}", count, dt) for p in range(n)]
            out = shoal.empty(count, tdt)
            out.fill_(77)
            inp = torch.from_numpy(ins[me]).to(dev)       # off the heap: copied in
            shoal.all_reduce(out, inp, op)                # on the current stream
            want = ins[0].copy()
            for a in ins[1:]:
                want = f(want, a).astype(dt)
            got = out.cpu().numpy()
            ok = np.allclose(got, want, rtol=1e-5) if dt.startswith("float") else np.array_equal(got, want)
            check(ok, f"all_reduce {dt} {op.name} {count}")

k = 4096
ins = [data(p, "ag", k, "float32") for p in range(n)]
out = shoal.empty(n * k, torch.float32)
shoal.all_gather_into_tensor(out, torch.from_numpy(ins[me]).to(dev))
check(np.array_equal(out.cpu().numpy(), np.concatenate(ins)), "all_gather_into_tensor")
ins = [data(p, "rs", n * k, "float32") for p in range(n)]
out = shoal.empty(k, torch.float32)
shoal.reduce_scatter_tensor(out, torch.from_numpy(ins[me]).to(dev))
check(np.allclose(out.cpu().numpy(), sum(a[me * k:(me + 1) * k] for a in ins), rtol=1e-5), "reduce_scatter_tensor")
ins = [data(p, "a2a", n * k, "int32") for p in range(n)]
out = shoal.empty(n * k, torch.int32)
shoal.all_to_all_single(out, torch.from_numpy(ins[me]).to(dev))
check(np.array_equal(out.cpu().numpy(), np.concatenate([a[me * k:(me + 1) * k] for a in ins])), "all_to_all_single")
b = shoal.empty(k, torch.float64)
want = data(n - 1, "bc", k, "float64")
if me == n - 1:
    b.copy_(torch.from_numpy(want))
shoal.broadcast(b, n - 1)
check(np.array_equal(b.cpu().numpy(), want), "broadcast")

# A CUDA graph: captured once (after one warm-up call sizes the staging),
# replayed 100 times, fresh input each time, every element checked.
count = 8192
static_in = torch.zeros(count, device=dev)
static_out = shoal.empty(count, torch.float32)
shoal.all_reduce(static_out, static_in)
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    with torch.cuda.graph(g):
        shoal.all_reduce(static_out, static_in)
torch.cuda.current_stream().wait_stream(side)
for it in range(100):
    ins = [data(p, f"graph{it}", count, "float32") for p in range(n)]
    static_in.copy_(torch.from_numpy(ins[me]))
    g.replay()
    got = static_out.cpu().numpy()
    if not np.allclose(got, sum(ins), rtol=1e-5):
        check(False, f"graph replay {it}")
        break

# Stores through a peer's mapping (what a Triton kernel does)
w = shoal.empty(256, torch.int32)
w.fill_(-1)
shoal.barrier()
v = shoal.ptr(w, (me + 1) % n)
check(v is not None and v.is_cuda, "ptr of a GPU tensor")
if v is not None:
    v.copy_(torch.arange(256, dtype=torch.int32, device=dev) + me * 1000)
torch.cuda.synchronize()
shoal.barrier()
left = (me - 1) % n
check(torch.equal(w.cpu(), torch.arange(256, dtype=torch.int32) + left * 1000), "stores through ptr")

shoal.barrier()
tot = shoal.empty(1, torch.int32)
shoal.all_reduce(tot, torch.tensor([len(FAILS)], dtype=torch.int32, device=dev))
failures = int(tot.item())
if me == 0:
    print(f"test_gpu: {'FAIL' if failures else 'ok'} at {n} PEs ({failures} failures)", flush=True)
shoal.finalize()
sys.exit(1 if failures else 0)
