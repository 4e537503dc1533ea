"""Shoal from Python: NumPy arrays and torch tensors on the symmetric heap,
torch.distributed-style collectives, groups, and point-to-point operations.

    import shoal, numpy as np
    shoal.init()                      # or the first call does it
    x = shoal.empty((1024,), np.float32)
    x[:] = shoal.my_pe()
    shoal.all_reduce(x, x)            # out, inp
    tp = shoal.new_group(ranks=[0, 1, 2, 3])

Placement rules (see python/README.md):
  * An output that other PEs write (every collective's output, the dest of
    put, the target of an atomic, a signal) must be on the symmetric heap:
    allocate it with shoal.empty/zeros.  Anything else is an error.
  * An input other PEs only read may live anywhere: it is copied into a
    symmetric staging buffer first (copies of inputs that were not on the
    heap are counted: shoal.stats(), and printed with SHMEM_DEBUG=1).
  * Memory is freed collectively: a garbage-collected array's block is
    queued, and freed at the next shoal.empty/zeros or world barrier, once
    every PE has queued it (so every PE's heap stays identical).  shoal.free
    frees at once; every PE must call it on the same array, in the same
    order, and no view of the array may be used afterwards.
"""
import atexit
import enum
import os
import sys
import weakref

try:
    from . import _shoal
except ImportError:
    # The build tree: libtool keeps the module in .libs (the source tree's
    # package, or SHOAL_PYTHON_LIBS, names where).
    __path__.append(os.environ.get("SHOAL_PYTHON_LIBS") or os.path.join(os.path.dirname(__file__), ".libs"))
    from . import _shoal

__all__ = [
    "init", "init_with_uniqueid", "get_uniqueid", "finalize", "my_pe", "n_pes", "get_rank",
    "get_world_size", "empty", "zeros", "free", "on_heap", "ReduceOp", "Group", "new_group",
    "all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "all_to_all_single",
    "broadcast", "barrier", "put", "get", "put_signal", "signal_wait_until", "signal_fetch",
    "quiet", "fence", "atomic_fetch", "atomic_set", "atomic_swap", "atomic_compare_swap",
    "atomic_fetch_add", "atomic_add", "atomic_fetch_inc", "atomic_inc", "atomic_fetch_and",
    "atomic_and", "atomic_fetch_or", "atomic_or", "atomic_fetch_xor", "atomic_xor", "ptr",
    "ptr_address", "stats", "PlacementError", "CMP_EQ", "CMP_NE", "CMP_GT", "CMP_GE",
    "CMP_LT", "CMP_LE", "SIGNAL_SET", "SIGNAL_ADD",
]

CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_LT, CMP_LE = 1, 2, 3, 4, 5, 6
SIGNAL_SET, SIGNAL_ADD = 0, 1


class ReduceOp(enum.IntEnum):
    """torch.distributed.ReduceOp's names; every one Shoal reduces with."""
    SUM = 0
    PRODUCT = 1
    MIN = 2
    MAX = 3
    BAND = 4
    BOR = 5
    BXOR = 6


class PlacementError(ValueError):
    """Memory that peers write is not on the symmetric heap."""


# dtype name -> (code in _shoal's tables, bytes)
_DTYPES = {
    "int8": (0, 1), "int16": (1, 2), "int32": (2, 4), "int64": (3, 8),
    "uint8": (4, 1), "uint16": (5, 2), "uint32": (6, 4), "uint64": (7, 8),
    "float32": (8, 4), "float64": (9, 8), "float16": (10, 2), "bfloat16": (11, 2),
    "complex64": (12, 8), "complex128": (13, 16),
}
_TORCH_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
                  "int": "int32", "short": "int16", "cfloat": "complex64", "cdouble": "complex128"}
_DEBUG = os.environ.get("SHMEM_DEBUG", "0").lower() in ("1", "y", "yes", "true", "on")

_np = None
_torch = None


def _numpy():
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


def _torch_mod():
    global _torch
    if _torch is None:
        _torch = sys.modules.get("torch")
        if _torch is None:
            import torch
            _torch = torch
        _shoal.set_torch_dtypes({getattr(_torch, k): v[0] for k, v in _DTYPES.items()
                                 if hasattr(_torch, k)})
    return _torch


