// The 2-norm with scaling by Blue's three accumulators (as LAPACK's nrm2 since 3.10): each |x|
// is squared into the sum of small, middle or big values, the small and big ones first scaled by
// a constant power of two, so that for finite input no square overflows or falls below f32's
// normal range and no sum of up to 2^32 squares overflows. Every scale is a power of two (exact)
// and a literal: no reciprocal of a huge value is formed at run time (a driver that flushes
// subnormals, as NVIDIA's does, turns 1 / 3e38 into 0). The bounds for f32: |x| < 2^-60 is
// small (scaled by 2^64: squares in [2^-124, 2^8)); |x| > 2^47 is big (scaled by 2^-82: squares
// in [2^-70, 2^92)); the rest is squared as it is (in [2^-120, 2^94]). +inf lands in the big sum
// (the norm is +inf); the finish returns NaN if any sum is NaN.
struct Norm2State { small: f32, mid: f32, big: f32 }
alias S = Norm2State;
const NORM2_SMALL: f32 = 8.673617379884035e-19; // 2^-60
const NORM2_BIG: f32 = 140737488355328.0; // 2^47
const NORM2_UP: f32 = 18446744073709551616.0; // 2^64
const NORM2_DOWN: f32 = 2.0679515313825692e-25; // 2^-82
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
    let s = a * NORM2_UP;
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
        let small = sqrt(s.small) / NORM2_UP;
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
