// language: metal2.4
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct _mslBufferSizes {
    uint size0;
    uint size1;
    uint size2;
    uint size4;
};

typedef uint T;
typedef float A;
typedef T type_4[1];
typedef metal::float4 S;
struct type_7 {
    metal::uint4 inner[2];
};
struct Params {
    uint n;
    uint n_vec;
    uint num_groups;
    uint flags;
    float divisor;
    uint dst_base;
    uint spin_limit;
    uint pad2_;
    type_7 pad;
};
typedef metal::uint4 type_8[1];
typedef A type_9[1];
typedef metal::atomic_uint type_11[1];
struct Lanes {
    uint lid;
    uint lane;
    uint size;
    uint sg;
    uint count;
};
struct Peek {
    bool ready;
    char _pad1[3];
    A value;
};
struct type_12 {
    A inner[256];
};
constant uint WG = 256u;
constant uint EPV = 8u;
constant uint HALF_INF_BITS = 31744u;
constant uint FINAL = 1u;
constant uint LAST_GROUP = 2u;
constant uint HIDE_PARTIALS = 4u;
constant uint PUBLISHED = 2147483648u;

metal::float4 combine4_(
    metal::float4 a,
    metal::float4 b
) {
    return a + b;
}

metal::float4 f16_lo4_(
    metal::uint4 x
) {
    return metal::float4(float2(as_type<half2>(x.x)).x, float2(as_type<half2>(x.y)).x, float2(as_type<half2>(x.z)).x, float2(as_type<half2>(x.w)).x);
}

metal::float4 f16_hi4_(
    metal::uint4 x_1
) {
    return metal::float4(float2(as_type<half2>(x_1.x)).y, float2(as_type<half2>(x_1.y)).y, float2(as_type<half2>(x_1.z)).y, float2(as_type<half2>(x_1.w)).y);
}

metal::float4 load4_(
    metal::uint4 x_2
) {
    metal::float4 _e1 = f16_lo4_(x_2);
    metal::float4 _e2 = f16_hi4_(x_2);
    metal::float4 _e3 = combine4_(_e1, _e2);
    return _e3;
}

float f16_at(
    uint w,
    uint k
) {
    return float2(as_type<half2>(w))[k & 1u];
}

A load_elem(
    uint t,
    device type_4 const& src,
    constant _mslBufferSizes& _buffer_sizes
) {
    T _e5 = src[t >> 1u];
    float _e6 = f16_at(_e5, t);
    return _e6;
}

A half_value(
    uint h
) {
    float _e2 = f16_at(h, 0u);
    return _e2;
}

A identity(
) {
    return 0.0;
}

A combine(
    A a_1,
    A b_1
) {
    return a_1 + b_1;
}

S s_identity(
) {
    A _e0 = identity();
    return metal::float4(_e0);
}

S s_add(
    S s,
    metal::uint4 x_3
) {
    metal::float4 _e2 = load4_(x_3);
    metal::float4 _e3 = combine4_(s, _e2);
    return _e3;
}

S s_merge(
    S a_2,
    S b_2
) {
    metal::float4 _e2 = combine4_(a_2, b_2);
    return _e2;
}

A s_finish(
    S v
) {
    A _e3 = combine(v.x, v.y);
    A _e6 = combine(v.z, v.w);
    A _e7 = combine(_e3, _e6);
    return _e7;
}

A finalize(
    A a_3
) {
    return a_3;
}

A subgroup_combine(
    A a_4
) {
    A unnamed = metal::simd_sum(a_4);
    return unnamed;
}

float f32_from_bits(
    uint b_3
) {
    return as_type<float>(b_3);
}

float pos_inf(
) {
    float _e1 = f32_from_bits(2139095040u);
    return _e1;
}

float neg_inf(
) {
    float _e1 = f32_from_bits(4286578688u);
    return _e1;
}

float quiet_nan(
) {
    float _e1 = f32_from_bits(2143289344u);
    return _e1;
}

bool is_nan(
    float x_4
) {
    return (as_type<uint>(x_4) & 2147483647u) > 2139095040u;
}

metal::bool4 is_nan4_(
    metal::float4 x_5
) {
    return (as_type<metal::uint4>(x_5) & metal::uint4(2147483647u)) > metal::uint4(2139095040u);
}

