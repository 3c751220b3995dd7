// language: metal2.4
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct _mslBufferSizes {
    uint size0;
    uint size1;
    uint size2;
};

typedef float T;
typedef float A;
typedef T type_2[1];
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
    uint pad1_;
    uint pad2_;
    type_7 pad;
};
typedef metal::float4 type_8[1];
typedef A type_9[1];
struct type_10 {
    A inner[256];
};
constant uint WG = 256u;
constant uint EPV = 4u;

metal::float4 load4_(
    metal::float4 x
) {
    return static_cast<metal::float4>(x);
}

A load_elem(
    uint t,
    device type_2 const& src,
    constant _mslBufferSizes& _buffer_sizes
) {
    T _e3 = src[t];
    return static_cast<float>(_e3);
}

A identity(
) {
    return 0.0;
}

A combine(
    A a,
    A b
) {
    return a + b;
}

metal::float4 combine4_(
    metal::float4 a_1,
    metal::float4 b_1
) {
    return a_1 + b_1;
}

A finalize(
    A a_2
) {
    return a_2;
}

bool is_nan(
    float x_1
) {
    return (as_type<uint>(x_1) & 2147483647u) > 2139095040u;
}

metal::bool4 is_nan4_(
    metal::float4 x_2
) {
    return (as_type<metal::uint4>(x_2) & metal::uint4(2147483647u)) > metal::uint4(2139095040u);
}

uint fkey(
    float x_3
) {
    uint b_6 = ((as_type<uint>(x_3) & 2147483647u) == 0u) ? 0u : as_type<uint>(x_3);
    return ((b_6 & 2147483648u) != 0u) ? ~(b_6) : (b_6 | 2147483648u);
}

metal::uint4 fkey4_(
    metal::float4 x_4
) {
    metal::uint4 raw = as_type<metal::uint4>(x_4);
    metal::uint4 b_7 = metal::select(raw, metal::uint4(0u), (raw & metal::uint4(2147483647u)) == metal::uint4(0u));
    return metal::select(b_7 | metal::uint4(2147483648u), ~(b_7), (b_7 & metal::uint4(2147483648u)) != metal::uint4(0u));
}

float from_fkey(
    uint k
) {
    return as_type<float>(((k & 2147483648u) != 0u) ? (k & 2147483647u) : ~(k));
}

float fmin_exact(
    float a_3,
    float b_2
) {
    uint _e2 = fkey(b_2);
    uint _e3 = fkey(a_3);
    return (_e2 < _e3) ? b_2 : a_3;
}

float fmax_exact(
    float a_4,
    float b_3
) {
    uint _e2 = fkey(b_3);
    uint _e3 = fkey(a_4);
    return (_e2 > _e3) ? b_3 : a_4;
}

metal::float4 fmin4_exact(
    metal::float4 a_5,
    metal::float4 b_4
) {
    metal::uint4 _e2 = fkey4_(b_4);
    metal::uint4 _e3 = fkey4_(a_5);
    return metal::select(a_5, b_4, _e2 < _e3);
}

metal::float4 fmax4_exact(
    metal::float4 a_6,
    metal::float4 b_5
) {
    metal::uint4 _e2 = fkey4_(b_5);
    metal::uint4 _e3 = fkey4_(a_6);
    return metal::select(a_6, b_5, _e2 > _e3);
}

float f16_bits_to_f32_(
    uint h
) {
    uint sign = (h & 32768u) << 16u;
    uint e = (h >> 10u) & 31u;
    uint m = h & 1023u;
    float normal = as_type<float>((sign | ((e + 112u) << 23u)) | (m << 13u));
    float special = as_type<float>((sign | 2139095040u) | (m << 13u));
    float sub = as_type<float>(sign | as_type<uint>(static_cast<float>(m) * 0.000000059604645));
    return (e == 0u) ? sub : ((e == 31u) ? special : normal);
}

metal::float4 f16_bits_to_f32_4_(
    metal::uint4 h_1
) {
    metal::uint4 sign_1 = (h_1 & metal::uint4(32768u)) << metal::uint4(16u);
    metal::uint4 e_1 = (h_1 >> metal::uint4(10u)) & metal::uint4(31u);
    metal::uint4 m_1 = h_1 & metal::uint4(1023u);
    metal::float4 normal_1 = as_type<metal::float4>((sign_1 | ((e_1 + metal::uint4(112u)) << metal::uint4(23u))) | (m_1 << metal::uint4(13u)));
    metal::float4 special_1 = as_type<metal::float4>((sign_1 | metal::uint4(2139095040u)) | (m_1 << metal::uint4(13u)));
    metal::float4 sub_1 = as_type<metal::float4>(sign_1 | as_type<metal::uint4>(static_cast<metal::float4>(m_1) * 0.000000059604645));
    return metal::select(metal::select(normal_1, special_1, e_1 == metal::uint4(31u)), sub_1, e_1 == metal::uint4(0u));
}