# ---- setup -----------------------------------------------------------------------
class _State:
    world = None          # Group
    scratch = 0           # symmetric: free-agreement exchange
    scratch_all = 0
    stage_addr = 0        # symmetric staging for inputs (host)
    stage_bytes = 0
    gpu_stage_addr = 0
    gpu_stage_bytes = 0
    seq = 0               # allocation count, the same on every PE
    blocks = {}           # seq -> (addr, nbytes, finalizer)
    by_addr = {}          # addr -> seq
    pending = []          # seqs whose arrays were collected
    copies_in = 0
    bytes_in = 0


_S = _State()
_FREE_BATCH = 255


def init():
    """Start Shoal (collective).  Under mpirun/oshrun it finds the job through
    PMIx; under torchrun through RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT."""
    if _shoal.state() == 1:
        return
    _shoal.init()
    _after_init()


def get_uniqueid():
    """Bytes for init_with_uniqueid: made on one rank, sent to all."""
    return _shoal.get_uniqueid()


def init_with_uniqueid(uid, rank, nranks):
    """Start Shoal from a unique id, for programs with their own communicator
    (e.g. torch.distributed.broadcast_object_list of get_uniqueid())."""
    _shoal.init_with_uniqueid(bytes(uid), rank, nranks)
    _after_init()


def _after_init():
    n = _shoal.n_pes()
    _S.world = Group(_shoal.team_world(), 0, 1, n)
    if "torch" in sys.modules:
        _torch_mod()   # the fast path learns torch's dtypes
    _S.scratch = _shoal.malloc(8 * (_FREE_BATCH + 1))
    _S.scratch_all = _shoal.malloc(8 * (_FREE_BATCH + 1) * n)
    atexit.register(finalize)


def _ensure():
    if _shoal.state() != 1:
        init()


def finalize():
    """End Shoal (collective).  Runs at exit by itself."""
    if _shoal.state() == 1:
        _shoal.finalize()


def my_pe():
    _ensure()
    return _shoal.my_pe()


def n_pes():
    _ensure()
    return _shoal.n_pes()


def get_rank(group=None):
    """This PE's rank in group (world by default); -1 outside it."""
    _ensure()
    return (group or _S.world).rank()


def get_world_size(group=None):
    _ensure()
    return (group or _S.world).size()


def stats():
    """Counters: inputs copied in from outside the heap, live blocks."""
    return {"copies_in": _S.copies_in, "bytes_copied_in": _S.bytes_in,
            "live_blocks": len(_S.blocks), "pending_frees": len(_S.pending)}


# ---- what a tensor is -----------------------------------------------------------
def _dtype_name(dtype):
    """A numpy dtype, a string, or a torch.dtype -> (name, is_torch)."""
    if isinstance(dtype, str):
        return dtype if dtype in _DTYPES else _numpy().dtype(dtype).name, False
    mod = type(dtype).__module__
    if mod == "torch":
        name = str(dtype)[6:]
        return _TORCH_ALIASES.get(name, name), True
    return _numpy().dtype(dtype).name, False


def _info(t, call, arg):
    """(address, nbytes, dtype name, numel, is_cuda) of a contiguous array."""
    tt = type(t)
    if tt.__module__ == "numpy":
        if not t.flags.c_contiguous:
            raise ValueError(f"shoal.{call}: argument '{arg}' is not contiguous")
        return t.__array_interface__["data"][0], t.nbytes, t.dtype.name, t.size, False
    if hasattr(t, "data_ptr") and hasattr(t, "is_contiguous"):
        if not t.is_contiguous():
            raise ValueError(f"shoal.{call}: argument '{arg}' is not contiguous")
        name = str(t.dtype)[6:]
        n = t.numel()
        return t.data_ptr(), n * t.element_size(), name, n, t.is_cuda
    raise TypeError(f"shoal.{call}: argument '{arg}' is a {tt.__name__}, not a NumPy array or a "
                    f"torch tensor")


def on_heap(t):
    """True when t lies in this PE's symmetric heap."""
    addr, nbytes, _, _, _ = _info(t, "on_heap", "t")
    return _shoal.accessible(addr, nbytes)


def _need_heap(call, arg, info):
    if not _shoal.accessible(info[0], info[1]):
        raise PlacementError(
            f"shoal.{call}: argument '{arg}' is not on the symmetric heap, and other PEs write "
            f"it: allocate it with shoal.empty (or shoal.zeros)")


