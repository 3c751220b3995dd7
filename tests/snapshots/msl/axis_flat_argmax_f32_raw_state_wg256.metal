// language: metal2.4
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct _mslBufferSizes {
    uint size0;
    uint size2;
    uint size4;
};

typedef float V;
typedef float E;
typedef float SRC;
struct ArgState {
    V v;
    uint i;
};
typedef SRC type_2[1];
struct AxisParams {
    uint outer;
    uint r;
    uint inner;
    uint splits;
    uint chunk;
    uint tiles;
    uint lanes_shift;
    uint groups;
    uint groups_x;
    uint flags;
    float divisor;
    float correction;
    uint src_base;
    uint dst_base;
    uint j_base;
    float power;
};
typedef ArgState type_4[1];
struct type_9 {
    ArgState inner[256];
};
struct ColShape {
    uint cols;
    uint slices;
};
struct ColTile {
    uint tx;
    uint ty;
    uint o;
    uint tile;
};
struct Best {
    metal::int4 k;
    metal::uint4 w;
};
struct StateWords {
    uint inner[3];
};
typedef metal::float4 type_12[1];
constant uint WG = 256u;
constant uint WG_SHIFT = 8u;
constant bool ARGMAX = true;
constant bool FLAT_LAST_GROUP = false;
constant uint ACCUMULATE = 2u;
constant uint FINAL = 1u;
constant uint HIDE_PARTIALS = 4u;
constant uint SEGMENT_LONG = 8u;
constant int KEY_NAN = 2147483647;
constant int KEY_ID = (-2147483647 - 1);
constant uint STATE_WORDS = 2u;
constant uint NO_OUTPUT = 4294967295u;

E elem_at(
    uint k,
    device type_2 const& src,
    constant _mslBufferSizes& _buffer_sizes
) {
    SRC _e3 = src[k];
    return static_cast<float>(_e3);
}

float f32_from_bits(
    uint b
) {
    return as_type<float>(b);
}

float neg_inf(
) {
    float _e1 = f32_from_bits(4286578688u);
    return _e1;
}

float lowest(
) {
    float _e0 = neg_inf();
    return _e0;
}

float pos_inf(
) {
    float _e1 = f32_from_bits(2139095040u);
    return _e1;
}

float highest(
) {
    float _e0 = pos_inf();
    return _e0;
}

bool is_nan(
    float x
) {
    return (as_type<uint>(x) & 2147483647u) > 2139095040u;
}

bool has_nan(
    float v
) {
    bool _e1 = is_nan(v);
    return _e1;
}

uint fkey(
    float x_1
) {
    uint b_12 = ((as_type<uint>(x_1) & 2147483647u) == 0u) ? 0u : as_type<uint>(x_1);
    return ((b_12 & 2147483648u) != 0u) ? ~(b_12) : (b_12 | 2147483648u);
}

uint arg_key(
    float v_1
) {
    uint _e1 = fkey(v_1);
    return _e1;
}

float fmin_exact(
    float a,
    float b_1
) {
    uint _e2 = fkey(b_1);
    uint _e3 = fkey(a);
    return (_e2 < _e3) ? b_1 : a;
}

float pick_lo(
    float a_1,
    float b_2
) {
    float _e2 = fmin_exact(a_1, b_2);
    bool _e3 = is_nan(b_2);
    bool _e5 = is_nan(a_1);
    return _e5 ? a_1 : (_e3 ? b_2 : _e2);
}

float fmax_exact(
    float a_2,
    float b_3
) {
    uint _e2 = fkey(b_3);
    uint _e3 = fkey(a_2);
    return (_e2 > _e3) ? b_3 : a_2;
}

float pick_hi(
    float a_3,
    float b_4
) {
    float _e2 = fmax_exact(a_3, b_4);
    bool _e3 = is_nan(b_4);
    bool _e5 = is_nan(a_3);
    return _e5 ? a_3 : (_e3 ? b_4 : _e2);
}

ArgState identity(
) {
    float _e0 = highest();
    float _e1 = lowest();
    return ArgState {ARGMAX ? _e1 : _e0, 4294967295u};
}

ArgState combine(
    ArgState a_4,
    ArgState b_5
) {
    bool local = {};
    bool local_1 = {};
    bool local_2 = {};
    bool local_3 = {};
    bool _e3 = has_nan(a_4.v);
    bool _e5 = has_nan(b_5.v);
    if (!(_e3)) {
        local = _e5;
    } else {
        local = true;
    }
    bool _e10 = local;
    if (_e10) {
        if (_e5) {
            if (!(!(_e3))) {
                local_2 = b_5.i < a_4.i;
            } else {
                local_2 = true;
            }
            bool _e21 = local_2;
            local_1 = _e21;
        } else {
            local_1 = false;
        }
        bool _e23 = local_1;
        if (_e23) {
            return b_5;
        }
        return a_4;
    }
    uint _e25 = arg_key(b_5.v);
    uint _e27 = arg_key(a_4.v);
    if (ARGMAX ? (_e25 > _e27) : (_e25 < _e27)) {
        return b_5;
    }
    if (_e25 == _e27) {
        local_3 = b_5.i < a_4.i;
    } else {
        local_3 = false;
    }
    bool _e39 = local_3;
    if (_e39) {
        return b_5;
    }
    return a_4;
}

