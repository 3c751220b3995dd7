// language: metal2.4
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct _mslBufferSizes {
    uint size0;
    uint size2;
};

typedef float V;
typedef float E;
struct ArgState {
    V v;
    uint i;
};
typedef uint DST;
typedef ArgState type_3[1];
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
typedef DST type_4[1];
struct type_8 {
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
constant uint WG = 256u;
constant uint WG_SHIFT = 8u;
constant bool ARGMAX = true;
constant uint FINAL = 1u;
constant uint ACCUMULATE = 2u;
constant uint HIDE_PARTIALS = 4u;
constant uint SEGMENT_LONG = 8u;
constant uint ROW_GRAIN = 1u;

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
    uint b_8 = ((as_type<uint>(x_1) & 2147483647u) == 0u) ? 0u : as_type<uint>(x_1);
    return ((b_8 & 2147483648u) != 0u) ? ~(b_8) : (b_8 | 2147483648u);
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
    uint j_1,
    device type_3 const& src,
    constant AxisParams& params,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e5 = params.src_base;
    ArgState _e8 = src[_e5 + k0_];
    return _e8;
}

void store(
    uint o,
    ArgState s_1,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e5 = params.dst_base;
    uint _e8 = finalize(s_1);
    dst[_e5 + o] = _e8;
    return;
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
    metal::uint4 b_9 = metal::select(raw, metal::uint4(0u), (raw & metal::uint4(2147483647u)) == metal::uint4(0u));
    return metal::select(b_9 | metal::uint4(2147483648u), ~(b_9), (b_9 & metal::uint4(2147483648u)) != metal::uint4(0u));
}

float from_fkey(
    uint k
) {
    return as_type<float>(((k & 2147483648u) != 0u) ? (k & 2147483647u) : ~(k));
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
    uint k_1
) {
    return as_type<float>(((k_1 & 1u) != 0u) ? (w & 4294901760u) : (w << 16u));
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
    uint b_10 = as_type<uint>(x_7);
    uint sign = (b_10 >> 16u) & 32768u;
    uint e = (b_10 >> 23u) & 255u;
    uint m = b_10 & 8388607u;
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
    uint b_11 = as_type<uint>(x_8);
    if ((b_11 & 2147483647u) > 2139095040u) {
        return (b_11 >> 16u) | 64u;
    }
    return ((b_11 + 32767u) + ((b_11 >> 16u) & 1u)) >> 16u;
}

uint naga_div(uint lhs, uint rhs) {
    return lhs / metal::select(rhs, 1u, rhs == 0u);
}

