//! What a context can do and the kernel settings it uses, resolved from the device and the
//! [`ContextOptions`]: pure functions, unit-tested without a device. The kernel settings
//! themselves are the planner's ([`Tuning::resolve`]).

use super::{Capabilities, ContextOptions, Subgroups};
use crate::error::{Error, Result};
use crate::plan::tuning::Tuning;

/// Whether an adapter of this type shares its memory with the CPU.
pub(super) fn shares_memory(t: wgpu::DeviceType) -> bool {
    matches!(t, wgpu::DeviceType::IntegratedGpu | wgpu::DeviceType::Cpu)
}

/// The capabilities of a device with these features and limits, with the options' cap on
/// storage bindings and their choices of unified memory and mapped results applied.
pub(super) fn capabilities(
    features: wgpu::Features,
    mut limits: wgpu::Limits,
    adapter: wgpu::AdapterInfo,
    options: &ContextOptions,
) -> Capabilities {
    if let Some(cap) = options.testing.max_storage_binding_bytes {
        limits.max_storage_buffer_binding_size = limits.max_storage_buffer_binding_size.min(cap);
    }
    let shares = shares_memory(adapter.device_type);
    let mappable = features.contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
    Capabilities {
        subgroups: features.contains(wgpu::Features::SUBGROUP),
        subgroup_min_size: adapter.subgroup_min_size,
        subgroup_max_size: adapter.subgroup_max_size,
        shader_f16: features.contains(wgpu::Features::SHADER_F16),
        timestamps: features.contains(wgpu::Features::TIMESTAMP_QUERY),
        unified_memory: mappable && options.unified_memory.unwrap_or(shares),
        mapped_results: mappable && options.mapped_results.unwrap_or(true),
        limits,
        adapter,
    }
}

/// The kernel settings in force: the options' (or the defaults), within what the device allows.
/// Fails only where the options require subgroups that the device lacks.
pub(super) fn tuning(options: &ContextOptions, caps: &Capabilities) -> Result<Tuning> {
    let subgroups = match options.subgroups {
        Subgroups::Off => false,
        Subgroups::Auto => caps.subgroups,
        Subgroups::Require if caps.subgroups => true,
        Subgroups::Require => {
            return Err(Error::FeatureMissing {
                op: "ContextOptions::subgroups = Subgroups::Require".into(),
                feature: "SUBGROUP",
                hint: "use Subgroups::Auto to fall back to shared memory, or create the device \
                       with Features::SUBGROUP",
            })
        }
    };
    let asked = options.tuning.unwrap_or_default();
    Ok(asked.resolve(&caps.limits, subgroups))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(device_type: wgpu::DeviceType) -> wgpu::AdapterInfo {
        wgpu::AdapterInfo {
            name: "test".into(),
            vendor: 0,
            device: 0,
            device_type,
            device_pci_bus_id: String::new(),
            driver: String::new(),
            driver_info: String::new(),
            backend: wgpu::Backend::Vulkan,
            subgroup_min_size: 32,
            subgroup_max_size: 32,
            transient_saves_memory: None,
            limit_bucket: None,
        }
    }

    fn caps(features: wgpu::Features, limits: wgpu::Limits) -> Capabilities {
        let options = ContextOptions::default();
        capabilities(
            features,
            limits,
            adapter(wgpu::DeviceType::DiscreteGpu),
            &options,
        )
    }

    #[test]
    fn workgroups_fit_the_device_and_subgroups_follow_the_options() {
        let mut c = caps(wgpu::Features::empty(), wgpu::Limits::default());
        c.limits.max_compute_invocations_per_workgroup = 128;
        let t = tuning(&ContextOptions::default(), &c).unwrap();
        assert_eq!(t.workgroup_size, 128);
        assert!(!t.subgroups);
        // Settings asked for are resolved within the device's limits too.
        let asked = Tuning {
            max_workgroups: 3000,
            ..Tuning::default()
        };
        let t = tuning(&ContextOptions::default().with_tuning(asked), &c).unwrap();
        assert_eq!((t.workgroup_size, t.max_workgroups), (128, 3000));
        let require = ContextOptions::default().with_subgroups(Subgroups::Require);
        assert!(matches!(
            tuning(&require, &c),
            Err(Error::FeatureMissing {
                feature: "SUBGROUP",
                ..
            })
        ));
        let with = caps(wgpu::Features::SUBGROUP, wgpu::Limits::default());
        assert!(tuning(&require, &with).unwrap().subgroups);
        assert!(tuning(&ContextOptions::default(), &with).unwrap().subgroups);
        let off = ContextOptions::default().with_subgroups(Subgroups::Off);
        assert!(!tuning(&off, &with).unwrap().subgroups);
    }

    #[test]
    fn memory_sharing_and_the_binding_cap_come_from_the_adapter_and_options() {
        let mappable = wgpu::Features::MAPPABLE_PRIMARY_BUFFERS;
        let options = ContextOptions::default().with_testing(super::super::Testing {
            max_storage_binding_bytes: Some(1 << 20),
            ..Default::default()
        });
        let cpu = capabilities(
            mappable,
            wgpu::Limits::default(),
            adapter(wgpu::DeviceType::Cpu),
            &options,
        );
        assert!(cpu.unified_memory && cpu.mapped_results);
        assert_eq!(cpu.limits.max_storage_buffer_binding_size, 1 << 20);
        let discrete = capabilities(
            mappable,
            wgpu::Limits::default(),
            adapter(wgpu::DeviceType::DiscreteGpu),
            &ContextOptions::default(),
        );
        assert!(!discrete.unified_memory && discrete.mapped_results);
        let none = capabilities(
            wgpu::Features::empty(),
            wgpu::Limits::default(),
            adapter(wgpu::DeviceType::Cpu),
            &ContextOptions::default(),
        );
        assert!(!none.unified_memory && !none.mapped_results);
    }
}
