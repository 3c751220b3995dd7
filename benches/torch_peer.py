#!/usr/bin/env python3
"""The peer side of our benchmarks: times PyTorch (CUDA) reductions on the sizes that
`examples/sum` measures, the same three ways, and the device-to-device copy ceiling.

    python3 benches/torch_peer.py --n 4194304,16777216,67108864 --dtype f32 --op sum \
        --repeat 50 --batch 10 --csv peer.csv
    python3 benches/torch_peer.py --shape 8192x8192,3x16777216 --axis 0 --op argmax --dtype f16
    python3 benches/torch_peer.py --suite benches/speed_suite.txt --csv peer.csv   (for `speed`)

Figures, each the median of `repeat` runs after warm-up, on random data:
  gpu us      one reduction between two CUDA events
  batch us    `batch` back-to-back reductions between two events, divided by `batch`
              (torch: K calls then one synchronisation; ours: K reductions in one submission)
  graph us    the same K calls captured once into a CUDA graph, one replay between two events,
              divided by K: torch's GPU time without Python's launch rate (NaN where the
              capture fails)
  streams us  the same, the K calls spread over 10 streams of the graph, so that they need not
              wait for each other (as our batch's reductions, which share no array, need not);
              the CSV's last column
  latency us  host to host: `x.sum().item()` on data already on the GPU (perf_counter);
              `.cpu()` for results along axes
  copy GB/s   `y.copy_(x)` of the same bytes, counting bytes read + written (the ceiling)
"""
import argparse
import os
import statistics
import sys
import time

import torch


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--n", default=",".join(str(s * s) for s in (2048, 4096, 8192)))
    p.add_argument("--dtype", default="f32", choices=["f32", "i32", "u32", "f16", "bf16"])
    p.add_argument("--shape", help="shapes like 8192x8192,3x1048576 (instead of --n)")
    p.add_argument("--axis", help="axes to reduce, like 0 or 0,1 (default: all)")
    p.add_argument("--op", default="sum", choices=list(op_fn("sum", None, names=True)))
    p.add_argument("--repeat", type=int, default=50)
    p.add_argument("--batch", type=int, default=10)
    p.add_argument("--csv")
    p.add_argument("--suite", help="a suite file (benches/speed_suite.txt): one reduction per line, "
                   "op dtype shape axes batch; replaces --n/--shape/--axis/--op/--dtype/--batch")
    return p.parse_args()


def read_suite(path):
    """(op, dtype, shape, axes or None, batch) for each line of a suite file."""
    out = []
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        op, dtype, shape, axes, batch = line.split()
        out.append((op, dtype, [int(d) for d in shape.split("x")],
                    None if axes == "all" else [int(v) for v in axes.split(";")], int(batch)))
    return out


TORCH_DTYPE = {"f32": torch.float32, "i32": torch.int32, "u32": torch.uint32,
               "f16": torch.float16, "bf16": torch.bfloat16}


def make(shape, dtype):
    if dtype in ("f32", "f16", "bf16"):
        return (torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1).to(TORCH_DTYPE[dtype])
    x = torch.randint(-(2**31), 2**31 - 1, shape, device="cuda", dtype=torch.int64)
    if dtype == "u32":
        return (x & 0xFFFFFFFF).to(torch.int64).to(torch.uint32) if hasattr(torch, "uint32") else x.to(torch.int32)
    return x.to(torch.int32)


def op_fn(op, axes, names=False):
    """The torch call for `op` over `axes` (None: all); with names, every op's name."""
    d = {} if axes is None else {"dim": axes if len(axes) > 1 else axes[0]}
    one = {} if axes is None else {"dim": axes[0]}
    every = lambda x: {"dim": tuple(range(x.dim()))} if axes is None else d
    fl = lambda x: x if x.is_floating_point() else x.float()
    flat = lambda x: x.reshape(-1)
    fns = {
        "sum": lambda x: x.sum(**d),
        "prod": lambda x: x.prod(**one),
        "min": lambda x: x.amin(**d),
        "max": lambda x: x.amax(**d),
        "mean": lambda x: fl(x).mean(**d),
        "var": lambda x: fl(x).var(**d),
        "std": lambda x: fl(x).std(**d),
        "argmin": lambda x: x.argmin(**one),
        "argmax": lambda x: x.argmax(**one),
        # The further reductions (ours: the same names of ReduceOp).
        "nansum": lambda x: torch.nansum(x, **d),
        "nanmean": lambda x: torch.nanmean(fl(x), **d),
        "any": lambda x: x.any(**one) if axes else x.any(),
        "all": lambda x: x.all(**one) if axes else x.all(),
        "count_nonzero": lambda x: torch.count_nonzero(x, **d),
        "logsumexp": lambda x: torch.logsumexp(fl(x), **every(x)),
        "aminmax": lambda x: torch.aminmax(x, **one),
        "norm1": lambda x: torch.linalg.vector_norm(fl(x), 1, **d),
        "norm2": lambda x: torch.linalg.vector_norm(fl(x), 2, **d),
        "norm_inf": lambda x: torch.linalg.vector_norm(fl(x), float("inf"), **d),
        # The dot product of the array with itself (both inputs read), as ours measures it.
        "dot": lambda x: torch.dot(flat(x), flat(x)) if axes is None else (x * x).sum(**d),
    }
    return fns if names else fns[op]


