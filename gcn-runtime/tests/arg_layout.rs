//! The kernel input buffer the runtime writes puts every argument where
//! `gcn_asm::gallium::arg_offsets` (the `KERNEL::NAME` symbols of the
//! assembler) says, and where the Gallium ABI puts it: from byte 36, each
//! value aligned to its target alignment relative to byte 36.

use gcn_asm::gallium::arg_offsets;
use gcn_runtime::kernel::{
    write_input, Arg, ArgSemantic, ArgType, ArgValue, DevicePtr, Dispatch, KernelArg, Sampler,
};

fn arg(ty: ArgType, size: u32, target: u32, align: u32, semantic: ArgSemantic) -> Arg {
    Arg {
        name: "a",
        record: KernelArg {
            ty,
            size,
            target_size: target,
            target_align: align,
            sign_extended: false,
            semantic,
        },
        declaration: ".arg …",
    }
}

#[test]
fn runtime_layout_matches_the_offset_symbols() {
    use ArgSemantic::*;
    let args = [
        arg(ArgType::Scalar, 1, 4, 4, General),       // 36
        arg(ArgType::Global, 8, 8, 8, General),       // 44 (rel 8)
        arg(ArgType::Sampler, 4, 4, 4, General),      // no value
        arg(ArgType::Scalar, 4, 4, 4, GridDimension), // 52
        arg(ArgType::Scalar, 4, 8, 8, GridOffset),    // 60 (rel 24), 68, 76 (8 bytes each)
        arg(ArgType::Scalar, 16, 16, 16, General),    // 84 (rel 48)
        arg(ArgType::Scalar, 2, 4, 4, General),       // 100
    ];
    let records: Vec<KernelArg> = args.iter().map(|a| a.record).collect();
    let offsets = arg_offsets(&records);
    assert_eq!(
        offsets,
        [
            Some(36),
            Some(44),
            None,
            Some(52),
            Some(60),
            Some(84),
            Some(100)
        ]
    );
    let dispatch = Dispatch::new(3, [64, 2, 2], [64, 1, 1]).with_offset([7, 8, 9]);
    let values = [
        ArgValue::Scalar(vec![0xa1]),
        ArgValue::Pointer(DevicePtr(0x1122_3344_5566_7788)),
        ArgValue::Sampler(Sampler([0; 4])),
        ArgValue::Scalar((1..=16).collect()),
        ArgValue::Scalar(vec![0xb1, 0xb2]),
    ];
    let input = write_input(&args, &values, &dispatch).unwrap();
    let at = |i: usize, n: usize| {
        let o = offsets[i].unwrap() as usize;
        input.bytes[o..o + n].to_vec()
    };
    assert_eq!(at(0, 4), [0xa1, 0, 0, 0]);
    assert_eq!(at(1, 8), 0x1122_3344_5566_7788u64.to_le_bytes());
    assert_eq!(at(3, 4), 3u32.to_le_bytes());
    assert_eq!(at(4, 24)[..4], 7u32.to_le_bytes());
    assert_eq!(at(4, 24)[8..12], 8u32.to_le_bytes());
    assert_eq!(at(4, 24)[16..20], 9u32.to_le_bytes());
    assert_eq!(at(5, 16), (1..=16).collect::<Vec<u8>>());
    assert_eq!(at(6, 4), [0xb1, 0xb2, 0, 0]);
    assert_eq!(input.bytes.len(), 104);
}
