"""Every API of the shoal Python package on CPU PEs, with fresh random data
checked element by element against NumPy.  Run under mpirun/oshrun or
torchrun at any PE count (tests/python/run.sh does 1, 2, 4 and 2, 4).
torch tensors are tested too when torch imports (SHOAL_TEST_TORCH=0: not)."""
import os
import sys
import zlib

import numpy as np

import shoal
from shoal import _shoal

if _shoal.gpu:
    # A GPU build: the heap is GPU memory, so these checks run on GPU
    # tensors, in test_gpu.py (torch with CUDA; it exits by itself).
    import runpy
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_gpu.py"), run_name="__main__")
    sys.exit(1)   # not reached

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"PE {shoal.my_pe()}: FAIL: {what}", file=sys.stderr, flush=True)


def expect_error(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        check(text in str(e), f"{fn.__name__}: error {e!r} should contain {text!r}")
        return
    check(False, f"{fn.__name__}{args!r}: no {exc.__name__} raised")


shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
    check(me == int(os.environ["RANK"]) and n == int(os.environ["WORLD_SIZE"]),
          f"PE {me} of {n} under torchrun, RANK {os.environ['RANK']}")

# A fresh seed each run, the same on every PE: PE 0's, broadcast.
seed_t = shoal.empty(1, np.uint64)
seed_t[0] = int.from_bytes(os.urandom(8), "little") >> 1
shoal.broadcast(seed_t, 0)
SEED = int(seed_t[0])
if me == 0:
    print(f"test_shoal: {n} PEs, seed {SEED}", flush=True)


def data(pe, tag, shape, dtype, lo=None, hi=None):
    """PE pe's input for test tag: any PE can compute any other's."""
    rng = np.random.default_rng([SEED, pe, zlib.crc32(tag.encode())])
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = info.min if lo is None else lo
        hi = info.max if hi is None else hi
        return rng.integers(lo, hi, size=shape, dtype=dt, endpoint=True)
    if dt.kind == "c":
        return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dt)
    return rng.uniform(0.5 if lo is None else lo, 2.0 if hi is None else hi, shape).astype(dt)


def poisoned(shape, dtype):
    t = shoal.empty(shape, dtype)
    t.view(np.uint8)[...] = 0xA5
    return t


def reduce_np(arrs, op, dt):
    dt = np.dtype(dt)
    acc = arrs[0].copy()
    for a in arrs[1:]:
        with np.errstate(over="ignore", invalid="ignore"):
            if op == shoal.ReduceOp.SUM: acc = (acc + a).astype(dt)
            elif op == shoal.ReduceOp.PRODUCT: acc = (acc * a).astype(dt)
            elif op == shoal.ReduceOp.MIN: acc = np.minimum(acc, a)
            elif op == shoal.ReduceOp.MAX: acc = np.maximum(acc, a)
            elif op == shoal.ReduceOp.BAND: acc = acc & a
            elif op == shoal.ReduceOp.BOR: acc = acc | a
            else: acc = acc ^ a
    return acc


def same(got, want, dt, what):
    dt = np.dtype(dt)
    if dt.kind in "fc":
        tol = 2e-2 if dt.itemsize <= 2 or dt == np.complex64 and False else 1e-5
        if dt == np.float16: tol = 2e-2
        ok = np.allclose(got, want, rtol=tol, atol=tol)
    else:
        ok = np.array_equal(got, want)
    if not ok:
        bad = np.flatnonzero(~np.isclose(got, want, rtol=1e-2) if dt.kind in "fc" else got != want)
        i = bad[0] if len(bad) else 0
        check(False, f"{what}: {len(bad)} of {got.size} elements wrong, first [{i}] = "
                     f"{got.flat[i]!r}, wanted {want.flat[i]!r}")


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64", "float16"]
COMPLEX = ["complex64", "complex128"]
ALL_OPS = list(shoal.ReduceOp)


def ops_for(dt):
    if dt in INTS: return ALL_OPS
    if dt in COMPLEX: return [shoal.ReduceOp.SUM, shoal.ReduceOp.PRODUCT]
    return ALL_OPS[:4]


def inputs(tag, shape, dt, op, pes):
    # PRODUCT over floats stays near 1; integers take small values so the
    # product has few wraps (wraps are still checked: NumPy wraps the same).
    if op == shoal.ReduceOp.PRODUCT and dt in INTS:
        return [data(p, tag, shape, dt, 0, 5) for p in pes]
    return [data(p, tag, shape, dt) for p in pes]


