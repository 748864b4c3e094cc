//! V# tests: expected dwords are placed by hand from the seed's bit table.

use super::*;

#[test]
fn every_field_lands_on_its_seed_bits() {
    let v = BufferResource::builder()
        .base(0xABCD_1234_5678)
        .stride(0x3fff)
        .cache_swizzle(true)
        .swizzle_enable(true)
        .num_records(0xdead_beef)
        .dst_sel([DstSel::W, DstSel::Zero, DstSel::One, DstSel::X])
        .format(DataFormat::D2_10_10_10, NumFormat::SnormOgl)
        .element_size(ElementSize::B16)
        .index_stride(IndexStride::S32)
        .tid_enable(true)
        .hash_enable(true)
        .heap(true)
        .resource_type(0)
        .build()
        .unwrap();
    // word1: base[47:32] = 0xABCD, stride 0x3fff << 16, bit 30, bit 31.
    // word3: X=7, Y=0<<3, Z=1<<6, W=4<<9, NUMFORMAT 6<<12, DATAFORMAT
    // 9<<15, ELEMSIZE 3<<19, INDEXSTRIDE 2<<21, TID bit 23, hash bit 25,
    // heap bit 26.
    let w3 =
        7 | 1 << 6 | 4 << 9 | 6 << 12 | 9 << 15 | 3 << 19 | 2 << 21 | 1 << 23 | 1 << 25 | 1 << 26;
    assert_eq!(w3, 0x06dc_e847);
    let words = [0x1234_5678, 0xffff_abcd, 0xdead_beef, w3];
    assert_eq!(v.to_words(), words);
    assert_eq!(BufferResource::from_words(words), v);
    assert_eq!(v.element_size_bytes(GcnVersion::Gcn1_2), 16);
    assert_eq!(v.element_size_bytes(GcnVersion::Gcn1_4), 4);
    assert_eq!(v.index_stride().records(), 32);
}

#[test]
fn from_words_keeps_every_bit() {
    for words in [
        [0xffff_ffff; 4],
        [0x1234_5678, 0x9abc_def0, 0x0fed_cba9, 0x8765_4321],
        [0, 0, 0, 0x4000_0000 | 1 << 24 | 5 << 27],
    ] {
        assert_eq!(BufferResource::from_words(words).to_words(), words);
    }
}

#[test]
fn out_of_range_fields_are_errors() {
    let e = BufferResource::builder().base(1 << 48).build().unwrap_err();
    assert_eq!(
        e,
        ResourceError::OutOfRange {
            field: "BASE",
            value: 1 << 48,
            max: (1 << 48) - 1
        }
    );
    assert!(e.to_string().contains("BASE"));
    assert!(BufferResource::builder().stride(0x4000).build().is_err());
    assert!(BufferResource::builder()
        .num_records(1 << 32)
        .build()
        .is_err());
    assert!(BufferResource::builder().resource_type(4).build().is_err());
    assert!(BufferResource::builder().unnamed_bits(1).build().is_err());
    assert_eq!(
        BufferResource::builder()
            .format(DataFormat::Bc1, NumFormat::Unorm)
            .build(),
        Err(ResourceError::ImageDataFormat(DataFormat::Bc1))
    );
    assert_eq!(
        BufferResource::builder()
            .format(DataFormat::D8, NumFormat::Srgb)
            .build(),
        Err(ResourceError::ImageNumFormat(NumFormat::Srgb))
    );
}

#[test]
fn raw_and_typed_for_a_buffer() {
    let m = crate::memory::Memory::default();
    let b = m.buffer_zeroed::<[u16; 4]>(10).unwrap();
    let raw = BufferResource::for_buffer(&b).unwrap();
    assert_eq!(raw.base(), b.ptr().0);
    assert_eq!((raw.stride(), raw.num_records()), (0, 80));
    // Mesa's raw descriptor: identity selects (0xfac), [32, UINT] (4 << 15
    // | 4 << 12).
    assert_eq!(raw.to_words()[3], 0xfac | 4 << 15 | 4 << 12);
    let t = BufferResource::typed(&b, DataFormat::D16_16_16_16, NumFormat::Unorm).unwrap();
    assert_eq!((t.stride(), t.num_records()), (8, 10));
    assert_eq!(t.data_format(), DataFormat::D16_16_16_16);
}

#[test]
fn display_names_every_field() {
    let v = BufferResource::builder()
        .base(0x100)
        .stride(16)
        .num_records(4)
        .user_vm(true, false)
        .build()
        .unwrap();
    let s = v.to_string();
    for field in [
        "base=0x100",
        "stride=16",
        "cache_swizzle=0",
        "swizzle_enable=0",
        "num_records=4",
        "dst_sel=[R,G,B,A]",
        "format=[32,UINT]",
        "element_size=4",
        "user_vm_enable=1",
        "index_stride=8",
        "tid_enable=0",
        "hash_enable=0",
        "heap=0",
        "type=0",
    ] {
        assert!(s.contains(field), "{field} missing in {s}");
    }
    let gfx9 = v.display(GcnVersion::Gcn1_4).to_string();
    assert!(gfx9.contains("user_vm_enable=1 user_vm_mode=0"));
    assert!(!gfx9.contains("element_size"));
    let gfx8 = v.display(GcnVersion::Gcn1_2).to_string();
    assert!(gfx8.contains("element_size=4") && !gfx8.contains("user_vm"));
}
