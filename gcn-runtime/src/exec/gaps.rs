//! Why the rows without semantics stop: the one place the emulator's known
//! gaps are explained. The fault of such an instruction, the coverage
//! example's `--list` and `FIDELITY.md` all quote [`gap_reason`], and a test
//! keeps every gap explained — a row that loses its handler, or a new row
//! the ISA table gains without one, fails it until it is given semantics or
//! a reason here.

use gcn_asm::isa::Mnemonic as M;
use gcn_asm::isa::{flags, Encoding, Field, InstrRow, Unit};
use gcn_asm::GcnVersion;

/// The reason given to a row no entry of [`gap_reason`] explains.
pub const UNEXPLAINED: &str = "not implemented yet";

/// Why `row` has no semantics on `version` (rows with a handler are not
/// asked): graphics-only, a device-wide resource the emulator does not
/// model, trap-handler-only, absent from the hardware, or undocumented.
pub fn gap_reason(row: &InstrRow, version: GcnVersion) -> &'static str {
    match row.encoding {
        Encoding::Exp => {
            return "graphics-only: an export to the colour, depth or position \
                    buffers of a pixel or vertex shader, which a compute dispatch has not"
        }
        Encoding::Vintrp => {
            return "graphics-only: interpolation of pixel-shader attributes, \
                    which a compute dispatch has not"
        }
        _ => {}
    }
    // The VOP3 forms of VINTRP: rows with an attribute operand.
    if row.operand(Field::Attr).is_some() {
        return "graphics-only: interpolation of pixel-shader attributes, the VOP3 \
                form of VINTRP, which a compute dispatch has not";
    }
    if row.encoding == Encoding::Mimg && version.is_gcn15() {
        if row.has(flags::BVH) {
            return "ray tracing (BVH node intersection) on RDNA 2: it reads the BVH node \
                    formats through a gfx10 resource, neither of which the emulator models";
        }
        if row.op == M::ImageMsaaLoad {
            return "an MSAA sample load on RDNA 2: it reads one sample of a multisampled \
                    image (through its FMASK), and the emulator models no multisampled \
                    images (MSAA T# types and dims are \"not supported\" faults)";
        }
    }
    if row.has(flags::GDS_ONLY) {
        return "global wave sync (GWS) is a device-wide resource shared by \
                dispatches, which the emulator does not model";
    }
    if row.op == M::DsOrderedCount {
        return "an ordered count in global data share (GDS), which the emulator \
                does not model";
    }
    if matches!(row.op, M::DsCondxchg32RtnB64 | M::DsCondxchg32RtnB128) {
        return "no reference document gives its Operation; the CLRX doc names the \
                opcode only";
    }
    if row.has(flags::RFE) {
        return "a return from a trap handler, and the emulator runs no trap \
                handler: s_trap stops the dispatch";
    }
    if matches!(row.op, M::SSubvectorLoopBegin | M::SSubvectorLoopEnd) {
        return "no reference document at hand gives its Operation: the CLRX docs stop \
                at GCN 1.4 and the RDNA ISA's subvector-loop text (a wave64 run as two \
                32-lane passes) is not available here, so its EXEC and SDST updates \
                would be a guess";
    }
    if row.unit() == Unit::Smem && row.atomic.is_some() && !version.is_gcn14_or_later() {
        return "GCN 1.2 hardware has no scalar atomics: the CLRX doc and llvm-mc \
                have them from GCN 1.4 on, though clrxasm encodes them for GCN 1.2";
    }
    if matches!(
        row.op,
        M::VMovPrsvB32 | M::VReadlaneRegrdB32 | M::VWritelaneRegwrB32
    ) {
        return "no reference document gives its Operation; the CLRX doc names the \
                opcode only and llvm-mc does not know it";
    }
    if matches!(
        row.op,
        M::ImageGather4h | M::ImageGather4hPck | M::ImageGather8hPck
    ) {
        return "no reference document gives its texel footprint: the Vega ISA says \
                only \"4x1\" or \"8x1 texels\", so any result would be a guess";
    }
    UNEXPLAINED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{coverage, handler};
    use gcn_asm::isa::INSTRUCTIONS;

    #[test]
    fn every_gap_is_explained() {
        let mut unexplained = Vec::new();
        for version in crate::exec::EMULATED_VERSIONS {
            for (name, _) in coverage(version).missing {
                let row = gcn_asm::isa::lookup(name, version).unwrap();
                if gap_reason(row, version) == UNEXPLAINED {
                    unexplained.push(format!("{name} ({version})"));
                }
            }
        }
        assert!(
            unexplained.is_empty(),
            "rows without a handler or a reason: {unexplained:?}"
        );
    }

    #[test]
    fn reasons_name_no_row_that_runs() {
        // A reason must not outlive the gap: a row given semantics on a
        // version loses its reason there (the reason is only ever asked for
        // rows without a handler, so this guards the table's wording).
        let row = |m| gcn_asm::isa::lookup(m, GcnVersion::Gcn1_4).unwrap();
        assert!(handler(row("s_buffer_atomic_add"), GcnVersion::Gcn1_4).is_some());
        assert_eq!(
            gap_reason(row("s_buffer_atomic_add"), GcnVersion::Gcn1_4),
            UNEXPLAINED
        );
        assert_eq!(
            gap_reason(row("v_add_f32"), GcnVersion::Gcn1_4),
            UNEXPLAINED
        );
        let rfe = INSTRUCTIONS
            .iter()
            .find(|r| r.mnemonic == "s_rfe_b64")
            .unwrap();
        assert!(gap_reason(rfe, GcnVersion::Gcn1_0).contains("trap handler"));
    }
}
