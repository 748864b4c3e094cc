//! The input-buffer layout against buffers computed by hand.

use super::*;

fn arg(
    name: &'static str,
    ty: ArgType,
    size: u32,
    target_size: u32,
    target_align: u32,
    sign_extended: bool,
    semantic: ArgSemantic,
) -> Arg {
    Arg {
        name,
        record: KernelArg {
            ty,
            size,
            target_size,
            target_align,
            sign_extended,
            semantic,
        },
        declaration: "",
    }
}

fn general(name: &'static str, ty: ArgType, size: u32, target: u32, align: u32, sext: bool) -> Arg {
    arg(name, ty, size, target, align, sext, ArgSemantic::General)
}

fn griddim() -> Arg {
    arg(
        "griddim",
        ArgType::Scalar,
        4,
        4,
        4,
        false,
        ArgSemantic::GridDimension,
    )
}

fn gridoffset() -> Arg {
    arg(
        "gridoffset",
        ArgType::Scalar,
        4,
        4,
        4,
        false,
        ArgSemantic::GridOffset,
    )
}

/// Little-endian dwords to bytes.
fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|w| w.to_le_bytes()).collect()
}

const HEADER_64: [u32; 9] = [2, 1, 1, 128, 1, 1, 64, 1, 1];

#[test]
fn header_and_the_vadd_layout() {
    // config-vadd.s: n at dword 9, a/b/c at 11/13/15 (8-aligned relative
    // to byte 36), griddim at 17, gridoffset at 18-20.
    let args = [
        general("n", ArgType::Scalar, 4, 4, 4, false),
        general("a", ArgType::Global, 8, 8, 8, false),
        general("b", ArgType::Global, 8, 8, 8, false),
        general("c", ArgType::Global, 8, 8, 8, false),
        griddim(),
        gridoffset(),
    ];
    let values = [
        ArgValue::Scalar(1000u32.to_le_bytes().to_vec()),
        ArgValue::Pointer(DevicePtr(0x1_0000_1000)),
        ArgValue::Pointer(DevicePtr(0x2000)),
        ArgValue::Pointer(DevicePtr(0xffff_ffff_0000_0004)),
    ];
    let d = Dispatch::new_1d(128, 64).with_offset([5, 6, 7]);
    let input = write_input(&args, &values, &d).unwrap();
    let mut expected = HEADER_64.to_vec();
    expected.extend([1000, 0, 0x1000, 1, 0x2000, 0, 4, 0xffff_ffff, 1, 5, 6, 7]);
    assert_eq!(input.bytes, words(&expected));
    assert_eq!(input.local_memory, 0);
}

#[test]
fn sign_and_zero_extension() {
    let args = [
        general("c", ArgType::Scalar, 1, 4, 4, true),
        general("uc", ArgType::Scalar, 1, 4, 4, false),
        general("s", ArgType::Scalar, 2, 4, 4, true),
        general("spos", ArgType::Scalar, 2, 4, 4, true),
        general("us", ArgType::Scalar, 2, 4, 4, false),
        general("i", ArgType::Scalar, 4, 8, 8, true),
        general("u", ArgType::Scalar, 4, 8, 4, false),
    ];
    let values = [
        (-2i8).arg_value(),
        0xfeu8.arg_value(),
        (-3i16).arg_value(),
        0x7fffi16.arg_value(),
        0x8000u16.arg_value(),
        (-1i32).arg_value(),
        0x8000_0000u32.arg_value(),
    ];
    let input = write_input(&args, &values, &Dispatch::new_1d(64, 64)).unwrap();
    let mut expected = vec![1, 1, 1, 64, 1, 1, 64, 1, 1];
    expected.extend([
        0xffff_fffe,
        0xfe,
        0xffff_fffd,
        0x7fff,
        0x8000,
        // relative offset 20: padding to 24 for the 8-aligned value
        0,
        0xffff_ffff,
        0xffff_ffff,
        0x8000_0000,
        0,
    ]);
    assert_eq!(input.bytes, words(&expected));
}

#[test]
fn alignment_is_relative_to_byte_36() {
    // A 16-byte vector after one dword: relative offset 16, absolute 52
    // (not the absolute 48 that aligning the whole buffer would give).
    let args = [
        general("x", ArgType::Scalar, 4, 4, 4, false),
        general("v", ArgType::Scalar, 16, 16, 16, false),
        general("p", ArgType::Constant, 8, 8, 8, false),
        general("w", ArgType::Scalar, 12, 12, 16, false),
    ];
    let values = [
        7u32.arg_value(),
        [1u32, 2, 3, 4].arg_value(),
        DevicePtr(0x44).arg_value(),
        [9u32, 10, 11].arg_value(),
    ];
    let input = write_input(&args, &values, &Dispatch::new_1d(64, 64)).unwrap();
    let b = &input.bytes;
    assert_eq!(&b[36..40], &7u32.to_le_bytes());
    assert_eq!(&b[40..52], &[0; 12]);
    assert_eq!(&b[52..68], words(&[1, 2, 3, 4]).as_slice());
    assert_eq!(&b[68..76], &0x44u64.to_le_bytes());
    // 12-byte value aligned to 16: relative 40 -> 48, absolute 84.
    assert_eq!(&b[76..84], &[0; 8]);
    assert_eq!(&b[84..96], words(&[9, 10, 11]).as_slice());
    assert_eq!(b.len(), 96);
}