# ---- all_reduce: every dtype, every op, sizes around the algorithms' edges ----
world = list(range(n))
for dt in INTS + FLOATS + COMPLEX:
    for op in ops_for(dt):
        for count in (1, 13, 4099):
            tag = f"ar{dt}{op}{count}"
            ins = inputs(tag, (count,), dt, op, world)
            out = poisoned((count,), dt)
            # the input on the heap for some sizes, off it for others
            if count == 13:
                inp = shoal.empty((count,), dt)
                inp[:] = ins[me]
            else:
                inp = ins[me].copy()
            shoal.all_reduce(out, inp, op)
            same(out, reduce_np(ins, op, dt), dt, f"all_reduce {dt} {op.name} count {count}")
# in place, multi-dimensional
x = shoal.empty((3, 5, 7), np.float64)
ins = [data(p, "inplace", (3, 5, 7), np.float64) for p in world]
x[...] = ins[me]
shoal.all_reduce(x, op=shoal.ReduceOp.MAX)
same(x, reduce_np(ins, shoal.ReduceOp.MAX, np.float64), np.float64, "all_reduce in place")
# large: more than the team scratch
big = 200_000
ins = [data(p, "big", (big,), np.float32) for p in world]
out = poisoned((big,), np.float32)
shoal.all_reduce(out, ins[me])
same(out, reduce_np(ins, shoal.ReduceOp.SUM, np.float32), np.float32, "all_reduce large")

# ---- all_gather / reduce_scatter / all_to_all / broadcast ----------------------
for dt in ["int8", "int32", "uint64", "float32", "float64", "float16", "complex128"]:
    for k in (1, 9, 3000):
        ins = [data(p, f"ag{dt}{k}", (k,), dt) for p in world]
        out = poisoned((n * k,), dt)
        shoal.all_gather_into_tensor(out, ins[me])
        same(out, np.concatenate(ins), dt, f"all_gather_into_tensor {dt} {k}")

        ins = [data(p, f"a2a{dt}{k}", (n * k,), dt) for p in world]
        out = poisoned((n * k,), dt)
        shoal.all_to_all_single(out, ins[me])
        want = np.concatenate([ins[p][me * k:(me + 1) * k] for p in world])
        same(out, want, dt, f"all_to_all_single {dt} {k}")

        for root in sorted({0, n - 1}):
            t = poisoned((k,), dt)
            src_data = data(root, f"bc{dt}{k}", (k,), dt)
            if me == root:
                t[:] = src_data
            shoal.broadcast(t, root)
            same(t, src_data, dt, f"broadcast {dt} {k} from {root}")
    for op in ops_for(dt):
        k = 257
        ins = inputs(f"rs{dt}{op}", (n * k,), dt, op, world)
        out = poisoned((k,), dt)
        shoal.reduce_scatter_tensor(out, ins[me], op)
        want = reduce_np([a[me * k:(me + 1) * k] for a in ins], op, dt)
        same(out, want, dt, f"reduce_scatter_tensor {dt} {op.name}")

# ---- groups: TP (consecutive) and DP (strided), group vs global ranks -----------
if n >= 2:
    half = n // 2
    tp = [shoal.new_group(start=s, stride=1, size=half) for s in range(0, n - half + 1, half)]
    dp = [shoal.new_group(ranks=list(range(s, n, half))) for s in range(half)]
    for groups, kind in ((tp, "TP"), (dp, "DP")):
        mine = [g for g in groups if g.rank() >= 0]
        check(len(mine) == 1, f"{kind}: PE {me} is in {len(mine)} groups")
        g = mine[0]
        check(g.ranks[g.rank()] == me and g.global_rank(g.rank()) == me and g.group_rank(me) == g.rank(),
              f"{kind}: rank {g.rank()} of {g.ranks} for PE {me}")
        check(g.translate(g.rank()) == me, f"{kind}: translate")
        check(shoal.get_world_size(g) == len(g.ranks), f"{kind}: size")
        for dt, op in (("float32", shoal.ReduceOp.SUM), ("int64", shoal.ReduceOp.BXOR), ("uint8", shoal.ReduceOp.MAX)):
            ins = {p: data(p, f"g{kind}{dt}", (777,), dt) for p in g.ranks}
            out = poisoned((777,), dt)
            shoal.all_reduce(out, ins[me], op, group=g)
            same(out, reduce_np([ins[p] for p in g.ranks], op, dt), dt, f"{kind} all_reduce {dt} {op.name}")
        k = 11
        ins = {p: data(p, f"gag{kind}", (k,), np.int32) for p in g.ranks}
        out = poisoned((k * g.size(),), np.int32)
        shoal.all_gather_into_tensor(out, ins[me], group=g)
        same(out, np.concatenate([ins[p] for p in g.ranks]), np.int32, f"{kind} all_gather")
        # broadcast names a global rank (torch.distributed's rule, seed 000's bug)
        root = g.ranks[-1]
        t = poisoned((k,), np.int64)
        want = data(root, f"gbc{kind}", (k,), np.int64)
        if me == root:
            t[:] = want
        shoal.broadcast(t, root, group=g)
        same(t, want, np.int64, f"{kind} broadcast from global rank {root}")
        t2 = poisoned((k,), np.int64)
        if g.rank() == 0:
            t2[:] = want
        shoal.broadcast(t2, None, group=g, group_src=0)
        same(t2, want, np.int64, f"{kind} broadcast from group rank 0")
        shoal.barrier(g)
        others = [p for p in world if p not in g.ranks]
        if others:
            expect_error(ValueError, "is not in the group", shoal.broadcast, t, others[0], g)
    for g in tp + dp:
        g.destroy()
