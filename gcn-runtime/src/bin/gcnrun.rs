//! `gcnrun`: runs a kernel of a GalliumCompute binary, of an AMDHSA code
//! object (clang `-target amdgcn-amd-amdhsa`, hipcc; run under the HSA ABI,
//! on the processor its `e_flags` name unless `-g`/`-A` says otherwise),
//! or of CLRX source (assembled first) in the emulator. A clang offload
//! bundle (`hipcc --genco` or `hipcc --cuda-device-only -c`, compressed or
//! not; `gcn_asm::bundle`) runs the code object of its entry for `-g`'s
//! processor (`-g gfx906`, feature settings such as `:xnack-` ignored),
//! else of its only GPU entry; naming none when there are several, or one
//! that is not there, is a usage error listing the entries.
//!
//! ```text
//! gcnrun [-g DEVICE | -A ARCH] BINARY KERNEL [ARG]... --global X[,Y[,Z]] [--local X[,Y[,Z]]]
//!        [--offset X[,Y[,Z]]] [--lds BYTES] [--out N=FILE]... [--print N[:TYPE]]...
//!        [--max-steps N] [--timeout SECONDS] [--threads N] [--tier MODE]
//!        [--check NAME=LEVEL]... [--trace [--trace-group X[,Y[,Z]]] [--trace-wave N]] [--profile]
//! ```
//!
//! `--trace` prints, on standard output, one line per instruction executed
//! by the selected waves (every wave, or those of `--trace-group` /
//! `--trace-wave`): group, wave, step, PC, disassembly and the registers it
//! wrote (`s4=0x10 scc=1 vcc=0x3 v3[0–63]=0x3f800000 (1.0)`, differing
//! lanes as `v3={0:0x1, 1:0x2, …}`), also those written with the value
//! they had, with the number beside the bits where the ISA row types the
//! destination as a float. Branch targets carry the source's labels when
//! gcnrun assembled it. Tracing runs one host thread unless `--threads`
//! says otherwise.
//!
//! `--profile` prints, on standard output after the run, each instruction
//! that ran with its count, share, average active lanes, family (SOP2,
//! VOP3, MUBUF, …), PC, disassembly and source line, hottest first, then
//! the same per family (`gcn_runtime::profile`).
//!
//! The sanitizer checks (`gcn_runtime::check`: `waitcnt`, `wait-states`,
//! `lds-race`, `uninit`, `oob`) all run as errors by default; `--check
//! NAME=LEVEL` sets one (`all=LEVEL` every one) to `error`, `warn` or
//! `off`. Findings are printed like compiler diagnostics,
//! `BINARY: kernel 'K' pc 0x1c: error[waitcnt]: ...`; an error among them
//! makes the exit status 1 (the `--out` files are still written).
//!
//! One `ARG` per argument the caller supplies (every `.arg` of semantic
//! `general`, in `.arg` order):
//!
//! | form | for a `.arg` of type | passes |
//! |---|---|---|
//! | `TYPE:V[,V…]` | `scalar` | the values, little-endian, in order; TYPE is `u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64`; `0x…` is a bit pattern; the rest of the `.arg`'s size is zero-filled |
//! | `hex:BYTES` | `scalar` | raw bytes (`hex:0100ff00`), zero-filled like the above |
//! | `@FILE` | `global`, `constant` | a buffer holding FILE's bytes |
//! | `zero:N` | `global`, `constant` | a buffer of N zero bytes |
//! | `TYPE[]:V[,V…]` | `global`, `constant` | a buffer holding the values, little-endian, in order; TYPE and values as for `TYPE:` |
//! | `local:N` | `local` | N bytes of local memory (the kernel gets their offset) |
//! | `image:KEY=V,…[,data=FILE]` | `image*` | a device image (`type=2d,format=8_8_8_8,num=unorm,size=WxH[xD],levels=N`, any T# field by name; see `gcn_runtime::descriptor::spec`), its levels' bytes from FILE in the linear layout (else zeros); the kernel gets its T# |
//! | `sampler:KEY=V,…` | `sampler` | an S#, fields by name (`clamp=mirror,xy_filter=bilinear,…`) |
//! | `vsharp:BUF[,KEY=V…]` | `scalar` of 16 bytes | a buffer resource (V#) over a new buffer, BUF being `@FILE` or `zero:N`; keys: `stride=N` (bytes, default 0: raw), `records=N` (default: the byte size, or the size / stride), `format=DFMT:NFMT` (`16_16_16_16:float`; default `32:uint`), `dst_sel=SSSS` (each of `0 1 r g b a`, default `rgba`), `tid` (TID_ENABLE), `swizzle=ES:IS` (swizzled addressing, element size 2/4/8/16 bytes, index stride 8/16/32/64) |
//!
//! For a code object, KERNEL is the kernel's symbol name (a HIP kernel's
//! mangled name unless it is `extern "C"`), and there is one ARG per
//! explicit argument of its metadata: a pointer (`global_buffer`) takes
//! `@FILE` or `zero:N`, a `__local` pointer (`dynamic_shared_pointer`)
//! `local:N`, a value (`by_value`) the scalar forms, of the metadata's size.
//! The hidden arguments are the runtime's. `--lds BYTES` gives each
//! work-group that much dynamic LDS (HIP's `extern __shared__`). What the
//! kernel's `printf` calls print goes to standard output: after the run
//! for OpenCL C, as each call ends for HIP (hostcall).
//!
//! `--out N=FILE` writes the buffer of ARG N (`@FILE`, `zero:N`,
//! `TYPE[]:` or `vsharp:`), or the image of an `image:` ARG (every level,
//! in the linear layout), after the run. `--print N[:TYPE]` prints it on
//! standard output as values of TYPE (`TYPE:`'s types, or `x8`…`x64` for
//! hex; default the ARG's own type for `TYPE[]:`, else `x32`).
//!
//! Exit status: 0 on success (a one-line summary on standard error); 1 for
//! a run error (a fault, a bad dispatch shape, a configuration the emulator
//! cannot run), a file that cannot be read or written (`BINARY`, `@FILE`,
//! `--out`), a binary that is not a GalliumCompute binary, or source that
//! does not assemble; 2 for a usage error (options, argument count, kind or
//! value, unknown kernel, device or architecture).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use gcn_asm::gallium::{self, KernelDecl};
use gcn_asm::{assemble, AssembleOptions, Device, GcnVersion};
use gcn_runtime::descriptor::spec::{parse_image, parse_sampler};
use gcn_runtime::descriptor::{BufferResource, ElementSize, IndexStride, ResourceError};
use gcn_runtime::format::{DataFormat, DstSel, NumFormat};
use gcn_runtime::image::DeviceImage;
use gcn_runtime::kernel::{
    ArgError, ArgSemantic, ArgType, ArgValue, Dispatch, Image, LocalMemory, Sampler,
};
use gcn_runtime::launch::{LaunchError, LaunchOptions, DEFAULT_MAX_STEPS};
use gcn_runtime::lines::LineTable;
use gcn_runtime::memory::{Buffer, Memory};
use gcn_runtime::program::{LoadError, Program, ProgramKernel};
use gcn_runtime::{CheckOptions, LaunchArgs, Level, TierMode, TraceFilter, TraceRecord};

// The -g/-A options and their resolution, shared with gcnasm and gcndisasm.
#[path = "../../../gcn-asm/src/bin/common/target.rs"]
mod target;
use target::{Selected, TargetArgs};

