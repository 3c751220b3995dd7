//! Values read back by one submission, and the tokens that name them.

use std::marker::PhantomData;
use std::time::Duration;

use crate::array::GpuArray;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::record::Recorder;

/// Names an array's bytes in the [`Results`] of a submission; made by
/// [`Recorder::read`](crate::Recorder::read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadToken<T: Element> {
    pub(crate) recording: u64,
    pub(crate) offset: u64,
    pub(crate) len: usize,
    pub(crate) _t: PhantomData<T>,
}

impl<T: Element> ReadToken<T> {
    /// Number of elements this token reads.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the token reads no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Values read back by one submission.
#[derive(Debug, Clone)]
pub struct Results {
    pub(crate) recording: u64,
    pub(super) bytes: Vec<u8>,
    pub(super) gpu_time: Option<Duration>,
}

impl Results {
    /// The elements a [`ReadToken`] names.
    pub fn get<T: Element>(&self, token: &ReadToken<T>) -> Result<Vec<T>> {
        if token.recording != self.recording {
            return Err(Error::InvalidUse(
                "this ReadToken belongs to another recording's results".into(),
            ));
        }
        let start = token.offset as usize;
        let end = start + token.len * T::DTYPE.size_bytes();
        let bytes = self
            .bytes
            .get(start..end)
            .ok_or_else(|| Error::InvalidUse("ReadToken out of range of these results".into()))?;
        Ok(bytemuck::pod_collect_to_vec(bytes))
    }

    /// The single element a token of a one-element array names.
    pub fn scalar<T: Element>(&self, token: &ReadToken<T>) -> Result<T> {
        if token.len != 1 {
            return Err(Error::InvalidUse(format!(
                "Results::scalar needs a token of one element; this one reads {} (use get)",
                token.len
            )));
        }
        Ok(self.get(token)?[0])
    }

    /// GPU time of the recorded passes (timestamps at the start and end of the compute pass),
    /// when [`Recorder::enable_timestamps`](crate::Recorder::enable_timestamps) was called and the device supports it.
    pub fn gpu_time(&self) -> Option<Duration> {
        self.gpu_time
    }
}

/// What a recording run in one step returns: the arrays whose values
/// [`Context::run`](crate::Context::run) and [`Context::run_async`](crate::Context::run_async)
/// read back, and the host values they become. A [`GpuArray<T>`] becomes a `Vec<T>` (its
/// elements, row-major), a tuple of up to six arrays a tuple of vectors, a `Vec` of arrays a
/// `Vec` of vectors, and `()` nothing (the work is submitted and waited for).
pub trait Readback {
    /// The values read back.
    type Host;
    /// Where the values will be in the results (one token per array).
    #[doc(hidden)]
    type Tokens;
    /// Records the reads.
    #[doc(hidden)]
    fn request(&self, rec: &mut Recorder) -> Result<Self::Tokens>;
    /// Takes the values out of the results.
    #[doc(hidden)]
    fn collect(tokens: Self::Tokens, results: &Results) -> Result<Self::Host>;
}

impl Readback for () {
    type Host = ();
    type Tokens = ();
    fn request(&self, _: &mut Recorder) -> Result<()> {
        Ok(())
    }
    fn collect(_: (), _: &Results) -> Result<()> {
        Ok(())
    }
}

impl<T: Element> Readback for GpuArray<T> {
    type Host = Vec<T>;
    type Tokens = ReadToken<T>;
    fn request(&self, rec: &mut Recorder) -> Result<ReadToken<T>> {
        rec.read(self)
    }
    fn collect(token: ReadToken<T>, results: &Results) -> Result<Vec<T>> {
        results.get(&token)
    }
}

impl<R: Readback> Readback for Vec<R> {
    type Host = Vec<R::Host>;
    type Tokens = Vec<R::Tokens>;
    fn request(&self, rec: &mut Recorder) -> Result<Self::Tokens> {
        self.iter().map(|r| r.request(rec)).collect()
    }
    fn collect(tokens: Self::Tokens, results: &Results) -> Result<Self::Host> {
        tokens.into_iter().map(|t| R::collect(t, results)).collect()
    }
}

/// `Readback` for tuples of up to six.
macro_rules! readback_tuple {
    ($($r:ident $i:tt),+) => {
        impl<$($r: Readback),+> Readback for ($($r,)+) {
            type Host = ($($r::Host,)+);
            type Tokens = ($($r::Tokens,)+);
            fn request(&self, rec: &mut Recorder) -> Result<Self::Tokens> {
                Ok(($(self.$i.request(rec)?,)+))
            }
            fn collect(tokens: Self::Tokens, results: &Results) -> Result<Self::Host> {
                Ok(($($r::collect(tokens.$i, results)?,)+))
            }
        }
    };
}
readback_tuple!(A 0, B 1);
readback_tuple!(A 0, B 1, C 2);
readback_tuple!(A 0, B 1, C 2, D 3);
readback_tuple!(A 0, B 1, C 2, D 3, E 4);
readback_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