if n >= 3:
    expect_error(ValueError, "not evenly strided", shoal.new_group, ranks=[0, 1, n - 1] if n > 3 else [0, 2, 1])

# ---- placement rules -------------------------------------------------------------
before = shoal.stats()["copies_in"]
heap_in = shoal.empty(64, np.float32)
heap_in[:] = 1
out = shoal.empty(64, np.float32)
shoal.all_reduce(out, heap_in)
check(shoal.stats()["copies_in"] == before, "a heap input was counted as copied in")
shoal.all_reduce(out, np.ones(64, np.float32))
check(shoal.stats()["copies_in"] == before + 1, "an off-heap input was not counted")
expect_error(shoal.PlacementError, "argument 'out' is not on the symmetric heap", shoal.all_reduce,
             np.zeros(64, np.float32), heap_in)
expect_error(shoal.PlacementError, "allocate it with shoal.empty", shoal.all_gather_into_tensor,
             np.zeros(64 * n, np.float32), heap_in)
expect_error(shoal.PlacementError, "argument 'dest'", shoal.put, np.zeros(4), np.ones(4), 0)
expect_error(shoal.PlacementError, "argument 't'", shoal.broadcast, np.zeros(4), 0)
expect_error(ValueError, "elements", shoal.all_reduce, out, np.ones(63, np.float32))
expect_error(TypeError, "is float32 but 'inp' is float64", shoal.all_reduce, out, np.ones(64))
expect_error(TypeError, "does not apply", shoal.all_reduce, out, heap_in, shoal.ReduceOp.BAND)

# ---- memory: collected arrays are freed collectively ---------------------------------
live0 = shoal.stats()["live_blocks"]
for i in range(300):   # 300 x 1 MiB would not fit a 64 MiB heap without frees
    t = shoal.empty(1 << 18, np.float32)
    t[:] = i
del t
shoal.barrier()
check(shoal.stats()["live_blocks"] <= live0 + 1, f"blocks pile up: {shoal.stats()}")
t = shoal.zeros((10, 10), np.int16)
check(not t.any(), "zeros is not zero")
shoal.free(t)
expect_error(ValueError, "not the start of a block", shoal.free, np.zeros(3))

# ---- point to point --------------------------------------------------------------
right, left = (me + 1) % n, (me - 1) % n
dst = poisoned(1000, np.float64)
shoal.barrier()
shoal.put(dst, data(me, "put", 1000, np.float64), right)
shoal.barrier()
same(dst, data(left, "put", 1000, np.float64), np.float64, "put from the left")
src = shoal.empty(500, np.int32)
src[:] = data(me, "get", 500, np.int32)
shoal.barrier()
got = np.full(500, -1, np.int32)
shoal.get(got, src, right)
same(got, data(right, "get", 500, np.int32), np.int32, "get from the right")

sig = shoal.zeros(1, np.uint64)
box = poisoned(300, np.uint16)
shoal.barrier()
shoal.put_signal(box, data(me, "sig", 300, np.uint16), sig, 7 + me, right)
v = shoal.signal_wait_until(sig, shoal.CMP_EQ, 7 + left)
check(v == 7 + left, f"signal {v}")
same(box, data(left, "sig", 300, np.uint16), np.uint16, "put_signal data")