#[derive(Debug, Parser)]
#[command(
    name = "gcnrun",
    version,
    about = "Runs a kernel of a GalliumCompute binary, an AMDHSA code object or CLRX source in the GCN emulator",
    override_usage = "gcnrun [-g DEVICE | -A ARCH] BINARY (lists its kernels)\n       \
                      gcnrun [-g DEVICE | -A ARCH] BINARY KERNEL [ARG]... --global X[,Y[,Z]] \
                      [--local X[,Y[,Z]]] [--offset X[,Y[,Z]]] [--lds BYTES] [--out N=FILE]... \
                      [--print N[:TYPE]]... [--max-steps N] [--timeout SECONDS] [--threads N] [--check NAME=LEVEL]... \
                      [--trace [--trace-group X[,Y[,Z]]] [--trace-wave N]] [--profile]",
    after_help = "ARG forms: TYPE:V[,V...] and hex:BYTES (by value), @FILE, zero:N and \
                  TYPE[]:V[,V...] (buffers), local:N, image:KEY=V,..., sampler:KEY=V,...,\n\
                  vsharp:BUF[,KEY=V...] (TYPE: u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64). \
                  --help describes each.\n\
                  Exit status: 0 success, 1 run or file error, 2 usage error.",
    after_long_help = ARG_FORMS_HELP
)]
struct Cli {
    #[command(flatten)]
    target: TargetArgs,
    /// A GalliumCompute binary (`gcnasm -b gallium`, clrxasm), an AMDHSA
    /// code object, a clang offload bundle (`hipcc --genco`; the entry for
    /// `-g`, else the only GPU one), or CLRX source, which is assembled
    /// first.
    #[arg(value_name = "BINARY")]
    binary: PathBuf,
    /// The kernel to run; without one, gcnrun lists the file's kernels with
    /// their arguments and the GPU it runs them on.
    #[arg(value_name = "KERNEL")]
    kernel: Option<String>,
    /// One value per argument the caller supplies, in `.arg` order
    /// (negative numbers such as `-5` are values, not options).
    #[arg(value_name = "ARG", allow_negative_numbers = true)]
    args: Vec<String>,
    /// Global size (work-items) per dimension; the count of values gives the
    /// dimensions.
    /// (Required to run a kernel.)
    #[arg(long, value_name = "X[,Y[,Z]]")]
    global: Option<String>,
    /// Work-group size (default: the largest divisor of the global x size
    /// that is at most 64, and 1 in y and z).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    local: Option<String>,
    /// Global offset (passed in the `gridoffset` argument).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    offset: Option<String>,
    /// Bytes of dynamic LDS each work-group gets besides the kernel's own
    /// and its `local:` arguments' (HIP's `extern __shared__`).
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    lds: u32,
    /// After the run, write the bytes of buffer argument N (0-based, in the
    /// ARG list) to FILE.
    #[arg(long = "out", value_name = "N=FILE")]
    out: Vec<String>,
    /// After the run, print buffer argument N (or image) on standard
    /// output as values of TYPE: u8 i8 u16 i16 u32 i32 u64 i64 (decimal),
    /// f16 f32 f64 (shortest text that reads back to the same bits), x8
    /// x16 x32 x64 (hex). Default: the ARG's own type for `TYPE[]:`, else
    /// x32.
    #[arg(long = "print", value_name = "N[:TYPE]")]
    print: Vec<String>,
    /// Most instructions a wave may execute (ends runaway loops; default
    /// 134217728).
    #[arg(long = "max-steps", value_name = "N")]
    max_steps: Option<u64>,
    /// Stop the dispatch after this many seconds of wall-clock time.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<std::time::Duration>,
    /// Host threads for work-groups (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// The compiled tier: `hot` (the default) translates hot blocks of ALU
    /// code to host code, `eager` every block at its first run, `off` runs
    /// the interpreter alone. Checked runs use compiled blocks that call the
    /// checks; `--trace` and `--profile` interpret.
    #[arg(long, value_name = "MODE", value_parser = parse_tier)]
    tier: Option<TierMode>,
    /// Sets a check (waitcnt, wait-states, lds-race, uninit, oob, or all) to
    /// error (the default), warn or off.
    #[arg(long = "check", value_name = "NAME=LEVEL")]
    check: Vec<String>,
    /// Print every instruction the selected waves execute, with the
    /// registers it wrote (standard output).
    #[arg(long)]
    trace: bool,
    /// Trace only this work-group.
    #[arg(long = "trace-group", value_name = "X[,Y[,Z]]", requires = "trace")]
    trace_group: Option<String>,
    /// Trace only this wave (index in its work-group).
    #[arg(long = "trace-wave", value_name = "N", requires = "trace")]
    trace_wave: Option<u32>,
    /// After the run, print how often each instruction ran and with how
    /// many active lanes, hottest first, and the same per instruction
    /// family (standard output).
    #[arg(long)]
    profile: bool,
}

/// `--help`'s description of every ARG form (the forms `parse_arg` reads).
const ARG_FORMS_HELP: &str = "\
ARG forms (one ARG per argument the caller supplies: each `.arg` of semantic
`general`, in order; a usage error lists the kernel's arguments and the forms
each takes):

  By value (`.arg` type scalar):
    TYPE:V[,V...]     the values, little-endian, in order; TYPE is one of
                      u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64; `0x...` is a
                      bit pattern; the rest of the argument is zero-filled
                      (u32:7, f32:1.5,2.5, i16:-3, f16:0x3c00)
    hex:BYTES         raw bytes in memory order (hex:0100ff00), zero-filled
    vsharp:BUF[,KEY=V...]
                      a 16-byte buffer resource (V#) over a new buffer BUF,
                      `@FILE` or `zero:N`; keys: stride=N (bytes, default 0:
                      raw), records=N (default: the size, or size / stride),
                      format=DFMT:NFMT (16_16_16_16:float; default 32:uint),
                      dst_sel=SSSS (each of 0 1 r g b a; default rgba), tid
                      (TID_ENABLE), swizzle=ES:IS (element size 2/4/8/16,
                      index stride 8/16/32/64)

  Buffers (`.arg` type global or constant; the kernel gets the address):
    @FILE             a buffer holding FILE's bytes
    zero:N            a buffer of N zero bytes
    TYPE[]:V[,V...]   a buffer holding the values, little-endian, in order
                      (f32[]:1,2.5,3  u32[]:0x10,7  i8[]:-1,2); TYPE as above;
                      decimal (floats: any Rust float text, 1e-3, inf, nan)
                      in the type's range, or `0x...`, the bit pattern

  Local memory (`.arg` type local):
    local:N           N bytes of local memory (the kernel gets their offset)

  Images (`.arg` type image2d_rdonly, image2d_wronly, image3d_*):
    image:KEY=V,...[,data=FILE]
                      a device image and its T#: type=2d|3d|..., format=DFMT
                      (8_8_8_8, 32, ...), num=NFMT (unorm, float, ...),
                      size=WxH[xD], levels=N, and any T# field by name (see
                      gcn_runtime::descriptor::spec); its levels' bytes from
                      FILE in the linear layout, else zeros
                      (image:type=2d,format=8_8_8_8,num=unorm,size=64x64)

  Samplers (`.arg` type sampler):
    sampler:KEY=V,... an S#, fields by name
                      (sampler:clamp=mirror,xy_filter=bilinear)

Code objects (AMDHSA): one ARG per explicit argument of the metadata: a
pointer (global_buffer) takes @FILE, zero:N or TYPE[]:, a __local pointer
(dynamic_shared_pointer) local:N, a value (by_value) the by-value forms; the
hidden arguments are the runtime's. --lds BYTES adds dynamic LDS per
work-group; the kernel's printf output goes to standard output (OpenCL C:
after the run; HIP: as each call ends).

Output:
  --out N=FILE        writes ARG N's buffer (@FILE, zero:N, TYPE[]:, vsharp:)
                      or image (every level, linear layout) after the run
  --print N[:TYPE]    prints it on standard output, eight values a line:
                      `ARG N 'NAME' as TYPE, COUNT values:` then
                      `  [INDEX] V V ...`; TYPE as above (integers in decimal,
                      floats in the shortest text that reads back to the same
                      bits) or x8 x16 x32 x64 (hex); default: the ARG's own
                      type for TYPE[]:, else x32

Trace (--trace): per instruction, the registers it wrote, with their new
values (`s4=0x10 scc=1 v3[0-63]=0x3f800000 (1.0)`; lanes that differ as
`v3={0:0x1, 1:0x2, ...}`): every register the instruction writes, even with
the value it had; the float value beside the hex where the ISA row's operand
type is a float (f16, f32, f64 pairs as `v[2:3]`, packed halves); VCC and
EXEC as one 64-bit value (`vcc=0x7`); branch targets by the source's label when gcnrun assembled the source (`.L<offset>`
otherwise).

