//! Sort keys for the sort and select tests: each type's order (floats in IEEE total order with
//! every NaN last and -0.0 before +0.0), how to draw keys, and the stable reference order.

use std::cmp::Ordering;

use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::half::{bf16, f16};
use wgpu_reduce::Element;

/// A key type: its comparison for the reference and how to draw one.
pub trait Key: Element + PartialEq {
    /// The order of the sort (floats: IEEE total order, every NaN last, -0.0 before +0.0).
    fn order(a: &Self, b: &Self) -> Ordering;
    fn draw(rng: &mut StdRng, pattern: Pattern) -> Self;
    fn bits(self) -> u32;
}

/// How a test's keys are drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pattern {
    /// Uniform over the type (for f32, a mixture of magnitudes), with special values mixed in.
    Random,
    /// One of eight values: many equal keys.
    Few,
    /// One of two values.
    Two,
    /// Every key equal.
    Equal,
}

impl Key for u32 {
    fn order(a: &u32, b: &u32) -> Ordering {
        a.cmp(b)
    }
    fn draw(rng: &mut StdRng, p: Pattern) -> u32 {
        match p {
            Pattern::Random => match rng.gen_range(0..10) {
                0 => [0, 1, u32::MAX, u32::MAX - 1, 1 << 31][rng.gen_range(0..5)],
                _ => rng.gen(),
            },
            Pattern::Few => rng.gen_range(0..8) * 0x0101_0101,
            Pattern::Two => [7, 1 << 24][rng.gen_range(0..2)],
            Pattern::Equal => 0xDEAD_BEEF,
        }
    }
    fn bits(self) -> u32 {
        self
    }
}

impl Key for i32 {
    fn order(a: &i32, b: &i32) -> Ordering {
        a.cmp(b)
    }
    fn draw(rng: &mut StdRng, p: Pattern) -> i32 {
        match p {
            Pattern::Random => match rng.gen_range(0..10) {
                0 => [0, -1, 1, i32::MIN, i32::MAX][rng.gen_range(0..5)],
                _ => rng.gen(),
            },
            Pattern::Few => rng.gen_range(-4..4) * 1000,
            Pattern::Two => [-3, 3][rng.gen_range(0..2)],
            Pattern::Equal => -12345,
        }
    }
    fn bits(self) -> u32 {
        self as u32
    }
}

/// f32's sort key: every NaN as the positive quiet NaN (last in total order).
pub fn total(x: f32) -> f32 {
    if x.is_nan() {
        f32::NAN
    } else {
        x
    }
}

impl Key for f32 {
    fn order(a: &f32, b: &f32) -> Ordering {
        total(*a).total_cmp(&total(*b))
    }
    fn draw(rng: &mut StdRng, p: Pattern) -> f32 {
        const SPECIAL: [f32; 12] = [
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-40,
            -1e-40,
            f32::MAX,
            f32::MIN,
            1.0,
            -1.0,
        ];
        match p {
            Pattern::Random => match rng.gen_range(0..20) {
                0 => f32::from_bits(0x7FC0_0000 | rng.gen_range(0..0x40_0000)), // NaN
                1 => f32::from_bits(0xFFC0_0000 | rng.gen_range(0..0x40_0000)), // -NaN
                2 | 3 => SPECIAL[rng.gen_range(0..SPECIAL.len())],
                4 => f32::from_bits(rng.gen_range(1..0x80_0000) | (rng.gen::<u32>() & 1 << 31)), // subnormal
                _ => rng.gen_range(-1.0f32..1.0) * 10f32.powi(rng.gen_range(-30..30)),
            },
            Pattern::Few => SPECIAL[rng.gen_range(0..8)],
            Pattern::Two => [-0.0, 0.0][rng.gen_range(0..2)],
            Pattern::Equal => 2.5,
        }
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

/// 16-bit floats: ordered as their f32 values (exact, subnormals included), every NaN last.
macro_rules! half_key {
    ($t:ty) => {
        impl Key for $t {
            fn order(a: &$t, b: &$t) -> Ordering {
                total(f32::from(*a)).total_cmp(&total(f32::from(*b)))
            }
            fn draw(rng: &mut StdRng, p: Pattern) -> $t {
                match p {
                    // Any bits: every NaN, infinity, zero and subnormal of the type is drawn.
                    Pattern::Random => <$t>::from_bits(rng.gen()),
                    _ => <$t>::from_f32(f32::draw(rng, p)),
                }
            }
            fn bits(self) -> u32 {
                u32::from(self.to_bits())
            }
        }
    };
}
half_key!(f16);
half_key!(bf16);

/// The stable order of `keys`: the indices of a stable sort.
pub fn reference<T: Key>(keys: &[T], descending: bool) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..keys.len() as u32).collect();
    idx.sort_by(|&a, &b| {
        let o = T::order(&keys[a as usize], &keys[b as usize]);
        if descending {
            o.reverse()
        } else {
            o
        }
    });
    idx
}
