//! Conversion tests: every expected value is computed by hand from the
//! seed's tables and the module's conversion table, not by the code under
//! test.

use super::*;

#[test]
fn codes_round_trip() {
    for code in 0..64u8 {
        if let Some(d) = DataFormat::from_code(code) {
            assert_eq!(d.code(), code);
        }
    }
    assert_eq!(DataFormat::from_code(23), None);
    assert_eq!(DataFormat::from_code(8), Some(DataFormat::D10_10_10_2));
    assert_eq!(DataFormat::D2_10_10_10.name(), "2_10_10_10");
    for n in NumFormat::ALL {
        assert_eq!(NumFormat::from_code(n.code()), Some(n));
    }
    assert_eq!(NumFormat::from_code(14), None);
}
