#!/usr/bin/env python3
"""The peer side of the scan benchmark: times torch.cumsum / cummin / cummax (CUDA) along the last
axis on the shapes `examples/scan` measures, the same ways, and the device copy ceiling.

    python3 benches/torch_scan.py --shape 268435456 --dtype f32 --op add --repeat 30 --batch 10

Figures, each the median of `repeat` runs after warm-up, on random data:
  gpu us      one scan between two CUDA events
  batch us    `batch` back-to-back scans between two events, divided by `batch`
  graph us    the same `batch` scans captured once into a CUDA graph, one replay between two
              events, divided by `batch`: the GPU's time without Python's launch rate
  streams us  the same, the scans spread over `--streams` streams of the graph (default 10), so
              that they need not wait for each other (as the scans of our batch, which share
              no array, need not)
  latency us  host to host: the scan and a synchronisation (perf_counter)
  GB/s        bytes read + written (input and output sizes), like the copy
  copy GB/s   `y.copy_(x)` of the input's bytes, counting read + written (the ceiling)
With --kernels, instead: the CUDA kernels one scan of each shape launches, each with its own
GPU time (torch.profiler, one profiled call after three unprofiled ones).
Integer sums keep the input type (`dtype=` argument; torch's default would widen int32 to int64);
u32 runs as int32 (same bits, same wrapping sum) where torch lacks uint32 kernels.
"""
import argparse
import statistics
import sys
import time

import torch

from torch_peer import events_time, graph_time, warm_up  # same directory: the timing both peer scripts share


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="1048576,16777216,67108864,268435456",
                   help="shapes like 268435456 or 8192x8192 (comma-separated)")
    p.add_argument("--dtype", default="f32", choices=["f32", "i32", "u32", "f16", "bf16"])
    p.add_argument("--op", default="add", choices=["add", "min", "max"])
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--batch", type=int, default=10)
    p.add_argument("--streams", type=int, default=10)
    p.add_argument("--csv")
    p.add_argument("--kernels", action="store_true",
                   help="list the kernels of one scan of each shape and their GPU times")
    return p.parse_args()


def make(shape, dtype):
    if dtype in ("f32", "f16", "bf16"):
        t = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype]
        return (torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1).to(t)
    return torch.randint(-(2**31), 2**31 - 1, shape, device="cuda", dtype=torch.int64).to(torch.int32)


def scan_fn(op, x):
    if op == "add":
        if x.is_floating_point():
            # f16/bf16 accumulate and return f32, as ours do.
            return lambda: torch.cumsum(x, dim=-1, dtype=torch.float32)
        return lambda: torch.cumsum(x, dim=-1, dtype=x.dtype)
    f = torch.cummin if op == "min" else torch.cummax
    return lambda: f(x, dim=-1).values


def kernels(op, dtype, shapes):
    """Prints the CUDA kernels one scan of each shape runs, with their GPU times."""
    from torch.profiler import ProfilerActivity, profile
    for shape in shapes:
        f = scan_fn(op, make(shape, dtype))
        for _ in range(3):
            f()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA], acc_events=True) as prof:
            f()
            torch.cuda.synchronize()
        print("x".join(map(str, shape)))
        for e in prof.events():
            if e.device_type == torch.autograd.DeviceType.CUDA:
                print(f"  {e.device_time:8.2f} us  {e.name[:120]}")


def main():
    a = parse()
    shapes = [[int(d) for d in s.split("x")] for s in a.shape.split(",")]
    if a.kernels:
        return kernels(a.op, a.dtype, shapes)
    print(f"peer: torch {torch.__version__} on {torch.cuda.get_device_name()} | scan {a.op} | "
          f"dtype {a.dtype} | repeat {a.repeat} | batch {a.batch}")
    print(f"{'shape':>16} {'gpu us':>9} {'GB/s':>8} {'batch us':>9} {'GB/s':>8} {'latency us':>11} {'copy GB/s':>10} {'graph us':>9} {'streams us':>10}")
    rows = []
    for shape in shapes:
        x = make(shape, a.dtype)
        f = scan_fn(a.op, x)
        r = f()
        y = torch.empty_like(x)
        nbytes = x.numel() * x.element_size() + r.numel() * r.element_size()
        warm_up(lambda: (f(), y.copy_(x)))
        gpu = statistics.median(events_time(f, 1) for _ in range(a.repeat))
        batch = statistics.median(events_time(f, a.batch) for _ in range(a.repeat))
        lat = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            f()
            torch.cuda.synchronize()
            lat.append((time.perf_counter() - t0) * 1e6)
        latency = statistics.median(lat)
        copy = statistics.median(events_time(lambda: y.copy_(x), a.batch) for _ in range(a.repeat))
        copy_gbps = 2 * x.numel() * x.element_size() / copy / 1e3
        graph = graph_time(f, a.batch, a.repeat)
        streams = graph_time(f, a.batch, a.repeat, a.streams)
        shape_s = "x".join(map(str, shape))
        print(f"{shape_s:>16} {gpu:>9.1f} {nbytes / gpu / 1e3:>8.1f} {batch:>9.1f} {nbytes / batch / 1e3:>8.1f} "
              f"{latency:>11.1f} {copy_gbps:>10.1f} {graph:>9.1f} {streams:>10.1f}")
        n = x.numel()
        rows.append(f"torch,{a.op},{a.dtype},{n},{latency:.3f},{gpu:.3f},{batch:.3f},,True,{shape_s},cumsum,{copy_gbps:.1f},{graph:.3f},{streams:.3f}")
        del x, y, r
        torch.cuda.empty_cache()
    if a.csv:
        with open(a.csv, "a") as fh:
            fh.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