ArgState lanes_combine(
    uint lid_1,
    uint lane,
    uint lanes,
    ArgState v_2,
    threadgroup type_8& scratch
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
    device type_3 const& src,
    constant AxisParams& params,
    device type_4& dst,
    threadgroup type_8& scratch,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState acc0_ = {};
    ArgState acc1_ = {};
    ArgState acc2_ = {};
    ArgState acc3_ = {};
    uint j_2 = {};
    uint k_2 = {};
    uint s_3 = {};
    bool local_8 = {};
    uint _e5 = params.groups_x;
    uint g_3 = (wid_1.y * _e5) + wid_1.x;
    uint _e11 = params.groups;
    if (g_3 >= _e11) {
        return;
    }
    ColTile _e13 = col_tile(lid_3, g_3, params);
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
        uint end_1 = metal::min(start + _e45, _e49);
        uint step_1 = slices * inner;
        j_2 = start + ty;
        uint _e56 = params.r;
        uint _e58 = j_2;
        k_2 = (((o_3 * _e56) + _e58) * inner) + i;
        uint2 loop_bound_1 = uint2(4294967295u);
        while(true) {
            if (metal::all(loop_bound_1 == uint2(0u))) { break; }
            loop_bound_1 -= uint2(loop_bound_1.y == 0u, 1u);
            uint _e63 = j_2;
            if ((_e63 + (3u * slices)) < end_1) {
            } else {
                break;
            }
            {
                ArgState _e68 = acc0_;
                uint _e69 = k_2;
                uint _e70 = j_2;
                ArgState _e71 = load(_e69, _e70, src, params, _buffer_sizes);
                ArgState _e72 = combine(_e68, _e71);
                acc0_ = _e72;
                ArgState _e73 = acc1_;
                uint _e74 = k_2;
                uint _e76 = j_2;
                ArgState _e78 = load(_e74 + step_1, _e76 + slices, src, params, _buffer_sizes);
                ArgState _e79 = combine(_e73, _e78);
                acc1_ = _e79;
                ArgState _e80 = acc2_;
                uint _e81 = k_2;
                uint _e85 = j_2;
                ArgState _e89 = load(_e81 + (2u * step_1), _e85 + (2u * slices), src, params, _buffer_sizes);
                ArgState _e90 = combine(_e80, _e89);
                acc2_ = _e90;
                ArgState _e91 = acc3_;
                uint _e92 = k_2;
                uint _e96 = j_2;
                ArgState _e100 = load(_e92 + (3u * step_1), _e96 + (3u * slices), src, params, _buffer_sizes);
                ArgState _e101 = combine(_e91, _e100);
                acc3_ = _e101;
                uint _e102 = j_2;
                j_2 = _e102 + (4u * slices);
                uint _e106 = k_2;
                k_2 = _e106 + (4u * step_1);
            }
        }
        uint2 loop_bound_2 = uint2(4294967295u);
        while(true) {
            if (metal::all(loop_bound_2 == uint2(0u))) { break; }
            loop_bound_2 -= uint2(loop_bound_2.y == 0u, 1u);
            uint _e110 = j_2;
            if (_e110 < end_1) {
            } else {
                break;
            }
            {
                ArgState _e112 = acc0_;
                uint _e113 = k_2;
                uint _e114 = j_2;
                ArgState _e115 = load(_e113, _e114, src, params, _buffer_sizes);
                ArgState _e116 = combine(_e112, _e115);
                acc0_ = _e116;
                uint _e117 = j_2;
                j_2 = _e117 + slices;
                uint _e119 = k_2;
                k_2 = _e119 + step_1;
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
    device type_3 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState a0_ = {};
    ArgState a1_ = {};
    ArgState a2_ = {};
    ArgState a3_ = {};
    uint j_3 = 0u;
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
            uint _e64 = j_3;
            j_3 = _e64 + 1u;
        }
        loop_init_2 = false;
        uint _e29 = j_3;
        if (_e29 < r) {
        } else {
            break;
        }
        {
            if (row0_ < outer) {
                ArgState _e32 = a0_;
                uint _e34 = j_3;
                uint _e36 = j_3;
                ArgState _e37 = load((row0_ * r) + _e34, _e36, src, params, _buffer_sizes);
                ArgState _e38 = combine(_e32, _e37);
                a0_ = _e38;
            }
            if (row1_ < outer) {
                ArgState _e40 = a1_;
                uint _e42 = j_3;
                uint _e44 = j_3;
                ArgState _e45 = load((row1_ * r) + _e42, _e44, src, params, _buffer_sizes);
                ArgState _e46 = combine(_e40, _e45);
                a1_ = _e46;
            }
            if (row2_ < outer) {
                ArgState _e48 = a2_;
                uint _e50 = j_3;
                uint _e52 = j_3;
                ArgState _e53 = load((row2_ * r) + _e50, _e52, src, params, _buffer_sizes);
                ArgState _e54 = combine(_e48, _e53);
                a2_ = _e54;
            }
            if (row3_ < outer) {
                ArgState _e56 = a3_;
                uint _e58 = j_3;
                uint _e60 = j_3;
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
    device type_3 const& src,
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
    uint j_4 = {};
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
    uint end_2 = metal::min(start_1 + _e42, _e46);
    ArgState _e48 = identity();
    a0_1 = _e48;
    ArgState _e50 = a0_1;
    a1_1 = _e50;
    ArgState _e52 = a0_1;
    a2_1 = _e52;
    ArgState _e54 = a0_1;
    a3_1 = _e54;
    j_4 = start_1;
    uint2 loop_bound_5 = uint2(4294967295u);
    bool loop_init_3 = true;
    while(true) {
        if (metal::all(loop_bound_5 == uint2(0u))) { break; }
        loop_bound_5 -= uint2(loop_bound_5.y == 0u, 1u);
        if (!loop_init_3) {
            uint _e92 = j_4;
            j_4 = _e92 + 1u;
        }
        loop_init_3 = false;
        uint _e57 = j_4;
        if (_e57 < end_2) {
        } else {
            break;
        }
        {
            uint _e59 = o_2;
            uint _e62 = params.r;
            uint _e64 = j_4;
            uint k_5 = ((_e59 * _e62) + _e64) * inner_1;
            if (i0_ < inner_1) {
                ArgState _e68 = a0_1;
                uint _e70 = j_4;
                ArgState _e71 = load(k_5 + i0_, _e70, src, params, _buffer_sizes);
                ArgState _e72 = combine(_e68, _e71);
                a0_1 = _e72;
            }
            if (i1_ < inner_1) {
                ArgState _e74 = a1_1;
                uint _e76 = j_4;
                ArgState _e77 = load(k_5 + i1_, _e76, src, params, _buffer_sizes);
                ArgState _e78 = combine(_e74, _e77);
                a1_1 = _e78;
            }
            if (i2_ < inner_1) {
                ArgState _e80 = a2_1;
                uint _e82 = j_4;
                ArgState _e83 = load(k_5 + i2_, _e82, src, params, _buffer_sizes);
                ArgState _e84 = combine(_e80, _e83);
                a2_1 = _e84;
            }
            if (i3_ < inner_1) {
                ArgState _e86 = a3_1;
                uint _e88 = j_4;
                ArgState _e89 = load(k_5 + i3_, _e88, src, params, _buffer_sizes);
                ArgState _e90 = combine(_e86, _e89);
                a3_1 = _e90;
            }
        }
    }
    uint _e94 = o_2;
    uint _e97 = params.splits;
    uint out = ((_e94 * _e97) + split) * inner_1;
    if (i0_ < inner_1) {
        ArgState _e103 = a0_1;
        store(out + i0_, _e103, params, dst, _buffer_sizes);
    }
    if (i1_ < inner_1) {
        ArgState _e106 = a1_1;
        store(out + i1_, _e106, params, dst, _buffer_sizes);
    }
    if (i2_ < inner_1) {
        ArgState _e109 = a2_1;
        store(out + i2_, _e109, params, dst, _buffer_sizes);
    }
    if (i3_ < inner_1) {
        ArgState _e112 = a3_1;
        store(out + i3_, _e112, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

void rows_wide_entry(
    uint lid_6,
    metal::uint3 wid_2,
    device type_3 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e5 = params.groups_x;
    uint g_4 = (wid_2.y * _e5) + wid_2.x;
    uint _e11 = params.groups;
    if (g_4 < _e11) {
        reduce_rows_wide(lid_6, g_4, src, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

void cols_wide_entry(
    uint lid_7,
    metal::uint3 wid_3,
    device type_3 const& src,
    constant AxisParams& params,
    device type_4& dst,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint _e5 = params.groups_x;
    uint g_5 = (wid_3.y * _e5) + wid_3.x;
    uint _e11 = params.groups;
    if (g_5 < _e11) {
        reduce_cols_wide(lid_7, g_5, wid_3.z, src, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

ArgState row_load(
    uint k_3,
    uint j_5,
    device type_3 const& src,
    constant AxisParams& params,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState _e2 = load(k_3, j_5, src, params, _buffer_sizes);
    return _e2;
}

ArgState row_part(
    uint base,
    uint first,
    uint end,
    uint step,
    device type_3 const& src,
    constant AxisParams& params,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState acc0_1 = {};
    ArgState acc1_1 = {};
    ArgState acc2_1 = {};
    ArgState acc3_1 = {};
    uint j_6 = {};
    ArgState _e4 = identity();
    acc0_1 = _e4;
    ArgState _e6 = acc0_1;
    acc1_1 = _e6;
    ArgState _e8 = acc0_1;
    acc2_1 = _e8;
    ArgState _e10 = acc0_1;
    acc3_1 = _e10;
    j_6 = first;
    uint2 loop_bound_6 = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound_6 == uint2(0u))) { break; }
        loop_bound_6 -= uint2(loop_bound_6.y == 0u, 1u);
        uint _e13 = j_6;
        if ((_e13 + (3u * step)) < end) {
        } else {
            break;
        }
        {
            ArgState _e18 = acc0_1;
            uint _e19 = j_6;
            uint _e21 = j_6;
            ArgState _e22 = row_load(base + _e19, _e21, src, params, _buffer_sizes);
            ArgState _e23 = combine(_e18, _e22);
            acc0_1 = _e23;
            ArgState _e24 = acc1_1;
            uint _e25 = j_6;
            uint _e28 = j_6;
            ArgState _e30 = row_load((base + _e25) + step, _e28 + step, src, params, _buffer_sizes);
            ArgState _e31 = combine(_e24, _e30);
            acc1_1 = _e31;
            ArgState _e32 = acc2_1;
            uint _e33 = j_6;
            uint _e38 = j_6;
            ArgState _e42 = row_load((base + _e33) + (2u * step), _e38 + (2u * step), src, params, _buffer_sizes);
            ArgState _e43 = combine(_e32, _e42);
            acc2_1 = _e43;
            ArgState _e44 = acc3_1;
            uint _e45 = j_6;
            uint _e50 = j_6;
            ArgState _e54 = row_load((base + _e45) + (3u * step), _e50 + (3u * step), src, params, _buffer_sizes);
            ArgState _e55 = combine(_e44, _e54);
            acc3_1 = _e55;
            uint _e56 = j_6;
            j_6 = _e56 + (4u * step);
        }
    }
    uint2 loop_bound_7 = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound_7 == uint2(0u))) { break; }
        loop_bound_7 -= uint2(loop_bound_7.y == 0u, 1u);
        uint _e60 = j_6;
        if (_e60 < end) {
        } else {
            break;
        }
        {
            ArgState _e62 = acc0_1;
            uint _e63 = j_6;
            uint _e65 = j_6;
            ArgState _e66 = row_load(base + _e63, _e65, src, params, _buffer_sizes);
            ArgState _e67 = combine(_e62, _e66);
            acc0_1 = _e67;
            uint _e68 = j_6;
            j_6 = _e68 + step;
        }
    }
    ArgState _e70 = acc0_1;
    ArgState _e71 = acc1_1;
    ArgState _e72 = combine(_e70, _e71);
    ArgState _e73 = acc2_1;
    ArgState _e74 = acc3_1;
    ArgState _e75 = combine(_e73, _e74);
    ArgState _e76 = combine(_e72, _e75);
    return _e76;
}

void reduce_rows(
    uint lid_8,
    metal::uint3 wid_4,
    device type_3 const& src,
    constant AxisParams& params,
    device type_4& dst,
    threadgroup type_8& scratch,
    constant _mslBufferSizes& _buffer_sizes
) {
    ArgState acc = {};
    bool local_9 = {};
    uint _e5 = params.groups_x;
    uint g_6 = (wid_4.y * _e5) + wid_4.x;
    uint _e11 = params.groups;
    if (g_6 >= _e11) {
        return;
    }
    uint shift_2 = params.lanes_shift;
    uint lanes_1 = 1u << shift_2;
    uint split_2 = wid_4.z;
    uint row = (g_6 << (WG_SHIFT - shift_2)) + (lid_8 >> shift_2);
    uint lane_1 = lid_8 & (lanes_1 - 1u);
    ArgState _e27 = identity();
    acc = _e27;
    uint _e31 = params.outer;
    if (row < _e31) {
        uint _e35 = params.chunk;
        uint start_2 = split_2 * _e35;
        uint _e39 = params.chunk;
        uint _e43 = params.r;
        uint end_3 = metal::min(start_2 + _e39, _e43);
        uint _e47 = params.r;
        ArgState _e54 = row_part(row * _e47, start_2 + (ROW_GRAIN * lane_1), end_3, ROW_GRAIN * lanes_1, src, params, _buffer_sizes);
        acc = _e54;
    }
    ArgState _e55 = acc;
    ArgState _e56 = lanes_combine(lid_8, lane_1, lanes_1, _e55, scratch);
    if (lane_1 == 0u) {
        uint _e63 = params.outer;
        local_9 = row < _e63;
    } else {
        local_9 = false;
    }
    bool _e66 = local_9;
    if (_e66) {
        uint _e69 = params.splits;
        store((row * _e69) + split_2, _e56, params, dst, _buffer_sizes);
        return;
    } else {
        return;
    }
}

float f16_at(
    uint w_1,
    uint k_4
) {
    return float2(as_type<half2>(w_1))[k_4 & 1u];
}

metal::float4 f16_lo4_(
    metal::uint4 x_9
) {
    return metal::float4(float2(as_type<half2>(x_9.x)).x, float2(as_type<half2>(x_9.y)).x, float2(as_type<half2>(x_9.z)).x, float2(as_type<half2>(x_9.w)).x);
}

metal::float4 f16_hi4_(
    metal::uint4 x_10
) {
    return metal::float4(float2(as_type<half2>(x_10.x)).y, float2(as_type<half2>(x_10.y)).y, float2(as_type<half2>(x_10.z)).y, float2(as_type<half2>(x_10.w)).y);
}

metal::float4 f16_four(
    metal::uint2 w_2
) {
    return metal::float4(float2(as_type<half2>(w_2.x)), float2(as_type<half2>(w_2.y)));
}

struct main_Input {
};
[[max_total_threads_per_threadgroup(256)]] kernel void main_(
  uint lid [[thread_index_in_threadgroup]]
, metal::uint3 wid [[threadgroup_position_in_grid]]
, device type_3 const& src [[user(fake0)]]
, constant AxisParams& params [[user(fake0)]]
, device type_4& dst [[user(fake0)]]
, threadgroup type_8& scratch
, constant _mslBufferSizes& _buffer_sizes [[user(fake0)]]
) {
    if (lid == 0u) {
        scratch = {};
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    reduce_rows(lid, wid, src, params, dst, scratch, _buffer_sizes);
    return;
}