Exit status: 0 success, 1 run or file error (and check errors), 2 usage error.";

/// `--timeout SECONDS`: a positive number of seconds.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 1e9) {
        return Err(format!("`{text}`: the time limit must be positive"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// Why gcnrun stops: a usage error (exit 2) or a run/file error (exit 1).
enum Failure {
    Usage(String),
    Run(String),
}

/// The device a GalliumCompute binary runs on without `-g`/`-A` (a binary
/// does not record one): gcnasm's default.
const DEFAULT_DEVICE: Device = Device::CapeVerde;

fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage(message.into())
}

fn run_error(message: impl Into<String>) -> Failure {
    Failure::Run(message.into())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // The contract's prefix for usage errors too (clap's own text
            // starts with `error: `).
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            eprintln!("gcnrun: error: {}", text.trim_end());
            return ExitCode::from(2);
        }
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("gcnrun: error: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Run(m)) => {
            eprintln!("gcnrun: error: {m}");
            ExitCode::from(1)
        }
    }
}

/// A user argument, as the command line gives it.
enum Value {
    /// By value: the bytes, zero-filled to the `.arg`'s size.
    Scalar(Vec<u8>),
    /// A buffer holding a file's bytes.
    File(PathBuf),
    /// A buffer of zero bytes.
    Zero(u64),
    /// A buffer holding typed values (`TYPE[]:V,…`): their bytes, and the
    /// type (`--print`'s default).
    Data(Vec<u8>, Elem),
    /// Local memory.
    Local(u32),
    /// A device image and the file with its levels' bytes.
    Image(gcn_runtime::descriptor::ImageResource, Option<PathBuf>),
    /// A sampler.
    Sampler(gcn_runtime::descriptor::SamplerResource),
    /// A buffer (`File` or `Zero`) and the V# over it that the argument
    /// passes.
    VSharp(Box<Value>, VSharp),
}

impl Value {
    /// True for the arguments with device memory the run can write and
    /// `--out`/`--print` can read back: buffers and images.
    fn has_contents(&self) -> bool {
        matches!(
            self,
            Value::File(_)
                | Value::Zero(_)
                | Value::Data(..)
                | Value::VSharp(..)
                | Value::Image(..)
        )
    }
}

/// The fields of a `vsharp:` argument.
#[derive(Debug, Clone, Default)]
struct VSharp {
    stride: u64,
    records: Option<u64>,
    format: Option<(DataFormat, NumFormat)>,
    dst_sel: Option<[DstSel; 4]>,
    tid: bool,
    swizzle: Option<(ElementSize, IndexStride)>,
}

impl VSharp {
    /// The resource over `bytes` bytes at `base`.
    fn build(&self, base: u64, bytes: u64) -> Result<BufferResource, ResourceError> {
        // Stride 0 (raw): records are bytes.
        let records = self
            .records
            .unwrap_or(bytes.checked_div(self.stride).unwrap_or(bytes));
        let mut b = BufferResource::builder()
            .base(base)
            .stride(self.stride)
            .num_records(records)
            .tid_enable(self.tid);
        if let Some((d, n)) = self.format {
            b = b.format(d, n);
        }
        if let Some(sel) = self.dst_sel {
            b = b.dst_sel(sel);
        }
        if let Some((es, is)) = self.swizzle {
            b = b.swizzle_enable(true).element_size(es).index_stride(is);
        }
        b.build()
    }
}

/// `vsharp:BUF[,KEY=V…]`.
fn parse_vsharp(text: &str) -> Result<Value, String> {
    let mut parts = text.split(',');
    let buf = parts.next().unwrap_or("");
    let buffer = if let Some(file) = buf.strip_prefix('@') {
        if file.is_empty() {
            return Err("`@` needs a file name".into());
        }
        Value::File(PathBuf::from(file))
    } else if let Some(n) = buf.strip_prefix("zero:") {
        Value::Zero(parse_count(n).ok_or_else(|| format!("`{n}` is not a byte count"))?)
    } else {
        return Err(format!(
            "`vsharp:` needs the buffer first (`@FILE` or `zero:N`), not `{buf}`"
        ));
    };
    let mut v = VSharp::default();
    for part in parts {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let number =
            || parse_count(value).ok_or_else(|| format!("`{part}`: `{value}` is not a number"));
        match key.trim() {
            "stride" => v.stride = number()?,
            "records" => v.records = Some(number()?),
            "tid" if value.is_empty() => v.tid = true,
            "format" => {
                let (d, n) = value
                    .split_once(':')
                    .ok_or_else(|| format!("`{part}`: expected format=DFMT:NFMT"))?;
                let d = d.to_ascii_lowercase();
                let d = d.strip_prefix("buf_data_format_").unwrap_or(&d);
                let n = n.to_ascii_lowercase();
                let n = n.strip_prefix("buf_num_format_").unwrap_or(&n);
                let data = (1..15)
                    .filter_map(DataFormat::from_code)
                    .find(|f| f.name() == d)
                    .ok_or_else(|| format!("`{part}`: unknown data format `{d}` (8, 16, 8_8, 32, 16_16, 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10, 8_8_8_8, 32_32, 16_16_16_16, 32_32_32, 32_32_32_32)"))?;
                let num = NumFormat::ALL[..8]
                    .iter()
                    .copied()
                    .find(|f| f.name() == n)
                    .ok_or_else(|| format!("`{part}`: unknown number format `{n}` (unorm, snorm, uscaled, sscaled, uint, sint, snorm_ogl, float)"))?;
                v.format = Some((data, num));
            }
            "dst_sel" => {
                let sel: Vec<DstSel> = value
                    .chars()
                    .map(|c| match c.to_ascii_lowercase() {
                        '0' => Some(DstSel::Zero),
                        '1' => Some(DstSel::One),
                        'r' | 'x' => Some(DstSel::X),
                        'g' | 'y' => Some(DstSel::Y),
                        'b' | 'z' => Some(DstSel::Z),
                        'a' | 'w' => Some(DstSel::W),
                        _ => None,
                    })
                    .collect::<Option<_>>()
                    .filter(|s: &Vec<DstSel>| s.len() == 4)
                    .ok_or_else(|| format!("`{part}`: expected four of 0 1 r g b a"))?;
                v.dst_sel = Some([sel[0], sel[1], sel[2], sel[3]]);
            }
            "swizzle" => {
                let (es, is) = value
                    .split_once(':')
                    .and_then(|(e, i)| Some((parse_count(e)?, parse_count(i)?)))
                    .ok_or_else(|| format!("`{part}`: expected swizzle=ES:IS"))?;
                let es = match es {
                    2 => ElementSize::B2,
                    4 => ElementSize::B4,
                    8 => ElementSize::B8,
                    16 => ElementSize::B16,
                    _ => return Err(format!("`{part}`: the element size is 2, 4, 8 or 16")),
                };
                let is = match is {
                    8 => IndexStride::S8,
                    16 => IndexStride::S16,
                    32 => IndexStride::S32,
                    64 => IndexStride::S64,
                    _ => return Err(format!("`{part}`: the index stride is 8, 16, 32 or 64")),
                };
                v.swizzle = Some((es, is));
            }
            _ => {
                return Err(format!(
                    "unknown `vsharp:` key `{part}` (stride=, records=, format=, dst_sel=, tid, swizzle=)"
                ))
            }
        }
    }
    // Field ranges are checked now, the size-derived ones at allocation.
    v.build(0, 0).map_err(|e| e.to_string())?;
    Ok(Value::VSharp(Box::new(buffer), v))
}

/// One argument the caller supplies, with what the usage message shows.
struct UserArg {
    /// Its index among all `.arg`s.
    index: usize,
    name: String,
    record: gallium::KernelArg,
    declaration: String,
}

