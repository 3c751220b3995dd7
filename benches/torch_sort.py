#!/usr/bin/env python3
"""The peer side of the sort benchmark: times the cases of the `sort` harness with PyTorch and
CuPy (CUB's radix sort) on CUDA, the same way (a batch of `batch` sorts between two CUDA events,
divided by `batch`; the median of `repeat` batches after warm-up), on random data of the same
kinds:
  keys_u32     CuPy `cp.sort` of uint32 keys (CUB DeviceRadixSort); torch.sort of the same bits
               as int32 keys (values and indices)
  argsort_f32  torch.sort(x, stable=True) (values and indices) and torch.argsort(x, stable=True)
               of f32 keys with many ties
  rows_f32     torch.sort(x, dim=-1, stable=True) of f32 rows
  topk_f32     torch.topk(x, k) of f32 (sorted, values and indices), k = 100 and k = n/100

    python3 benches/torch_sort.py --n 1048576,16777216 --shape 4096x4096 --csv sort_peer.csv
"""
import argparse
import statistics

import cupy as cp
import torch

from torch_peer import events_time, warm_up  # same directory


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--op", default="sort,argsort,rows,topk",
                   help="of: sort (keys_u32), argsort (argsort_f32), rows (rows_f32), topk")
    p.add_argument("--n", default=",".join(str(1 << e) for e in (20, 22, 24, 26, 28)))
    p.add_argument("--shape", default="4096x4096,65536x256")
    p.add_argument("--topk-n", default=str(1 << 24))
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
    print(f"torch {torch.__version__}, cupy {cp.__version__}; batch {a.batch}; repeat {a.repeat}")
    print(f"{'case':>12} {'shape':>12} {'peer':>22} {'gpu us':>10} {'G keys/s':>9}")

    def report(case, shape, peer, us, n):
        print(f"{case:>12} {shape:>12} {peer:>22} {us:>10.1f} {n / us / 1e3:>9.2f}")
        rows.append(f"{peer},{case},{shape},{n},{us:.3f}")

    cases = {"sort": "keys_u32", "argsort": "argsort_f32", "rows": "rows_f32", "topk": "topk_f32"}
    for case in (cases[op] for op in a.op.split(",")):
        if case == "topk_f32":
            for n in (int(v) for v in a.topk_n.split(",")):
                t = torch.rand(n, device="cuda") * 2 - 1
                for k in (min(100, n), max(n // 100, 1)):
                    report(f"topk_k{k}", str(n), "torch.topk",
                           median_us(lambda: torch.topk(t, k), a.batch, a.repeat), n)
                del t
            continue
        shapes = a.shape.split(",") if case == "rows_f32" else a.n.split(",")
        for shape in shapes:
            dims = [int(d) for d in shape.split("x")]
            n = 1
            for d in dims:
                n *= d
            if case == "keys_u32":
                x = cp.random.randint(0, 2**32, size=n, dtype=cp.uint64).astype(cp.uint32)
                torch.cuda.synchronize()
                report(case, shape, "cupy.sort (CUB)", median_us(lambda: cp.sort(x), a.batch, a.repeat), n)
                t = torch.as_tensor(x.view(cp.int32), device="cuda")
                report(case, shape, "torch.sort (int32)",
                       median_us(lambda: torch.sort(t), a.batch, a.repeat), n)
                del x, t
            else:
                t = (torch.rand(dims, device="cuda") * 2000 - 1000).round()
                if case == "argsort_f32":
                    report(case, shape, "torch.sort stable",
                           median_us(lambda: torch.sort(t, stable=True), a.batch, a.repeat), n)
                    report(case, shape, "torch.argsort stable",
                           median_us(lambda: torch.argsort(t, stable=True), a.batch, a.repeat), n)
                else:
                    report(case, shape, "torch.sort dim=-1",
                           median_us(lambda: torch.sort(t, dim=-1, stable=True), a.batch, a.repeat), n)
                del t
            torch.cuda.empty_cache()
            cp.get_default_memory_pool().free_all_blocks()
    if a.csv:
        with open(a.csv, "a") as f:
            for r in rows:
                f.write(r + "\n")


if __name__ == "__main__":
    main()
