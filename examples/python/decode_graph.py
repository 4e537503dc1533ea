"""A decode-style loop captured in a CUDA graph: each step does a small
matmul (a row-parallel layer's partial result), Shoal's all_reduce of it
over the tensor-parallel group, and the next token's input from the sum.
The whole step is captured once with torch.cuda.graph and replayed per
token, so a step costs no host work (seed 004: vLLM's use).  Needs a CUDA
build of Shoal and torch with CUDA.

    mpirun -np 2 python3 examples/python/decode_graph.py
"""
import torch

import shoal
from shoal import _shoal

shoal.init()
me, n = shoal.my_pe(), shoal.n_pes()
torch.cuda.set_device(_shoal.gpu_device())
torch.manual_seed(1234 + me)
hidden, steps = 4096, 100
w = torch.randn(hidden, hidden, device="cuda") / hidden ** 0.5   # this PE's shard
x = torch.zeros(1, hidden, device="cuda")                        # the step's input
y = shoal.empty((1, hidden), torch.float32)                      # peers write it: on the heap


def step():
    partial = x @ w
    shoal.all_reduce(y, partial)              # enqueued on the current stream
    x.copy_(torch.tanh(y))


x.normal_()
step()                                        # warm-up: sizes the staging buffer
torch.cuda.synchronize()
graph = torch.cuda.CUDAGraph()
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.cuda.graph(graph):
    step()
torch.cuda.current_stream().wait_stream(s)

x.normal_()
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
for _ in range(steps):
    graph.replay()
end.record()
torch.cuda.synchronize()
if me == 0:
    print(f"{steps} graph-replayed decode steps on {n} PEs: "
          f"{start.elapsed_time(end) / steps * 1000:.1f} us per step", flush=True)