fn run(cli: &Cli) -> Result<(), Failure> {
    let selected = cli.target.selected().map_err(usage)?;
    let requested: Option<GcnVersion> = match selected {
        Selected::Device(d) => Some(d.version()),
        Selected::Arch(v) => Some(v),
        Selected::Default => None,
    };
    let path = &cli.binary;
    let bytes = std::fs::read(path).map_err(|e| run_error(format!("{}: {e}", path.display())))?;
    let memory = Memory::default();
    let (program, decls, labels) = load(&memory, path, &bytes, &cli.target, requested)?;
    let signature_of = |kernel: &ProgramKernel| {
        let decl = decls.iter().find(|d| d.name == kernel.name);
        signature(kernel, &user_args(kernel, decl))
    };
    let Some(kernel_name) = &cli.kernel else {
        print!(
            "{}",
            listing(path, &program, requested, &decls, &signature_of)
        );
        return Ok(());
    };
    let kernel = program.kernel(kernel_name).map_err(|e| {
        let mut m = e.to_string();
        for k in program.kernels() {
            m.push('\n');
            m.push_str(&signature_of(k));
        }
        usage(m)
    })?;
    let decl = decls.iter().find(|d| d.name == kernel.name);
    let user = user_args(kernel, decl);
    let signature = signature(kernel, &user);

    // Everything the command line says is checked before any file is read.
    if cli.args.len() != user.len() {
        return Err(usage(format!(
            "kernel '{}' takes {} argument{} but {} {} given\n{signature}",
            kernel.name,
            user.len(),
            if user.len() == 1 { "" } else { "s" },
            cli.args.len(),
            if cli.args.len() == 1 { "was" } else { "were" },
        )));
    }
    let values = cli
        .args
        .iter()
        .zip(&user)
        .enumerate()
        .map(|(i, (text, arg))| {
            parse_arg(text, arg).map_err(|m| {
                usage(format!(
                    "ARG {i} (`{text}`) for argument '{}': {m}\n{signature}",
                    arg.name
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let dispatch = parse_dispatch(cli)?;
    let mut outs = Vec::new();
    for spec in &cli.out {
        let (n, file) = spec
            .split_once('=')
            .filter(|(_, f)| !f.is_empty())
            .ok_or_else(|| usage(format!("--out {spec}: expected N=FILE")))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| usage(format!("--out {spec}: `{n}` is not an argument number")))?;
        match values.get(n) {
            Some(v) if v.has_contents() => outs.push((n, PathBuf::from(file))),
            Some(_) => {
                return Err(usage(format!(
                    "--out {spec}: ARG {n} (`{}`) is not a buffer (@FILE, zero:N, TYPE[]: or vsharp:) or an image\n{signature}",
                    cli.args[n]
                )))
            }
            None => {
                return Err(usage(format!(
                    "--out {spec}: there is no ARG {n} (the kernel takes {})\n{signature}",
                    values.len()
                )))
            }
        }
    }

    let prints = cli
        .print
        .iter()
        .map(|spec| parse_print(spec, &values, &cli.args, &signature))
        .collect::<Result<Vec<_>, _>>()?;

    // Device memory for the buffers, then the values the launch takes.
    let mut buffers: Vec<Option<Buffer<u8>>> = Vec::with_capacity(values.len());
    let mut images: Vec<Option<DeviceImage>> = Vec::with_capacity(values.len());
    let mut launch_values = Vec::with_capacity(values.len());
    for value in &values {
        images.push(None);
        let (buffer, v) = match value {
            Value::Image(t, data) => {
                let img =
                    DeviceImage::new(&memory, *t).map_err(|e| run_error(format!("image: {e}")))?;
                if let Some(file) = data {
                    let bytes = std::fs::read(file)
                        .map_err(|e| run_error(format!("{}: {e}", file.display())))?;
                    img.write_all(&bytes)
                        .map_err(|e| run_error(format!("{}: {e}", file.display())))?;
                }
                let arg = ArgValue::Image(Image::from_device(&img));
                if let Some(last) = images.last_mut() {
                    *last = Some(img);
                }
                (None, arg)
            }
            Value::Sampler(s) => (
                None,
                ArgValue::Sampler(Sampler::new(s).map_err(|e| usage(e.to_string()))?),
            ),
            Value::Scalar(b) => (None, ArgValue::Scalar(b.clone())),
            Value::Local(n) => (None, ArgValue::Local(LocalMemory(*n))),
            Value::File(_) | Value::Zero(_) | Value::Data(..) => {
                let b = allocate(&memory, value)?;
                let p = b.ptr();
                (Some(b), ArgValue::Pointer(p))
            }
            Value::VSharp(buffer, spec) => {
                let b = allocate(&memory, buffer)?;
                let v = spec
                    .build(b.ptr().0, b.byte_len())
                    .map_err(|e| run_error(format!("vsharp: {e}")))?;
                (Some(b), ArgValue::Scalar(v.to_bytes().to_vec()))
            }
        };
        buffers.push(buffer);
        launch_values.push(v);
    }

    let mut checks = CheckOptions::default();
    for spec in &cli.check {
        checks
            .apply(spec)
            .map_err(|e| usage(format!("--check {e}")))?;
    }
    let options = LaunchOptions {
        max_steps: cli.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
        threads: cli.threads.map(|t| t as usize).or(cli.trace.then_some(1)),
        checks,
        timeout: cli.timeout,
        tier: cli.tier.unwrap_or_default(),
    };
    let filter = TraceFilter {
        group: match &cli.trace_group {
            Some(text) => {
                let v = parse_sizes("--trace-group", text, 0)?;
                Some([0, 1, 2].map(|i| v.get(i).copied().unwrap_or(0)))
            }
            None => None,
        },
        wave: cli.trace_wave,
    };
    let stdout = std::sync::Mutex::new(std::io::stdout());
    let sink = |r: &TraceRecord| {
        use std::io::Write as _;
        let mut out = stdout.lock().unwrap_or_else(|e| e.into_inner());
        if labels.is_empty() {
            let _ = writeln!(out, "{r}");
        } else {
            let mut r = r.clone();
            r.instruction = with_labels(&r.instruction, &labels);
            let _ = writeln!(out, "{r}");
        }
    };
    let mut launcher = program
        .launcher(LaunchArgs::new(&kernel.name, &launch_values), &dispatch)
        .options(&options)
        .profile(cli.profile);
    if cli.trace {
        launcher = launcher.trace(filter, &sink);
    }
    // A GalliumCompute binary does not record its GPU: run without -g/-A
    // it is decoded for gcnrun's default, and a fault says so.
    let guessed = requested.is_none() && !program.is_code_object() && decls.is_empty();
    let outcome = launcher.reports().map_err(|e| match e {
        // The values were checked against the table above; should the
        // writer still refuse one, it is the caller's argument.
        LaunchError::Args(ArgError::BadDispatch(_)) => run_error(e.to_string()),
        LaunchError::Args(_) | LaunchError::Load(_) => usage(format!("{e}\n{signature}")),
        LaunchError::Exec(_) if guessed => run_error(format!(
            "{e}\nnote: {} is a GalliumCompute binary, which does not record its GPU: it ran as \
             {} ({}), gcnrun's default; give the GPU it was built for with -g DEVICE (e.g. -g \
             tonga, -g gfx900)",
            path.display(),
            DEFAULT_DEVICE.name(),
            DEFAULT_DEVICE.version()
        )),
        _ => run_error(e.to_string()),
    })?;
    let (stats, reports) = (outcome.stats, outcome.reports);
    if let Some(profile) = &outcome.profile {
        print!("{profile}");
    }

    for (n, file) in &outs {
        let bytes = match (buffers.get(*n), images.get(*n)) {
            (Some(Some(b)), _) => b.to_bytes(),
            (_, Some(Some(img))) => img.read_all(),
            _ => continue,
        };
        std::fs::write(file, bytes).map_err(|e| run_error(format!("{}: {e}", file.display())))?;
    }
    for p in &prints {
        let bytes = match (buffers.get(p.arg), images.get(p.arg)) {
            (Some(Some(b)), _) => b.to_bytes(),
            (_, Some(Some(img))) => img.read_all(),
            _ => continue,
        };
        let elem = p.elem.unwrap_or(match &values[p.arg] {
            Value::Data(_, elem) => *elem,
            _ => Elem::Hex { bytes: 4 },
        });
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(print_text(p.arg, &user[p.arg].name, elem, &bytes).as_bytes());
    }
    for r in &reports {
        // With a line table the report starts with its `FILE:LINE:COL`.
        if r.location.is_some() {
            eprintln!("{r}");
        } else {
            eprintln!("{}: {r}", cli.binary.display());
        }
    }
    let errors = reports.iter().filter(|r| r.level == Level::Error).count();
    if errors > 0 {
        return Err(run_error(format!(
            "{errors} check error{} (--check NAME=warn or NAME=off to go on)",
            if errors == 1 { "" } else { "s" }
        )));
    }
    let secs = stats.elapsed.as_secs_f64();
    eprintln!(
        "gcnrun: {} on {}: {} work-group{}, {} wave{}, {} instructions, {} lane-ops in {:.3} s ({})",
        kernel.name,
        program.version(),
        stats.work_groups,
        if stats.work_groups == 1 { "" } else { "s" },
        stats.waves,
        if stats.waves == 1 { "" } else { "s" },
        stats.instructions,
        stats.lane_ops,
        secs,
        rate(stats.lane_ops_per_second()),
    );
    let tier = stats.tier;
    if tier.steps_compiled > 0 || tier.blocks_compiled > 0 {
        eprintln!(
            "gcnrun: compiled tier: {} block{} ({} instructions) translated in {:.3} s; {:.1}% of the instructions ran compiled",
            tier.blocks_compiled,
            if tier.blocks_compiled == 1 { "" } else { "s" },
            tier.instructions_compiled,
            tier.translate_time.as_secs_f64(),
            100.0 * tier.steps_compiled as f64 / stats.instructions.max(1) as f64,
        );
    }
    Ok(())
}

/// `--tier MODE`.
fn parse_tier(text: &str) -> Result<TierMode, String> {
    match text {
        "off" => Ok(TierMode::Off),
        "hot" => Ok(TierMode::Hot),
        "eager" => Ok(TierMode::Eager),
        _ => Err(format!("`{text}` is not a tier mode (off, hot or eager)")),
    }
}

/// `1.23 G lane-ops/s`.
fn rate(per_second: f64) -> String {
    let (value, unit) = if per_second >= 1e9 {
        (per_second / 1e9, "G")
    } else if per_second >= 1e6 {
        (per_second / 1e6, "M")
    } else if per_second >= 1e3 {
        (per_second / 1e3, "k")
    } else {
        (per_second, "")
    };
    format!(
        "{value:.2} {unit}{}lane-ops/s",
        if unit.is_empty() { "" } else { " " }
    )
}

/// Reads BINARY: a GalliumCompute binary, or CLRX source assembled as
/// `gcnasm` would. Returns the program and, for source, the kernels'
/// declarations (argument names) and the named labels of `.text` (which
/// the trace shows for branch targets).
fn load(
    memory: &Memory,
    path: &Path,
    bytes: &[u8],
    target: &TargetArgs,
    requested: Option<GcnVersion>,
) -> Result<(Program, Vec<KernelDecl>, TextLabels), Failure> {
    let shown = path.display();
    // A clang offload bundle (hipcc --genco, --cuda-device-only -c): the
    // code object of the entry for -g's processor, else of the only GPU
    // entry. Naming no entry (or none that is there) is a usage error; a
    // damaged bundle a run error.
    let entry = if gcn_asm::bundle::is_bundle(bytes) {
        use gcn_asm::bundle::BundleError;
        let bundle =
            gcn_asm::bundle::read(bytes).map_err(|e| run_error(format!("{shown}: {e}")))?;
        let entry = bundle
            .select(target.device.as_deref())
            .map_err(|e| match e {
                BundleError::NoSuchTarget { .. } | BundleError::Ambiguous { .. } => {
                    usage(format!("{shown}: {e}"))
                }
                e => run_error(format!("{shown}: {e}")),
            })?;
        Some(entry.clone())
    } else {
        None
    };
    let (bytes, shown) = match &entry {
        Some(entry) => {
            let shown = format!("{shown} (entry {})", entry.id);
            if !gcn_asm::rocm::is_code_object(&entry.data) {
                return Err(run_error(format!(
                    "{shown}: the entry is not an AMDHSA code object"
                )));
            }
            (&entry.data[..], shown)
        }
        None => (bytes, shown.to_string()),
    };
    if gcn_asm::rocm::is_code_object(bytes) {
        let co = gcn_asm::rocm::read(bytes)
            .map_err(|e| run_error(format!("{shown}: bad code object: {e}")))?;
        // The processor of e_flags, unless -g/-A says otherwise.
        let version = requested.unwrap_or(co.processor.version);
        if version != co.processor.version {
            eprintln!(
                "gcnrun: warning: {shown} is compiled for {} ({}) but runs on {version} (-g/-A)",
                co.processor.name, co.processor.version
            );
        }
        let program = Program::from_code_object(memory, &co, version)
            .map_err(|e| run_error(format!("{shown}: {e}")))?;
        return Ok((program, Vec::new(), Vec::new()));
    }
    let binary_error = match gallium::read(bytes) {
        Ok(binary) => {
            // A binary does not record its device: -g/-A, else gcnasm's
            // default device.
            let version = requested.unwrap_or(DEFAULT_DEVICE.version());
            let program = Program::from_binary(memory, &binary, version)
                .map_err(|e| run_error(format!("{shown}: {e}")))?;
            return Ok((program, Vec::new(), Vec::new()));
        }
        Err(e) => e.message,
    };
    // Not a binary. Text is source; anything else is a binary the reader
    // refused (source never holds NUL bytes).
    if bytes.contains(&0) || bytes.starts_with(b"\x7fELF") {
        return Err(run_error(format!(
            "{shown}: not a GalliumCompute binary: {binary_error}"
        )));
    }
    let source = String::from_utf8_lossy(bytes);
    let mut options = AssembleOptions {
        file_name: shown.to_string(),
        // Reports and trace lines cite the source's lines.
        line_table: true,
        ..AssembleOptions::default()
    };
    match target.selected() {
        Ok(Selected::Device(d)) => options.device = Some(d),
        Ok(Selected::Arch(v)) => options.version = Some(v),
        _ => {}
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        options.include_dirs.push(dir.to_path_buf());
    }
    let assembly = match assemble(&source, &options) {
        Ok(a) => a,
        Err(diagnostics) => {
            let mut text = String::new();
            for d in &diagnostics.0 {
                let _ = writeln!(text, "{d}");
            }
            eprint!("{text}");
            return Err(run_error(format!("{shown}: the source does not assemble")));
        }
    };
    for w in &assembly.warnings {
        eprintln!("{w}");
    }
    let binary = assembly
        .gallium_bytes()
        .map_err(|e| run_error(format!("{shown}: {e}")))?;
    // The source's `.gpu`/`.arch` picks the version unless -g/-A does.
    let version = requested.unwrap_or(assembly.version);
    if version != assembly.version {
        eprintln!(
            "gcnrun: warning: {shown} is assembled for {} (its .gpu/.arch) but runs on {version} (-g/-A)",
            assembly.version
        );
    }
    let mut program = Program::load(memory, &binary, version).map_err(|e| match e {
        LoadError::Gallium(m) => run_error(format!("{shown}: {m}")),
        e => run_error(format!("{shown}: {e}")),
    })?;
    program.set_line_table(LineTable::from_assembly(&assembly.line_table));
    Ok((program, assembly.gallium_decls, assembly.text_labels))
}

/// The device buffer of a `@FILE` or `zero:N` value.
fn allocate(memory: &Memory, value: &Value) -> Result<Buffer<u8>, Failure> {
    match value {
        Value::File(file) => {
            let data =
                std::fs::read(file).map_err(|e| run_error(format!("{}: {e}", file.display())))?;
            memory
                .buffer_from_slice(&data)
                .map_err(|e| run_error(format!("{}: {e}", file.display())))
        }
        Value::Data(data, _) => memory
            .buffer_from_slice(data)
            .map_err(|e| run_error(format!("typed buffer: {e}"))),
        Value::Zero(n) => {
            let len = usize::try_from(*n)
                .map_err(|_| run_error(format!("zero:{n}: too large for this host")))?;
            memory
                .buffer_zeroed::<u8>(len)
                .map_err(|e| run_error(format!("zero:{n}: {e}")))
        }
        _ => Err(run_error("not a buffer")),
    }
}

/// The arguments the caller supplies, with names from the source when it
/// was source (`argN`, N the index among all `.arg`s, otherwise).
fn user_args(kernel: &ProgramKernel, decl: Option<&KernelDecl>) -> Vec<UserArg> {
    kernel
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| a.record.semantic == ArgSemantic::General)
        .map(|(i, a)| {
            let d = decl.and_then(|d| d.args.get(i));
            // A code object's metadata names and types its arguments.
            let meta = kernel
                .code_object
                .as_ref()
                .and_then(|k| k.args.iter().filter(|m| !m.value_kind.is_hidden()).nth(i));
            UserArg {
                index: i,
                name: d
                    .and_then(|d| d.name.clone())
                    .or_else(|| meta.and_then(|m| m.name.clone()))
                    .unwrap_or_else(|| a.name.to_string()),
                record: a.record,
                declaration: match (d, meta) {
                    (Some(d), _) => d.declaration.clone(),
                    (None, Some(m)) => format!(
                        "{} ({}, {} bytes)",
                        m.type_name.as_deref().unwrap_or("?"),
                        m.value_kind.v3_name().unwrap_or("?"),
                        m.size
                    ),
                    (None, None) => String::new(),
                },
            }
        })
        .collect()
}

/// The `.arg` form of a record.
fn arg_text(r: &gallium::KernelArg) -> String {
    format!(
        "{}, {}, {}, {}, {}, {}",
        r.ty.name(),
        r.size,
        r.target_size,
        r.target_align,
        if r.sign_extended { "sext" } else { "zext" },
        r.semantic.name()
    )
}

/// What ARG form an argument takes.
fn arg_form(r: &gallium::KernelArg) -> String {
    match r.ty {
        ArgType::Scalar if r.size == 16 => {
            "TYPE:V[,V...], hex:BYTES or vsharp:BUF[,...], 16 bytes".to_string()
        }
        ArgType::Scalar => format!("TYPE:V[,V...] or hex:BYTES, {} bytes", r.size),
        ArgType::Global | ArgType::Constant => "@FILE, zero:N or TYPE[]:V[,V...]".to_string(),
        ArgType::Local => "local:N".to_string(),
        ArgType::Sampler => "sampler:KEY=V,...".to_string(),
        _ => "image:type=..,format=..,num=..,size=WxH[,data=FILE]".to_string(),
    }
}

/// What `gcnrun FILE` prints: the file's kind and GPU, then each kernel
/// with its arguments (as a usage error shows them).
fn listing(
    path: &Path,
    program: &Program,
    requested: Option<GcnVersion>,
    decls: &[KernelDecl],
    signature_of: &dyn Fn(&ProgramKernel) -> String,
) -> String {
    let kind = match program.code_object_target() {
        Some((v, processor)) => {
            format!(
                "an AMDHSA code object v{v} for {processor}, run on {}",
                program.version()
            )
        }
        None if !decls.is_empty() => format!("CLRX source, assembled for {}", program.version()),
        None if requested.is_some() => {
            format!("a GalliumCompute binary, run on {}", program.version())
        }
        None => format!(
            "a GalliumCompute binary (it does not record its GPU: -g DEVICE picks it; {} by \
             default)",
            program.version()
        ),
    };
    let mut out = format!(
        "{}: {kind}; {} kernel{}\n",
        path.display(),
        program.kernels().len(),
        if program.kernels().len() == 1 {
            ""
        } else {
            "s"
        }
    );
    for k in program.kernels() {
        out.push_str(&signature_of(k));
        out.push('\n');
    }
    out
}

/// The usage message's list of the kernel's `.arg`s.
fn signature(kernel: &ProgramKernel, user: &[UserArg]) -> String {
    let mut s = format!("kernel '{}' arguments:", kernel.name);
    let mut next_user = user.iter().enumerate().peekable();
    for (i, a) in kernel.args.iter().enumerate() {
        match next_user.peek() {
            Some((n, u)) if u.index == i => {
                let decl = if u.declaration.is_empty() {
                    format!(".arg {}", arg_text(&u.record))
                } else {
                    u.declaration.clone()
                };
                let _ = write!(
                    s,
                    "\n  ARG {n}: {:<8} {decl:<40}  {}",
                    u.name,
                    arg_form(&u.record)
                );
                next_user.next();
            }
            _ => {
                let decl = format!(".arg {}", arg_text(&a.record));
                let _ = write!(s, "\n         {:<8} {decl:<40}  (set by gcnrun)", "");
            }
        }
    }
    if kernel.args.is_empty() {
        s.push_str(" none");
    }
    s
}

/// The message for an ARG without a form: a bare number for a by-value
/// argument gets the form to write (`0.5` for a 4-byte argument:
/// `f32:0.5`), anything else the list of forms.
fn bare_value_message(text: &str, r: &gallium::KernelArg) -> String {
    let number = text.parse::<f64>().is_ok() || text.starts_with("0x");
    if r.ty == ArgType::Scalar && number {
        let float = text.contains(['.', 'e', 'E']) && !text.starts_with("0x")
            || text.contains("inf")
            || text.contains("nan");
        let ty = match (r.size, float) {
            (2, true) => "f16",
            (4, true) => "f32",
            (8, true) => "f64",
            (1, _) => "i8",
            (2, _) => "i16",
            (8, _) => "i64",
            _ => "i32",
        };
        return format!(
            "`{text}` has no type: write it as `{ty}:{text}` (a by-value argument is TYPE:V, TYPE one of \
             u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64, or hex:BYTES)"
        );
    }
    "expected TYPE:V[,V...], hex:BYTES, @FILE, zero:N, TYPE[]:V[,V...], local:N, \
     image:KEY=V,..., sampler:KEY=V,... or vsharp:BUF[,...]"
        .to_string()
}

/// Parses one ARG against its `.arg`.
fn parse_arg(text: &str, arg: &UserArg) -> Result<Value, String> {
    let r = &arg.record;
    let kind = if let Some(file) = text.strip_prefix('@') {
        if file.is_empty() {
            return Err("`@` needs a file name".into());
        }
        Value::File(PathBuf::from(file))
    } else {
        let (form, rest) = text
            .split_once(':')
            .ok_or_else(|| bare_value_message(text, r))?;
        match form {
            "zero" => Value::Zero(
                parse_count(rest).ok_or_else(|| format!("`{rest}` is not a byte count"))?,
            ),
            "local" => {
                let n = parse_count(rest)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| format!("`{rest}` is not a byte count"))?;
                Value::Local(n)
            }
            "hex" => Value::Scalar(parse_hex(rest)?),
            "image" => {
                // `data=FILE` is gcnrun's; the rest is the T#.
                let mut data = None;
                let mut spec = Vec::new();
                for part in rest.split(',') {
                    match part.trim().strip_prefix("data=") {
                        Some(f) => data = Some(PathBuf::from(f.trim_start_matches('@'))),
                        None => spec.push(part),
                    }
                }
                Value::Image(parse_image(&spec.join(","))?, data)
            }
            "sampler" => Value::Sampler(parse_sampler(rest)?),
            "vsharp" => parse_vsharp(rest)?,
            form if form.ends_with("[]") => parse_typed_buffer(form, rest)
                .unwrap_or_else(|| Err(format!("`{form}:` is not a typed buffer")))?,
            ty => Value::Scalar(parse_scalar(ty, rest)?),
        }
    };
    let want = match r.ty {
        ArgType::Scalar => "a by-value argument (TYPE:V[,V...], hex:BYTES or vsharp:)",
        ArgType::Global | ArgType::Constant => "a buffer (@FILE, zero:N or TYPE[]:V[,V...])",
        ArgType::Local => "local memory (local:N)",
        ArgType::Sampler => "a sampler (sampler:KEY=V,...)",
        _ => "an image (image:KEY=V,...)",
    };
    let ok = matches!(
        (r.ty, &kind),
        (ArgType::Scalar, Value::Scalar(_) | Value::VSharp(..))
            | (
                ArgType::Global | ArgType::Constant,
                Value::File(_) | Value::Zero(_) | Value::Data(..)
            )
            | (ArgType::Local, Value::Local(_))
            | (ArgType::Sampler, Value::Sampler(_))
            | (
                ArgType::Image2dRdonly
                    | ArgType::Image2dWronly
                    | ArgType::Image3dRdonly
                    | ArgType::Image3dWronly,
                Value::Image(..)
            )
    );
    if !ok {
        return Err(format!("a {} argument takes {want}", r.ty.name()));
    }
    match kind {
        Value::VSharp(..) if r.size != 16 => {
            Err(format!("a V# is 16 bytes; this argument has {}", r.size))
        }
        Value::Scalar(mut bytes) => {
            let size = r.size as usize;
            if bytes.len() > size {
                return Err(format!(
                    "{} bytes given for a {size}-byte argument",
                    bytes.len()
                ));
            }
            bytes.resize(size, 0);
            Ok(Value::Scalar(bytes))
        }
        other => Ok(other),
    }
}

/// A byte count: decimal or `0x` hex.
fn parse_count(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

/// `hex:BYTES`: pairs of hex digits, in memory order.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.as_bytes();
    if digits.is_empty() || !digits.len().is_multiple_of(2) {
        return Err(format!(
            "`{text}` is not an even, non-zero number of hex digits"
        ));
    }
    digits
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| format!("`{text}` is not hex digits"))
        })
        .collect()
}

