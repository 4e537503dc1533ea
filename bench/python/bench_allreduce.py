"""shoal.all_reduce against torch.distributed.all_reduce on the same float32
tensors in the same job, time per call by size, and the Python overhead of
one shoal.all_reduce against the C calls underneath it.

CPU (a CPU build; torch.distributed with gloo):
    python3 -m torch.distributed.run --standalone --nproc_per_node 2 \\
        --redirects 1 --tee 1 bench/python/bench_allreduce.py
GPU (a CUDA build; torch CUDA tensors on shoal's heap, collectives on the
current stream; torch.distributed with nccl where every rank has its own
GPU, else gloo on the same CUDA tensors: NCCL refuses two ranks on one GPU):
    mpirun -np 2 python3 bench/python/bench_allreduce.py
BENCH_BACKEND picks the torch.distributed backend, BENCH_MAX_BYTES the
largest size (default 64 MiB on GPUs, 4 MiB on CPUs), BENCH_SECONDS the
time per measurement (default 0.05).  Every size's results are checked
against each other before they are timed.
"""
import os
import socket
import sys
import time

import torch
import torch.distributed as dist

import shoal
from shoal import _shoal

shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
gpu = bool(_shoal.gpu)
if gpu:
    torch.cuda.set_device(_shoal.gpu_device())
dev = torch.device("cuda", _shoal.gpu_device()) if gpu else torch.device("cpu")


def sync():
    if gpu:
        torch.cuda.synchronize()


# torch.distributed beside shoal: torchrun's environment, or a TCP rendezvous
# at PE 0 (mpirun), its port broadcast through shoal.
backend = os.environ.get("BENCH_BACKEND")
if not backend:
    backend = "nccl" if gpu and torch.cuda.device_count() >= n and dist.is_nccl_available() else "gloo"
if "RANK" in os.environ and "MASTER_PORT" in os.environ:
    dist.init_process_group(backend)
else:
    port = shoal.empty(1, torch.int64)
    if me == 0:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port.fill_(s.getsockname()[1])
        s.close()
    shoal.broadcast(port, 0)
    dist.init_process_group(backend, init_method=f"tcp://127.0.0.1:{int(port.item())}", rank=me, world_size=n)



def dist_int(value, op):
    """An int through torch.distributed (broadcast from PE 0, or summed)."""
    t = torch.tensor([value], dtype=torch.int64, device=dev if backend == "nccl" else "cpu")
    if op == "broadcast":
        dist.broadcast(t, 0)
    else:
        dist.all_reduce(t)
    return int(t.item())


SECONDS = float(os.environ.get("BENCH_SECONDS", "0.05"))
MAX = int(os.environ.get("BENCH_MAX_BYTES", str((64 << 20) if gpu else (4 << 20))))


def timed(fn):
    """Microseconds per call: the best of 3 loops of about SECONDS each.
    Every PE runs the same number of calls (PE 0's count, broadcast)."""
    fn()
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    once = max(time.perf_counter() - t0, 1e-6)
    iters = dist_int(max(1, min(10000, int(SECONDS / once))), "broadcast")
    best = None
    for _ in range(3):
        dist.barrier()
        sync()
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        sync()
        dt = (time.perf_counter() - t0) / iters * 1e6
        best = dt if best is None else min(best, dt)
    return best


if me == 0:
    print(f"# {n} PEs, torch {torch.__version__}, backend {backend}, device "
          f"{torch.cuda.get_device_name() if gpu else 'cpu'}", flush=True)
    print(f"{'bytes':>10} {'shoal us':>10} {'torch us':>10} {'shoal/torch':>11}", flush=True)
bad = 0
size = 4
while size <= MAX:
    count = size // 4
    inp = shoal.empty(count, torch.float32)
    out = shoal.empty(count, torch.float32)
    gen = torch.Generator(device=dev).manual_seed(1234 + me)
    inp.uniform_(0.5, 2.0, generator=gen)
    t = inp.clone()
    shoal.all_reduce(out, inp)
    dist.all_reduce(t)
    sync()
    if not torch.allclose(out, t, rtol=1e-5):
        bad += 1
        print(f"PE {me}: shoal and torch.distributed disagree at {size} bytes", file=sys.stderr, flush=True)
    us_shoal = timed(lambda: shoal.all_reduce(out, inp))
    us_torch = timed(lambda: dist.all_reduce(t))
    if me == 0:
        print(f"{size:>10} {us_shoal:>10.2f} {us_torch:>10.2f} {us_shoal / us_torch:>11.2f}", flush=True)
    del inp, out, t
    size *= 16 if size < (1 << 20) else 4

# Python overhead: shoal.all_reduce on one element against the C calls it
# makes (the staging copy and the reduction: gpu_memcpy + gpu_reduce on the
# current stream on GPUs; reduce on CPUs), same team and buffers.
one_in = shoal.empty(1, torch.float32)
one_in.fill_(1)
one_out = shoal.empty(1, torch.float32)
shoal.all_reduce(one_out, one_in)
world = shoal._S.world.handle
stage = shoal._stage(4, gpu)
a_out, a_in = one_out.data_ptr(), one_in.data_ptr()
if gpu:
    st = shoal._stream()   # a C caller holds its stream: no query per call

    def c_call():
        _shoal.gpu_memcpy(stage, a_in, 4, st)
        _shoal.gpu_reduce(world, 8, 0, a_out, stage, 1, 0, st)
else:
    def c_call():
        _shoal.memcpy(stage, a_in, 4)
        _shoal.reduce(world, 8, 0, a_out, stage, 1, 0)
us_c = timed(c_call)
us_py = timed(lambda: shoal.all_reduce(one_out, one_in))
line = (f"# one-element all_reduce: C calls {us_c:.2f} us; shoal.all_reduce on torch tensors "
        f"{us_py:.2f} us (overhead {us_py - us_c:.2f} us)")
if not gpu:
    import numpy as np
    na_in, na_out = shoal.empty(1, np.float32), shoal.empty(1, np.float32)
    na_in[0] = 1
    us_np = timed(lambda: shoal.all_reduce(na_out, na_in))
    line += f", on NumPy arrays {us_np:.2f} us (overhead {us_np - us_c:.2f} us)"
if me == 0:
    print(line, flush=True)

bad = dist_int(bad, "sum")
if me == 0:
    print(f"# bench_allreduce: {'FAIL' if bad else 'ok'} (results checked against torch.distributed)", flush=True)
dist.destroy_process_group()
shoal.finalize()
sys.exit(1 if bad else 0)