ArgState from_elem(
    V x_2,
    uint j
) {
    return ArgState {x_2, j};
}

uint finalize(
    ArgState s
) {
    return s.i;
}

ArgState load(
    uint k0_,
    uint j0_,
    device type_2 const& src,
    constant AxisParams& params,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e4 = params.src_base;
    uint k_7 = _e4 + k0_;
    uint _e8 = params.j_base;
    uint j_4 = _e8 + j0_;
    E _e10 = elem_at(k_7, src, _buffer_sizes);
    ArgState _e11 = from_elem(_e10, j_4);
    return _e11;
}

void store(
    uint o,
    ArgState s_1,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e4 = params.dst_base;
    uint at = _e4 + o;
    uint _e8 = params.flags;
    if ((_e8 & ACCUMULATE) != 0u) {
        ArgState _e17 = dst[at];
        ArgState _e18 = combine(_e17, s_1);
        dst[at] = _e18;
        return;
    } else {
        dst[at] = s_1;
        return;
    }
}

float quiet_nan(
) {
    float _e1 = f32_from_bits(2143289344u);
    return _e1;
}

metal::bool4 is_nan4_(
    metal::float4 x_3
) {
    return (as_type<metal::uint4>(x_3) & metal::uint4(2147483647u)) > metal::uint4(2139095040u);
}

metal::uint4 fkey4_(
    metal::float4 x_4
) {
    metal::uint4 raw = as_type<metal::uint4>(x_4);
    metal::uint4 b_13 = metal::select(raw, metal::uint4(0u), (raw & metal::uint4(2147483647u)) == metal::uint4(0u));
    return metal::select(b_13 | metal::uint4(2147483648u), ~(b_13), (b_13 & metal::uint4(2147483648u)) != metal::uint4(0u));
}

float from_fkey(
    uint k_1
) {
    return as_type<float>(((k_1 & 2147483648u) != 0u) ? (k_1 & 2147483647u) : ~(k_1));
}

metal::float4 fmin4_exact(
    metal::float4 a_5,
    metal::float4 b_6
) {
    metal::uint4 _e2 = fkey4_(b_6);
    metal::uint4 _e3 = fkey4_(a_5);
    return metal::select(a_5, b_6, _e2 < _e3);
}

metal::float4 fmax4_exact(
    metal::float4 a_6,
    metal::float4 b_7
) {
    metal::uint4 _e2 = fkey4_(b_7);
    metal::uint4 _e3 = fkey4_(a_6);
    return metal::select(a_6, b_7, _e2 > _e3);
}

float bf16_at(
    uint w,
    uint k_2
) {
    return as_type<float>(((k_2 & 1u) != 0u) ? (w & 4294901760u) : (w << 16u));
}

metal::float4 bf16_lo4_(
    metal::uint4 x_5
) {
    return as_type<metal::float4>(x_5 << metal::uint4(16u));
}

metal::float4 bf16_hi4_(
    metal::uint4 x_6
) {
    return as_type<metal::float4>(x_6 & metal::uint4(4294901760u));
}

uint f32_to_f16_bits(
    float x_7
) {
    uint h = {};
    bool local_4 = {};
    bool local_5 = {};
    uint h_1 = {};
    bool local_6 = {};
    bool local_7 = {};
    uint b_14 = as_type<uint>(x_7);
    uint sign = (b_14 >> 16u) & 32768u;
    uint e = (b_14 >> 23u) & 255u;
    uint m = b_14 & 8388607u;
    if (e == 255u) {
        return (sign | 31744u) | ((m != 0u) ? (512u | (m >> 13u)) : 0u);
    }
    int ue = as_type<int>(as_type<uint>(static_cast<int>(e)) - as_type<uint>(112));
    if (ue >= 31) {
        return sign | 31744u;
    }
    if (ue <= 0) {
        if (ue < -10) {
            return sign;
        }
        uint mm = m | 8388608u;
        uint shift = static_cast<uint>(as_type<int>(as_type<uint>(14) - as_type<uint>(ue)));
        h = mm >> shift;
        uint rem = mm & ((1u << shift) - 1u);
        uint half_ = 1u << (shift - 1u);
        if (!((rem > half_))) {
            if (rem == half_) {
                uint _e59 = h;
                local_5 = (_e59 & 1u) == 1u;
            } else {
                local_5 = false;
            }
            bool _e65 = local_5;
            local_4 = _e65;
        } else {
            local_4 = true;
        }
        bool _e67 = local_4;
        if (_e67) {
            uint _e68 = h;
            h = _e68 + 1u;
        }
        uint _e71 = h;
        return sign | _e71;
    }
    h_1 = (static_cast<uint>(ue) << 10u) | (m >> 13u);
    uint rem_1 = m & 8191u;
    if (!((rem_1 > 4096u))) {
        if (rem_1 == 4096u) {
            uint _e91 = h_1;
            local_7 = (_e91 & 1u) == 1u;
        } else {
            local_7 = false;
        }
        bool _e97 = local_7;
        local_6 = _e97;
    } else {
        local_6 = true;
    }
    bool _e99 = local_6;
    if (_e99) {
        uint _e100 = h_1;
        h_1 = _e100 + 1u;
    }
    uint _e103 = h_1;
    return sign | _e103;
}