/// `TYPE:V[,V…]`: each value little-endian, in order.
fn parse_scalar(ty: &str, values: &str) -> Result<Vec<u8>, String> {
    let width = match ty {
        "u8" | "i8" => 1,
        "u16" | "i16" | "f16" => 2,
        "u32" | "i32" | "f32" => 4,
        "u64" | "i64" | "f64" => 8,
        _ => {
            return Err(format!(
                "unknown form `{ty}:` (types: u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64; \
                 or hex:, zero:, local:, @FILE)"
            ))
        }
    };
    let mut out = Vec::new();
    for v in values.split(',') {
        let v = v.trim();
        let bits =
            parse_value(ty, width, v).ok_or_else(|| format!("`{v}` is not a valid {ty} value"))?;
        out.extend_from_slice(&bits.to_le_bytes()[..width]);
    }
    Ok(out)
}

/// The bits of one value of type `ty` (`width` bytes).
fn parse_value(ty: &str, width: usize, v: &str) -> Option<u64> {
    let bits = 8 * width as u32;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    // `0x…` is the exact bit pattern, for every type.
    if let Some(hex) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        let b = u64::from_str_radix(hex, 16).ok()?;
        return (b & !mask == 0).then_some(b);
    }
    match ty {
        "f16" => Some(u64::from(
            half::f16::from_f64(v.parse::<f64>().ok()?).to_bits(),
        )),
        "f32" => Some(u64::from(v.parse::<f32>().ok()?.to_bits())),
        "f64" => Some(v.parse::<f64>().ok()?.to_bits()),
        _ if ty.starts_with('u') => {
            let x: u64 = v.parse().ok()?;
            (x & !mask == 0).then_some(x)
        }
        _ => {
            let x: i64 = v.parse().ok()?;
            let min = -(1i128 << (bits - 1));
            let max = (1i128 << (bits - 1)) - 1;
            (min..=max)
                .contains(&i128::from(x))
                .then_some(x as u64 & mask)
        }
    }
}

