// A comparison of each element with a value: 1 where it holds, else 0 (a mask for the
// compaction). Floats compare as f32 values (`lo`; NaN unequal to everything), i32 and u32 as
// their type (`value`'s bits).

@group(0) @binding(2) var<storage, read_write> mask: array<u32>;

fn holds(i: u32) -> bool {
    let f = params.flags;
    var lt = false;
    var gt = false;
    var eq = false;
    if (f & (COMPACT_F32 | COMPACT_HALF)) != 0u {
        var x = 0.0;
        let e = elem(i);
        if (f & COMPACT_F32) != 0u {
            x = bitcast<f32>(e);
        } else if (f & COMPACT_BF16) != 0u {
            x = bitcast<f32>(e << 16u);
        } else {
            x = f16_at(e, 0u);
        }
        lt = x < params.lo;
        gt = x > params.lo;
        eq = x == params.lo;
    } else if (f & COMPACT_I32) != 0u {
        let x = bitcast<i32>(elem(i));
        let v = bitcast<i32>(params.value);
        lt = x < v;
        gt = x > v;
        eq = x == v;
    } else {
        let x = elem(i);
        lt = x < params.value;
        gt = x > params.value;
        eq = x == params.value;
    }
    if (f & COMPACT_NE) != 0u {
        return !eq;
    }
    return ((f & COMPACT_LT) != 0u && lt) || ((f & COMPACT_GT) != 0u && gt)
        || ((f & COMPACT_EQ) != 0u && eq);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let i = tile_of(wid) * 256u + lid;
    if i < params.n {
        mask[i] = select(0u, 1u, holds(i));
    }
}
