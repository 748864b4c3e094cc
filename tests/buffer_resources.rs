//! Buffer resources (V#s) end to end: built with
//! `gcn_runtime::descriptor::BufferResource`, passed as 16-byte by-value
//! arguments through `gcn_kernel!` structs, loaded by the kernel with
//! `s_load_dwordx4`, and used by `buffer_load_format_xyzw` /
//! `buffer_store_format_xyzw` and a TID_ENABLE store, on every GCN version.
//! Expected values: the seed's UNORM rule (`c / 255`, a correctly rounded
//! f32 division) and its TID_ENABLE formula (AINDEX = VGPR index + lane id
//! within the wave).

use gcn_runtime::descriptor::BufferResource;
use gcn_runtime::format::{DataFormat, NumFormat};
use gcn_runtime::kernel::{Dispatch, Kernel, KernelArgs};
use gcn_runtime::{LaunchOptions, Memory, Program};

/// The two kernels for GCN 1.0/1.1 (dword SMRD offsets).
macro_rules! old_gcn {
    ($module:ident, $gpu:tt) => {
        mod $module {
            gcn_runtime::gcn_kernel!(
                r#"
.gallium
.kernel convert
    .args
        .arg src, scalar, 16        # V# of the input
        .arg dst, scalar, 16        # V# of the output
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.kernel lane_ids
    .args
        .arg dst, scalar, 16
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
convert:
    s_load_dword     s2, s[0:1], 6          # local size x
    s_load_dwordx4   s[8:11], s[0:1], 9     # src (byte 36)
    s_load_dwordx4   s[12:15], s[0:1], 13   # dst (byte 52)
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s2, s2, s4
    v_mad_u32_u24    v0, s2, 1, v0          # global id = record index
    buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen
    s_waitcnt        vmcnt(0)
    buffer_store_format_xyzw v[4:7], v0, s[12:15], 0 idxen
    s_endpgm
lane_ids:
    s_load_dwordx4   s[12:15], s[0:1], 9
    s_waitcnt        lgkmcnt(0)
    v_and_b32        v1, ~63, v0            # first local id of the wave
    buffer_store_format_x v0, v1, s[12:15], 0 idxen
    s_endpgm
"#,
                gpu = $gpu
            );
        }
    };
}

/// The two kernels for GCN 1.2/1.4 (byte SMEM offsets).
macro_rules! new_gcn {
    ($module:ident, $gpu:tt) => {
        mod $module {
            gcn_runtime::gcn_kernel!(
                r#"
.gallium
.kernel convert
    .args
        .arg src, scalar, 16
        .arg dst, scalar, 16
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.kernel lane_ids
    .args
        .arg dst, scalar, 16
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
convert:
    s_load_dword     s2, s[0:1], 0x18
    s_load_dwordx4   s[8:11], s[0:1], 0x24
    s_load_dwordx4   s[12:15], s[0:1], 0x34
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s2, s2, s4
    v_mad_u32_u24    v0, s2, 1, v0
    buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen
    s_waitcnt        vmcnt(0)
    buffer_store_format_xyzw v[4:7], v0, s[12:15], 0 idxen
    s_endpgm
lane_ids:
    s_load_dwordx4   s[12:15], s[0:1], 0x24
    s_waitcnt        lgkmcnt(0)
    v_and_b32        v1, ~63, v0
    buffer_store_format_x v0, v1, s[12:15], 0 idxen
    s_endpgm
"#,
                gpu = $gpu
            );
        }
    };
}

old_gcn!(gcn10, "tahiti");
old_gcn!(gcn11, "bonaire");
new_gcn!(gcn12, "tonga");
new_gcn!(gcn14, "gfx900");

fn program(kernel: &Kernel) -> (Memory, Program) {
    let memory = Memory::default();
    let program = Program::from_kernel(&memory, kernel).unwrap();
    (memory, program)
}

/// [8_8_8_8, UNORM] records in, [32_32_32_32, FLOAT] records out: 256
/// threads over 200 input records, so the last 56 read zeros (the range
/// check) and store them.
fn convert<A: KernelArgs>(kernel: &Kernel, args: impl Fn([u32; 4], [u32; 4]) -> A) {
    let (memory, program) = program(kernel);
    let input: Vec<[u8; 4]> = (0..200u32)
        .map(|i| [i as u8, 255, (3 * i) as u8, 0])
        .collect();
    let src = memory.buffer_from_slice(&input).unwrap();
    let dst = memory.buffer_filled::<[f32; 4]>(256, [9.0; 4]).unwrap();
    let vin = BufferResource::typed(&src, DataFormat::D8_8_8_8, NumFormat::Unorm).unwrap();
    let vout = BufferResource::typed(&dst, DataFormat::D32_32_32_32, NumFormat::Float).unwrap();
    program
        .launch_args(
            &args(vin.into(), vout.into()),
            &Dispatch::new_1d(256, 64),
            &LaunchOptions::default(),
        )
        .unwrap();
    let got = dst.to_vec();
    for (i, g) in got.iter().enumerate() {
        let want = match input.get(i) {
            Some(b) => b.map(|c| f32::from(c) / 255.0),
            None => [0.0; 4],
        };
        assert_eq!(*g, want, "{} record {i}", kernel.name);
    }
}

/// Two waves of 64: each lane stores its local id at index (first id of
/// its wave) + lane id, so record i holds i only if TID_ENABLE adds the
/// lane id within the wave (0-63) in the second wave too.
fn lane_ids<A: KernelArgs>(kernel: &Kernel, args: impl Fn([u32; 4]) -> A) {
    let (memory, program) = program(kernel);
    let dst = memory.buffer_filled::<u32>(256, 0xdead).unwrap();
    let v = BufferResource::builder()
        .base(dst.ptr().0)
        .stride(4)
        .num_records(256)
        .format(DataFormat::D32, NumFormat::Uint)
        .tid_enable(true)
        .build()
        .unwrap();
    program
        .launch_args(
            &args(v.into()),
            &Dispatch::new_1d(128, 128),
            &LaunchOptions::default(),
        )
        .unwrap();
    let got = dst.to_vec();
    let want: Vec<u32> = (0..256).map(|i| if i < 128 { i } else { 0xdead }).collect();
    assert_eq!(got, want, "{}", kernel.name);
}

macro_rules! per_version {
    ($test:ident, $module:ident) => {
        #[test]
        fn $test() {
            convert(&$module::CONVERT, |src, dst| $module::ConvertArgs {
                src,
                dst,
            });
            lane_ids(&$module::LANE_IDS, |dst| $module::LaneIdsArgs { dst });
        }
    };
}

per_version!(gcn1_0, gcn10);
per_version!(gcn1_1, gcn11);
per_version!(gcn1_2, gcn12);
per_version!(gcn1_4, gcn14);
