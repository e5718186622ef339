//! Where buffers live: mapped host-visible memory (reads and writes are memcpy) or device-local
//! memory reached through staging copies.

use ash::vk;

use super::info::DeviceType;

/// A host-visible device-local heap at least this big (and close to the whole VRAM) is treated
/// as resizable BAR; the usual 256 MiB BAR window is not.
const REBAR_MIN: u64 = 1 << 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Every buffer in this memory type, persistently mapped.
    Mapped {
        type_index: u32,
        coherent: bool,
        heap_size: u64,
    },
    /// Device-local buffers; the host reaches them through staging buffers.
    Staged { heap_size: u64 },
}

impl Placement {
    pub(crate) fn heap_size(self) -> u64 {
        match self {
            Placement::Mapped { heap_size, .. } | Placement::Staged { heap_size } => heap_size,
        }
    }
}

/// Chooses the placement for storage buffers that may use the memory types in `allowed` (the
/// `memoryTypeBits` of such a buffer). `staging` forces staging copies (`TG_STAGING=1`), which
/// tests use to cover the discrete-GPU path on lavapipe.
pub(crate) fn choose(
    props: &vk::PhysicalDeviceMemoryProperties,
    allowed: u32,
    device_type: DeviceType,
    staging: bool,
) -> Placement {
    use vk::MemoryPropertyFlags as F;
    let heaps = &props.memory_heaps[..props.memory_heap_count as usize];
    let types: Vec<(u32, F, u64)> = props.memory_types[..props.memory_type_count as usize]
        .iter()
        .enumerate()
        .filter(|(i, _)| allowed & (1 << i) != 0)
        .map(|(i, t)| {
            (
                i as u32,
                t.property_flags,
                heaps[t.heap_index as usize].size,
            )
        })
        .collect();
    let largest_local = heaps
        .iter()
        .filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .map(|h| h.size)
        .max()
        .unwrap_or(0);
    let staged = Placement::Staged {
        heap_size: types
            .iter()
            .filter(|t| t.1.contains(F::DEVICE_LOCAL))
            .map(|t| t.2)
            .max()
            .unwrap_or(largest_local),
    };
    if staging {
        return staged;
    }
    let visible = |f: F| f.contains(F::HOST_VISIBLE);
    // On a CPU or an integrated GPU all memory is the same RAM: mapping costs nothing.
    let unified = types.iter().all(|t| visible(t.1))
        || matches!(device_type, DeviceType::Integrated | DeviceType::Cpu);
    let rebar = |t: &(u32, F, u64)| {
        t.1.contains(F::HOST_VISIBLE | F::DEVICE_LOCAL)
            && t.2 >= REBAR_MIN
            && t.2 >= largest_local / 4 * 3
    };
    types
        .iter()
        .filter(|t| visible(t.1) && (unified || rebar(t)))
        // Device-local first (kernels read it), then cached (host reads are fast), then coherent
        // (no flushes), then the biggest heap.
        .max_by_key(|t| {
            (
                t.1.contains(F::DEVICE_LOCAL),
                t.1.contains(F::HOST_CACHED),
                t.1.contains(F::HOST_COHERENT),
                t.2,
            )
        })
        .map_or(staged, |&(type_index, flags, heap_size)| {
            Placement::Mapped {
                type_index,
                coherent: flags.contains(F::HOST_COHERENT),
                heap_size,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vk::MemoryPropertyFlags as F;

    const GIB: u64 = 1 << 30;

    fn props(heaps: &[(u64, bool)], types: &[(F, u32)]) -> vk::PhysicalDeviceMemoryProperties {
        let mut p = vk::PhysicalDeviceMemoryProperties {
            memory_heap_count: heaps.len() as u32,
            memory_type_count: types.len() as u32,
            ..Default::default()
        };
        for (i, &(size, local)) in heaps.iter().enumerate() {
            p.memory_heaps[i] = vk::MemoryHeap {
                size,
                flags: if local {
                    vk::MemoryHeapFlags::DEVICE_LOCAL
                } else {
                    Default::default()
                },
            };
        }
        for (i, &(flags, heap)) in types.iter().enumerate() {
            p.memory_types[i] = vk::MemoryType {
                property_flags: flags,
                heap_index: heap,
            };
        }
        p
    }

    #[test]
    fn lavapipe_maps() {
        let all = F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED;
        let p = props(&[(2 * GIB, true)], &[(all, 0)]);
        assert_eq!(
            choose(&p, 1, DeviceType::Cpu, false),
            Placement::Mapped {
                type_index: 0,
                coherent: true,
                heap_size: 2 * GIB
            }
        );
        assert_eq!(
            choose(&p, 1, DeviceType::Cpu, true),
            Placement::Staged { heap_size: 2 * GIB }
        );
    }

    #[test]
    fn discrete_without_rebar_stages() {
        let p = props(
            &[(24 * GIB, true), (64 * GIB, false), (GIB / 4, true)],
            &[
                (F::DEVICE_LOCAL, 0),
                (F::HOST_VISIBLE | F::HOST_COHERENT, 1),
                (F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED, 1),
                (F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT, 2),
            ],
        );
        assert_eq!(
            choose(&p, 0b1111, DeviceType::Discrete, false),
            Placement::Staged {
                heap_size: 24 * GIB
            }
        );
    }

    #[test]
    fn discrete_with_rebar_maps_vram() {
        let p = props(
            &[(24 * GIB, true), (64 * GIB, false)],
            &[
                (F::DEVICE_LOCAL, 0),
                (F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED, 1),
                (F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT, 0),
            ],
        );
        assert_eq!(
            choose(&p, 0b111, DeviceType::Discrete, false),
            Placement::Mapped {
                type_index: 2,
                coherent: true,
                heap_size: 24 * GIB
            }
        );
    }

    #[test]
    fn integrated_non_coherent() {
        let p = props(
            &[(8 * GIB, true)],
            &[(F::DEVICE_LOCAL, 0), (F::HOST_VISIBLE | F::HOST_CACHED, 0)],
        );
        assert_eq!(
            choose(&p, 0b11, DeviceType::Integrated, false),
            Placement::Mapped {
                type_index: 1,
                coherent: false,
                heap_size: 8 * GIB
            }
        );
    }
}
