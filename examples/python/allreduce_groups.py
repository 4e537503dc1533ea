"""All-reduce over tensor-parallel (TP) and data-parallel (DP) groups, as a
model-parallel job arranges them: with 4 PEs and TP=2, TP groups [0,1] [2,3]
and DP groups [0,2] [1,3] (with 16 PEs and TP=4: DP [0,4,8,12], ...).

    mpirun -np 4 python3 examples/python/allreduce_groups.py
    python3 -m torch.distributed.run --standalone --nproc_per_node 4 \\
        --redirects 1 --tee 1 examples/python/allreduce_groups.py
"""
import os

import numpy as np

import shoal

shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
tp_size = int(os.environ.get("TP", "2" if n % 2 == 0 else "1"))
assert n % tp_size == 0, "TP must divide the number of PEs"

# Every PE creates every group (a collective over the world); each PE
# keeps the ones it belongs to.
tp_groups = [shoal.new_group(start=s, stride=1, size=tp_size) for s in range(0, n, tp_size)]
dp_groups = [shoal.new_group(ranks=list(range(s, n, tp_size))) for s in range(tp_size)]
tp = next(g for g in tp_groups if g.rank() >= 0)
dp = next(g for g in dp_groups if g.rank() >= 0)

# TP: partial activations summed across the TP group (a row-parallel layer).
partial = shoal.empty(8, np.float32)
partial[:] = np.arange(8, dtype=np.float32) * (me + 1)
shoal.all_reduce(partial, op=shoal.ReduceOp.SUM, group=tp)
want = np.arange(8, dtype=np.float32) * sum(r + 1 for r in tp.ranks)
assert np.allclose(partial, want)

# DP: gradients averaged across the DP group; the input may live off the heap.
grad = np.full(8, float(me), np.float32)
avg = shoal.empty(8, np.float32)
shoal.all_reduce(avg, grad, group=dp)
avg /= dp.size()
assert np.allclose(avg, np.mean(dp.ranks))

# broadcast names a global rank, as torch.distributed does
w = shoal.empty(4, np.int64)
w[:] = me
shoal.broadcast(w, src=dp.ranks[0], group=dp)
assert (w == dp.ranks[0]).all()

print(f"PE {me}: TP group {tp.ranks} (rank {tp.rank()}), DP group {dp.ranks} (rank {dp.rank()}): ok",
      flush=True)