uint f32_to_bf16_bits(
    float x_8
) {
    uint b_15 = as_type<uint>(x_8);
    if ((b_15 & 2147483647u) > 2139095040u) {
        return (b_15 >> 16u) | 64u;
    }
    return ((b_15 + 32767u) + ((b_15 >> 16u) & 1u)) >> 16u;
}

uint naga_div(uint lhs, uint rhs) {
    return lhs / metal::select(rhs, 1u, rhs == 0u);
}

ArgState lanes_combine(
    uint lid_1,
    uint lane,
    uint lanes,
    ArgState v_2,
    threadgroup type_9& scratch
) {
    uint s_2 = {};
    scratch.inner[lid_1] = v_2;
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    s_2 = naga_div(lanes, 2u);
    uint2 loop_bound = uint2(4294967295u);
    bool loop_init = true;
    while(true) {
        if (metal::all(loop_bound == uint2(0u))) { break; }
        loop_bound -= uint2(loop_bound.y == 0u, 1u);
        if (!loop_init) {
            uint _e25 = s_2;
            s_2 = _e25 >> 1u;
        }
        loop_init = false;
        uint _e9 = s_2;
        if (_e9 > 0u) {
        } else {
            break;
        }
        {
            uint _e12 = s_2;
            if (lane < _e12) {
                ArgState _e18 = scratch.inner[lid_1];
                uint _e20 = s_2;
                ArgState _e23 = scratch.inner[lid_1 + _e20];
                ArgState _e24 = combine(_e18, _e23);
                scratch.inner[lid_1] = _e24;
            }
            metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
        }
    }
    ArgState _e30 = scratch.inner[lid_1];
    return _e30;
}

ColShape col_shape(
    constant AxisParams& params
) {
    uint _e3 = params.lanes_shift;
    uint _e8 = params.lanes_shift;
    return ColShape {1u << _e3, WG >> _e8};
}

ColTile col_tile(
    uint lid_2,
    uint g,
    constant AxisParams& params
) {
    uint o_1 = 0u;
    uint tile = {};
    uint shift_1 = params.lanes_shift;
    tile = g;
    uint _e10 = params.outer;
    if (_e10 > 1u) {
        uint _e15 = params.tiles;
        o_1 = naga_div(g, _e15);
        uint _e17 = o_1;
        uint _e20 = params.tiles;
        tile = g - (_e17 * _e20);
    }
    uint _e29 = o_1;
    uint _e30 = tile;
    return ColTile {lid_2 & ((1u << shift_1) - 1u), lid_2 >> shift_1, _e29, _e30};
}