/// `X[,Y[,Z]]`: 1 to 3 numbers.
fn parse_sizes(option: &str, text: &str, min: u32) -> Result<Vec<u32>, Failure> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(usage(format!("{option} {text}: expected X[,Y[,Z]]")));
    }
    parts
        .iter()
        .map(|p| {
            parse_count(p)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n >= min)
                .ok_or_else(|| {
                    usage(format!(
                        "{option} {text}: `{p}` is not {}",
                        if min > 0 {
                            "a size (1 or more)"
                        } else {
                            "a number"
                        }
                    ))
                })
        })
        .collect()
}

/// The dispatch from --global, --local and --offset.
fn parse_dispatch(cli: &Cli) -> Result<Dispatch, Failure> {
    let global_text = cli.global.as_deref().ok_or_else(|| {
        usage("the following required arguments were not provided:\n  --global <X[,Y[,Z]]>")
    })?;
    let global = parse_sizes("--global", global_text, 1)?;
    let dims = global.len();
    let mut g = [1u32; 3];
    g[..dims].copy_from_slice(&global);
    let mut l = [1u32; 3];
    match &cli.local {
        Some(text) => {
            let local = parse_sizes("--local", text, 1)?;
            if local.len() > dims {
                return Err(usage(format!(
                    "--local {text}: {} dimensions for a {dims}-dimensional --global",
                    local.len()
                )));
            }
            l[..local.len()].copy_from_slice(&local);
        }
        // The largest divisor of the x size that fits in one wave.
        None => {
            l[0] = (1..=64.min(g[0]))
                .rev()
                .find(|d| g[0] % d == 0)
                .unwrap_or(1)
        }
    }
    let mut o = [0u32; 3];
    if let Some(text) = &cli.offset {
        let offset = parse_sizes("--offset", text, 0)?;
        if offset.len() > dims {
            return Err(usage(format!(
                "--offset {text}: {} dimensions for a {dims}-dimensional --global",
                offset.len()
            )));
        }
        o[..offset.len()].copy_from_slice(&offset);
    }
    Ok(Dispatch::new(dims as u32, g, l)
        .with_offset(o)
        .with_dynamic_lds(cli.lds))
}