# ---- symmetric memory -----------------------------------------------------------
def empty(shape, dtype="float32", device=None):
    """An uninitialized array on the symmetric heap (collective: every PE calls
    it with the same shape and dtype, in the same order).  dtype a NumPy dtype
    or name -> NumPy array; a torch.dtype or device given -> torch tensor
    (device "cuda": GPU builds, on this PE's GPU)."""
    _ensure()
    _reclaim()
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    name, want_torch = _dtype_name(dtype)
    if name not in _DTYPES:
        raise TypeError(f"shoal.empty: dtype {dtype!r} is not one Shoal handles "
                        f"({', '.join(_DTYPES)})")
    if name == "bfloat16":
        want_torch = True
    if _shoal.gpu and device is None:
        device = "cuda"   # a GPU build's heap is this PE's GPU memory
    cuda = device is not None and str(device).startswith("cuda")
    if _shoal.gpu and not cuda:
        raise RuntimeError(f"shoal.empty: device={device!r}: in a GPU build the symmetric heap is "
                           f"GPU memory (device='cuda')")
    if device is not None:
        want_torch = True
    if cuda and not _shoal.gpu:
        raise RuntimeError("shoal.empty: device='cuda' needs a GPU build of Shoal "
                           "(configure --with-cuda); this one is a CPU build")
    numel = 1
    for s in shape:
        numel *= s
    nbytes = numel * _DTYPES[name][1]
    addr = _shoal.malloc(nbytes)
    buf = _shoal.Buffer(addr, nbytes, _shoal.gpu_device() if cuda else -1)
    seq = _S.seq
    _S.seq += 1
    fin = weakref.finalize(buf, _S.pending.append, seq)
    fin.atexit = False
    _S.blocks[seq] = (addr, nbytes, fin)
    _S.by_addr[addr] = seq
    if want_torch:
        torch = _torch_mod()
        tdt = getattr(torch, name)
        if cuda:
            t = torch.as_tensor(buf, device=f"cuda:{_shoal.gpu_device()}")
        else:
            t = torch.frombuffer(buf, dtype=torch.uint8) if nbytes else torch.empty(0, dtype=torch.uint8)
        return t.view(tdt).reshape(shape)
    np = _numpy()
    return np.frombuffer(buf, dtype=np.dtype(name), count=numel).reshape(shape)


def zeros(shape, dtype="float32", device=None):
    """Like empty, filled with zeros."""
    t = empty(shape, dtype, device)
    if hasattr(t, "zero_"):
        t.zero_()
    else:
        t.fill(0)
    return t


def free(t):
    """Free t's block now (collective: every PE, the same array, the same
    order).  Views of t must not be used afterwards."""
    _ensure()
    addr = _info(t, "free", "t")[0]
    seq = _S.by_addr.get(addr)
    if seq is None:
        raise ValueError("shoal.free: argument 't' is not the start of a block from shoal.empty")
    _free_block(seq)


def _free_block(seq):
    addr, _, fin = _S.blocks.pop(seq)
    del _S.by_addr[addr]
    fin.detach()
    _shoal.free(addr)


def _reclaim():
    """Free the blocks every PE has collected (collective)."""
    if not _S.pending and _shoal.n_pes() == 1:
        return
    np = _numpy()
    n = _shoal.n_pes()
    mine = sorted(s for s in _S.pending if s in _S.blocks)[:_FREE_BATCH]
    if n == 1:
        agreed = mine
    else:
        k = _FREE_BATCH + 1
        row = np.zeros(k, np.int64)
        row[0] = len(mine)
        row[1:1 + len(mine)] = mine
        if _shoal.gpu:   # the heap is GPU memory: the blocking host calls copy
            _shoal.putget(0, _S.scratch, row.ctypes.data, 8 * k, _shoal.my_pe())
            _shoal.move(1, _S.world.handle, _S.scratch_all, _S.scratch, 8 * k, 0)
            table = np.zeros((n, k), np.int64)
            _shoal.putget(1, table.ctypes.data, _S.scratch_all, 8 * k * n, _shoal.my_pe())
        else:
            np.frombuffer(_shoal.Buffer(_S.scratch, 8 * k), dtype=np.int64)[:] = row
            _shoal.move(1, _S.world.handle, _S.scratch_all, _S.scratch, 8 * k, 0)
            table = np.frombuffer(_shoal.Buffer(_S.scratch_all, 8 * k * n),
                                  dtype=np.int64).reshape(n, k)
        agreed = set(mine)
        for r in range(n):
            agreed &= set(table[r, 1:1 + table[r, 0]].tolist())
        agreed = sorted(agreed)
    for s in agreed:
        _S.pending.remove(s)
        _free_block(s)