void reduce_cols(
    uint lid_3,
    metal::uint3 wid_1,
    device type_2 const& src,
    constant AxisParams& params,
    device type_4& dst,
    threadgroup type_9& scratch,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState acc0_ = {};
    ArgState acc1_ = {};
    ArgState acc2_ = {};
    ArgState acc3_ = {};
    uint j_1 = {};
    uint k_3 = {};
    uint s_3 = {};
    bool local_8 = {};
    uint _e5 = params.groups_x;
    uint g_5 = (wid_1.y * _e5) + wid_1.x;
    uint _e11 = params.groups;
    if (g_5 >= _e11) {
        return;
    }
    ColTile _e13 = col_tile(lid_3, g_5, params);
    ColShape _e14 = col_shape(params);
    uint cols = _e14.cols;
    uint slices = _e14.slices;
    uint ty = _e13.ty;
    uint o_3 = _e13.o;
    uint split_1 = wid_1.z;
    uint _e23 = params.lanes_shift;
    uint i = (_e13.tile << _e23) + _e13.tx;
    uint inner = params.inner;
    ArgState _e30 = identity();
    acc0_ = _e30;
    if (i < inner) {
        ArgState _e33 = acc0_;
        acc1_ = _e33;
        ArgState _e35 = acc0_;
        acc2_ = _e35;
        ArgState _e37 = acc0_;
        acc3_ = _e37;
        uint _e41 = params.chunk;
        uint start = split_1 * _e41;
        uint _e45 = params.chunk;
        uint _e49 = params.r;
        uint end_2 = metal::min(start + _e45, _e49);
        uint step = slices * inner;
        j_1 = start + ty;
        uint _e56 = params.r;
        uint _e58 = j_1;
        k_3 = (((o_3 * _e56) + _e58) * inner) + i;
        uint2 loop_bound_1 = uint2(4294967295u);
        while(true) {
            if (metal::all(loop_bound_1 == uint2(0u))) { break; }
            loop_bound_1 -= uint2(loop_bound_1.y == 0u, 1u);
            uint _e63 = j_1;
            if ((_e63 + (3u * slices)) < end_2) {
            } else {
                break;
            }
            {
                ArgState _e68 = acc0_;
                uint _e69 = k_3;
                uint _e70 = j_1;
                ArgState _e71 = load(_e69, _e70, src, params, _buffer_sizes);
                ArgState _e72 = combine(_e68, _e71);
                acc0_ = _e72;
                ArgState _e73 = acc1_;
                uint _e74 = k_3;
                uint _e76 = j_1;
                ArgState _e78 = load(_e74 + step, _e76 + slices, src, params, _buffer_sizes);
                ArgState _e79 = combine(_e73, _e78);
                acc1_ = _e79;
                ArgState _e80 = acc2_;
                uint _e81 = k_3;
                uint _e85 = j_1;
                ArgState _e89 = load(_e81 + (2u * step), _e85 + (2u * slices), src, params, _buffer_sizes);
                ArgState _e90 = combine(_e80, _e89);
                acc2_ = _e90;
                ArgState _e91 = acc3_;
                uint _e92 = k_3;
                uint _e96 = j_1;
                ArgState _e100 = load(_e92 + (3u * step), _e96 + (3u * slices), src, params, _buffer_sizes);
                ArgState _e101 = combine(_e91, _e100);
                acc3_ = _e101;
                uint _e102 = j_1;
                j_1 = _e102 + (4u * slices);
                uint _e106 = k_3;
                k_3 = _e106 + (4u * step);
            }
        }
        uint2 loop_bound_2 = uint2(4294967295u);
        while(true) {
            if (metal::all(loop_bound_2 == uint2(0u))) { break; }
            loop_bound_2 -= uint2(loop_bound_2.y == 0u, 1u);
            uint _e110 = j_1;
            if (_e110 < end_2) {
            } else {
                break;
            }
            {
                ArgState _e112 = acc0_;
                uint _e113 = k_3;
                uint _e114 = j_1;
                ArgState _e115 = load(_e113, _e114, src, params, _buffer_sizes);
                ArgState _e116 = combine(_e112, _e115);
                acc0_ = _e116;
                uint _e117 = j_1;
                j_1 = _e117 + slices;
                uint _e119 = k_3;
                k_3 = _e119 + step;
            }
        }
        ArgState _e121 = acc0_;
        ArgState _e122 = acc1_;
        ArgState _e123 = combine(_e121, _e122);
        ArgState _e124 = acc2_;
        ArgState _e125 = acc3_;
        ArgState _e126 = combine(_e124, _e125);
        ArgState _e127 = combine(_e123, _e126);
        acc0_ = _e127;
    }
    ArgState _e130 = acc0_;
    scratch.inner[lid_3] = _e130;
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    s_3 = naga_div(slices, 2u);
    uint2 loop_bound_3 = uint2(4294967295u);
    bool loop_init_1 = true;
    while(true) {
        if (metal::all(loop_bound_3 == uint2(0u))) { break; }
        loop_bound_3 -= uint2(loop_bound_3.y == 0u, 1u);
        if (!loop_init_1) {
            uint _e151 = s_3;
            s_3 = _e151 >> 1u;
        }
        loop_init_1 = false;
        uint _e134 = s_3;
        if (_e134 > 0u) {
        } else {
            break;
        }
        {
            uint _e137 = s_3;
            if (ty < _e137) {
                ArgState _e143 = scratch.inner[lid_3];
                uint _e145 = s_3;
                ArgState _e149 = scratch.inner[lid_3 + (_e145 * cols)];
                ArgState _e150 = combine(_e143, _e149);
                scratch.inner[lid_3] = _e150;
            }
            metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
        }
    }
    if (ty == 0u) {
        local_8 = i < inner;
    } else {
        local_8 = false;
    }
    bool _e160 = local_8;
    if (_e160) {
        uint _e163 = params.splits;
        ArgState _e170 = scratch.inner[lid_3];
        store((((o_3 * _e163) + split_1) * inner) + i, _e170, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

void reduce_rows_wide(
    uint lid_4,
    uint g_1,
    device type_2 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState a0_ = {};
    ArgState a1_ = {};
    ArgState a2_ = {};
    ArgState a3_ = {};
    uint j_2 = 0u;
    uint r = params.r;
    uint row0_ = ((g_1 * 4u) * WG) + lid_4;
    uint row1_ = row0_ + WG;
    uint row2_ = row0_ + 512u;
    uint row3_ = row0_ + 768u;
    uint outer = params.outer;
    ArgState _e19 = identity();
    a0_ = _e19;
    ArgState _e21 = a0_;
    a1_ = _e21;
    ArgState _e23 = a0_;
    a2_ = _e23;
    ArgState _e25 = a0_;
    a3_ = _e25;
    uint2 loop_bound_4 = uint2(4294967295u);
    bool loop_init_2 = true;
    while(true) {
        if (metal::all(loop_bound_4 == uint2(0u))) { break; }
        loop_bound_4 -= uint2(loop_bound_4.y == 0u, 1u);
        if (!loop_init_2) {
            uint _e64 = j_2;
            j_2 = _e64 + 1u;
        }
        loop_init_2 = false;
        uint _e29 = j_2;
        if (_e29 < r) {
        } else {
            break;
        }
        {
            if (row0_ < outer) {
                ArgState _e32 = a0_;
                uint _e34 = j_2;
                uint _e36 = j_2;
                ArgState _e37 = load((row0_ * r) + _e34, _e36, src, params, _buffer_sizes);
                ArgState _e38 = combine(_e32, _e37);
                a0_ = _e38;
            }
            if (row1_ < outer) {
                ArgState _e40 = a1_;
                uint _e42 = j_2;
                uint _e44 = j_2;
                ArgState _e45 = load((row1_ * r) + _e42, _e44, src, params, _buffer_sizes);
                ArgState _e46 = combine(_e40, _e45);
                a1_ = _e46;
            }
            if (row2_ < outer) {
                ArgState _e48 = a2_;
                uint _e50 = j_2;
                uint _e52 = j_2;
                ArgState _e53 = load((row2_ * r) + _e50, _e52, src, params, _buffer_sizes);
                ArgState _e54 = combine(_e48, _e53);
                a2_ = _e54;
            }
            if (row3_ < outer) {
                ArgState _e56 = a3_;
                uint _e58 = j_2;
                uint _e60 = j_2;
                ArgState _e61 = load((row3_ * r) + _e58, _e60, src, params, _buffer_sizes);
                ArgState _e62 = combine(_e56, _e61);
                a3_ = _e62;
            }
        }
    }
    if (row0_ < outer) {
        ArgState _e67 = a0_;
        store(row0_, _e67, params, dst, _buffer_sizes);
    }
    if (row1_ < outer) {
        ArgState _e69 = a1_;
        store(row1_, _e69, params, dst, _buffer_sizes);
    }
    if (row2_ < outer) {
        ArgState _e71 = a2_;
        store(row2_, _e71, params, dst, _buffer_sizes);
    }
    if (row3_ < outer) {
        ArgState _e73 = a3_;
        store(row3_, _e73, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

void reduce_cols_wide(
    uint lid_5,
    uint g_2,
    uint split,
    device type_2 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint o_2 = 0u;
    uint tile_1 = {};
    ArgState a0_1 = {};
    ArgState a1_1 = {};
    ArgState a2_1 = {};
    ArgState a3_1 = {};
    uint j_3 = {};
    tile_1 = g_2;
    uint _e8 = params.outer;
    if (_e8 > 1u) {
        uint _e13 = params.tiles;
        o_2 = naga_div(g_2, _e13);
        uint _e15 = o_2;
        uint _e18 = params.tiles;
        tile_1 = g_2 - (_e15 * _e18);
    }
    uint inner_1 = params.inner;
    uint _e24 = tile_1;
    uint i0_ = ((_e24 * 4u) * WG) + lid_5;
    uint i1_ = i0_ + WG;
    uint i2_ = i0_ + 512u;
    uint i3_ = i0_ + 768u;
    uint _e38 = params.chunk;
    uint start_1 = split * _e38;
    uint _e42 = params.chunk;
    uint _e46 = params.r;
    uint end_3 = metal::min(start_1 + _e42, _e46);
    ArgState _e48 = identity();
    a0_1 = _e48;
    ArgState _e50 = a0_1;
    a1_1 = _e50;
    ArgState _e52 = a0_1;
    a2_1 = _e52;
    ArgState _e54 = a0_1;
    a3_1 = _e54;
    j_3 = start_1;
    uint2 loop_bound_5 = uint2(4294967295u);
    bool loop_init_3 = true;
    while(true) {
        if (metal::all(loop_bound_5 == uint2(0u))) { break; }
        loop_bound_5 -= uint2(loop_bound_5.y == 0u, 1u);
        if (!loop_init_3) {
            uint _e92 = j_3;
            j_3 = _e92 + 1u;
        }
        loop_init_3 = false;
        uint _e57 = j_3;
        if (_e57 < end_3) {
        } else {
            break;
        }
        {
            uint _e59 = o_2;
            uint _e62 = params.r;
            uint _e64 = j_3;
            uint k_8 = ((_e59 * _e62) + _e64) * inner_1;
            if (i0_ < inner_1) {
                ArgState _e68 = a0_1;
                uint _e70 = j_3;
                ArgState _e71 = load(k_8 + i0_, _e70, src, params, _buffer_sizes);
                ArgState _e72 = combine(_e68, _e71);
                a0_1 = _e72;
            }
            if (i1_ < inner_1) {
                ArgState _e74 = a1_1;
                uint _e76 = j_3;
                ArgState _e77 = load(k_8 + i1_, _e76, src, params, _buffer_sizes);
                ArgState _e78 = combine(_e74, _e77);
                a1_1 = _e78;
            }
            if (i2_ < inner_1) {
                ArgState _e80 = a2_1;
                uint _e82 = j_3;
                ArgState _e83 = load(k_8 + i2_, _e82, src, params, _buffer_sizes);
                ArgState _e84 = combine(_e80, _e83);
                a2_1 = _e84;
            }
            if (i3_ < inner_1) {
                ArgState _e86 = a3_1;
                uint _e88 = j_3;
                ArgState _e89 = load(k_8 + i3_, _e88, src, params, _buffer_sizes);
                ArgState _e90 = combine(_e86, _e89);
                a3_1 = _e90;
            }
        }
    }
    uint _e94 = o_2;
    uint _e97 = params.splits;
    uint out_1 = ((_e94 * _e97) + split) * inner_1;
    if (i0_ < inner_1) {
        ArgState _e103 = a0_1;
        store(out_1 + i0_, _e103, params, dst, _buffer_sizes);
    }
    if (i1_ < inner_1) {
        ArgState _e106 = a1_1;
        store(out_1 + i1_, _e106, params, dst, _buffer_sizes);
    }
    if (i2_ < inner_1) {
        ArgState _e109 = a2_1;
        store(out_1 + i2_, _e109, params, dst, _buffer_sizes);
    }
    if (i3_ < inner_1) {
        ArgState _e112 = a3_1;
        store(out_1 + i3_, _e112, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

void rows_wide_entry(
    uint lid_6,
    metal::uint3 wid_2,
    device type_2 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e5 = params.groups_x;
    uint g_6 = (wid_2.y * _e5) + wid_2.x;
    uint _e11 = params.groups;
    if (g_6 < _e11) {
        reduce_rows_wide(lid_6, g_6, src, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

void cols_wide_entry(
    uint lid_7,
    metal::uint3 wid_3,
    device type_2 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e5 = params.groups_x;
    uint g_7 = (wid_3.y * _e5) + wid_3.x;
    uint _e11 = params.groups;
    if (g_7 < _e11) {
        reduce_cols_wide(lid_7, g_7, wid_3.z, src, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

metal::bool4 better4_(
    metal::int4 k_4,
    metal::int4 best
) {
    return metal::select(k_4 < best, k_4 > best, metal::bool4(true));
}

metal::int4 arg_key4_(
    metal::float4 x_9
) {
    metal::int4 i_1 = as_type<metal::int4>(x_9);
    metal::int4 m_1 = i_1 >> metal::uint4(31u);
    metal::int4 k_9 = as_type<metal::int4>(as_type<metal::uint4>(i_1 ^ (m_1 & metal::int4(2147483647))) - as_type<metal::uint4>(m_1));
    metal::bool4 nan = (as_type<metal::uint4>(x_9) & metal::uint4(2147483647u)) > metal::uint4(2139095040u);
    return metal::select(k_9, metal::int4(2147483647), nan);
}

float arg_unkey(
    int k_5
) {
    int k2_ = as_type<int>(as_type<uint>(k_5) + as_type<uint>(k_5 >> 31u));
    return as_type<float>(k2_ ^ ((k2_ >> 31u) & 2147483647));
}

Best flat_identity(
) {
    return Best {metal::int4((-2147483647 - 1)), metal::uint4(4294967295u)};
}

Best flat_step(
    Best b_8,
    metal::float4 x_10,
    uint w_1
) {
    metal::int4 _e3 = arg_key4_(x_10);
    metal::bool4 _e5 = better4_(_e3, b_8.k);
    return Best {metal::select(b_8.k, _e3, _e5), metal::select(b_8.w, metal::uint4(w_1), _e5)};
}

Best flat_merge(
    Best a_7,
    Best b_9
) {
    metal::bool4 _e4 = better4_(b_9.k, a_7.k);
    metal::bool4 take = _e4 | ((b_9.k == a_7.k) & (b_9.w < a_7.w));
    return Best {metal::select(a_7.k, b_9.k, take), metal::select(a_7.w, b_9.w, take)};
}

ArgState best_state(
    Best b_10,
    uint c,
    constant AxisParams& params
) {
    if (b_10.w[c] == 4294967295u) {
        ArgState _e6 = identity();
        return _e6;
    }
    float _e9 = arg_unkey(b_10.k[c]);
    uint _e12 = params.j_base;
    return ArgState {_e9, (_e12 + (b_10.w[c] * 4u)) + c};
}

ArgState flat_state(
    Best b_11,
    constant AxisParams& params
) {
    ArgState _e2 = best_state(b_11, 0u, params);
    ArgState _e4 = best_state(b_11, 1u, params);
    ArgState _e5 = combine(_e2, _e4);
    ArgState _e7 = best_state(b_11, 2u, params);
    ArgState _e9 = best_state(b_11, 3u, params);
    ArgState _e10 = combine(_e7, _e9);
    ArgState _e11 = combine(_e5, _e10);
    return _e11;
}

StateWords state_words(
    ArgState s_4
) {
    return StateWords {{as_type<uint>(s_4.v), s_4.i, 0u}};
}

ArgState state_of(
    StateWords w_2
) {
    return ArgState {as_type<float>(w_2.inner[0]), w_2.inner[1]};
}

void flat_finish(
    uint lid_8,
    uint g_3,
    ArgState total
) {
    return;
}

ArgState flat_part(
    uint lid_9,
    uint g_4,
    uint w0_,
    uint stride,
    uint end,
    uint row,
    device type_2 const& src,
    constant AxisParams& params,
    device type_12 const& src_vec,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint w_3 = {};
    Best b0_ = {};
    Best b1_ = {};
    Best b2_ = {};
    Best b3_ = {};
    ArgState acc = {};
    bool local_9 = {};
    bool local_10 = {};
    bool local_11 = {};
    w_3 = w0_;
    Best _e7 = flat_identity();
    b0_ = _e7;
    Best _e9 = b0_;
    b1_ = _e9;
    Best _e11 = b0_;
    b2_ = _e11;
    Best _e13 = b0_;
    b3_ = _e13;
    uint2 loop_bound_6 = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound_6 == uint2(0u))) { break; }
        loop_bound_6 -= uint2(loop_bound_6.y == 0u, 1u);
        uint _e15 = w_3;
        if ((_e15 + (3u * stride)) < end) {
        } else {
            break;
        }
        {
            uint _e21 = w_3;
            metal::float4 x0_ = src_vec[row + _e21];
            uint _e26 = w_3;
            metal::float4 x1_ = src_vec[(row + _e26) + stride];
            uint _e32 = w_3;
            metal::float4 x2_ = src_vec[(row + _e32) + (2u * stride)];
            uint _e40 = w_3;
            metal::float4 x3_ = src_vec[(row + _e40) + (3u * stride)];
            Best _e47 = b0_;
            uint _e48 = w_3;
            Best _e49 = flat_step(_e47, x0_, _e48);
            b0_ = _e49;
            Best _e50 = b1_;
            uint _e51 = w_3;
            Best _e53 = flat_step(_e50, x1_, _e51 + stride);
            b1_ = _e53;
            Best _e54 = b2_;
            uint _e55 = w_3;
            Best _e59 = flat_step(_e54, x2_, _e55 + (2u * stride));
            b2_ = _e59;
            Best _e60 = b3_;
            uint _e61 = w_3;
            Best _e65 = flat_step(_e60, x3_, _e61 + (3u * stride));
            b3_ = _e65;
            uint _e66 = w_3;
            w_3 = _e66 + (4u * stride);
        }
    }
    uint2 loop_bound_7 = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound_7 == uint2(0u))) { break; }
        loop_bound_7 -= uint2(loop_bound_7.y == 0u, 1u);
        uint _e70 = w_3;
        if (_e70 < end) {
        } else {
            break;
        }
        {
            Best _e72 = b0_;
            uint _e74 = w_3;
            metal::float4 _e77 = src_vec[row + _e74];
            uint _e78 = w_3;
            Best _e79 = flat_step(_e72, _e77, _e78);
            b0_ = _e79;
            uint _e80 = w_3;
            w_3 = _e80 + stride;
        }
    }
    Best _e82 = b0_;
    Best _e83 = b1_;
    Best _e84 = flat_merge(_e82, _e83);
    Best _e85 = b2_;
    Best _e86 = b3_;
    Best _e87 = flat_merge(_e85, _e86);
    Best _e88 = flat_merge(_e84, _e87);
    ArgState _e89 = flat_state(_e88, params);
    acc = _e89;
    uint _e93 = params.r;
    uint t = (naga_div(_e93, 4u) * 4u) + lid_9;
    if (g_4 == 0u) {
        local_9 = lid_9 < 3u;
    } else {
        local_9 = false;
    }
    bool _e106 = local_9;
    if (_e106) {
        uint _e111 = params.r;
        local_10 = t < _e111;
    } else {
        local_10 = false;
    }
    bool _e114 = local_10;
    if (_e114) {
        uint _e119 = params.outer;
        local_11 = _e119 == 1u;
    } else {
        local_11 = false;
    }
    bool _e123 = local_11;
    if (_e123) {
        ArgState _e124 = acc;
        ArgState _e125 = load(t, t, src, params, _buffer_sizes);
        ArgState _e126 = combine(_e124, _e125);
        acc = _e126;
    }
    ArgState _e127 = acc;
    return _e127;
}

void reduce_flat(
    uint lid_10,
    metal::uint3 wid_4,
    device type_2 const& src,
    constant AxisParams& params,
    device type_4& dst,
    threadgroup type_9& scratch,
    device type_12 const& src_vec,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint stride_1 = {};
    uint w_4 = {};
    uint end_1 = {};
    uint row_1 = 0u;
    uint out = {};
    bool local_12 = {};
    uint _e5 = params.groups_x;
    uint g_8 = (wid_4.y * _e5) + wid_4.x;
    uint _e11 = params.groups;
    if (g_8 >= _e11) {
        return;
    }
    uint _e15 = params.r;
    uint n_vec = naga_div(_e15, 4u);
    uint shift_2 = params.lanes_shift;
    uint lanes_1 = 1u << shift_2;
    uint lane_1 = lid_10 & (lanes_1 - 1u);
    uint _e28 = params.groups;
    stride_1 = _e28 * WG;
    w_4 = (g_8 * WG) + lid_10;
    end_1 = n_vec;
    out = g_8;
    uint _e42 = params.outer;
    if (_e42 > 1u) {
        uint r_index = (g_8 << (WG_SHIFT - shift_2)) + (lid_10 >> shift_2);
        uint _e52 = params.chunk;
        uint c_1 = naga_div(_e52, 4u);
        stride_1 = lanes_1;
        row_1 = r_index * n_vec;
        w_4 = (wid_4.z * c_1) + lane_1;
        uint _e66 = params.outer;
        end_1 = (r_index < _e66) ? metal::min((wid_4.z * c_1) + c_1, n_vec) : 0u;
        uint _e72 = params.splits;
        uint _e78 = params.outer;
        out = (r_index < _e78) ? ((r_index * _e72) + wid_4.z) : NO_OUTPUT;
    }
    uint _e81 = w_4;
    uint _e82 = stride_1;
    uint _e83 = end_1;
    uint _e84 = row_1;
    ArgState _e85 = flat_part(lid_10, g_8, _e81, _e82, _e83, _e84, src, params, src_vec, _buffer_sizes);
    ArgState _e86 = lanes_combine(lid_10, lane_1, lanes_1, _e85, scratch);
    if (FLAT_LAST_GROUP) {
        flat_finish(lid_10, g_8, _e86);
        return;
    } else {
        if (lane_1 == 0u) {
            uint _e92 = out;
            local_12 = _e92 != NO_OUTPUT;
        } else {
            local_12 = false;
        }
        bool _e96 = local_12;
        if (_e96) {
            uint _e97 = out;
            store(_e97, _e86, params, dst, _buffer_sizes);
            return;
        } else {
            return;
        }
    }
}

float f16_at(
    uint w_5,
    uint k_6
) {
    return float2(as_type<half2>(w_5))[k_6 & 1u];
}

metal::float4 f16_lo4_(
    metal::uint4 x_11
) {
    return metal::float4(float2(as_type<half2>(x_11.x)).x, float2(as_type<half2>(x_11.y)).x, float2(as_type<half2>(x_11.z)).x, float2(as_type<half2>(x_11.w)).x);
}

metal::float4 f16_hi4_(
    metal::uint4 x_12
) {
    return metal::float4(float2(as_type<half2>(x_12.x)).y, float2(as_type<half2>(x_12.y)).y, float2(as_type<half2>(x_12.z)).y, float2(as_type<half2>(x_12.w)).y);
}

metal::float4 f16_four(
    metal::uint2 w_6
) {
    return metal::float4(float2(as_type<half2>(w_6.x)), float2(as_type<half2>(w_6.y)));
}

struct main_Input {
};
[[max_total_threads_per_threadgroup(256)]] kernel void main_(
  uint lid [[thread_index_in_threadgroup]]
, metal::uint3 wid [[threadgroup_position_in_grid]]
, device type_2 const& src [[user(fake0)]]
, constant AxisParams& params [[user(fake0)]]
, device type_4& dst [[user(fake0)]]
, threadgroup type_9& scratch
, device type_12 const& src_vec [[user(fake0)]]
, constant _mslBufferSizes& _buffer_sizes [[user(fake0)]]
) {
    if (lid == 0u) {
        scratch = {};
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    reduce_flat(lid, wid, src, params, dst, scratch, src_vec, _buffer_sizes);
    return;
}