uint fkey(
    float x_6
) {
    uint b_9 = ((as_type<uint>(x_6) & 2147483647u) == 0u) ? 0u : as_type<uint>(x_6);
    return ((b_9 & 2147483648u) != 0u) ? ~(b_9) : (b_9 | 2147483648u);
}

metal::uint4 fkey4_(
    metal::float4 x_7
) {
    metal::uint4 raw = as_type<metal::uint4>(x_7);
    metal::uint4 b_10 = metal::select(raw, metal::uint4(0u), (raw & metal::uint4(2147483647u)) == metal::uint4(0u));
    return metal::select(b_10 | metal::uint4(2147483648u), ~(b_10), (b_10 & metal::uint4(2147483648u)) != metal::uint4(0u));
}

float from_fkey(
    uint k_1
) {
    return as_type<float>(((k_1 & 2147483648u) != 0u) ? (k_1 & 2147483647u) : ~(k_1));
}

float fmin_exact(
    float a_5,
    float b_4
) {
    uint _e2 = fkey(b_4);
    uint _e3 = fkey(a_5);
    return (_e2 < _e3) ? b_4 : a_5;
}

float fmax_exact(
    float a_6,
    float b_5
) {
    uint _e2 = fkey(b_5);
    uint _e3 = fkey(a_6);
    return (_e2 > _e3) ? b_5 : a_6;
}

metal::float4 fmin4_exact(
    metal::float4 a_7,
    metal::float4 b_6
) {
    metal::uint4 _e2 = fkey4_(b_6);
    metal::uint4 _e3 = fkey4_(a_7);
    return metal::select(a_7, b_6, _e2 < _e3);
}

metal::float4 fmax4_exact(
    metal::float4 a_8,
    metal::float4 b_7
) {
    metal::uint4 _e2 = fkey4_(b_7);
    metal::uint4 _e3 = fkey4_(a_8);
    return metal::select(a_8, b_7, _e2 > _e3);
}

float bf16_at(
    uint w_1,
    uint k_2
) {
    return as_type<float>(((k_2 & 1u) != 0u) ? (w_1 & 4294901760u) : (w_1 << 16u));
}

metal::float4 bf16_lo4_(
    metal::uint4 x_8
) {
    return as_type<metal::float4>(x_8 << metal::uint4(16u));
}

metal::float4 bf16_hi4_(
    metal::uint4 x_9
) {
    return as_type<metal::float4>(x_9 & metal::uint4(4294901760u));
}

uint f32_to_f16_bits(
    float x_10
) {
    uint h_1 = {};
    bool local = {};
    bool local_1 = {};
    uint h_2 = {};
    bool local_2 = {};
    bool local_3 = {};
    uint b_11 = as_type<uint>(x_10);
    uint sign = (b_11 >> 16u) & 32768u;
    uint e = (b_11 >> 23u) & 255u;
    uint m = b_11 & 8388607u;
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
        h_1 = mm >> shift;
        uint rem = mm & ((1u << shift) - 1u);
        uint half_ = 1u << (shift - 1u);
        if (!((rem > half_))) {
            if (rem == half_) {
                uint _e59 = h_1;
                local_1 = (_e59 & 1u) == 1u;
            } else {
                local_1 = false;
            }
            bool _e65 = local_1;
            local = _e65;
        } else {
            local = true;
        }
        bool _e67 = local;
        if (_e67) {
            uint _e68 = h_1;
            h_1 = _e68 + 1u;
        }
        uint _e71 = h_1;
        return sign | _e71;
    }
    h_2 = (static_cast<uint>(ue) << 10u) | (m >> 13u);
    uint rem_1 = m & 8191u;
    if (!((rem_1 > 4096u))) {
        if (rem_1 == 4096u) {
            uint _e91 = h_2;
            local_3 = (_e91 & 1u) == 1u;
        } else {
            local_3 = false;
        }
        bool _e97 = local_3;
        local_2 = _e97;
    } else {
        local_2 = true;
    }
    bool _e99 = local_2;
    if (_e99) {
        uint _e100 = h_2;
        h_2 = _e100 + 1u;
    }
    uint _e103 = h_2;
    return sign | _e103;
}

uint f32_to_bf16_bits(
    float x_11
) {
    uint b_12 = as_type<uint>(x_11);
    if ((b_12 & 2147483647u) > 2139095040u) {
        return (b_12 >> 16u) | 64u;
    }
    return ((b_12 + 32767u) + ((b_12 >> 16u) & 1u)) >> 16u;
}