def _stage(nbytes, cuda):
    """The symmetric staging buffer, grown collectively (nbytes is the same on
    every PE, as the collectives require)."""
    if cuda:
        if nbytes > _S.gpu_stage_bytes:
            if _S.gpu_stage_addr:
                _torch_mod().cuda.synchronize()   # enqueued collectives may still read it
                _shoal.free(_S.gpu_stage_addr)
            size = max(nbytes, 1 << 16)
            _S.gpu_stage_addr = _shoal.gpu_malloc(size)
            _S.gpu_stage_bytes = size
            _shoal.set_gpu_fast(_stream_query(), _S.gpu_stage_addr, size)   # for fast_all_reduce
        return _S.gpu_stage_addr
    return _shoal.stage(nbytes)


def _copy_in(call, arg, info, cuda, stream=None):
    """Copy an input into staging; count it when it was off the heap."""
    addr, nbytes = info[0], info[1]
    st = _stage(nbytes, cuda)
    if not _shoal.accessible(addr, nbytes):
        _S.copies_in += 1
        _S.bytes_in += nbytes
        if _DEBUG:
            sys.stderr.write(f"shoal: PE {_shoal.my_pe()}: debug: shoal.{call}: argument '{arg}' "
                             f"is not on the symmetric heap: copied in ({nbytes} bytes; "
                             f"{_S.copies_in} copies so far)\n")
    if cuda:
        _shoal.gpu_memcpy(st, addr, nbytes, stream or _stream())
    else:
        _shoal.memcpy(st, addr, nbytes)
    return st


_stream_fn = None


def _stream_query():
    """(fn, device): fn(device) is the current stream of this PE's GPU as a raw
    handle (torch._C._cuda_getCurrentRawStream, as Triton gets it:
    torch.cuda.current_stream() builds a Python object on every call).  The
    C fast path calls the same pair."""
    global _stream_fn
    if _stream_fn is None:
        t, dev = _torch_mod(), _shoal.gpu_device()
        raw = getattr(t._C, "_cuda_getCurrentRawStream", None)
        _stream_fn = (raw or (lambda d: t.cuda.current_stream(d).cuda_stream), dev)
    return _stream_fn


def _stream():
    fn, dev = _stream_query()
    return fn(dev)


# ---- groups -----------------------------------------------------------------------
class Group:
    """A set of PEs start, start + stride, ... (size of them): a Shoal team.
    rank() is this PE's rank in the group (-1 outside it); ranks are group
    ranks, global_rank/group_rank translate."""

    def __init__(self, handle, start, stride, size):
        self.handle = handle
        self.start, self.stride, self._size = start, stride, size
        self.ranks = [start + i * stride for i in range(size)]

    def rank(self):
        return _shoal.team_my_pe(self.handle) if self.handle else -1

    def size(self):
        return self._size

    def global_rank(self, group_rank):
        if not 0 <= group_rank < self._size:
            raise ValueError(f"shoal.Group.global_rank: {group_rank} is not a rank of a group of "
                             f"{self._size}")
        return self.start + group_rank * self.stride

    def group_rank(self, global_rank):
        """The group rank of a global rank, or -1 when it is not a member."""
        d = global_rank - self.start
        if d < 0 or d % self.stride or d // self.stride >= self._size:
            return -1
        return d // self.stride

    def translate(self, group_rank, other=None):
        """group_rank in this group -> the rank in other (world by default)."""
        return _shoal.team_translate_pe(self.handle, group_rank, (other or _S.world).handle)

    def destroy(self):
        if self.handle and self is not _S.world:
            _shoal.team_destroy(self.handle)
            self.handle = 0

    def __repr__(self):
        return f"shoal.Group(ranks={self.ranks}, rank={self.rank()})"