float f16_at(
    uint w,
    uint k_1
) {
    float _e11 = f16_bits_to_f32_(((k_1 & 1u) != 0u) ? (w >> 16u) : (w & 65535u));
    return _e11;
}

float bf16_at(
    uint w_1,
    uint k_2
) {
    return as_type<float>(((k_2 & 1u) != 0u) ? (w_1 & 4294901760u) : (w_1 << 16u));
}

metal::float4 f16_lo4_(
    metal::uint4 x_5
) {
    metal::float4 _e4 = f16_bits_to_f32_4_(x_5 & metal::uint4(65535u));
    return _e4;
}

metal::float4 f16_hi4_(
    metal::uint4 x_6
) {
    metal::float4 _e4 = f16_bits_to_f32_4_(x_6 >> metal::uint4(16u));
    return _e4;
}

metal::float4 bf16_lo4_(
    metal::uint4 x_7
) {
    return as_type<metal::float4>(x_7 << metal::uint4(16u));
}

metal::float4 bf16_hi4_(
    metal::uint4 x_8
) {
    return as_type<metal::float4>(x_8 & metal::uint4(4294901760u));
}

uint f32_to_f16_bits(
    float x_9
) {
    uint h_2 = {};
    bool local = {};
    bool local_1 = {};
    uint h_3 = {};
    bool local_2 = {};
    bool local_3 = {};
    uint b_8 = as_type<uint>(x_9);
    uint sign_2 = (b_8 >> 16u) & 32768u;
    uint e_2 = (b_8 >> 23u) & 255u;
    uint m_2 = b_8 & 8388607u;
    if (e_2 == 255u) {
        return (sign_2 | 31744u) | ((m_2 != 0u) ? (512u | (m_2 >> 13u)) : 0u);
    }
    int ue = as_type<int>(as_type<uint>(static_cast<int>(e_2)) - as_type<uint>(112));
    if (ue >= 31) {
        return sign_2 | 31744u;
    }
    if (ue <= 0) {
        if (ue < -10) {
            return sign_2;
        }
        uint mm = m_2 | 8388608u;
        uint shift = static_cast<uint>(as_type<int>(as_type<uint>(14) - as_type<uint>(ue)));
        h_2 = mm >> shift;
        uint rem = mm & ((1u << shift) - 1u);
        uint half_ = 1u << (shift - 1u);
        if (!((rem > half_))) {
            if (rem == half_) {
                uint _e59 = h_2;
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
            uint _e68 = h_2;
            h_2 = _e68 + 1u;
        }
        uint _e71 = h_2;
        return sign_2 | _e71;
    }
    h_3 = (static_cast<uint>(ue) << 10u) | (m_2 >> 13u);
    uint rem_1 = m_2 & 8191u;
    if (!((rem_1 > 4096u))) {
        if (rem_1 == 4096u) {
            uint _e91 = h_3;
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
        uint _e100 = h_3;
        h_3 = _e100 + 1u;
    }
    uint _e103 = h_3;
    return sign_2 | _e103;
}

uint f32_to_bf16_bits(
    float x_10
) {
    uint b_9 = as_type<uint>(x_10);
    if ((b_9 & 2147483647u) > 2139095040u) {
        return (b_9 >> 16u) | 64u;
    }
    return ((b_9 + 32767u) + ((b_9 >> 16u) & 1u)) >> 16u;
}

A thread_partial(
    uint group,
    uint lid_1,
    device type_2 const& src,
    device type_8 const& src_vec,
    constant Params& params,
    constant _mslBufferSizes& _buffer_sizes
) {
    metal::float4 acc0_ = {};
    metal::float4 acc1_ = {};
    metal::float4 acc2_ = {};
    metal::float4 acc3_ = {};
    uint i = {};
    A a_7 = {};
    bool local_4 = {};
    bool local_5 = {};
    uint _e4 = params.num_groups;
    uint stride = _e4 * WG;
    uint n_vec = params.n_vec;
    A _e10 = identity();
    acc0_ = metal::float4(_e10);
    metal::float4 _e13 = acc0_;
    acc1_ = _e13;
    metal::float4 _e15 = acc0_;
    acc2_ = _e15;
    metal::float4 _e17 = acc0_;
    acc3_ = _e17;
    i = (group * WG) + lid_1;
    uint2 loop_bound = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound == uint2(0u))) { break; }
        loop_bound -= uint2(loop_bound.y == 0u, 1u);
        uint _e23 = i;
        if ((_e23 + (3u * stride)) < n_vec) {
        } else {
            break;
        }
        {
            metal::float4 _e28 = acc0_;
            uint _e30 = i;
            metal::float4 _e32 = src_vec[_e30];
            metal::float4 _e33 = load4_(_e32);
            metal::float4 _e34 = combine4_(_e28, _e33);
            acc0_ = _e34;
            metal::float4 _e35 = acc1_;
            uint _e37 = i;
            metal::float4 _e40 = src_vec[_e37 + stride];
            metal::float4 _e41 = load4_(_e40);
            metal::float4 _e42 = combine4_(_e35, _e41);
            acc1_ = _e42;
            metal::float4 _e43 = acc2_;
            uint _e45 = i;
            metal::float4 _e50 = src_vec[_e45 + (2u * stride)];
            metal::float4 _e51 = load4_(_e50);
            metal::float4 _e52 = combine4_(_e43, _e51);
            acc2_ = _e52;
            metal::float4 _e53 = acc3_;
            uint _e55 = i;
            metal::float4 _e60 = src_vec[_e55 + (3u * stride)];
            metal::float4 _e61 = load4_(_e60);
            metal::float4 _e62 = combine4_(_e53, _e61);
            acc3_ = _e62;
            uint _e63 = i;
            i = _e63 + (4u * stride);
        }
    }
    uint2 loop_bound_1 = uint2(4294967295u);
    while(true) {
        if (metal::all(loop_bound_1 == uint2(0u))) { break; }
        loop_bound_1 -= uint2(loop_bound_1.y == 0u, 1u);
        uint _e67 = i;
        if (_e67 < n_vec) {
        } else {
            break;
        }
        {
            metal::float4 _e69 = acc0_;
            uint _e71 = i;
            metal::float4 _e73 = src_vec[_e71];
            metal::float4 _e74 = load4_(_e73);
            metal::float4 _e75 = combine4_(_e69, _e74);
            acc0_ = _e75;
            uint _e76 = i;
            i = _e76 + stride;
        }
    }
    metal::float4 _e78 = acc0_;
    metal::float4 _e79 = acc1_;
    metal::float4 _e80 = combine4_(_e78, _e79);
    metal::float4 _e81 = acc2_;
    metal::float4 _e82 = acc3_;
    metal::float4 _e83 = combine4_(_e81, _e82);
    metal::float4 _e84 = combine4_(_e80, _e83);
    A _e87 = combine(_e84.x, _e84.y);
    A _e90 = combine(_e84.z, _e84.w);
    A _e91 = combine(_e87, _e90);
    a_7 = _e91;
    uint t_1 = (n_vec * EPV) + lid_1;
    if (group == 0u) {
        local_4 = lid_1 < 3u;
    } else {
        local_4 = false;
    }
    bool _e103 = local_4;
    if (_e103) {
        uint _e108 = params.n;
        local_5 = t_1 < _e108;
    } else {
        local_5 = false;
    }
    bool _e111 = local_5;
    if (_e111) {
        A _e112 = a_7;
        A _e113 = load_elem(t_1, src, _buffer_sizes);
        A _e114 = combine(_e112, _e113);
        a_7 = _e114;
    }
    A _e115 = a_7;
    return _e115;
}

