"""shoal.get_uniqueid / shoal.init_with_uniqueid: rank 0 makes the id and
passes it through a file (as torch.distributed.broadcast_object_list would);
then an all_reduce of fresh random data checks the job.  Rank and size from
RANK / WORLD_SIZE (tests/env-run.sh)."""
import os
import sys
import time

import numpy as np

import shoal

rank, n = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
path = f"/tmp/shoal-pyuid-{os.environ['MASTER_PORT']}-{os.getuid()}"
if rank == 0:
    with open(path + ".tmp", "wb") as f:
        f.write(shoal.get_uniqueid())
    os.rename(path + ".tmp", path)
else:
    for _ in range(6000):
        if os.path.exists(path):
            break
        time.sleep(0.01)
uid = open(path, "rb").read()
shoal.init_with_uniqueid(uid, rank, n)
if rank == 0:
    os.unlink(path)
assert shoal.my_pe() == rank and shoal.n_pes() == n
seed = shoal.empty(1, np.int64)
seed[0] = int.from_bytes(os.urandom(4), "little")
shoal.broadcast(seed, 0)
ins = [np.random.default_rng([int(seed[0]), p]).integers(-1000, 1000, 5000) for p in range(n)]
out = shoal.empty(5000, np.int64)
out[:] = -7
shoal.all_reduce(out, ins[rank])
ok = np.array_equal(out, sum(ins))
try:
    shoal.init_with_uniqueid(b"x" * 10, 0, 1)
    ok = False
except ValueError as e:
    ok = ok and "128" in str(e)
print(f"test_uid.py: PE {rank} of {n}: {'ok' if ok else 'FAIL'}", flush=True)
sys.exit(0 if ok else 1)