/// The named labels of `.text` by offset ([`gcn_asm::Assembly::text_labels`]).
type TextLabels = Vec<(u32, String)>;

/// An element type of a typed buffer (`TYPE[]:V,…`) or of `--print`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elem {
    /// An integer of `bytes` bytes, signed or not.
    Int { bytes: usize, signed: bool },
    /// An IEEE float of 2, 4 or 8 bytes.
    Float { bytes: usize },
    /// `--print` only: the bits in hex, `bytes` bytes a value.
    Hex { bytes: usize },
}

impl Elem {
    /// The element types of typed buffers.
    const TYPES: &'static str = "u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64";

    /// A type name: `u8` … `f64`, and with `hex` the `x8` … `x64` of
    /// `--print`.
    fn parse(name: &str, hex: bool) -> Option<Elem> {
        // The first character (any, so that `é8` is an unknown type, not a
        // split inside a character), then the width.
        let kind = name.chars().next()?;
        let bits = &name[kind.len_utf8()..];
        let bytes = match bits {
            "8" => 1,
            "16" => 2,
            "32" => 4,
            "64" => 8,
            _ => return None,
        };
        match kind {
            'u' => Some(Elem::Int {
                bytes,
                signed: false,
            }),
            'i' => Some(Elem::Int {
                bytes,
                signed: true,
            }),
            'f' if bytes >= 2 => Some(Elem::Float { bytes }),
            'x' if hex => Some(Elem::Hex { bytes }),
            _ => None,
        }
    }

    fn bytes(self) -> usize {
        match self {
            Elem::Int { bytes, .. } | Elem::Float { bytes } | Elem::Hex { bytes } => bytes,
        }
    }

    fn name(self) -> String {
        match self {
            Elem::Int { bytes, signed } => {
                format!("{}{}", if signed { 'i' } else { 'u' }, 8 * bytes)
            }
            Elem::Float { bytes } => format!("f{}", 8 * bytes),
            Elem::Hex { bytes } => format!("x{}", 8 * bytes),
        }
    }