def new_group(start=None, stride=1, size=None, ranks=None):
    """A group of world ranks (collective over the world: every PE calls it,
    members and others alike).  new_group(start, stride, size) or
    new_group(ranks=[0, 4, 8, 12]); the ranks must be evenly strided."""
    _ensure()
    n = _shoal.n_pes()
    if ranks is not None:
        ranks = [int(r) for r in ranks]
        if not ranks:
            raise ValueError("shoal.new_group: argument 'ranks' is empty")
        start = ranks[0]
        stride = ranks[1] - ranks[0] if len(ranks) > 1 else 1
        size = len(ranks)
        if stride <= 0 or ranks != [start + i * stride for i in range(size)]:
            raise ValueError(f"shoal.new_group: ranks {ranks} are not evenly strided and "
                             f"increasing: Shoal groups are teams start, start + stride, ... "
                             f"(shmem_team_split_strided)")
    if start is None or size is None:
        raise TypeError("shoal.new_group: give start, stride and size, or ranks=[...]")
    if size < 1 or stride < 1 or start < 0 or start + (size - 1) * stride >= n:
        raise ValueError(f"shoal.new_group: start={start}, stride={stride}, size={size} reaches "
                         f"outside the {n} PEs")
    return Group(_shoal.team_split_strided(_S.world.handle, start, stride, size), start, stride, size)


def _team(group, call):
    g = group or _S.world
    if not g.handle:
        raise ValueError(f"shoal.{call}: this PE ({_shoal.my_pe()}) is not in the group "
                         f"{g.ranks}")
    return g


# ---- collectives -------------------------------------------------------------------
def _op_code(op):
    if isinstance(op, ReduceOp):
        return int(op)
    name = getattr(op, "name", None) or str(op).split(".")[-1]
    try:
        return int(ReduceOp[name.upper()])
    except KeyError:
        raise ValueError(f"shoal: ReduceOp {op!r} is not one Shoal has "
                         f"({', '.join(o.name for o in ReduceOp)})") from None


def _code(call, name):
    c = _DTYPES.get(name)
    if c is None:
        raise TypeError(f"shoal.{call}: dtype {name} is not one Shoal reduces")
    return c[0]


def _pair(call, out, inp, ratio_out=1, ratio_in=1):
    """Check out (on the heap) against inp; returns both infos."""
    o = _info(out, call, "out")
    _need_heap(call, "out", o)
    i = o if inp is None or inp is out else _info(inp, call, "inp")
    if i[2] != o[2]:
        raise TypeError(f"shoal.{call}: 'out' is {o[2]} but 'inp' is {i[2]}")
    if o[3] * ratio_out != i[3] * ratio_in:
        want = "as many as 'inp'" if ratio_in == ratio_out else (
            f"{ratio_in} times 'inp'" if ratio_in > 1 else f"1/{ratio_out} of 'inp'")
        raise ValueError(f"shoal.{call}: 'out' has {o[3]} elements and 'inp' {i[3]}: 'out' "
                         f"needs {want}")
    if i[4] != o[4]:
        raise ValueError(f"shoal.{call}: 'out' and 'inp' must both be on the GPU or both on the CPU")
    return o, i


def all_reduce(out, inp=None, op=ReduceOp.SUM, group=None):
    """out = op over the group's inp (inp None or out: in place)."""
    # The common case (host arrays on the heap) runs in C, in one call.
    r = _shoal.fast_all_reduce(out, inp, op, group.handle if group else None)
    if r is not NotImplemented:
        return r
    _ensure()
    g = _team(group, "all_reduce")
    o, i = _pair("all_reduce", out, inp)
    code, opc = _code("all_reduce", o[2]), _op_code(op)
    st = _stream() if o[4] else None
    src = _copy_in("all_reduce", "inp", i, o[4], st)
    if o[4]:
        _shoal.gpu_reduce(g.handle, code, opc, o[0], src, o[3], 0, st)
    else:
        _shoal.reduce(g.handle, code, opc, o[0], src, o[3], 0)
    return out


def reduce_scatter_tensor(out, inp, op=ReduceOp.SUM, group=None):
    """out (n elements) = op over the group of inp[rank * n : (rank + 1) * n]."""
    _ensure()
    g = _team(group, "reduce_scatter_tensor")
    o, i = _pair("reduce_scatter_tensor", out, inp, g.size(), 1)
    code, opc = _code("reduce_scatter_tensor", o[2]), _op_code(op)
    st = _stream() if o[4] else None
    src = _copy_in("reduce_scatter_tensor", "inp", i, o[4], st)
    if o[4]:
        _shoal.gpu_reduce(g.handle, code, opc, o[0], src, o[3], 1, st)
    else:
        _shoal.reduce(g.handle, code, opc, o[0], src, o[3], 1)
    return out