def events_time(fn, k):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(k):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / k  # microseconds


def warm_up(fn):
    """Runs `fn` (then synchronizes) for WGPU_REDUCE_WARM_MS (default 500 ms), as the Rust side
    warms each case: the driver lowers the SM clock when the GPU idles."""
    warm = float(os.environ.get("WGPU_REDUCE_WARM_MS", "500")) / 1e3
    start = time.perf_counter()
    while True:
        fn()
        torch.cuda.synchronize()
        if time.perf_counter() - start >= warm:
            return


def capture(f, k, streams=1):
    """A CUDA graph of `k` calls of `f` (after 3 calls on a side stream, as capture needs). With
    `streams` > 1, call i runs on stream i % streams, each forked from the capturing stream and
    joined back at the end: calls on different streams do not wait for each other."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            f()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    forks = [torch.cuda.Stream() for _ in range(streams)] if streams > 1 else []
    with torch.cuda.graph(g):
        here = torch.cuda.current_stream()
        for s in forks:
            s.wait_stream(here)
        for i in range(k):
            if forks:
                with torch.cuda.stream(forks[i % streams]):
                    f()
            else:
                f()
        for s in forks:
            here.wait_stream(s)
    return g


def graph_time(f, k, repeat, streams=1):
    """Median time of one replay of a CUDA graph of `k` calls of `f` (on `streams` streams, see
    `capture`), divided by `k` (µs); NaN, with a message, where the capture fails."""
    try:
        g = capture(f, k, streams)
    except RuntimeError as e:
        print(f"graph capture failed: {e}", file=sys.stderr)
        return float("nan")
    warm_up(g.replay)
    return statistics.median(events_time(g.replay, 1) for _ in range(repeat)) / k


# Streams of the graph that `streams us` spreads the batch over.
STREAMS = 10


def run(op, dtype, shapes, axes, batch_k, repeat, rows):
    """Times `op` over `axes` on random arrays of `dtype` and `shapes`; prints a row each and
    appends the CSV lines to `rows`."""
    f = op_fn(op, axes)
    print(f"op {op} | dtype {dtype} | axes {axes} | batch {batch_k}")
    for shape in shapes:
        n = 1
        for d in shape:
            n *= d
        x = make(shape, dtype)
        y = torch.empty_like(x)
        nbytes = x.numel() * x.element_size()
        warm_up(lambda: (f(x), y.copy_(x)))
        gpu = statistics.median(events_time(lambda: f(x), 1) for _ in range(repeat))
        # The single calls leave the GPU idle between them: warm up again before the batches.
        warm_up(lambda: (f(x), y.copy_(x)))
        batch = statistics.median(events_time(lambda: f(x), batch_k) for _ in range(repeat))
        lat = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            r = f(x)
            r = r[0] if isinstance(r, tuple) else r
            r.item() if r.numel() == 1 else r.cpu()
            lat.append((time.perf_counter() - t0) * 1e6)
        latency = statistics.median(lat)
        copy = statistics.median(events_time(lambda: y.copy_(x), batch_k) for _ in range(repeat))
        copy_gbps = 2 * nbytes / copy / 1e3
        graph = graph_time(lambda: f(x), batch_k, repeat)
        streams = graph_time(lambda: f(x), batch_k, repeat, STREAMS)
        print(f"{'x'.join(map(str, shape)):>11} {gpu:>9.1f} {nbytes / gpu / 1e3:>8.1f} {batch:>9.1f} {nbytes / batch / 1e3:>8.1f} "
              f"{latency:>11.1f} {copy_gbps:>10.1f} {graph:>9.1f} {streams:>10.1f}")
        shape_s = "x".join(map(str, shape))
        axes_s = "all" if axes is None else ";".join(map(str, axes))
        rows.append(f"torch,{op},{dtype},{n},{latency:.3f},{gpu:.3f},{batch:.3f},{batch:.3f},"
                    f"{copy_gbps:.1f},{shape_s},{axes_s},{graph:.3f},{streams:.3f}")
        del x, y
        torch.cuda.empty_cache()


def main():
    a = parse()
    dev = torch.cuda.get_device_name()
    print(f"peer: torch {torch.__version__} on {dev} | repeat {a.repeat}")
    print(f"{'n':>11} {'gpu us':>9} {'GB/s':>8} {'batch us':>9} {'GB/s':>8} {'latency us':>11} {'copy GB/s':>10} {'graph us':>9} {'streams us':>10}")
    rows = []
    if a.suite:
        for op, dtype, shape, axes, batch in read_suite(a.suite):
            run(op, dtype, [shape], axes, batch, a.repeat, rows)
    else:
        axes = None if a.axis is None else [int(v) for v in a.axis.split(",")]
        shapes = ([[int(d) for d in s.split("x")] for s in a.shape.split(",")] if a.shape
                  else [[int(v)] for v in a.n.split(",")])
        run(a.op, a.dtype, shapes, axes, a.batch, a.repeat, rows)
    if a.csv:
        with open(a.csv, "a") as fh:
            fh.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
