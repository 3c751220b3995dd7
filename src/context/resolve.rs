//! What a context can do and the kernel settings it uses, resolved from the device and the
//! [`ContextOptions`]: pure functions, unit-tested without a device.

use super::{Capabilities, ContextOptions, Subgroups, Tuning};
use crate::error::{Error, Result};
use crate::kernels::{
    SCAN_LOOKBACK_DEEP, SCAN_ROW_WORKGROUP, SCAN_ROW_WORKGROUP_STORAGE, WORKGROUP_SIZES,
};

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
    if let Some(cap) = options.max_storage_binding_bytes {
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

/// The kernel settings in force: the options, within what the device allows. Fails only where
/// the options require subgroups that the device lacks.
pub(super) fn tuning(options: &ContextOptions, caps: &Capabilities) -> Result<Tuning> {
    let max_invocations = caps
        .limits
        .max_compute_invocations_per_workgroup
        .min(caps.limits.max_compute_workgroup_size_x);
    let workgroup_size = WORKGROUP_SIZES
        .iter()
        .copied()
        .filter(|&w| w <= options.workgroup_size.max(WORKGROUP_SIZES[0]) && w <= max_invocations)
        .max()
        .unwrap_or(WORKGROUP_SIZES[0]);
    // The larger scan workgroup where it is asked for and the device allows it.
    let wide = |asked: u32| {
        if asked >= SCAN_ROW_WORKGROUP
            && workgroup_size == WORKGROUP_SIZES[WORKGROUP_SIZES.len() - 1]
            && max_invocations >= SCAN_ROW_WORKGROUP
            && caps.limits.max_compute_workgroup_storage_size >= SCAN_ROW_WORKGROUP_STORAGE
        {
            SCAN_ROW_WORKGROUP
        } else {
            workgroup_size
        }
    };
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
    Ok(Tuning {
        workgroup_size,
        max_workgroups: options
            .max_workgroups
            .clamp(1, caps.limits.max_compute_workgroups_per_dimension.max(1)),
        target_workgroups: options.target_workgroups.max(1),
        scan_tiles_per_workgroup: options.scan_tiles_per_workgroup.max(1),
        scan_row_workgroup_size: wide(options.scan_row_workgroup_size),
        // The look-back in tiles of 16384 runs on as many invocations as at 512.
        scan_lookback_workgroup_size: match wide(options.scan_lookback_workgroup_size) {
            SCAN_ROW_WORKGROUP if options.scan_lookback_workgroup_size >= SCAN_LOOKBACK_DEEP => {
                SCAN_LOOKBACK_DEEP
            }
            size => size,
        },
        scan_reversed_runs_bytes: (
            *options.scan_reversed_runs_bytes.start(),
            *options.scan_reversed_runs_bytes.end(),
        ),
        scan_lookback_row_tiles: options.scan_lookback_row_tiles,
        scan_lookback_max_tiles: options.scan_lookback_max_tiles,
        scan_lookback_wide_max_tiles: options.scan_lookback_wide_max_tiles,
        scan_lookback_small_tiles: options.scan_lookback_small_tiles,
        scan_serial_max_len: options.scan_serial_max_len,
        scan_fused_max_tiles: options.scan_fused_max_tiles,
        reduce_last_group: options.reduce_last_group,
        reduce_hide_partials: options.reduce_hide_partials,
        reduce_last_group_flat: options.reduce_last_group_flat,
        level_dispatches: options.level_dispatches,
        subgroups,
    })
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
    fn the_larger_scan_workgroups_only_where_the_device_allows_them() {
        let options = ContextOptions::default();
        let webgpu = caps(wgpu::Features::empty(), wgpu::Limits::default());
        let mut roomy = webgpu.clone();
        roomy.limits.max_compute_invocations_per_workgroup = 1024;
        roomy.limits.max_compute_workgroup_size_x = 1024;
        roomy.limits.max_compute_workgroup_storage_size = 32 << 10;
        let t = tuning(&options, &roomy).unwrap();
        assert_eq!(t.workgroup_size, 256);
        assert_eq!(t.scan_row_workgroup_size, 512);
        assert_eq!(t.scan_lookback_workgroup_size, 512);
        // WebGPU's defaults: 256 invocations, 16 KiB of workgroup memory.
        let t = tuning(&options, &webgpu).unwrap();
        assert_eq!(t.scan_row_workgroup_size, 256);
        assert_eq!(t.scan_lookback_workgroup_size, 256);
        // 512 invocations but too little workgroup memory.
        let mut tight = roomy.clone();
        tight.limits.max_compute_workgroup_storage_size = SCAN_ROW_WORKGROUP_STORAGE - 1;
        assert_eq!(
            tuning(&options, &tight)
                .unwrap()
                .scan_lookback_workgroup_size,
            256
        );
        // Turned off, each apart from the other.
        let off = ContextOptions {
            scan_lookback_workgroup_size: 256,
            ..ContextOptions::default()
        };
        let t = tuning(&off, &roomy).unwrap();
        assert_eq!(
            (t.scan_row_workgroup_size, t.scan_lookback_workgroup_size),
            (512, 256)
        );
        // Smaller kernels' workgroups: no larger scan workgroup either.
        let small = ContextOptions {
            workgroup_size: 128,
            ..ContextOptions::default()
        };
        let t = tuning(&small, &roomy).unwrap();
        assert_eq!(
            (t.workgroup_size, t.scan_lookback_workgroup_size),
            (128, 128)
        );
        // The look-back in tiles of 16384: where 512 invocations are allowed, else as above.
        let deep = ContextOptions {
            scan_lookback_workgroup_size: SCAN_LOOKBACK_DEEP,
            ..ContextOptions::default()
        };
        let t = tuning(&deep, &roomy).unwrap();
        assert_eq!(
            (t.scan_row_workgroup_size, t.scan_lookback_workgroup_size),
            (512, SCAN_LOOKBACK_DEEP)
        );
        for (device, size) in [(&webgpu, 256), (&tight, 256)] {
            assert_eq!(
                tuning(&deep, device).unwrap().scan_lookback_workgroup_size,
                size
            );
        }
    }

    #[test]
    fn workgroups_fit_the_device_and_subgroups_follow_the_options() {
        let mut c = caps(wgpu::Features::empty(), wgpu::Limits::default());
        c.limits.max_compute_invocations_per_workgroup = 128;
        let t = tuning(&ContextOptions::default(), &c).unwrap();
        assert_eq!(t.workgroup_size, 128);
        assert!(!t.subgroups);
        let require = ContextOptions {
            subgroups: Subgroups::Require,
            ..ContextOptions::default()
        };
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
        let off = ContextOptions {
            subgroups: Subgroups::Off,
            ..ContextOptions::default()
        };
        assert!(!tuning(&off, &with).unwrap().subgroups);
    }

    #[test]
    fn memory_sharing_and_the_binding_cap_come_from_the_adapter_and_options() {
        let mappable = wgpu::Features::MAPPABLE_PRIMARY_BUFFERS;
        let options = ContextOptions {
            max_storage_binding_bytes: Some(1 << 20),
            ..ContextOptions::default()
        };
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
