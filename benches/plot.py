#!/usr/bin/env python3
"""Plots whole-array f32 sum throughput against size from one device run: ours (the `speed`
example's CSV), the peer (torch_peer.py's CSV) and the device-copy ceiling the peer measured
(bytes read + written), as GB/s of bytes read. Needs matplotlib (pip install matplotlib).

    python3 benches/plot.py RUN_DIR/speed.csv RUN_DIR/peer.csv benches/results/DATE/sum_f32.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(ours_csv, peer_csv, out_png, title=None):
    ours, peer, copy = {}, {}, {}
    for r in csv.reader(open(ours_csv)):
        # op,dtype,shape,axes,batch,gpu,wall,batch_us,peer_gpu,peer_lat,peer_batch,x_thr,x_lat,ok
        if len(r) >= 8 and r[0] == "sum" and r[1] == "f32" and r[3] == "all" and "x" not in r[2]:
            ours[int(r[2])] = int(r[2]) * 4 / float(r[7]) / 1e3
    for r in csv.reader(open(peer_csv)):
        # torch,op,dtype,n,latency,gpu,batch,batch,copy GB/s,shape,axes
        if len(r) >= 11 and r[1] == "sum" and r[2] == "f32" and r[10] == "all" and "x" not in r[9]:
            n = int(r[3])
            peer[n] = n * 4 / float(r[6]) / 1e3
            copy[n] = float(r[8])
    if not ours:
        sys.exit(f"{ours_csv}: no whole-array f32 sums")
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    for data, label, style in [(ours, "wgpu-reduce (wgpu, Vulkan)", "o-"),
                               (peer, "torch.sum (CUDA)", "s--"),
                               (copy, "device copy (torch, read + written)", ":")]:
        xs = sorted(data)
        if xs:
            ax.plot(xs, [data[x] for x in xs], style, label=label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("elements (f32)")
    ax.set_ylabel("GB/s (bytes read / time per reduction)")
    ax.set_title(title or "Whole-array f32 sum, batched, on the same GPU in one run")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(out_png)
    print(f"wrote {out_png}")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(*sys.argv[1:5])