    /// The bits of one value, or why it is not one: a decimal (or, for the
    /// floats, any Rust float literal: `1e-3`, `inf`, `nan`) in the type's
    /// range, or `0x…`, the bit pattern.
    fn bits(self, v: &str) -> Result<u64, String> {
        let ty = self.name();
        let width = 8 * self.bytes() as u32;
        let mask = if width == 64 {
            u64::MAX
        } else {
            (1 << width) - 1
        };
        if v.is_empty() {
            return Err("empty value".into());
        }
        if let Some(hex) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            let b = u64::from_str_radix(hex, 16)
                .map_err(|_| format!("`{v}` is not a hex bit pattern"))?;
            if b & !mask != 0 {
                return Err(format!("`{v}` has more than {width} bits"));
            }
            return Ok(b);
        }
        match self {
            Elem::Float { bytes } => {
                let x: f64 = v
                    .parse()
                    .map_err(|_| format!("`{v}` is not a number (for {ty})"))?;
                let bits = match bytes {
                    2 => u64::from(half::f16::from_f64(x).to_bits()),
                    4 => u64::from((x as f32).to_bits()),
                    _ => x.to_bits(),
                };
                // A finite number too large for the type is an error, not
                // an infinity.
                let back = match bytes {
                    2 => half::f16::from_bits(bits as u16).to_f64(),
                    4 => f64::from(f32::from_bits(bits as u32)),
                    _ => f64::from_bits(bits),
                };
                if x.is_finite() && back.is_infinite() {
                    return Err(format!("`{v}` is out of range for {ty}"));
                }
                // f32 from the decimal text directly (f64 then f32 could
                // round twice).
                if bytes == 4 {
                    if let Ok(f) = v.parse::<f32>() {
                        return Ok(u64::from(f.to_bits()));
                    }
                }
                Ok(bits)
            }
            Elem::Int { signed: false, .. } | Elem::Hex { .. } => {
                let x: u64 = v.parse().map_err(|_| {
                    if v.starts_with('-') {
                        format!("`{v}` is negative (for {ty})")
                    } else {
                        format!("`{v}` is not a number (for {ty})")
                    }
                })?;
                if x & !mask != 0 {
                    return Err(format!("`{v}` is out of range for {ty} (0..={mask})"));
                }
                Ok(x)
            }
            Elem::Int { signed: true, .. } => {
                let x: i128 = v
                    .parse()
                    .map_err(|_| format!("`{v}` is not a number (for {ty})"))?;
                let min = -(1i128 << (width - 1));
                let max = (1i128 << (width - 1)) - 1;
                if !(min..=max).contains(&x) {
                    return Err(format!("`{v}` is out of range for {ty} ({min}..={max})"));
                }
                Ok(x as u64 & mask)
            }
        }
    }

    /// One value of `bytes` (little-endian) as text: integers in decimal,
    /// floats in the shortest form that reads back to the same bits
    /// (`1.0`, `0.1`, `1e-7`, `NaN`, `inf`), `x…` as `0x` hex.
    fn show(self, bytes: &[u8]) -> String {
        let mut raw = [0u8; 8];
        raw[..bytes.len()].copy_from_slice(bytes);
        let bits = u64::from_le_bytes(raw);
        match self {
            Elem::Int { signed: false, .. } => bits.to_string(),
            Elem::Int {
                bytes: n,
                signed: true,
            } => {
                let shift = 64 - 8 * n as u32;
                (((bits << shift) as i64) >> shift).to_string()
            }
            Elem::Float { bytes: 2 } => float_text(f64::from(half::f16::from_bits(bits as u16))),
            Elem::Float { bytes: 4 } => format!("{:?}", f32::from_bits(bits as u32)),
            Elem::Float { .. } => format!("{:?}", f64::from_bits(bits)),
            Elem::Hex { bytes: n } => format!("{bits:#0w$x}", w = 2 + 2 * n),
        }
    }
}

/// An f16 value (exact in f64) in the shortest decimal that reads back to
/// the same half: the fewest significant digits that round-trip.
fn float_text(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x:?}");
    }
    let h = half::f16::from_f64(x);
    for digits in 1..=17 {
        let text = format!("{x:.*e}", digits - 1);
        if let Ok(y) = text.parse::<f64>() {
            if half::f16::from_f64(y) == h {
                // As Rust prints floats: `0.1`, `1.0`, `65504.0`, `6e-8`.
                return format!("{:?}", y);
            }
        }
    }
    format!("{x:?}")
}

/// `TYPE[]:V,…`: a buffer holding the values, little-endian, in order.
/// `None` when `form` is not `TYPE[]`.
fn parse_typed_buffer(form: &str, values: &str) -> Option<Result<Value, String>> {
    let ty = form.strip_suffix("[]")?;
    let Some(elem) = Elem::parse(ty, false) else {
        return Some(Err(format!(
            "unknown element type `{ty}` in `{form}:` (types: {})",
            Elem::TYPES
        )));
    };
    if values.trim().is_empty() {
        return Some(Err(format!(
            "`{form}:` lists no values (zero:0 is an empty buffer)"
        )));
    }
    let mut data = Vec::new();
    for (i, v) in values.split(',').enumerate() {
        match elem.bits(v.trim()) {
            Ok(bits) => data.extend_from_slice(&bits.to_le_bytes()[..elem.bytes()]),
            Err(why) => return Some(Err(format!("element {i}: {why}"))),
        }
    }
    Some(Ok(Value::Data(data, elem)))
}

/// One `--print N[:TYPE]`: the ARG and how to show it.
struct PrintSpec {
    arg: usize,
    /// `None`: the ARG's own type (`TYPE[]:`), else `x32`.
    elem: Option<Elem>,
}

/// Parses `--print N[:TYPE]` against the ARG values.
fn parse_print(
    spec: &str,
    values: &[Value],
    args: &[String],
    signature: &str,
) -> Result<PrintSpec, Failure> {
    let (n, ty) = match spec.split_once(':') {
        Some((n, ty)) => (n, Some(ty)),
        None => (spec, None),
    };
    let arg: usize = n
        .trim()
        .parse()
        .map_err(|_| usage(format!("--print {spec}: `{n}` is not an argument number")))?;
    let elem = match ty {
        None => None,
        Some(ty) => Some(Elem::parse(ty.trim(), true).ok_or_else(|| {
            usage(format!(
                "--print {spec}: unknown type `{ty}` (types: {} x8 x16 x32 x64)",
                Elem::TYPES
            ))
        })?),
    };
    match values.get(arg) {
        Some(v) if v.has_contents() => Ok(PrintSpec { arg, elem }),
        Some(_) => Err(usage(format!(
            "--print {spec}: ARG {arg} (`{}`) is not a buffer or an image\n{signature}",
            args[arg]
        ))),
        None => Err(usage(format!(
            "--print {spec}: there is no ARG {arg} (the kernel takes {})\n{signature}",
            values.len()
        ))),
    }
}

/// The text `--print` writes for `bytes`, the contents of ARG `arg`: a
/// header line, then the values eight a line, each line led by the index
/// of its first value.
fn print_text(arg: usize, name: &str, elem: Elem, bytes: &[u8]) -> String {
    let width = elem.bytes();
    let count = bytes.len() / width;
    let mut out = format!("ARG {arg} '{name}' as {}, {count} values:\n", elem.name());
    let index_width = count.saturating_sub(1).to_string().len();
    for (row, chunk) in bytes[..count * width].chunks(8 * width).enumerate() {
        let _ = write!(out, "  [{:>index_width$}]", row * 8);
        for v in chunk.chunks(width) {
            let _ = write!(out, " {}", elem.show(v));
        }
        out.push('\n');
    }
    let rest = &bytes[count * width..];
    if !rest.is_empty() {
        let _ = write!(
            out,
            "  ({} trailing byte{}:",
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        );
        for b in rest {
            let _ = write!(out, " {b:02x}");
        }
        out.push_str(")\n");
    }
    out
}

/// The instruction text of a trace record with each `.L<offset>` branch
/// target that has a label in the source (`labels`, by offset) written as
/// that label.
fn with_labels(instruction: &str, labels: &[(u32, String)]) -> String {
    if labels.is_empty() || !instruction.contains(".L") {
        return instruction.to_string();
    }
    let mut out = String::with_capacity(instruction.len());
    let mut rest = instruction;
    while let Some(at) = rest.find(".L") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        // A whole token: `.L` then digits, then not a name character.
        let whole = digits > 0
            && !after[digits..]
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        let label = whole
            .then(|| after[..digits].parse::<u32>().ok())
            .flatten()
            .and_then(|offset| {
                labels
                    .binary_search_by_key(&offset, |(o, _)| *o)
                    .ok()
                    .map(|i| labels[i].1.as_str())
            });
        match label {
            Some(name) => {
                out.push_str(name);
                rest = &after[digits..];
            }
            None => {
                out.push_str(".L");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
