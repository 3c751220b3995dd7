// The 2-norm with scaling by Blue's three accumulators (as LAPACK's nrm2 since 3.10): each |x|
// is squared into the sum of small, middle or big values, the small and big ones first scaled by
// a constant power of two, so that for finite input no square overflows or falls below f32's
// normal range and no sum of up to 2^32 squares overflows. Every scale is a power of two (exact)
// and a literal: no reciprocal of a huge value is formed at run time. The bounds for f32:
// |x| < 2^-60 is small (scaled by 2^86: squares in [2^-126, 2^52)); |x| > 2^47 is big (scaled
// by 2^-82: squares in [2^-70, 2^92)); the rest is squared as it is (in [2^-120, 2^94]). +inf
// lands in the big sum (the norm is +inf); the finish returns NaN if any sum is NaN.
//
// Subnormals: a GPU that flushes them (NVIDIA's does) reads a subnormal operand of any float
// operation as 0, so a subnormal |x| is scaled without one: its bits are an integer m with
// |x| = m * 2^-149, and f32(m) * 2^-63 (both normal, the product exact) is |x| * 2^86. A small
// norm is scaled back by 2^-86 on the bits too (norm2_down), rounded to the nearest subnormal
// below f32's normal range. No float operation of this file takes or makes a subnormal, so
// flushing and non-flushing devices compute the same sums.
struct Norm2State { small: f32, mid: f32, big: f32 }
alias S = Norm2State;
const NORM2_SMALL: f32 = 8.673617379884035e-19; // 2^-60
const NORM2_BIG: f32 = 140737488355328.0; // 2^47
const NORM2_UP: f32 = 77371252455336267181195264.0; // 2^86
const NORM2_SUBNORMAL_UP: f32 = 1.0842021724855044e-19; // 2^-63 = 2^86 * 2^-149
const NORM2_DOWN: f32 = 2.0679515313825692e-25; // 2^-82

// |x| * 2^86 for |x| < 2^-60, subnormals from their bits.
fn norm2_up(x: f32) -> f32 {
    let bits = bitcast<u32>(x) & 0x7fffffffu;
    if bits < 0x00800000u {
        return f32(bits) * NORM2_SUBNORMAL_UP;
    }
    return abs(x) * NORM2_UP;
}

// r * 2^-86 of a finite r >= 0 (0 or at least 2^-63), on the bits: a result below the normal
// range is rounded to the nearest subnormal (ties away from zero), which a flushing GPU could
// not compute.
fn norm2_down(r: f32) -> f32 {
    let b = bitcast<u32>(r);
    let e = i32(b >> 23u) - 86;
    if e >= 1 {
        return bitcast<f32>(b - (86u << 23u));
    }
    let shift = u32(1 - e);
    if b == 0u || shift > 24u {
        return 0.0;
    }
    let full = (b & 0x007fffffu) | 0x00800000u;
    return bitcast<f32>((full + (1u << (shift - 1u))) >> shift);
}

fn identity() -> S { return S(0.0, 0.0, 0.0); }
fn combine(a: S, b: S) -> S { return S(a.small + b.small, a.mid + b.mid, a.big + b.big); }
fn from_elem(x: f32, j: u32) -> S {
    let a = abs(x);
    // The common case first, with one test. Whichever way a compiler takes a comparison with
    // NaN, a NaN lands in one of the sums as NaN, which the finish tests by its bits.
    if a >= NORM2_SMALL && a <= NORM2_BIG {
        return S(0.0, a * a, 0.0);
    }
    if a > NORM2_BIG {
        let s = a * NORM2_DOWN;
        return S(0.0, 0.0, s * s);
    }
    let s = norm2_up(x);
    return S(s * s, 0.0, 0.0);
}
fn finalize(s: S) -> f32 {
    // A NaN anywhere is the result, tested by its bits first.
    if is_nan(s.mid) || is_nan(s.big) || is_nan(s.small) {
        return quiet_nan();
    }
    if s.big > 0.0 {
        // sqrt(big) * 2^82 (an overflow gives +inf as it should), then the middle sum's root
        // combined with it as a hypotenuse (the small sum is below its precision). Scaling the
        // middle sum by 2^-82 twice instead risks a compiler folding the two into 2^-164, which
        // is 0 in f32.
        let hi = sqrt(s.big) * 4398046511104.0 * 1099511627776.0; // 2^42 * 2^40
        if s.mid == 0.0 {
            return hi;
        }
        return norm2_hypot(hi, sqrt(s.mid));
    }
    if s.small > 0.0 {
        let small = norm2_down(sqrt(s.small));
        if s.mid == 0.0 {
            return small;
        }
        return norm2_hypot(small, sqrt(s.mid));
    }
    return sqrt(s.mid);
}

// sqrt(a^2 + b^2) of non-negative a, b (not both 0) without squaring the larger: +inf if either
// is.
fn norm2_hypot(a: f32, b: f32) -> f32 {
    let hi = max(a, b);
    let r = min(a, b) / hi;
    return hi * sqrt(1.0 + r * r);
}