def all_gather_into_tensor(out, inp, group=None):
    """out = the group's inps, concatenated in group-rank order."""
    _ensure()
    g = _team(group, "all_gather_into_tensor")
    o, i = _pair("all_gather_into_tensor", out, inp, 1, g.size())
    src = _copy_in("all_gather_into_tensor", "inp", i, o[4])
    _move(1, g, o, src, i[1], 0)
    return out


def all_to_all_single(out, inp, group=None):
    """Block j of inp goes to group rank j; block j of out comes from it."""
    _ensure()
    g = _team(group, "all_to_all_single")
    o, i = _pair("all_to_all_single", out, inp)
    if o[3] % g.size():
        raise ValueError(f"shoal.all_to_all_single: {o[3]} elements do not split into "
                         f"{g.size()} equal blocks")
    src = _copy_in("all_to_all_single", "inp", i, o[4])
    _move(2, g, o, src, o[1] // g.size(), 0)
    return out


def broadcast(t, src, group=None, group_src=None):
    """t on every member = t on global rank src (as torch.distributed: src
    is a global rank; or pass group_src, a rank in the group)."""
    _ensure()
    g = _team(group, "broadcast")
    if group_src is None:
        group_src = g.group_rank(src)
        if group_src < 0:
            raise ValueError(f"shoal.broadcast: src={src} (a global rank) is not in the group "
                             f"{g.ranks}; to name a rank within the group pass group_src")
    elif not 0 <= group_src < g.size():
        raise ValueError(f"shoal.broadcast: group_src={group_src} is not a rank of a group of "
                         f"{g.size()}")
    o = _info(t, "broadcast", "t")
    _need_heap("broadcast", "t", o)
    if g.rank() == group_src:
        st = _copy_in("broadcast", "t", o, o[4])
    else:
        st = _stage(o[1], o[4])
    _move(0, g, o, st, o[1], group_src)
    return t


def _move(which, g, o, src, nbytes, root):
    if o[4]:
        _shoal.gpu_move(which, g.handle, o[0], src, nbytes, root, _stream())
    else:
        _shoal.move(which, g.handle, o[0], src, nbytes, root)


def barrier(group=None):
    """Completes this PE's puts, then waits for the group.  A world barrier
    also frees the blocks every PE has collected."""
    _ensure()
    g = _team(group, "barrier")
    if _shoal.gpu and _torch is not None:
        _torch.cuda.current_stream().synchronize()   # collectives enqueued before it
    if g is _S.world:
        _reclaim()
    _shoal.team_sync(g.handle)


# ---- point to point ---------------------------------------------------------------
def _elem(call, arg, t, index, heap):
    a, nbytes, name, numel, cuda = _info(t, call, arg)
    if heap:
        _need_heap(call, arg, (a, nbytes))
    if not 0 <= index < max(numel, 1):
        raise IndexError(f"shoal.{call}: index {index} is outside '{arg}' ({numel} elements)")
    return a + index * _DTYPES[name][1], name


def put(dest, src, pe):
    """Copy src (anywhere) into dest (on the heap) on PE pe.  Completes at
    quiet() or barrier()."""
    _ensure()
    d = _info(dest, "put", "dest")
    _need_heap("put", "dest", d)
    s = _info(src, "put", "src")
    if s[1] > d[1]:
        raise ValueError(f"shoal.put: 'src' has {s[1]} bytes, 'dest' only {d[1]}")
    _shoal.putget(0, d[0], s[0], s[1], pe)


def get(dest, src, pe):
    """Copy src (on the heap) of PE pe into dest (anywhere)."""
    _ensure()
    s = _info(src, "get", "src")
    _need_heap("get", "src", s)
    d = _info(dest, "get", "dest")
    if s[1] > d[1]:
        raise ValueError(f"shoal.get: 'src' has {s[1]} bytes, 'dest' only {d[1]}")
    _shoal.putget(1, d[0], s[0], s[1], pe)


def put_signal(dest, src, signal, value, pe, sig_op=SIGNAL_SET, index=0):
    """put, then set (or add to) signal[index] (a uint64 heap array) on pe,
    after the data."""
    _ensure()
    d = _info(dest, "put_signal", "dest")
    _need_heap("put_signal", "dest", d)
    s = _info(src, "put_signal", "src")
    if s[1] > d[1]:
        raise ValueError(f"shoal.put_signal: 'src' has {s[1]} bytes, 'dest' only {d[1]}")
    sa, name = _elem("put_signal", "signal", signal, index, True)
    if name != "uint64":
        raise TypeError("shoal.put_signal: 'signal' must be uint64")
    _shoal.put_signal(d[0], s[0], s[1], sa, value, sig_op, pe)


def signal_wait_until(signal, cmp, value, index=0):
    """Wait until signal[index] cmp value; returns the signal's value."""
    _ensure()
    sa, name = _elem("signal_wait_until", "signal", signal, index, True)
    if name != "uint64":
        raise TypeError("shoal.signal_wait_until: 'signal' must be uint64")
    return _shoal.signal_wait_until(sa, cmp, value)


def signal_fetch(signal, index=0):
    return atomic_fetch(signal, _shoal.my_pe(), index)


def quiet():
    _ensure()
    _shoal.quiet()


def fence():
    _ensure()
    _shoal.quiet(1)


def _amo(op, call, t, pe, value=0, cond=0, index=0):
    _ensure()
    a, name = _elem(call, "t", t, index, True)
    return _shoal.atomic(op, _DTYPES[name][0], a, value, cond, pe)


def atomic_fetch(t, pe, index=0): return _amo(0, "atomic_fetch", t, pe, index=index)
def atomic_set(t, value, pe, index=0): return _amo(1, "atomic_set", t, pe, value, index=index)
def atomic_swap(t, value, pe, index=0): return _amo(2, "atomic_swap", t, pe, value, index=index)
def atomic_compare_swap(t, cond, value, pe, index=0):
    return _amo(3, "atomic_compare_swap", t, pe, value, cond, index)
def atomic_fetch_add(t, value, pe, index=0): return _amo(4, "atomic_fetch_add", t, pe, value, index=index)
def atomic_add(t, value, pe, index=0): return _amo(5, "atomic_add", t, pe, value, index=index)
def atomic_fetch_inc(t, pe, index=0): return _amo(4, "atomic_fetch_inc", t, pe, 1, index=index)
def atomic_inc(t, pe, index=0): return _amo(5, "atomic_inc", t, pe, 1, index=index)
def atomic_fetch_and(t, value, pe, index=0): return _amo(6, "atomic_fetch_and", t, pe, value, index=index)
def atomic_and(t, value, pe, index=0): return _amo(7, "atomic_and", t, pe, value, index=index)
def atomic_fetch_or(t, value, pe, index=0): return _amo(8, "atomic_fetch_or", t, pe, value, index=index)
def atomic_or(t, value, pe, index=0): return _amo(9, "atomic_or", t, pe, value, index=index)
def atomic_fetch_xor(t, value, pe, index=0): return _amo(10, "atomic_fetch_xor", t, pe, value, index=index)
def atomic_xor(t, value, pe, index=0): return _amo(11, "atomic_xor", t, pe, value, index=index)


def ptr_address(t, pe):
    """The address of t's counterpart on PE pe as this process may load and
    store it (a GPU address for GPU tensors), or 0 when pe is not mapped."""
    _ensure()
    o = _info(t, "ptr", "t")
    _need_heap("ptr", "t", o)
    return _shoal.ptr(o[0], pe)


def ptr(t, pe):
    """A view of t's counterpart on PE pe (same shape and dtype), for loads
    and stores straight into the peer's memory (e.g. from a Triton kernel),
    or None when pe is not mapped.  Valid while t is."""
    addr = ptr_address(t, pe)
    if not addr:
        return None
    o = _info(t, "ptr", "t")
    buf = _shoal.Buffer(addr, o[1], _shoal.gpu_device() if o[4] else -1)
    if type(t).__module__ == "numpy":
        np = _numpy()
        return np.frombuffer(buf, dtype=t.dtype, count=t.size).reshape(t.shape)
    torch = _torch_mod()
    if o[4]:
        v = torch.as_tensor(buf, device=t.device)
    else:
        v = torch.frombuffer(buf, dtype=torch.uint8) if o[1] else torch.empty(0, dtype=torch.uint8)
    return v.view(t.dtype).reshape(t.shape)