A thread_partial(
    uint group,
    uint lid_1,
    device type_4 const& src,
    device type_8 const& src_vec,
    constant Params& params,
    constant _mslBufferSizes& _buffer_sizes
) {
    S acc0_ = {};
    S acc1_ = {};
    S acc2_ = {};
    S acc3_ = {};
    uint i = {};
    A a_9 = {};
    bool local_4 = {};
    bool local_5 = {};
    uint _e4 = params.num_groups;
    uint stride = _e4 * WG;
    uint n_vec = params.n_vec;
    S _e10 = s_identity();
    acc0_ = _e10;
    S _e12 = acc0_;
    acc1_ = _e12;
    S _e14 = acc0_;
    acc2_ = _e14;
    S _e16 = acc0_;
    acc3_ = _e16;
    i = (group * WG) + lid_1;
    uint2 loop_bound = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound == uint2(0u))) { break; }
        loop_bound -= uint2(loop_bound.y == 0u, 1u);
        uint _e22 = i;
        if ((_e22 + (3u * stride)) < n_vec) {
        } else {
            break;
        }
        {
            S _e27 = acc0_;
            uint _e29 = i;
            metal::uint4 _e31 = src_vec[_e29];
            S _e32 = s_add(_e27, _e31);
            acc0_ = _e32;
            S _e33 = acc1_;
            uint _e35 = i;
            metal::uint4 _e38 = src_vec[_e35 + stride];
            S _e39 = s_add(_e33, _e38);
            acc1_ = _e39;
            S _e40 = acc2_;
            uint _e42 = i;
            metal::uint4 _e47 = src_vec[_e42 + (2u * stride)];
            S _e48 = s_add(_e40, _e47);
            acc2_ = _e48;
            S _e49 = acc3_;
            uint _e51 = i;
            metal::uint4 _e56 = src_vec[_e51 + (3u * stride)];
            S _e57 = s_add(_e49, _e56);
            acc3_ = _e57;
            uint _e58 = i;
            i = _e58 + (4u * stride);
        }
    }
    uint2 loop_bound_1 = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound_1 == uint2(0u))) { break; }
        loop_bound_1 -= uint2(loop_bound_1.y == 0u, 1u);
        uint _e62 = i;
        if (_e62 < n_vec) {
        } else {
            break;
        }
        {
            S _e64 = acc0_;
            uint _e66 = i;
            metal::uint4 _e68 = src_vec[_e66];
            S _e69 = s_add(_e64, _e68);
            acc0_ = _e69;
            uint _e70 = i;
            i = _e70 + stride;
        }
    }
    S _e72 = acc0_;
    S _e73 = acc1_;
    S _e74 = s_merge(_e72, _e73);
    S _e75 = acc2_;
    S _e76 = acc3_;
    S _e77 = s_merge(_e75, _e76);
    S _e78 = s_merge(_e74, _e77);
    A _e79 = s_finish(_e78);
    a_9 = _e79;
    uint t_1 = (n_vec * EPV) + lid_1;
    if (group == 0u) {
        local_4 = lid_1 < 7u;
    } else {
        local_4 = false;
    }
    bool _e91 = local_4;
    if (_e91) {
        uint _e96 = params.n;
        local_5 = t_1 < _e96;
    } else {
        local_5 = false;
    }
    bool _e99 = local_5;
    if (_e99) {
        A _e100 = a_9;
        A _e101 = load_elem(t_1, src, _buffer_sizes);
        A _e102 = combine(_e100, _e101);
        a_9 = _e102;
    }
    A _e103 = a_9;
    return _e103;
}

void publish(
    uint group_1,
    A v_1,
    device type_11& aux,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint b_13 = as_type<uint>(v_1);
    metal::atomic_store_explicit(&aux[1u + (2u * group_1)], PUBLISHED | (b_13 & 65535u), metal::memory_order_relaxed);
    metal::atomic_store_explicit(&aux[2u + (2u * group_1)], PUBLISHED | (b_13 >> 16u), metal::memory_order_relaxed);
    return;
}

