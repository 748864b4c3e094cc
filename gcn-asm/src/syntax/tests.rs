//! End-to-end tests of the statement-level assembler, observed through data
//! directives (instructions need the encoder).

use crate::syntax::assembler::{assemble, AssembleOptions, Assembly, BinaryFormat};
use crate::Diagnostics;

fn asm(src: &str) -> Result<Assembly, Diagnostics> {
    assemble(src, &AssembleOptions::default())
}

/// The bytes of the first section with data (or `.text`).
fn bytes(src: &str) -> Vec<u8> {
    match asm(src) {
        Ok(a) => a.text().to_vec(),
        Err(d) => panic!("unexpected errors for {src:?}:\n{d}"),
    }
}

fn ints(src: &str) -> Vec<i32> {
    bytes(src)
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The first error message (panics when it assembles).
fn error(src: &str) -> String {
    match asm(src) {
        Ok(_) => panic!("expected an error for {src:?}"),
        Err(d) => d
            .errors()
            .next()
            .map(|e| e.message.clone())
            .unwrap_or_default(),
    }
}

fn error_pos(src: &str) -> (u32, u32, String) {
    match asm(src) {
        Ok(_) => panic!("expected an error for {src:?}"),
        Err(d) => {
            let e = d.errors().next().unwrap();
            (e.pos.line, e.pos.column, e.message.clone())
        }
    }
}

#[test]
fn statements_comments_continuation() {
    assert_eq!(bytes(".byte 1; .byte 2 # three\n.byte 3"), vec![1, 2, 3]);
    assert_eq!(
        bytes(".byte 1 /* x\n y */, 2\n.byte /* ; */ 3"),
        vec![1, 2, 3]
    );
    assert_eq!(bytes(".byte 1, \\\n 2"), vec![1, 2]);
    assert_eq!(bytes(".BYTE 7"), vec![7]);
    assert_eq!(bytes("\n\n;;  \n"), Vec::<u8>::new());
}

#[test]
fn data_directives() {
    assert_eq!(bytes(".byte 1, -1, 255"), vec![1, 255, 255]);
    assert_eq!(bytes(".short 0x1234"), vec![0x34, 0x12]);
    assert_eq!(bytes(".hword 1"), vec![1, 0]);
    assert_eq!(bytes(".int 0x12345678"), vec![0x78, 0x56, 0x34, 0x12]);
    assert_eq!(bytes(".long 1").len(), 4);
    assert_eq!(bytes(".word 1").len(), 4);
    assert_eq!(
        bytes(".quad -2"),
        vec![0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
    );
    assert_eq!(bytes(".octa 1").len(), 16);
    assert_eq!(bytes(".octa -1"), vec![0xff; 16]);
    let o = bytes(".octa 0x112233445566778899aabbccddeeff00");
    assert_eq!(o[0], 0x00);
    assert_eq!(o[15], 0x11);
    assert_eq!(bytes(".half 1.0"), vec![0x00, 0x3c]);
    assert_eq!(bytes(".float 1.0"), 1.0f32.to_le_bytes().to_vec());
    assert_eq!(bytes(".single -2.5"), (-2.5f32).to_le_bytes().to_vec());
    assert_eq!(bytes(".double 0.5"), 0.5f64.to_le_bytes().to_vec());
    assert_eq!(bytes(".float 2"), 2.0f32.to_le_bytes().to_vec());
    assert_eq!(bytes(".ascii \"ab\", \"c\""), b"abc".to_vec());
    assert_eq!(bytes(".asciz \"a\""), b"a\0".to_vec());
    assert_eq!(bytes(".string \"a\\n\""), b"a\n\0".to_vec());
    assert_eq!(bytes(".string16 \"a\""), vec![b'a', 0, 0, 0]);
    assert_eq!(bytes(".string32 \"a\"").len(), 8);
    assert_eq!(bytes(".string64 \"a\"").len(), 16);
    assert_eq!(bytes(".fill 2, 2, 0x0102"), vec![2, 1, 2, 1]);
    assert_eq!(
        bytes(".fill 1, 8, -1"),
        vec![0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]
    );
    assert_eq!(bytes(".fillq 1, 8, -1"), vec![0xff; 8]);
    assert_eq!(bytes(".fill 3"), vec![0, 0, 0]);
    assert_eq!(bytes(".skip 2, 9"), vec![9, 9]);
    assert_eq!(bytes(".space 1"), vec![0]);
    assert_eq!(bytes(".byte 1,,2"), vec![1, 0, 2]);
}

#[test]
fn data_errors() {
    assert!(error(".byte 1 2").contains("expected ','"));
    assert_eq!(error(".ascii \"abc"), "unterminated string");
    assert_eq!(error(".ascii \"\\q\""), "unknown escape sequence");
    assert!(error(".fill -1").contains("negative"));
    assert!(error(".float x").contains("undefined"));
    assert!(error(".int 1/0").contains("division by zero"));
    let a = asm(".byte 256").unwrap();
    assert_eq!(a.warnings.len(), 1);
    let a = assemble(
        ".byte 256",
        &AssembleOptions {
            warnings: false,
            ..AssembleOptions::default()
        },
    )
    .unwrap();
    assert!(a.warnings.is_empty());
}

#[test]
fn alignment() {
    assert_eq!(bytes(".byte 1; .align 4"), vec![1, 0, 0, 0]);
    assert_eq!(bytes(".data; .byte 1; .align 4, 7").len(), 0);
    let a = asm(".data; .byte 1; .balign 4, 7").unwrap();
    assert_eq!(a.section(".data").unwrap().data, vec![1, 7, 7, 7]);
    let a = asm(".data; .byte 1; .balignw 4, 0x0102").unwrap();
    assert_eq!(a.section(".data").unwrap().data, vec![1, 2, 1, 2]);
    let a = asm(".data; .byte 1; .balignl 8, 0x04030201").unwrap();
    assert_eq!(
        a.section(".data").unwrap().data,
        vec![1, 1, 2, 3, 4, 1, 2, 3]
    );
    let a = asm(".data; .byte 1; .p2align 3").unwrap();
    assert_eq!(a.section(".data").unwrap().data.len(), 8);
    assert_eq!(bytes(".byte 1; .align 8, , 2"), vec![1]);
    // code padding with s_nop in .text
    assert_eq!(
        ints(".int 1; .align 16"),
        vec![
            1,
            0xbf80_0000u32 as i32,
            0xbf80_0000u32 as i32,
            0xbf80_0000u32 as i32
        ]
    );
    assert!(error(".align 3").contains("power of two"));
}

#[test]
fn org_and_location_counter() {
    assert_eq!(bytes(".byte 1; .org 4; .byte 2"), vec![1, 0, 0, 0, 2]);
    assert_eq!(bytes(".byte 1; . = . + 2; .byte 2"), vec![1, 0, 0, 2]);
    assert_eq!(bytes(".byte 1; .org 3, 9"), vec![1, 9, 9]);
    assert!(error(".byte 1,2; .org 1").contains("backwards"));
    assert_eq!(bytes(".int .; .int ."), vec![0, 0, 0, 0, 4, 0, 0, 0]);
    // absolute section
    assert_eq!(
        bytes(".struct 0; f1: .skip 4; f2: .skip 2; .text; .byte f2, f1"),
        vec![4, 0]
    );
    assert_eq!(
        bytes(".offset 8; a: .org 2; b: .text; .byte a, b"),
        vec![8, 2]
    );
    assert!(error(".struct 0; .byte 1").contains("absolute"));
}

#[test]
fn labels_and_symbols() {
    assert_eq!(ints("a: b: .int a, b, c; c: .int 0"), vec![0, 0, 12, 0]);
    assert_eq!(ints("x = 3; y = x*2; .int y"), vec![6]);
    assert_eq!(ints(".set x, 1; .int x; .set x, 2; .int x"), vec![1, 2]);
    assert_eq!(ints(".equ x, 5; .int x"), vec![5]);
    assert_eq!(ints(".int later; .int 1; later = . + 4"), vec![12, 1]);
    assert_eq!(ints(".int e - s; s: .int 1, 2; e:"), vec![8, 1, 2]);
    assert_eq!(ints("Sym = 1; sym = 2; .int Sym, sym"), vec![1, 2]);
    assert!(error("a: a:").contains("already defined"));
    assert!(error(".equiv x, 1; .equiv x, 2").contains("already defined"));
    assert!(error("x: x = 1").contains("already defined"));
    let (line, col, msg) = error_pos(".int 1\n  .int undefined_sym");
    assert_eq!((line, col), (2, 8));
    assert!(msg.contains("undefined_sym"), "{msg}");
    // forward refs captured with their first value (CLRX semantics)
    assert_eq!(ints(".int x; x = 1; x = 2; .int x"), vec![1, 2]);
}

#[test]
fn defines_from_options() {
    let opts = AssembleOptions {
        defines: vec![("N".into(), 7)],
        ..AssembleOptions::default()
    };
    let a = assemble(".int N", &opts).unwrap();
    assert_eq!(a.text(), &[7, 0, 0, 0]);
}

#[test]
fn eqv_and_equiv() {
    assert_eq!(
        ints("a = 3; b = 5; .eqv cv, a+b; .int cv; b = 7; .int cv"),
        vec![8, 10]
    );
    assert!(error(".eqv x, 1; .eqv x, 2").contains("already defined"));
}

#[test]
fn local_labels() {
    assert_eq!(ints("1: .int 1b, 1f; 1: .int 1b"), vec![0, 8, 8]);
    assert_eq!(ints("2: .int 2f - 2b; 2: .int 0"), vec![4, 0]);
    assert!(error(".int 3b").contains("not defined before"));
    assert!(error(".int 3f").contains("undefined"));
}

#[test]
fn expressions_in_data() {
    assert_eq!(
        ints(".int 1 ? 2 : 3, 1 < 2, 1 <@ 2, 7 // 2, -7 %% 2 & 1, 1 <> 1"),
        vec![2, -1, -1, 3, 1, 0]
    );
    assert_eq!(ints(".int 'A', '\\n'"), vec![65, 10]);
    assert_eq!(ints(".int 0b11, 010, 0x10"), vec![3, 8, 16]);
    assert!(error(".int 1 +").contains("expected an expression"));
    assert!(error(".int (1").contains("')'"));
}

#[test]
fn relative_values() {
    assert!(error("a: .int a * 2").contains("relative"));
    assert_eq!(ints("a: .int 0; b: x = b - a; .int x"), vec![0, 4]);
}

#[test]
fn sections() {
    let a = asm(".rodata; .byte 1; .text; .byte 2; .data; .byte 3; .section .foo, \"a\", @progbits; .byte 4; .rodata; .byte 5").unwrap();
    let names: Vec<&str> = a.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec![".text", ".rodata", ".data", ".foo"]);
    assert_eq!(a.section(".rodata").unwrap().data, vec![1, 5]);
    assert_eq!(a.text(), &[2]);
    assert!(error(".section .x, \"q\"").contains("flag"));
    assert!(error(".rodata; a: .text; b: .int b - a").contains("different sections"));
    let a = asm(".section .code, \"ax\" align=256; .int 1; .align 8").unwrap();
    assert_eq!(
        a.section(".code").unwrap().data,
        vec![1, 0, 0, 0, 0, 0, 0x80, 0xbf]
    );
}

#[test]
fn target_selection() {
    let a = asm("").unwrap();
    assert_eq!(a.device, crate::Device::CapeVerde);
    let a = asm(".gpu Tonga; .get_gpu g; .get_arch ar; .int g, ar").unwrap();
    assert_eq!(a.device, crate::Device::Tonga);
    assert_eq!(a.text(), &[11, 0, 0, 0, 2, 0, 0, 0]);
    let a = asm(".arch gcn1.4; .get_arch x; .int x").unwrap();
    assert_eq!(a.device, crate::Device::Gfx900);
    assert_eq!(a.text()[0], 3);
    assert!(error(".gpu foo").contains("unknown GPU"));
    assert!(error(".arch gcn9").contains("unknown architecture"));
    let a =
        asm(".64bit; .get_64bit b; .rawcode; .get_format f; .get_version v; .int b, f, v").unwrap();
    assert!(a.is_64bit);
    assert_eq!(a.format, BinaryFormat::RawCode);
    assert_eq!(a.text(), &[1, 0, 0, 0, 2, 0, 0, 0, 109, 0, 0, 0]);
    let a = asm(".gallium; .32bit; .get_format f; .byte f").unwrap();
    assert_eq!(a.text(), &[1]);
    assert!(error(".gallium\n.kernel foo").contains("kernel 'foo' has no code"));
    assert!(error(".rawcode\n.kernel foo").contains("belongs to the Gallium format"));
    assert!(error(".config").contains("must follow .kernel"));
    assert!(error(".amd").contains("not implemented yet"));
    assert!(error(".bogus").contains("unknown pseudo-op"));
}

#[test]
fn conditionals() {
    assert_eq!(bytes(".if 1; .byte 1; .else; .byte 2; .endif"), vec![1]);
    assert_eq!(
        bytes(".if 0; .byte 1; .elseif 1; .byte 2; .else; .byte 3; .endif"),
        vec![2]
    );
    assert_eq!(
        bytes(".if 0; .byte 1; .elseif 0; .byte 2; .else; .byte 3; .endif"),
        vec![3]
    );
    assert_eq!(
        bytes(".if 0; .if 1; .byte 1; .else; .byte 2; .endif; .endif"),
        Vec::<u8>::new()
    );
    assert_eq!(
        bytes(".ifne 2; .byte 1; .endif; .ifeq 0; .byte 2; .endif"),
        vec![1, 2]
    );
    assert_eq!(bytes(".ifgt 1; .byte 1; .endif; .ifge 0; .byte 2; .endif; .iflt -1; .byte 3; .endif; .ifle 1; .byte 4; .endif"), vec![1, 2, 3]);
    assert_eq!(bytes("x=1; .ifdef x; .byte 1; .endif; .ifndef y; .byte 2; .endif; .ifnotdef x; .byte 3; .endif"), vec![1, 2]);
    assert_eq!(
        bytes(".ifb ; .byte 1; .endif; .ifnb x; .byte 2; .endif; .ifb x; .byte 3; .endif"),
        vec![1, 2]
    );
    assert_eq!(
        bytes(".ifc a b, a b; .byte 1; .endif; .ifnc a, b; .byte 2; .endif"),
        vec![1, 2]
    );
    assert_eq!(
        bytes(".ifeqs \"a\", \"a\"; .byte 1; .endif; .ifnes \"a\", \"b\"; .byte 2; .endif"),
        vec![1, 2]
    );
    assert_eq!(
        bytes(".ifarch gcn1.0; .byte 1; .endif; .ifnarch gcn1.1; .byte 2; .endif"),
        vec![1, 2]
    );
    assert_eq!(bytes(".gpu gfx906; .ifarch gfx9; .byte 1; .endif"), vec![1]);
    assert_eq!(
        bytes(".ifgpu capeverde; .byte 1; .endif; .ifngpu tahiti; .byte 2; .endif"),
        vec![1, 2]
    );
    assert_eq!(
        bytes(".iffmt gallium; .byte 1; .endif; .ifnfmt raw; .byte 2; .endif"),
        vec![1, 2]
    );
    assert_eq!(
        bytes(".if32; .byte 1; .endif; .if64; .byte 2; .endif"),
        vec![1]
    );
    assert_eq!(
        bytes(".if 0; .elseifdef x; .elseifeq 0; .byte 5; .endif"),
        vec![5]
    );
    assert_eq!(bytes(".if 0\n.bogus junk\n.endif"), Vec::<u8>::new());
    let (line, _, msg) = error_pos(".byte 1\n.if 1\n.byte 2");
    assert_eq!((line, msg.as_str()), (2, "missing .endif"));
    assert!(error(".endif").contains("without .if"));
    assert!(error(".else").contains("without .if"));
    assert!(error(".if 1; .else; .else; .endif").contains("duplicate"));
    assert!(error(".if undefined_x; .endif").contains("undefined"));
}

#[test]
fn macros() {
    assert_eq!(
        bytes(".macro m a, b\n.byte \\a+\\b, \\b-\\a\n.endm\nm 4, 7"),
        vec![11, 3]
    );
    assert_eq!(
        bytes(".macro m a=100, b\n.byte \\a+\\b\n.endm\nm ,7"),
        vec![107]
    );
    assert_eq!(
        bytes(".macro m a b\n.byte \\a, \\b\n.endm\nm 1 2"),
        vec![1, 2]
    );
    assert_eq!(
        bytes(".macro m x, data:vararg\n.byte \\x, \\data\n.endm\nm 1, 2, 3"),
        vec![1, 2, 3]
    );
    assert_eq!(
        bytes(".macro m x\n.set \\x\\()Sym, 10\n.endm\nm Lin\n.byte LinSym"),
        vec![10]
    );
    assert_eq!(bytes(".macro m\n.byte \\@\n.endm\nm; m"), vec![0, 1]);
    assert_eq!(bytes(".macro M\n.byte 1\n.endm\nm"), vec![1]);
    assert_eq!(
        bytes(".macro m a\n.ascii \"v\\a\"\n.endm\nm 9"),
        b"v9".to_vec()
    );
    assert_eq!(
        bytes(".macro m a\n.if \\a\n.exitm\n.endif\n.byte 1\n.endm\nm 1; m 0"),
        vec![1]
    );
    assert_eq!(
        bytes(".macro m\n.byte 1\n.endm\n.purgem m\n.macro m\n.byte 2\n.endm\nm"),
        vec![2]
    );
    assert_eq!(
        bytes(".macro m a, b\n.byte \\a, \\b\n.endm\nm b=2, a=1"),
        vec![1, 2]
    );
    assert_eq!(bytes(".macro m a\n.byte \\a\n.endm\nm \\%3*4"), vec![12]);
    // nested definitions
    assert_eq!(
        bytes(".macro gen m, v1, v2\n.macro gen\\m x1, x2\n.int (\\x1+\\x2)*(\\v1+\\v2)\n.endm\n.endm\ngen F1,2,3\ngenF1 10,12"),
        vec![110, 0, 0, 0]
    );
    // statements after a macro call on the same line run after its body
    assert_eq!(bytes(".macro m\n.byte 1\n.endm\nm; .byte 2"), vec![1, 2]);
    assert_eq!(
        bytes(".nomacrocase\n.macro Mx\n.byte 1\n.endm\nMx"),
        vec![1]
    );
    assert_eq!(
        bytes(".altmacro\n.macro m a b\n.int a, b\n.endm\nm 12,34"),
        vec![12, 0, 0, 0, 34, 0, 0, 0]
    );
    assert_eq!(
        bytes(".altmacro\n.macro m a\n.ascii \"a\"\n.endm\nm <x!>y>"),
        b"x>y".to_vec()
    );
    assert_eq!(
        bytes(".altmacro\n.macro m a\n.byte a\n.endm\nm %3+4"),
        vec![7]
    );
    assert_eq!(
        ints(".altmacro\n.macro m\nlocal here\nhere: .int here\n.endm\nm\nm"),
        vec![0, 4]
    );
}

#[test]
fn macro_errors() {
    assert!(error(".macro m a:req\n.byte \\a\n.endm\nm").contains("required"));
    assert!(error(".macro m\n.byte 1").contains("missing .endm"));
    assert!(error(".macro m a\n.endm\nm 1, 2").contains("too many"));
    assert!(error(".macro m\nm\n.endm\nm").contains("nested too deeply"));
    assert!(error(".endm").contains("without .macro"));
    assert!(error(".exitm").contains("outside"));
    assert!(error(".purgem nothing").contains("not defined"));
    assert!(error(".macro m\n.endm\n.macro M\n.endm").contains("already defined"));
    // error inside a macro body points at the body line and has context
    let d = asm(".macro m\n.byte 1\n.byte 1/0\n.endm\n\nm").unwrap_err();
    let e = d.errors().next().unwrap();
    assert_eq!(e.pos.line, 3);
    assert_eq!(e.context.len(), 1);
    assert_eq!(e.context[0].line, 6);
}

#[test]
fn repetitions() {
    assert_eq!(bytes(".rept 3\n.byte 1\n.endr"), vec![1, 1, 1]);
    assert_eq!(bytes(".rept 0\n.byte 1\n.endr"), Vec::<u8>::new());
    assert_eq!(bytes(".rept 2; .byte 1; .endr; .byte 2"), vec![1, 1, 2]);
    assert_eq!(
        bytes(".rept 2\n.rept 2\n.byte 1\n.endr\n.byte 2\n.endr"),
        vec![1, 1, 2, 1, 1, 2]
    );
    assert_eq!(bytes(".irp r, 1, 2, 3\n.byte \\r\n.endr"), vec![1, 2, 3]);
    assert_eq!(bytes(".irp r 4 5\n.byte \\r\n.endr"), vec![4, 5]);
    assert_eq!(bytes(".irpc c, 0145\n.byte \\c\n.endr"), vec![0, 1, 4, 5]);
    assert_eq!(ints(".for x=1, x<16, x+x\n.int x\n.endr"), vec![1, 2, 4, 8]);
    assert_eq!(
        ints("x=1\n.while x<16\n.int x\nx=x+x\n.endr"),
        vec![1, 2, 4, 8]
    );
    assert!(error(".rept 2\n.byte 1").contains("missing .endr"));
    assert!(error(".endr").contains("without"));
    assert!(error(".rept 100000000000\n.endr").contains("too large"));
    assert!(error("x=1\n.while x\n.endr").contains("too many iterations"));
    assert!(error(".rept 2\n.if 1\n.endr").contains("missing .endif"));
}

#[test]
fn scopes() {
    let src = "
.scope ala
    sym1 = 4
    sym2 = 11
    .byte sym1
    .scope child
        sym1 = 5
        .byte sym1
        .byte sym2
    .ends
    .scope
        sym1 = 8
        .byte sym1
    .ends
    .byte sym1
.ends
.byte ala::sym1, ala::child::sym1
sym1 = 9
.scope ala
    .byte ::sym1
.ends
";
    assert_eq!(bytes(src), vec![4, 5, 11, 8, 4, 4, 5, 9]);
    let src = "
.scope ala
    sym2 = 4
.ends
.scope another
    sym2 = 6
    sym3 = 15
.ends
.using ala
.byte sym2
.scope ula
    .using another
    .byte sym2
.ends
.byte sym2
.scope ula
    .using ala
    .byte sym2
    .byte sym3
.ends
::ala::sym2 = 7
.byte ala::sym2
.unusing
";
    assert_eq!(bytes(src), vec![4, 6, 4, 4, 15, 7]);
    assert!(error(".ends").contains("no scope"));
    assert!(error(".using nowhere").contains("does not exist"));
}

#[test]
fn enums_undef_and_ignored() {
    assert_eq!(
        bytes(".enum OK, BAD, FATAL; .enum >8, A, B; .enum C; .byte OK, BAD, FATAL, A, B, C"),
        vec![0, 1, 2, 8, 9, 10]
    );
    assert_eq!(
        bytes(".scope R; .enum N; .ends; .enum >, Z; .byte R::N, Z"),
        vec![0, 0]
    );
    assert!(error(".enum A; A = 2").contains("already defined"));
    assert!(error("x = 1; .undef x; .int x").contains("undefined"));
    assert_eq!(asm(".undef nothing").unwrap().warnings.len(), 1);
    assert!(asm(".global a, b; .globl c; .local d; .weak e; .extern f; .size a, 4; .file \"x\"; .title \"t\"").is_ok());
    assert!(error(".global 1").contains("symbol name"));
}

#[test]
fn messages() {
    assert_eq!(error(".error \"bad thing\""), "bad thing");
    let a = asm(".warning \"careful\"").unwrap();
    assert_eq!(a.warnings[0].message, "careful");
    assert_eq!(
        asm(".print \"hello\"").unwrap().printed,
        vec!["hello".to_string()]
    );
    assert!(error(".err").contains(".err"));
    assert!(error(".fail 1").contains("fail"));
    assert_eq!(asm(".fail 500").unwrap().warnings.len(), 1);
    assert!(error(".abort\n.error \"never\"").contains("aborted"));
    assert_eq!(asm(".abort\n.error \"x\"").unwrap_err().0.len(), 1);
    assert_eq!(bytes(".byte 1\n.end\n.byte 2"), vec![1]);
    assert_eq!(bytes(".byte 1; .end; .byte 2"), vec![1]);
}

#[test]
fn several_errors_reported() {
    let d = asm(".byte 1/0\n.int x +\n.bogus\n.byte 1").unwrap_err();
    let lines: Vec<u32> = d.errors().map(|e| e.pos.line).collect();
    assert_eq!(lines, vec![1, 2, 3]);
}

#[test]
fn includes() {
    let dir = std::env::temp_dir().join(format!("gcn-asm-syntax-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/inc.s"),
        ".byte 5\n.incbin \"data.bin\", 1, 2\n",
    )
    .unwrap();
    std::fs::write(dir.join("sub/data.bin"), [1u8, 2, 3, 4]).unwrap();
    std::fs::write(dir.join("self.s"), ".include \"self.s\"\n").unwrap();
    let opts = AssembleOptions {
        include_dirs: vec![dir.join("sub")],
        ..AssembleOptions::default()
    };
    let a = assemble(".include \"inc.s\"\n.byte 6", &opts).unwrap();
    assert_eq!(a.text(), &[5, 2, 3, 6]);
    let d = assemble(".include \"missing.s\"", &opts).unwrap_err();
    assert!(d.0[0].message.contains("cannot find include file"));
    let opts2 = AssembleOptions {
        include_dirs: vec![dir.clone()],
        ..AssembleOptions::default()
    };
    let d = assemble(".include \"self.s\"", &opts2).unwrap_err();
    assert!(d.0[0].message.contains("nested too deeply"));
    let d = assemble(".incbin \"nothing.bin\"", &opts).unwrap_err();
    assert!(d.0[0].message.contains("cannot find file"));
    // errors inside an include point into it
    std::fs::write(dir.join("sub/bad.s"), "\n.byte 1/0\n").unwrap();
    let d = assemble(".include \"bad.s\"", &opts).unwrap_err();
    assert!(d.0[0].pos.file.ends_with("bad.s"));
    assert_eq!(d.0[0].pos.line, 2);
    assert_eq!(d.0[0].context.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn instructions_reach_the_encoder() {
    // An instruction's words follow the data before it; an unknown
    // mnemonic is an error at the mnemonic.
    let out = asm(".byte 1,2,3,4\n  s_nop 7").unwrap();
    assert_eq!(out.text(), &[1, 2, 3, 4, 0x07, 0x00, 0x80, 0xbf]);
    let d = asm(".byte 1\n  s_nopx 0").unwrap_err();
    let e = d.errors().next().unwrap();
    assert_eq!((e.pos.line, e.pos.column), (2, 3));
}