#[test]
fn dct_locals_grid_and_3d_header() {
    // The seed's DCT kernel: 3 globals, a local, 3 scalars, griddim,
    // gridoffset.
    let args = [
        general("output", ArgType::Global, 8, 8, 8, false),
        general("input", ArgType::Global, 8, 8, 8, false),
        general("dct8x8", ArgType::Global, 8, 8, 8, false),
        general("inter", ArgType::Local, 4, 4, 4, false),
        general("width", ArgType::Scalar, 4, 4, 4, false),
        general("block", ArgType::Scalar, 4, 4, 4, false),
        general("inverse", ArgType::Scalar, 4, 4, 4, false),
        griddim(),
        gridoffset(),
    ];
    let values = [
        DevicePtr(0x1000).arg_value(),
        DevicePtr(0x2000).arg_value(),
        DevicePtr(0x3000).arg_value(),
        LocalMemory(256).arg_value(),
        64u32.arg_value(),
        8u32.arg_value(),
        0u32.arg_value(),
    ];
    let d = Dispatch::new(2, [64, 32, 99], [8, 8, 99]).with_offset([1, 2, 0]);
    let input = write_input(&args, &values, &d).unwrap();
    let mut expected = vec![8, 4, 1, 64, 32, 1, 8, 8, 1];
    expected.extend([0x1000, 0, 0x2000, 0, 0x3000, 0, 0, 64, 8, 0, 2, 1, 2, 0]);
    assert_eq!(input.bytes, words(&expected));
    assert_eq!(input.local_memory, 256);
}

#[test]
fn local_buffers_follow_each_other() {
    let args = [
        general("a", ArgType::Local, 4, 4, 4, false),
        general("b", ArgType::Local, 4, 4, 4, false),
        general("c", ArgType::Local, 4, 8, 8, false),
    ];
    let values = [
        LocalMemory(100).arg_value(),
        LocalMemory(28).arg_value(),
        LocalMemory(4).arg_value(),
    ];
    let input = write_input(&args, &values, &Dispatch::new_1d(1, 1)).unwrap();
    assert_eq!(&input.bytes[36..], words(&[0, 100, 128, 0]).as_slice());
    assert_eq!(input.local_memory, 132);
}

#[test]
fn images_samplers_and_their_implicit_arguments() {
    let args = [
        general("img", ArgType::Image2dRdonly, 4, 4, 4, false),
        arg(
            "sz",
            ArgType::Scalar,
            4,
            4,
            4,
            false,
            ArgSemantic::ImageSize,
        ),
        arg(
            "fmt",
            ArgType::Scalar,
            4,
            4,
            4,
            false,
            ArgSemantic::ImageFormat,
        ),
        general("smp", ArgType::Sampler, 4, 4, 4, false),
        general("x", ArgType::Scalar, 4, 4, 4, false),
    ];
    let img = Image {
        slot: 3,
        words: [0; 8],
        size: [640, 480, 1],
        channel_data_type: 0x10d2,
        channel_order: 0x10b5,
    };
    let values = [
        img.arg_value(),
        Sampler([1; 4]).arg_value(),
        9u32.arg_value(),
    ];
    let input = write_input(&args, &values, &Dispatch::new_1d(1, 1)).unwrap();
    assert_eq!(
        &input.bytes[36..],
        words(&[3, 640, 480, 1, 0x10d2, 0x10b5, 9]).as_slice()
    );
    let orphan = [arg(
        "sz",
        ArgType::Scalar,
        4,
        4,
        4,
        false,
        ArgSemantic::ImageSize,
    )];
    assert_eq!(
        write_input(&orphan, &[], &Dispatch::new_1d(1, 1)),
        Err(ArgError::NoImage { index: 0 })
    );
}

#[test]
fn errors_are_values() {
    let args = [
        general("n", ArgType::Scalar, 4, 4, 4, false),
        general("p", ArgType::Constant, 4, 4, 4, false),
    ];
    let d = Dispatch::new_1d(64, 64);
    let e = write_input(&args, &[5u16.arg_value()], &d).unwrap_err();
    assert_eq!(
        e.to_string(),
        "argument 0 (n): 2 bytes given for a 4-byte scalar"
    );
    let e = write_input(&args, &[5u32.arg_value()], &d).unwrap_err();
    assert_eq!(e.to_string(), "no value for argument 1 (p)");
    let e = write_input(&args, &[5u32.arg_value(), 1u32.arg_value()], &d).unwrap_err();
    assert_eq!(
        e.to_string(),
        "argument 1 (p): a constant argument cannot take a scalar"
    );
    let e = write_input(
        &args,
        &[5u32.arg_value(), DevicePtr(1 << 32).arg_value()],
        &d,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "argument 1 (p): address 0x100000000 does not fit in 4 bytes"
    );
    let ok = write_input(&args, &[5u32.arg_value(), DevicePtr(0x80).arg_value()], &d).unwrap();
    assert_eq!(&ok.bytes[36..], words(&[5, 0x80]).as_slice());
    let e = write_input(
        &args,
        &[5u32.arg_value(), DevicePtr(0).arg_value(), 1u8.arg_value()],
        &d,
    )
    .unwrap_err();
    assert_eq!(
        e,
        ArgError::TooManyValues {
            expected: 2,
            given: 3
        }
    );
    let e = write_input(&[], &[], &Dispatch::new_1d(65, 64)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad dispatch: global size 65 is not a multiple of local size 64 in dimension 0"
    );
    let e = write_input(&[], &[], &Dispatch::new(4, [1; 3], [1; 3])).unwrap_err();
    assert!(matches!(e, ArgError::BadDispatch(_)));
}