struct main_Input {
};
[[max_total_threads_per_threadgroup(256)]] kernel void main_(
  uint lid [[thread_index_in_threadgroup]]
, metal::uint3 wid [[threadgroup_position_in_grid]]
, device type_2 const& src [[user(fake0)]]
, device type_8 const& src_vec [[user(fake0)]]
, device type_9& dst [[user(fake0)]]
, constant Params& params [[user(fake0)]]
, threadgroup type_10& scratch
, constant _mslBufferSizes& _buffer_sizes [[user(fake0)]]
) {
    if (lid == 0u) {
        scratch = {};
    }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    uint s = 128u;
    A _e5 = thread_partial(wid.x, lid, src, src_vec, params, _buffer_sizes);
    scratch.inner[lid] = _e5;
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    uint2 loop_bound_2 = uint2(4294967295u);
    bool loop_init = true;
    while(true) {
        if (metal::all(loop_bound_2 == uint2(0u))) { break; }
        loop_bound_2 -= uint2(loop_bound_2.y == 0u, 1u);
        if (!loop_init) {
            uint _e24 = s;
            s = _e24 >> 1u;
        }
        loop_init = false;
        uint _e8 = s;
        if (_e8 > 0u) {
        } else {
            break;
        }
        {
            uint _e11 = s;
            if (lid < _e11) {
                A _e17 = scratch.inner[lid];
                uint _e19 = s;
                A _e22 = scratch.inner[lid + _e19];
                A _e23 = combine(_e17, _e22);
                scratch.inner[lid] = _e23;
            }
            metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
        }
    }
    if (lid == 0u) {
        uint _e32 = params.dst_base;
        A _e38 = scratch.inner[0];
        A _e39 = finalize(_e38);
        dst[_e32 + wid.x] = _e39;
        return;
    } else {
        return;
    }
}
