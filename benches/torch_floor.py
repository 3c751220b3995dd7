#!/usr/bin/env python3
"""The peer side of `dispatch_floor`: the GPU time of a kernel that does (almost) nothing, K of
them replayed from one CUDA graph, divided by K: CUDA's floor under a one-kernel operation.

    python3 benches/torch_floor.py --k 1,10,100 --groups 1,32,256 --repeat 50

Each kernel is `x.add_(1)` on an int32 tensor of 64 x groups elements (one block of torch's
elementwise kernel per 64 x 4 elements or fewer, so `groups` sets how wide it is only roughly);
every kernel writes the same tensor, so each depends on the one before it, as `dependent` does
on our side. Figures, each the median of `repeat` runs after warm-up:
  graph us   one replay of the graph of K kernels between two CUDA events, divided by K
  batch us   K eager calls between two events, divided by K (Python's launch rate)
The tensor is read back at the end and checked against the number of kernels that ran.
"""
import argparse
import statistics
import sys

import torch

from torch_peer import capture, events_time, warm_up  # same directory


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--k", default="1,10,100")
    p.add_argument("--groups", default="1,32,256")
    p.add_argument("--repeat", type=int, default=50)
    a = p.parse_args()
    print(f"peer: torch {torch.__version__} on {torch.cuda.get_device_name()}")
    print("groups,k,graph_us,batch_us")
    for groups in (int(v) for v in a.groups.split(",")):
        for k in (int(v) for v in a.k.split(",")):
            x = torch.zeros(64 * groups, device="cuda", dtype=torch.int32)
            g = capture(lambda: x.add_(1), k)  # 3 calls run, k captured
            ran = 3

            def call():
                nonlocal ran
                x.add_(1)
                ran += 1

            def replay():
                nonlocal ran
                g.replay()
                ran += k

            warm_up(replay)
            graph = statistics.median(events_time(replay, 1) for _ in range(a.repeat)) / k
            warm_up(call)
            batch = statistics.median(events_time(call, k) for _ in range(a.repeat))
            torch.cuda.synchronize()
            got = x.min().item(), x.max().item()
            if got != (ran, ran):
                print(f"error: the tensor holds {got}, {ran} kernels added to it", file=sys.stderr)
                sys.exit(1)
            print(f"{groups},{k},{graph:.3f},{batch:.3f}")


if __name__ == "__main__":
    main()