#[test]
fn kernel_handle_reads_its_proginfo() {
    const K: Kernel = Kernel {
        name: "k",
        device: "tonga",
        binary: &[],
        offset: 0,
        prog_info: &[
            ProgInfoEntry {
                address: 0xb848,
                value: 0x000c_0183,
            },
            ProgInfoEntry {
                address: 0xb84c,
                value: 0x0000_1788,
            },
            ProgInfoEntry {
                address: 0xb860,
                value: 0,
            },
        ],
        args: &[],
        lines: &[],
    };
    const RSRC2: u32 = K.pgm_rsrc2();
    assert_eq!(K.pgm_rsrc1(), 0x000c_0183);
    assert_eq!(RSRC2, 0x1788);
    assert_eq!(K.user_sgprs(), 4);
    assert_eq!(K.prog_info_value(0x1234), None);
}

#[test]
fn image_and_sampler_arguments_carry_their_descriptors() {
    use crate::descriptor::{ClampMode, ImageResource, ImageType, SamplerResource};
    use crate::format::{DataFormat, NumFormat};
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
        .base_address(0x10_0000)
        .size(640, 480, 1);
    let img = Image::new(&t).unwrap();
    let tw = t.to_words().unwrap();
    assert_eq!(img.words, tw);
    // CL_UNORM_INT8, CL_RGBA.
    assert_eq!((img.channel_data_type, img.channel_order), (0x10d2, 0x10b5));
    let s = SamplerResource::default().clamp(ClampMode::Mirror);
    let smp = Sampler::new(&s).unwrap();
    let sw = s.to_words().unwrap();
    let args = [
        general("img", ArgType::Image2dRdonly, 32, 32, 32, false),
        general("smp", ArgType::Sampler, 16, 16, 16, false),
        arg(
            "sz",
            ArgType::Scalar,
            4,
            4,
            4,
            false,
            ArgSemantic::ImageSize,
        ),
        general("img128", ArgType::Image2dRdonly, 16, 16, 16, false),
    ];
    let values = [img.arg_value(), smp.arg_value(), img.arg_value()];
    let input = write_input(&args, &values, &Dispatch::new_1d(1, 1)).unwrap();
    // T# at byte 36, S# at 68, the size (3 dwords) at 84, then the 128-bit
    // T# 16-aligned (relative to byte 36) at 100.
    let mut expect: Vec<u32> = tw.to_vec();
    expect.extend(sw);
    expect.extend([640, 480, 1]);
    expect.extend([0]);
    expect.extend(&tw[..4]);
    assert_eq!(&input.bytes[36..], words(&expect).as_slice());
    // A 16-byte argument of a type without a 128-bit form is an error.
    let cube = ImageResource::new(ImageType::Cube, DataFormat::D32, NumFormat::Float).size(2, 2, 6);
    let v = [Image::new(&cube).unwrap().arg_value()];
    let e = write_input(&args[3..], &v, &Dispatch::new_1d(1, 1)).unwrap_err();
    assert!(e.to_string().contains("128-bit T#"), "{e}");
}

#[test]
fn absurd_sizes_are_errors_before_anything_is_built() {
    // A target size or alignment from a damaged binary: an error, not an
    // 8 GB host buffer.
    let d = Dispatch::new_1d(64, 64);
    for (target, align) in [(0x7fff_fffc, 4), (u32::MAX, 4)] {
        let args = [general("pad", ArgType::Scalar, 4, target, align, false)];
        match write_input(&args, &[ArgValue::Scalar(vec![0; 4])], &d) {
            Err(ArgError::Mismatch {
                index: 0,
                name: "pad",
                message,
            }) => assert!(
                message.contains("more than the 1048576 a kernel input may have"),
                "{message}"
            ),
            r => panic!("{target:#x}/{align:#x}: {r:?}"),
        }
    }
    // An alignment that would pad the buffer to a gigabyte.
    let args = [
        general("a", ArgType::Scalar, 4, 4, 4, false),
        general("b", ArgType::Scalar, 4, 4, 0x4000_0000, false),
    ];
    let four = ArgValue::Scalar(vec![0; 4]);
    assert!(matches!(
        write_input(&args, &[four.clone(), four], &d),
        Err(ArgError::Mismatch { index: 1, .. })
    ));
}
