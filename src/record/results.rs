//! Values read back by one submission, and the tokens that name them.

use std::marker::PhantomData;
use std::time::Duration;

use crate::element::Element;
use crate::error::{Error, Result};

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
