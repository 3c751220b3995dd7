//! `Context::prepare` (compiling kernels before their first call) and
//! `Context::save_pipeline_cache`.

use crate::context::Context;
use crate::error::Result;
use crate::kernels::Kernel;
use crate::ops::Prepare;
use crate::plan::prepare::prepared_kernels;

impl Context {
    /// Compiles the kernels of `families` now, so that their first calls run at the speed of
    /// later ones, and returns how many pipelines were compiled (kernels compiled before are
    /// skipped). On native backends the compilations run on several threads (up to 8, by the
    /// cores available). With [`ContextOptions::pipeline_cache_dir`](crate::ContextOptions), the
    /// cache is written afterwards, so a later process loads these pipelines from it.
    ///
    /// Without this call every kernel is compiled at its first use, one at a time; nothing
    /// else changes.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{Context, DType, Prepare, ReduceOp, ScanOp};
    /// let ctx = Context::new()?;
    /// ctx.prepare(&[
    ///     Prepare::reduce(ReduceOp::Sum, DType::F32),
    ///     Prepare::reduce(ReduceOp::Argmax, DType::F32),
    ///     Prepare::scan(ScanOp::Add, DType::F32),
    /// ])?;
    /// # Ok(()) }
    /// ```
    ///
    /// Errors: [`Error::UnsupportedInput`](crate::Error::UnsupportedInput) for an operation
    /// that does not take the element type (a norm of integers); a kernel the device rejects
    /// gives the error its first call would.
    pub fn prepare(&self, families: &[Prepare]) -> Result<usize> {
        let tuning = self.tuning();
        let subgroup_max = self.capabilities().subgroup_max_size;
        let mut kernels: Vec<Kernel> = Vec::new();
        for p in families {
            for k in prepared_kernels(p, &tuning, subgroup_max)? {
                if !kernels.contains(&k) && self.inner.kernels.cached(k).is_none() {
                    kernels.push(k);
                }
            }
        }
        let before = self.stats().pipelines_compiled;
        self.compile_all(&kernels)?;
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(e) = crate::context::save_pipeline_cache(&self.inner) {
            log::warn!("wgpu-reduce: {e}");
        }
        Ok((self.stats().pipelines_compiled - before) as usize)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn compile_all(&self, kernels: &[Kernel]) -> Result<()> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8)
            .min(kernels.len());
        let next = AtomicUsize::new(0);
        let work = || -> Result<()> {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = kernels.get(i) else {
                    return Ok(());
                };
                self.pipeline(k)?;
            }
        };
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect::<Result<Vec<()>>>()
        })?;
        Ok(())
    }

    #[cfg(target_arch = "wasm32")]
    fn compile_all(&self, kernels: &[Kernel]) -> Result<()> {
        for &k in kernels {
            self.pipeline(k)?;
        }
        Ok(())
    }

    /// Writes the pipeline cache to its file (see
    /// [`ContextOptions::pipeline_cache_dir`](crate::ContextOptions)) if pipelines were compiled
    /// since it was last loaded or written, and returns the file written. `Ok(None)`: nothing
    /// new, or no pipeline cache (none asked for, or a backend without one). The cache is also
    /// written by [`prepare`](Self::prepare) and when the last clone of the context is dropped.
    ///
    /// Errors: [`Error::PipelineCache`](crate::Error::PipelineCache) if the file cannot be
    /// written.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn save_pipeline_cache(&self) -> Result<Option<std::path::PathBuf>> {
        crate::context::save_pipeline_cache(&self.inner)
    }

    /// Whether this context keeps a pipeline cache (see
    /// [`ContextOptions::pipeline_cache_dir`](crate::ContextOptions)): one was asked for and
    /// the device has one.
    pub fn has_pipeline_cache(&self) -> bool {
        self.inner.kernels.pipeline_cache.is_some()
    }
}
