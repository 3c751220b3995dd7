#!/usr/bin/env python3
"""The peer side of the selection benchmark: times the cases of the `select` harness with
PyTorch on CUDA, the same way (a batch of `batch` operations between two CUDA events, divided by
`batch`; the median of `repeat` batches after warm-up), on random data of the same kinds:
  compact_f32   torch.masked_select(x, mask) of f32, half kept (a bool mask)
  nonzero_f32   torch.nonzero(x) of 1-D f32, half of it zero
  histc_f32     torch.histc(x, 256, 0, 1) of uniform f32
  histc_wide_f32  torch.histc(x, 65536, 0, 1) of uniform f32
  bincount_i32  torch.bincount(x, minlength=1000) of int32 in 0..1000
  unique_i32    torch.unique(x, sorted=True) of int32 with 1000 distinct values

    python3 benches/torch_select.py --n 1048576,67108864 --csv select_peer.csv
"""
import argparse
import statistics

import torch

from torch_peer import events_time, warm_up  # same directory


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--op", default="compact,nonzero,histc,histc_wide,bincount,unique")
    p.add_argument("--n", default=",".join(str(1 << e) for e in (20, 24, 26)))
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--batch", type=int, default=5)
    p.add_argument("--csv")
    return p.parse_args()


def median_us(fn, batch, repeat):
    warm_up(fn)
    return statistics.median(events_time(fn, batch) for _ in range(repeat))


def main():
    a = parse()
    rows = []
    print(f"torch {torch.__version__}; batch {a.batch}; repeat {a.repeat}")
    print(f"{'case':>12} {'n':>12} {'peer':>24} {'gpu us':>10} {'G/s':>9}")

    def report(case, n, peer, us):
        print(f"{case:>12} {n:>12} {peer:>24} {us:>10.1f} {n / us / 1e3:>9.2f}")
        rows.append(f"{peer},{case},{n},{n},{us:.3f}")

    for op in a.op.split(","):
        for n in (int(v) for v in a.n.split(",")):
            if op == "compact":
                x = torch.rand(n, device="cuda")
                m = torch.rand(n, device="cuda") < 0.5
                report("compact_f32", n, "torch.masked_select",
                       median_us(lambda: torch.masked_select(x, m), a.batch, a.repeat))
            elif op == "nonzero":
                x = torch.where(torch.rand(n, device="cuda") < 0.5, 0.0, 1.0)
                report("nonzero_f32", n, "torch.nonzero",
                       median_us(lambda: torch.nonzero(x), a.batch, a.repeat))
            elif op == "histc":
                x = torch.rand(n, device="cuda")
                report("histc_f32", n, "torch.histc",
                       median_us(lambda: torch.histc(x, 256, 0, 1), a.batch, a.repeat))
            elif op == "histc_wide":
                x = torch.rand(n, device="cuda")
                report("histc_wide_f32", n, "torch.histc",
                       median_us(lambda: torch.histc(x, 65536, 0, 1), a.batch, a.repeat))
            elif op == "bincount":
                x = torch.randint(0, 1000, (n,), device="cuda", dtype=torch.int32)
                report("bincount_i32", n, "torch.bincount",
                       median_us(lambda: torch.bincount(x, minlength=1000), a.batch, a.repeat))
            elif op == "unique":
                values = torch.randint(-2**31, 2**31 - 1, (1000,), device="cuda", dtype=torch.int32)
                x = values[torch.randint(0, 1000, (n,), device="cuda")]
                report("unique_i32", n, "torch.unique sorted",
                       median_us(lambda: torch.unique(x, sorted=True), a.batch, a.repeat))
            torch.cuda.empty_cache()
    if a.csv:
        with open(a.csv, "a") as f:
            for r in rows:
                f.write(r + "\n")


if __name__ == "__main__":
    main()
