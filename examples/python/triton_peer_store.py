"""A Triton kernel that stores straight into a peer's symmetric heap: each
PE writes its block into its right neighbour's `inbox` through the view
shoal.ptr(inbox, peer) (the peer's memory as this GPU maps it), then a
barrier makes the stores visible.  Needs a CUDA build of Shoal, torch with
CUDA and Triton; run on a machine whose GPUs map each other (NVLink/P2P).

    mpirun -np 2 python3 examples/python/triton_peer_store.py
"""
import torch
import triton
import triton.language as tl

import shoal
from shoal import _shoal


@triton.jit
def store_to_peer(src_ptr, peer_dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src_ptr + offs, mask=mask)
    tl.store(peer_dst_ptr + offs, x * 2.0 + 1.0, mask=mask)   # any elementwise epilogue


shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
torch.cuda.set_device(_shoal.gpu_device())
count = 1 << 20
inbox = shoal.zeros(count, torch.float32)          # symmetric: every PE has one
src = torch.randn(count, device="cuda")
peer = (me + 1) % n
peer_inbox = shoal.ptr(inbox, peer)                 # a tensor over the peer's inbox
assert peer_inbox is not None, f"PE {peer} is not mapped from PE {me}"
shoal.barrier()
grid = (triton.cdiv(count, 1024),)
store_to_peer[grid](src, peer_inbox, count, BLOCK=1024)
torch.cuda.synchronize()
shoal.barrier()                                     # every PE's stores are done

# Check: my inbox holds my left neighbour's src * 2 + 1.
left = (me - 1) % n
srcs = shoal.empty(n * count, torch.float32)
shoal.all_gather_into_tensor(srcs, src)
want = srcs[left * count:(left + 1) * count] * 2.0 + 1.0
assert torch.allclose(inbox, want), "inbox differs"
print(f"PE {me}: Triton stored {count} floats into PE {peer}'s heap: ok", flush=True)