Peek peek(
    uint g,
    constant Params& params,
    device type_11 const& aux,
    constant _mslBufferSizes& _buffer_sizes
) {
    uint k_3 = 0u;
    bool local_6 = {};
    uint _e3 = params.flags;
    bool hidden = (_e3 & HIDE_PARTIALS) != 0u;
    uint2 loop_bound_2 = uint2(4294967295u);
    bool loop_init = true;
    while(true) {
        if (metal::all(loop_bound_2 == uint2(0u))) { break; }
        loop_bound_2 -= uint2(loop_bound_2.y == 0u, 1u);
        if (!loop_init) {
            uint _e49 = k_3;
            k_3 = _e49 + 1u;
        }
        loop_init = false;
        uint _e10 = k_3;
        uint _e13 = params.spin_limit;
        if (_e10 <= _e13) {
        } else {
            break;
        }
        {
            uint w0_ = metal::atomic_load_explicit(&aux[1u + (2u * g)], metal::memory_order_relaxed);
            uint w1_ = metal::atomic_load_explicit(&aux[2u + (2u * g)], metal::memory_order_relaxed);
            if (!(hidden)) {
                local_6 = ((w0_ & w1_) & PUBLISHED) != 0u;
            } else {
                local_6 = false;
            }
            bool _e38 = local_6;
            if (_e38) {
                return Peek {true, {}, as_type<float>((w0_ & 65535u) | ((w1_ & 65535u) << 16u))};
            }
        }
    }
    A _e53 = identity();
    return Peek {false, {}, _e53};
}

