"""test_shoal.py's checks on GPU tensors (a CUDA build of Shoal, torch with
CUDA): every collective, dtype and ReduceOp enqueued on the current stream
and checked element by element against torch on the CPU; the placement
errors; put/get/put_signal/atomics on GPU tensors; shoal.ptr views; a
torch.cuda.graph of all_reduce captured once and replayed 100 times with
fresh data.  PE 0 prints one "PASS: part" or "FAIL: part" line per part.
Skips (exit 77) where CUDA torch or a GPU build is missing.

    mpirun -np 2 python3 tests/python/test_gpu.py      # tests/python/gpu.sh

SHOAL_TEST_GPU_ON_CPU=1 in a CPU build runs the same checks on CPU tensors
(no graph part): a check of this test's own logic where no GPU is.
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

DRY = os.environ.get("SHOAL_TEST_GPU_ON_CPU") == "1" and torch is not None and not _shoal.gpu
if not DRY and (torch is None or not torch.cuda.is_available() or not _shoal.gpu):
    print("SKIP: test_gpu needs torch with CUDA and a CUDA build of Shoal")
    sys.exit(77)

shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
if DRY:
    dev = torch.device("cpu")
else:
    torch.cuda.set_device(_shoal.gpu_device())
    dev = torch.device("cuda", _shoal.gpu_device())


def sync():
    if not DRY:
        torch.cuda.synchronize()
FAILS = []
PART = ["setup"]
Op = shoal.ReduceOp


def check(cond, what):
    if not cond:
        FAILS.append((PART[0], what))
        if len(FAILS) < 30:
            print(f"PE {me}: FAIL: {PART[0]}: {what}", file=sys.stderr, flush=True)


def expect_error(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        check(text in str(e), f"{fn.__name__}: error {e!r} should contain {text!r}")
        return
    except Exception as e:   # the wrong kind of error
        check(False, f"{fn.__name__}: {type(e).__name__} {e!r}, wanted {exc.__name__} with {text!r}")
        return
    check(False, f"{fn.__name__}: no {exc.__name__} raised")


def end_part():
    """One PASS/FAIL line per part, from the failures of every PE."""
    sync()
    mine = sum(1 for p, _ in FAILS if p == PART[0])
    tot = shoal.empty(1, torch.int32)
    shoal.all_reduce(tot, torch.tensor([mine], dtype=torch.int32, device=dev))
    bad = int(tot.item())
    if me == 0:
        print(f"{'FAIL' if bad else 'PASS'}: test_gpu {PART[0]} at {n} PEs ({bad} failures)", flush=True)


seed_t = shoal.empty(1, torch.int64)
seed_t.fill_(int.from_bytes(os.urandom(7), "little"))
shoal.broadcast(seed_t, 0)
SEED = int(seed_t.item())
if me == 0:
    print(f"test_gpu: {n} PEs, seed {SEED}, torch {torch.__version__}, "
          f"{'CPU (dry run)' if DRY else torch.cuda.get_device_name()}", flush=True)

# dtype name -> torch dtype; the unsigned types torch has only recently
INTS = ["int8", "int16", "int32", "int64", "uint8"] + [
    u for u in ("uint16", "uint32", "uint64") if hasattr(torch, u)]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
NUMPY_REF = {"uint16", "uint32", "uint64"}   # torch's CPU arithmetic on these is partial
TOL = {"float16": 1e-2, "bfloat16": 2e-2, "float32": 1e-5, "float64": 1e-12, "complex64": 1e-5,
       "complex128": 1e-12}


def tdt(name):
    return getattr(torch, name)


def data(pe, tag, count, name, small=False):
    """PE pe's input for tag, a CPU tensor: any PE can compute any other's."""
    rng = np.random.default_rng([SEED, pe, zlib.crc32(tag.encode())])
    if name in INTS:
        info = np.iinfo(name)
        lo, hi = (0, 5) if small else (info.min, info.max)
        return torch.from_numpy(rng.integers(lo, hi, size=count, dtype=name, endpoint=True))
    if name in COMPLEX:
        a = rng.uniform(-2, 2, count) + 1j * rng.uniform(-2, 2, count)
        return torch.from_numpy(a.astype(name))
    return torch.from_numpy(rng.uniform(0.5, 2.0, count).astype(np.float32)).to(tdt(name))


def poisoned(count, name):
    t = shoal.empty(count, tdt(name))
    t.view(torch.uint8).fill_(0xA5)
    return t


def ops_for(name):
    if name in INTS:
        return list(Op)
    if name in COMPLEX:
        return [Op.SUM, Op.PRODUCT]
    return [Op.SUM, Op.PRODUCT, Op.MIN, Op.MAX]


def reduce_ref(ins, op, name):
    """op over ins (CPU tensors) in PE order, in their dtype, on the CPU."""
    if name in NUMPY_REF:
        arrs = [a.numpy() for a in ins]
        acc = arrs[0].copy()
        for a in arrs[1:]:
            with np.errstate(over="ignore"):
                acc = {Op.SUM: np.add, Op.PRODUCT: np.multiply, Op.MIN: np.minimum, Op.MAX: np.maximum,
                       Op.BAND: np.bitwise_and, Op.BOR: np.bitwise_or, Op.BXOR: np.bitwise_xor}[op](acc, a)
        return torch.from_numpy(acc.astype(name))
    acc = ins[0].clone()
    for a in ins[1:]:
        acc = {Op.SUM: torch.add, Op.PRODUCT: torch.mul, Op.MIN: torch.minimum, Op.MAX: torch.maximum,
               Op.BAND: torch.bitwise_and, Op.BOR: torch.bitwise_or, Op.BXOR: torch.bitwise_xor}[op](acc, a)
    return acc


def cat(ts, name):
    if name in NUMPY_REF:
        return torch.from_numpy(np.concatenate([t.numpy() for t in ts]))
    return torch.cat(ts)


def same(got, want, name, what):
    """got (a GPU tensor) against want (a CPU tensor), every element."""
    g = got.detach().cpu()
    if name in TOL:
        wide = torch.complex128 if name in COMPLEX else torch.float64
        ok = torch.allclose(g.to(wide), want.to(wide), rtol=TOL[name], atol=TOL[name])
        bad = ~torch.isclose(g.to(wide), want.to(wide), rtol=TOL[name], atol=TOL[name])
    elif name in NUMPY_REF:
        bad = torch.from_numpy(g.numpy() != want.numpy())
        ok = not bool(bad.any())
    else:
        bad = g != want
        ok = torch.equal(g, want)
    if not ok:
        idx = torch.nonzero(bad.reshape(-1))
        i = int(idx[0]) if len(idx) else 0
        check(False, f"{what}: {len(idx)} of {g.numel()} elements wrong, first [{i}] = "
                     f"{g.reshape(-1)[i].item()!r}, wanted {want.reshape(-1)[i].item()!r}")


world = list(range(n))

# ---- collectives: every dtype, every op, the block, LL and grid paths --------------
PART[0] = "collectives"
for name in INTS + FLOATS + COMPLEX:
    for op in ops_for(name):
        small = op == Op.PRODUCT and name in INTS
        # 1 and 13: LL sizes; 4099: one block; 300000 (>= 256 KiB): the grid
        counts = (1, 13, 4099, 300000) if op in (Op.SUM, Op.MAX, Op.PRODUCT) else (1, 4099)
        for count in counts:
            tag = f"ar{name}{op}{count}"
            ins = [data(p, tag, count, name, small) for p in world]
            out = poisoned(count, name)
            if count == 13:   # the input on the heap too
                inp = shoal.empty(count, tdt(name))
                inp.copy_(ins[me])
            else:             # off the heap: copied in
                inp = ins[me].to(dev)
            shoal.all_reduce(out, inp, op)   # on the current stream
            same(out, reduce_ref(ins, op, name), name, f"all_reduce {name} {op.name} {count}")
    for op in ops_for(name):
        for k in ((257, 70000) if op == Op.SUM else (257,)):
            small = op == Op.PRODUCT and name in INTS
            ins = [data(p, f"rs{name}{op}{k}", n * k, name, small) for p in world]
            out = poisoned(k, name)
            shoal.reduce_scatter_tensor(out, ins[me].to(dev), op)
            want = reduce_ref([a[me * k:(me + 1) * k] for a in ins], op, name)
            same(out, want, name, f"reduce_scatter_tensor {name} {op.name} {k}")
    for k in ((1, 3000, 300000) if name in ("int8", "bfloat16", "float32") else (1, 3000)):
        ins = [data(p, f"ag{name}{k}", k, name) for p in world]
        out = poisoned(n * k, name)
        shoal.all_gather_into_tensor(out, ins[me].to(dev))
        same(out, cat(ins, name), name, f"all_gather_into_tensor {name} {k}")

        ins = [data(p, f"a2a{name}{k}", n * k, name) for p in world]
        out = poisoned(n * k, name)
        shoal.all_to_all_single(out, ins[me].to(dev))
        same(out, cat([a[me * k:(me + 1) * k] for a in ins], name), name, f"all_to_all_single {name} {k}")

        for root in sorted({0, n - 1}):
            t = poisoned(k, name)
            want = data(root, f"bc{name}{k}", k, name)
            if me == root:
                t.copy_(want)
            shoal.broadcast(t, root)
            same(t, want, name, f"broadcast {name} {k} from {root}")
# in place, multi-dimensional
x = shoal.empty((3, 5, 7), torch.float64)
ins = [data(p, "inplace", 105, "float64").reshape(3, 5, 7) for p in world]
x.copy_(ins[me])
shoal.all_reduce(x, op=Op.MAX)
same(x, reduce_ref(ins, Op.MAX, "float64"), "float64", "all_reduce in place")
# groups: consecutive (TP) and strided (DP), as test_shoal.py
if n >= 2:
    half = n // 2
    tp = [shoal.new_group(start=s, stride=1, size=half) for s in range(0, n - half + 1, half)]
    dp = [shoal.new_group(ranks=list(range(s, n, half))) for s in range(half)]
    for groups, kind in ((tp, "TP"), (dp, "DP")):
        g = [g for g in groups if g.rank() >= 0][0]
        ins = {p: data(p, f"g{kind}", 777, "bfloat16") for p in g.ranks}
        out = poisoned(777, "bfloat16")
        shoal.all_reduce(out, ins[me].to(dev), Op.SUM, group=g)
        same(out, reduce_ref([ins[p] for p in g.ranks], Op.SUM, "bfloat16"), "bfloat16", f"{kind} all_reduce")
        t = poisoned(11, "int64")
        want = data(g.ranks[-1], f"gbc{kind}", 11, "int64")
        if me == g.ranks[-1]:
            t.copy_(want)
        shoal.broadcast(t, g.ranks[-1], group=g)
        same(t, want, "int64", f"{kind} broadcast")
        shoal.barrier(g)
    for g in tp + dp:
        g.destroy()
shoal.barrier()
end_part()

# ---- placement rules ------------------------------------------------------------------
PART[0] = "placement"
heap_in = shoal.empty(64, torch.float32)
heap_in.fill_(1)
out = shoal.empty(64, torch.float32)
before = shoal.stats()["copies_in"]
shoal.all_reduce(out, heap_in)
check(shoal.stats()["copies_in"] == before, "a heap input was counted as copied in")
shoal.all_reduce(out, torch.ones(64, device=dev))
check(shoal.stats()["copies_in"] == before + 1, "an off-heap GPU input was not counted")
sync()
check(bool((out == n).all()), "all_reduce of ones")
expect_error(shoal.PlacementError, "argument 'out' is not on the symmetric heap", shoal.all_reduce,
             torch.zeros(64, device=dev), heap_in)
expect_error(shoal.PlacementError, "allocate it with shoal.empty", shoal.all_gather_into_tensor,
             torch.zeros(64 * n, device=dev), heap_in)
expect_error(shoal.PlacementError, "argument 'out' is not on the symmetric heap", shoal.reduce_scatter_tensor,
             torch.zeros(64), heap_in)
expect_error(shoal.PlacementError, "argument 't'", shoal.broadcast, torch.zeros(4, device=dev), 0)
expect_error(shoal.PlacementError, "argument 'dest'", shoal.put, torch.zeros(4, device=dev), torch.ones(4), 0)
expect_error(shoal.PlacementError, "argument 't'", shoal.atomic_fetch_add,
             torch.zeros(1, dtype=torch.int64, device=dev), 1, 0)
if not DRY:
    expect_error(ValueError, "both be on the GPU or both on the CPU", shoal.all_reduce, out, torch.ones(64))
    expect_error(RuntimeError, "GPU memory", shoal.empty, 8, torch.float32, "cpu")
expect_error(ValueError, "elements", shoal.all_reduce, out, torch.ones(63, device=dev))
expect_error(TypeError, "is float32 but 'inp' is float64", shoal.all_reduce, out,
             torch.ones(64, dtype=torch.float64, device=dev))
expect_error(TypeError, "does not apply", shoal.all_reduce, out, heap_in, Op.BAND)
expect_error(TypeError, "does not apply", shoal.all_reduce, shoal.empty(8, torch.complex64),
             torch.ones(8, dtype=torch.complex64, device=dev), Op.MAX)
expect_error(ValueError, "not contiguous", shoal.all_reduce, shoal.empty((8, 8), torch.float32).t(), None)
# the collectives still agree after the errors (nothing was half-started)
shoal.all_reduce(out, heap_in)
sync()
check(bool((out == n).all()), "all_reduce after the errors")
shoal.barrier()
end_part()

# ---- point to point on GPU tensors -------------------------------------------------------
PART[0] = "p2p"
right, left = (me + 1) % n, (me - 1) % n
dst = poisoned(1000, "float64")
shoal.barrier()
shoal.put(dst, data(me, "put", 1000, "float64"), right)            # from host memory
shoal.barrier()
same(dst, data(left, "put", 1000, "float64"), "float64", "put from a CPU tensor")
dst2 = poisoned(1000, "bfloat16")
src2 = data(me, "putg", 1000, "bfloat16").to(dev)
sync()   # put is a host call: the data must be there first
shoal.barrier()
shoal.put(dst2, src2, right)                                        # from GPU memory
shoal.barrier()
same(dst2, data(left, "putg", 1000, "bfloat16"), "bfloat16", "put from a GPU tensor")
src = shoal.empty(500, torch.int32)
src.copy_(data(me, "get", 500, "int32"))
sync()
shoal.barrier()
got = torch.full((500,), -1, dtype=torch.int32)
shoal.get(got, src, right)                                          # into host memory
check(torch.equal(got, data(right, "get", 500, "int32")), "get into a CPU tensor")
got_d = torch.full((500,), -1, dtype=torch.int32, device=dev)
shoal.get(got_d, src, left)                                         # into GPU memory
same(got_d, data(left, "get", 500, "int32"), "int32", "get into a GPU tensor")

sig = shoal.empty(1, torch.uint64 if "uint64" in INTS else torch.int64)
sig.view(torch.uint8).zero_()
box = poisoned(300, "int16")
sync()
shoal.barrier()
if "uint64" in INTS:   # put_signal takes uint64 signals
    shoal.put_signal(box, data(me, "sig", 300, "int16"), sig, 7 + me, right)
    v = shoal.signal_wait_until(sig, shoal.CMP_EQ, 7 + left)
    check(v == 7 + left, f"signal {v}")
    same(box, data(left, "sig", 300, "int16"), "int16", "put_signal data")
shoal.barrier()

ctr = shoal.zeros(4, torch.int64)
sync()
shoal.barrier()
shoal.atomic_fetch_add(ctr, me + 1, 0, index=1)
shoal.atomic_inc(ctr, 0, index=2)
shoal.atomic_xor(ctr, 1 << me, 0, index=3)
shoal.barrier()
if me == 0:
    c = ctr.cpu().tolist()
    check(c[1] == n * (n + 1) // 2 and c[2] == n and c[3] == (1 << n) - 1 and c[0] == 0, f"atomics: {c}")
check(shoal.atomic_fetch(ctr, 0, index=2) == n, "atomic_fetch")
shoal.barrier()
u = shoal.zeros(1, torch.int32)
sync()
shoal.barrier()
old = shoal.atomic_compare_swap(u, 0, me + 100, 0)
shoal.barrier()
winners = shoal.empty(n, torch.int32)
shoal.all_gather_into_tensor(winners, torch.tensor([1 if old == 0 else 0], dtype=torch.int32, device=dev))
w = winners.cpu()
check(int(w.sum()) == 1, f"compare_swap: {int(w.sum())} winners")
check(shoal.atomic_fetch(u, 0) == 100 + int(torch.nonzero(w)[0]), "compare_swap value")
f = shoal.zeros(1, torch.float64)
sync()
shoal.barrier()
shoal.atomic_set(f, 2.5 + me, right)
shoal.barrier()
check(shoal.atomic_fetch(f, me) == 2.5 + left and f.item() == 2.5 + left,
      f"atomic_set float64 from the left: {f.item()}")

# shoal.ptr: a CUDA tensor over the right neighbour's block, stored into
# directly (what a Triton or CUDA kernel does)
wv = poisoned(256, "int32")
sync()
shoal.barrier()
v = shoal.ptr(wv, right)
# SHOAL_PES_PER_NODE=k puts PEs on "nodes" of k (CI's pass through
# libfabric): a peer on another node has no view (ptr gives None).
ppn = int(os.environ.get("SHOAL_PES_PER_NODE", "0") or 0)
if ppn <= 0 or right // ppn == me // ppn:
    check(v is not None and v.is_cuda != DRY and v.shape == wv.shape and v.dtype == wv.dtype,
          "ptr of a GPU tensor")
else:
    check(v is None, "ptr of a peer on another node is None")
check(shoal.ptr(wv, me).data_ptr() == wv.data_ptr(), "ptr to myself")
if v is not None:
    v.copy_(data(me, "ptr", 256, "int32").to(dev))
    check(shoal.ptr_address(wv, right) == v.data_ptr(), "ptr_address")
else:
    shoal.put(wv, data(me, "ptr", 256, "int32"), right)
sync()
shoal.barrier()
same(wv, data(left, "ptr", 256, "int32"), "int32", "stores through ptr")
del v
shoal.barrier()
end_part()

# ---- a CUDA graph: captured once (after one warm-up call sizes the staging),
# replayed 100 times, fresh input each time (filled on the GPU from a seed:
# no host work between replays but that fill), every element checked -------
def graph_part():
    PART[0] = "graph"
    count = 8192

    static_in = torch.zeros(count, device=dev)
    static_out = shoal.empty(count, torch.float32)
    shoal.all_reduce(static_out, static_in)
    sync()
    g = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        with torch.cuda.graph(g):
            shoal.all_reduce(static_out, static_in)
    torch.cuda.current_stream().wait_stream(side)
    gen = torch.Generator(device=dev)
    outs = []
    for it in range(100):
        gen.manual_seed((SEED + it * n + me) % (1 << 62))
        static_in.uniform_(0.5, 2.0, generator=gen)   # on the GPU, this PE's fresh data
        g.replay()
        outs.append(static_out.clone())               # stream-ordered after the replay
    sync()
    for it in range(100):
        want = torch.zeros(count, dtype=torch.float64, device=dev)
        for p in world:
            gen.manual_seed((SEED + it * n + p) % (1 << 62))
            want += torch.empty(count, device=dev).uniform_(0.5, 2.0, generator=gen).double()
        if not torch.allclose(outs[it].double(), want, rtol=1e-5):
            check(False, f"graph replay {it}")
            break
    shoal.barrier()
    end_part()


if not DRY:
    graph_part()

failures = len(FAILS)
tot = shoal.empty(1, torch.int32)
shoal.all_reduce(tot, torch.tensor([failures], dtype=torch.int32, device=dev))
failures = int(tot.item())
if me == 0:
    print(f"test_gpu: {'FAIL' if failures else 'ok'} at {n} PEs ({failures} failures)", flush=True)
shoal.finalize()
sys.exit(1 if failures else 0)
