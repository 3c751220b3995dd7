//! naga's checks of the kernels (feature `validate`): parse and validate each variant as wgpu
//! does before compiling it, and translate it to the Metal Shading Language.

use super::{F16Widening, Kernel};

impl Kernel {
    /// Parses and validates the WGSL with naga, as wgpu does before compiling it. The error is
    /// naga's report, with source context.
    pub fn naga_module(&self) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
        self.naga_module_with(F16Widening::Native)
    }

    /// [`naga_module`](Self::naga_module) of the source with the given f16 widening, validated
    /// with only the capabilities that widening needs (none for [`F16Widening::Integer`]).
    pub fn naga_module_with(
        &self,
        widening: F16Widening,
    ) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
        self.validate_source(&self.source_with(widening), widening)
    }

    /// Parses and validates `src` as this kernel's source would be, with the capabilities this
    /// kernel is given (subgroups where it uses them, f16-in-f32 for the native widening).
    pub fn validate_source(
        &self,
        src: &str,
        widening: F16Widening,
    ) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
        use naga::valid::{
            Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags, Validator,
        };
        let module = naga::front::wgsl::parse_str(src).map_err(|e| e.emit_to_string(src))?;
        let sg = self.uses_subgroups();
        let mut caps = if sg {
            Capabilities::SUBGROUP | Capabilities::SUBGROUP_BARRIER
        } else {
            Capabilities::empty()
        };
        if widening == F16Widening::Native {
            caps |= Capabilities::SHADER_FLOAT16_IN_FLOAT32;
        }
        let mut validator = Validator::new(ValidationFlags::all(), caps);
        if sg {
            validator
                .subgroup_stages(ShaderStages::COMPUTE)
                .subgroup_operations(SubgroupOperationSet::all());
        }
        let info = validator
            .validate(&module)
            .map_err(|e| e.emit_to_string(src))?;
        Ok((module, info))
    }

    /// The Metal Shading Language (MSL 2.4) that naga makes of this kernel: what wgpu hands to
    /// Metal on macOS.
    pub fn to_msl(&self) -> Result<String, String> {
        use naga::back::msl;
        let (module, info) = self.naga_module()?;
        let options = msl::Options {
            lang_version: (2, 4),
            fake_missing_bindings: true,
            ..Default::default()
        };
        let pipeline = msl::PipelineOptions {
            entry_point: Some((naga::ShaderStage::Compute, "main".into())),
            ..Default::default()
        };
        msl::write_string(&module, &info, &options, &pipeline)
            .map(|(text, _)| text)
            .map_err(|e| format!("MSL translation of {}: {e:?}", self.label()))
    }
}