A group_reduce(
    Lanes l,
    A v_2,
    threadgroup type_12& scratch
) {
    A b_8 = {};
    uint j = {};
    A _e2 = subgroup_combine(v_2);
    if (l.lane == 0u) {
        scratch.inner[l.sg] = _e2;
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    A _e9 = identity();
    b_8 = _e9;
    j = l.lane;
    uint2 loop_bound_3 = uint2(4294967295u);
    bool loop_init_1 = true;
    while(true) {
        if (metal::all(loop_bound_3 == uint2(0u))) { break; }
        loop_bound_3 -= uint2(loop_bound_3.y == 0u, 1u);
        if (!loop_init_1) {
            uint _e22 = j;
            j = _e22 + l.size;
        }
        loop_init_1 = false;
        uint _e13 = j;
        if (_e13 < l.count) {
        } else {
            break;
        }
        {
            A _e16 = b_8;
            uint _e18 = j;
            A _e20 = scratch.inner[_e18];
            A _e21 = combine(_e16, _e20);
            b_8 = _e21;
        }
    }
    A _e25 = b_8;
    A _e26 = subgroup_combine(_e25);
    return _e26;
}

uint naga_mod(uint lhs, uint rhs) {
    return lhs % metal::select(rhs, 1u, rhs == 0u);
}

void finish(
    Lanes l_1,
    uint group_2,
    A v_3,
    device type_4 const& src,
    device type_8 const& src_vec,
    device type_9& dst,
    constant Params& params,
    device type_11& aux,
    threadgroup uint& wg_flag,
    threadgroup metal::atomic_uint& wg_missing,
    threadgroup A& wg_value,
    threadgroup type_12& scratch,
    constant _mslBufferSizes& _buffer_sizes
) {
    A acc = {};
    uint j_1 = {};
    uint g_1 = 0u;
    uint j_2 = {};
    uint _e5 = params.flags;
    if ((_e5 & LAST_GROUP) == 0u) {
        if (l_1.lid == 0u) {
            uint _e16 = params.dst_base;
            A _e19 = finalize(v_3);
            dst[_e16 + group_2] = _e19;
        }
        return;
    }
    if (l_1.lid == 0u) {
        publish(group_2, v_3, aux, _buffer_sizes);
        uint _e29 = metal::atomic_fetch_add_explicit(&aux[0], 1u, metal::memory_order_relaxed);
        uint _e32 = params.num_groups;
        wg_flag = (_e29 == (_e32 - 1u)) ? 1u : 0u;
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    uint unnamed_1 = wg_flag;
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    if (unnamed_1 == 0u) {
        return;
    }
    A _e41 = identity();
    acc = _e41;
    j_1 = l_1.lid;
    uint2 loop_bound_4 = uint2(4294967295u);
    bool loop_init_2 = true;
    while(true) {
        if (metal::all(loop_bound_4 == uint2(0u))) { break; }
        loop_bound_4 -= uint2(loop_bound_4.y == 0u, 1u);
        if (!loop_init_2) {
            uint _e59 = j_1;
            j_1 = _e59 + WG;
        }
        loop_init_2 = false;
        uint _e45 = j_1;
        uint _e48 = params.num_groups;
        if (_e45 < _e48) {
        } else {
            break;
        }
        {
            uint _e50 = j_1;
            Peek _e51 = peek(_e50, params, aux, _buffer_sizes);
            if (!(_e51.ready)) {
                metal::atomic_store_explicit(&wg_missing, 1u, metal::memory_order_relaxed);
            }
            A _e56 = acc;
            A _e58 = combine(_e56, _e51.value);
            acc = _e58;
        }
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    if (l_1.lid == 0u) {
        uint _e67 = metal::atomic_load_explicit(&wg_missing, metal::memory_order_relaxed);
        wg_flag = _e67;
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    uint unnamed_2 = wg_flag;
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    if (unnamed_2 != 0u) {
        A _e72 = identity();
        acc = _e72;
        uint2 loop_bound_5 = uint2(4294967295u);
        bool loop_init_3 = true;
        while(true) {
            if (metal::all(loop_bound_5 == uint2(0u))) { break; }
            loop_bound_5 -= uint2(loop_bound_5.y == 0u, 1u);
            if (!loop_init_3) {
                uint _e97 = g_1;
                g_1 = _e97 + 1u;
            }
            loop_init_3 = false;
            uint _e75 = g_1;
            uint _e78 = params.num_groups;
            if (_e75 < _e78) {
            } else {
                break;
            }
            {
                uint _e80 = g_1;
                A _e82 = thread_partial(_e80, l_1.lid, src, src_vec, params, _buffer_sizes);
                A _e83 = group_reduce(l_1, _e82, scratch);
                if (l_1.lid == 0u) {
                    wg_value = _e83;
                }
                metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
                A unnamed_3 = wg_value;
                metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
                uint _e91 = g_1;
                if (l_1.lid == naga_mod(_e91, WG)) {
                    A _e95 = acc;
                    A _e96 = combine(_e95, unnamed_3);
                    acc = _e96;
                }
            }
        }
    }
    A _e100 = acc;
    A _e101 = group_reduce(l_1, _e100, scratch);
    if (l_1.lid == 0u) {
        uint _e108 = params.dst_base;
        A _e110 = finalize(_e101);
        dst[_e108] = _e110;
    }
    j_2 = l_1.lid;
    uint2 loop_bound_6 = uint2(4294967295u);
    bool loop_init_4 = true;
    while(true) {
        if (metal::all(loop_bound_6 == uint2(0u))) { break; }
        loop_bound_6 -= uint2(loop_bound_6.y == 0u, 1u);
        if (!loop_init_4) {
            uint _e124 = j_2;
            j_2 = _e124 + WG;
        }
        loop_init_4 = false;
        uint _e113 = j_2;
        uint _e117 = params.num_groups;
        if (_e113 <= (2u * _e117)) {
        } else {
            break;
        }
        {
            uint _e121 = j_2;
            metal::atomic_store_explicit(&aux[_e121], 0u, metal::memory_order_relaxed);
        }
    }
    return;
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
, uint lane [[thread_index_in_simdgroup]]
, uint sg_size [[threads_per_simdgroup]]
, uint sg_id [[simdgroup_index_in_threadgroup]]
, uint n_sg [[simdgroups_per_threadgroup]]
, device type_4 const& src [[user(fake0)]]
, device type_8 const& src_vec [[user(fake0)]]
, device type_9& dst [[user(fake0)]]
, constant Params& params [[user(fake0)]]
, device type_11& aux [[user(fake0)]]
, threadgroup uint& wg_flag
, threadgroup metal::atomic_uint& wg_missing
, threadgroup A& wg_value
, threadgroup type_12& scratch
, constant _mslBufferSizes& _buffer_sizes [[user(fake0)]]
) {
    if (lid == 0u) {
        wg_flag = {};
        metal::atomic_store_explicit(&wg_missing, 0, metal::memory_order_relaxed);
        wg_value = {};
        scratch = {};
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    Lanes l_2 = Lanes {lid, lane, sg_size, sg_id, n_sg};
    A _e9 = thread_partial(wid.x, lid, src, src_vec, params, _buffer_sizes);
    A _e10 = group_reduce(l_2, _e9, scratch);
    finish(l_2, wid.x, _e10, src, src_vec, dst, params, aux, wg_flag, wg_missing, wg_value, scratch, _buffer_sizes);
    return;
}