ctr = shoal.zeros(4, np.int64)
shoal.barrier()
shoal.atomic_fetch_add(ctr, me + 1, 0, index=1)
shoal.atomic_inc(ctr, 0, index=2)
shoal.atomic_xor(ctr, 1 << me, 0, index=3)
shoal.barrier()
if me == 0:
    check(ctr[1] == n * (n + 1) // 2, f"fetch_add: {ctr[1]}")
    check(ctr[2] == n, f"inc: {ctr[2]}")
    check(ctr[3] == (1 << n) - 1, f"xor: {ctr[3]}")
shoal.barrier()
u = shoal.zeros(1, np.uint32)
shoal.barrier()
old = shoal.atomic_compare_swap(u, 0, me + 100, 0)
shoal.barrier()
winners = shoal.empty(n, np.int32)
shoal.all_gather_into_tensor(winners, np.array([1 if old == 0 else 0], np.int32))
check(winners.sum() == 1, f"compare_swap: {winners.sum()} winners")
check(shoal.atomic_fetch(u, 0) == 100 + int(np.flatnonzero(winners)[0]), "compare_swap value")
f = shoal.zeros(1, np.float64)
shoal.barrier()
if me == 0:
    shoal.atomic_set(f, 2.5, right)
shoal.barrier()
if me == right % n and n > 1 or n == 1:
    check(f[0] == 2.5, f"atomic_set float64: {f[0]}")
expect_error(TypeError, "atomics take", shoal.atomic_fetch_add, shoal.empty(1, np.int8), 1, 0)

# ptr: a view of the right neighbour's array, stored into directly
w = poisoned(64, np.int32)
shoal.barrier()
# SHOAL_PES_PER_NODE=k puts PEs on "nodes" of k: a peer on another node is
# reached through libfabric and has no load/store view (ptr gives None).
ppn = int(os.environ.get("SHOAL_PES_PER_NODE", "0") or 0)
def mapped(pe):
    return ppn <= 0 or pe // ppn == me // ppn
view = shoal.ptr(w, right)
if mapped(right):
    check(view is not None and view.shape == w.shape, "ptr of a mapped peer")
else:
    check(view is None, "ptr of a peer on another node is None")
if view is not None:
    view[:] = data(me, "ptr", 64, np.int32)
else:
    shoal.put(w, data(me, "ptr", 64, np.int32), right)
shoal.barrier()
same(w, data(left, "ptr", 64, np.int32), np.int32, "stores through ptr")
del view

# ---- torch tensors -------------------------------------------------------------------
try:
    import torch
except ImportError:
    torch = None
if torch is not None and os.environ.get("SHOAL_TEST_TORCH", "1") != "0":
    for tdt, ndt in ((torch.float32, "float32"), (torch.int64, "int64"), (torch.float16, "float16"),
                     (torch.bfloat16, None)):
        k = 1031
        base = [data(p, f"t{tdt}", (k,), "int64", -10**6, 10**6) if ndt == "int64" else
                data(p, f"t{tdt}", (k,), "float32") for p in world]
        ins = [torch.from_numpy(a).to(tdt) for a in base]
        out = shoal.empty(k, tdt)
        check(isinstance(out, torch.Tensor) and out.dtype == tdt, f"empty({tdt}) is a {type(out)}")
        out.fill_(-7)
        shoal.all_reduce(out, ins[me], shoal.ReduceOp.SUM)
        want = sum(a.to(torch.float64) for a in ins)
        tol = 3e-2 if tdt in (torch.float16, torch.bfloat16) else 1e-5
        ok = torch.allclose(out.to(torch.float64), want, rtol=tol, atol=tol)
        check(ok, f"torch all_reduce {tdt}")
        out2 = shoal.empty(k * n, tdt)
        shoal.all_gather_into_tensor(out2, ins[me])
        check(torch.equal(out2, torch.cat(ins)), f"torch all_gather {tdt}")
        mx = shoal.empty(k, tdt)
        shoal.all_reduce(mx, ins[me], shoal.ReduceOp.MAX)
        check(torch.equal(mx, torch.stack(ins).max(0).values), f"torch all_reduce MAX {tdt}")
    tv = shoal.zeros((4, 4), torch.int32)
    shoal.barrier()
    shoal.put(tv, torch.full((4, 4), me, dtype=torch.int32), right)
    shoal.barrier()
    check(bool((tv == left).all()), "torch put")
    pv = shoal.ptr(tv, right)
    if mapped(right):
        check(pv is not None and pv.shape == tv.shape and pv.dtype == tv.dtype, "torch ptr view")
    else:
        check(pv is None, "torch ptr of a peer on another node is None")
    if "RANK" in os.environ and torch.distributed.is_available():
        # beside torch.distributed (gloo) in the same job: the same answers
        import torch.distributed as dist
        dist.init_process_group("gloo")
        a = torch.from_numpy(data(me, "gloo", (555,), np.float64))
        ref = a.clone()
        dist.all_reduce(ref)
        out = shoal.empty(555, torch.float64)
        shoal.all_reduce(out, a)
        check(torch.allclose(out, ref), "shoal and gloo disagree")
        dist.destroy_process_group()

shoal.barrier()
bad = shoal.empty(1, np.int32)
bad[0] = len(FAILS)
total = shoal.empty(1, np.int32)
shoal.all_reduce(total, bad)
failures = int(total[0])   # read before finalize: the heap goes with it
if me == 0:
    print(f"test_shoal: {'FAIL' if failures else 'ok'} at {n} PEs ({failures} failures)", flush=True)
shoal.finalize()
sys.exit(1 if failures else 0)
