//! A loaded program: a GalliumCompute binary (code and constant data placed
//! in device memory as Clover places them) or an AMDHSA code object (its
//! segments and relocations, [`crate::hsa`]; also one entry of a clang
//! offload bundle, [`gcn_asm::bundle`]), and its kernels. The code is
//! pre-decoded
//! at a kernel's first launch, from that kernel's entry
//! (`exec::predecode_from`), and kept for later launches.

use std::fmt;
use std::sync::{Arc, LazyLock, Mutex};

use gcn_asm::gallium::{self, GalliumBinary, ScratchHalf, ScratchRelocation};
use gcn_asm::{Device, GcnVersion};

use crate::exec::{predecode_from, predecode_from_waves, Decoded};
use crate::kernel::{Arg, Kernel};
use crate::lines::{LineTable, Location};
use crate::memory::{AllocError, Buffer, Memory};

/// Why a program could not be loaded or a kernel found.
#[derive(Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The bytes are not a GalliumCompute binary.
    Gallium(String),
    /// The bytes are an AMDHSA code object that cannot be read or loaded.
    CodeObject(String),
    /// The bytes are a clang offload bundle that cannot be read, or that
    /// has no entry to load ([`gcn_asm::bundle`]).
    Bundle(gcn_asm::bundle::BundleError),
    /// No kernel of that name.
    NoKernel {
        /// The name asked for.
        name: String,
        /// The kernels the binary has.
        available: Vec<String>,
    },
    /// The device name of a `gcn_kernel!` handle is unknown.
    UnknownDevice(String),
    /// Device memory for the code could not be allocated.
    Alloc(AllocError),
    /// The emulator does not run this GCN version (one not in
    /// [`crate::exec::EMULATED_VERSIONS`]; today every version the
    /// assembler takes runs).
    UnsupportedVersion(GcnVersion),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Gallium(m) => write!(f, "not a GalliumCompute binary: {m}"),
            LoadError::CodeObject(m) => write!(f, "bad code object: {m}"),
            LoadError::Bundle(e) => write!(f, "{e}"),
            LoadError::NoKernel { name, available } => write!(
                f,
                "no kernel named '{name}'{} (the binary has: {})",
                gcn_asm::suggest::did_you_mean(name, available.iter().map(String::as_str)),
                if available.is_empty() {
                    "none".to_string()
                } else {
                    available.join(", ")
                }
            ),
            LoadError::UnknownDevice(d) => write!(f, "unknown device '{d}'"),
            LoadError::Alloc(e) => write!(f, "{e}"),
            LoadError::UnsupportedVersion(v) => write!(
                f,
                "the emulator does not run {v} code yet; gcnasm and gcndisasm take {v}"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// A kernel of a loaded program.
#[derive(Debug, Clone)]
pub struct ProgramKernel {
    /// Name.
    pub name: String,
    /// Offset of the first instruction in `.text`.
    pub offset: u32,
    /// The `.AMDGPU.config` pairs.
    pub prog_info: Vec<gallium::ProgInfoEntry>,
    /// The arguments (named `argN` unless the program came from a
    /// `gcn_kernel!` handle, which knows the names). For a code object
    /// kernel: its explicit arguments, as the records of the equivalent
    /// Gallium arguments (`global`, `constant`, `local`, `scalar` of the
    /// metadata's size), which is what callers pass values for.
    pub args: Vec<Arg>,
    /// For a kernel of an AMDHSA code object: its descriptor and metadata
    /// (`None` for Gallium kernels).
    pub code_object: Option<Box<gcn_asm::rocm::RocmKernel>>,
}

impl ProgramKernel {
    /// The value of proginfo register `address`, 0 when absent.
    pub fn prog_info_value(&self, address: u32) -> u32 {
        self.prog_info
            .iter()
            .find(|e| e.address == address)
            .map_or(0, |e| e.value)
    }
}

/// `argN` names for kernels loaded at run time (interned: the argument
/// table wants `&'static str`, and the set of indices is small).
pub(crate) fn arg_name(index: usize) -> &'static str {
    static NAMES: LazyLock<Mutex<Vec<&'static str>>> = LazyLock::new(|| Mutex::new(Vec::new()));
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    while names.len() <= index {
        let n = names.len();
        names.push(Box::leak(format!("arg{n}").into_boxed_str()));
    }
    names[index]
}

/// Receives the text a kernel's `printf` calls printed
/// ([`Program::set_printf_handler`]): once per launch for OpenCL C, once
/// per call as it ends for HIP. Called from the launch's host threads.
pub type PrintfHandler = Arc<dyn Fn(&str) + Send + Sync>;

/// What a program loaded from a code object keeps of it.
pub(crate) struct CodeObjectInfo {
    /// The code object version (2-5).
    pub version: u8,
    /// The processor name of `e_flags` (`gfx900`).
    pub processor: String,
    /// The printf formats, unescaped.
    pub printf_formats: Vec<crate::printf::Format>,
    /// Each kernel's OpenCL C version (`None`: not OpenCL C, or not said).
    pub opencl: Vec<(String, Option<(u64, u64)>)>,
    /// Device address of virtual address 0.
    pub base: u64,
}

/// A GalliumCompute binary or an AMDHSA code object loaded into device
/// memory for one GCN version.
pub struct Program {
    version: GcnVersion,
    kernels: Vec<ProgramKernel>,
    /// The pre-decoded code per kernel entry, made at the first launch.
    decoded: Mutex<Vec<(DecodedKey, Arc<Decoded>)>>,
    code_words: Vec<u32>,
    scratch_relocations: Vec<ScratchRelocation>,
    /// `.text` then `.rodata`, in device memory (kept alive here).
    image: Buffer<u8>,
    memory: Memory,
    /// Source positions of the instructions, when known.
    lines: Option<Arc<LineTable>>,
    /// Bytes from the start of `image` to the code.
    code_offset: u64,
    /// What a code object's launches need of it.
    pub(crate) code_object: Option<CodeObjectInfo>,
    /// Dispatch ids handed out (the HSA `dispatch_id` user SGPR).
    pub(crate) dispatches: std::sync::atomic::AtomicU64,
    /// Where printf text goes (`None`: standard output).
    printf_handler: Option<PrintfHandler>,
}

/// What a kernel's pre-decoded code is kept by: its entry and whether its
/// waves are 32 lanes wide.
type DecodedKey = (u32, bool);

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("version", &self.version)
            .field("kernels", &self.kernels)
            .field("code_base", &format_args!("{:#x}", self.code_base()))
            .finish()
    }
}

/// Refuses the versions the emulator does not run yet, before anything is
/// loaded: GCN 1.5's encodings and wave32 are not emulated, and running
/// them as GCN 1.4 would be silently wrong.
fn runnable(version: GcnVersion) -> Result<(), LoadError> {
    if !crate::exec::EMULATED_VERSIONS.contains(&version) {
        return Err(LoadError::UnsupportedVersion(version));
    }
    Ok(())
}

impl Program {
    /// Loads a GalliumCompute binary (as `gcnasm -b gallium` or clrxasm
    /// writes it) into `memory`, to run on `version`.
    ///
    /// An AMDHSA code object ([`gcn_asm::rocm::is_code_object`]) is loaded
    /// as [`Program::load_code_object`] loads it, but run on `version`
    /// whatever its `e_flags` say (gcnrun's `-g`).
    ///
    /// A clang offload bundle ([`gcn_asm::bundle::is_bundle`]: what
    /// `hipcc --genco` and `hipcc --cuda-device-only -c` write, compressed
    /// or not) loads the code object of its only `amdgcn` entry, or, when
    /// it has several, of the only one whose processor is of `version`;
    /// [`Program::load_bundle`] picks one by processor name.
    pub fn load(memory: &Memory, bytes: &[u8], version: GcnVersion) -> Result<Program, LoadError> {
        if gcn_asm::bundle::is_bundle(bytes) {
            let bundle = gcn_asm::bundle::read(bytes).map_err(LoadError::Bundle)?;
            let entry = match bundle.select(None) {
                Err(gcn_asm::bundle::BundleError::Ambiguous { entries }) => {
                    let of_version: Vec<_> = bundle
                        .entries
                        .iter()
                        .filter(|e| {
                            e.is_amdgcn()
                                && e.processor()
                                    .and_then(Device::from_name)
                                    .is_some_and(|d| d.version() == version)
                        })
                        .collect();
                    match of_version[..] {
                        [one] => one,
                        _ => {
                            return Err(LoadError::Bundle(
                                gcn_asm::bundle::BundleError::Ambiguous { entries },
                            ))
                        }
                    }
                }
                other => other.map_err(LoadError::Bundle)?,
            };
            let co = read_code_object(&entry.data)?;
            return Program::from_code_object(memory, &co, version);
        }
        if gcn_asm::rocm::is_code_object(bytes) {
            let co = read_code_object(bytes)?;
            return Program::from_code_object(memory, &co, version);
        }
        let binary = gallium::read(bytes).map_err(|e| LoadError::Gallium(e.message))?;
        Program::from_binary(memory, &binary, version)
    }

    /// Loads an AMDHSA code object (v2-v5, as clang's `amdgcn-amd-amdhsa`
    /// target and hipcc write them) to run on the GCN version of the
    /// processor its `e_flags` name; its kernels run under the HSA ABI
    /// ([`crate::hsa`]).
    pub fn load_code_object(memory: &Memory, bytes: &[u8]) -> Result<Program, LoadError> {
        let co = read_code_object(bytes)?;
        let version = co.processor.version;
        Program::from_code_object(memory, &co, version)
    }

    /// Loads the code object of one entry of a clang offload bundle
    /// ([`gcn_asm::bundle`], as `hipcc --genco` writes it), chosen by
    /// [`gcn_asm::bundle::Bundle::select`]: the entry for `processor`
    /// (`gfx906`; feature settings such as `:xnack-` ignored), else the
    /// only `amdgcn` entry. It runs on the processor its `e_flags` name.
    pub fn load_bundle(
        memory: &Memory,
        bytes: &[u8],
        processor: Option<&str>,
    ) -> Result<Program, LoadError> {
        let bundle = gcn_asm::bundle::read(bytes).map_err(LoadError::Bundle)?;
        let entry = bundle.select(processor).map_err(LoadError::Bundle)?;
        Program::load_code_object(memory, &entry.data)
    }

    /// Loads an already read code object, to run on `version`.
    pub fn from_code_object(
        memory: &Memory,
        co: &gcn_asm::rocm::CodeObject,
        version: GcnVersion,
    ) -> Result<Program, LoadError> {
        runnable(version)?;
        let loaded = crate::hsa::load(memory, co)?;
        let kernels = co
            .kernels
            .iter()
            .map(|k| ProgramKernel {
                name: k.name.clone(),
                offset: (k.entry - loaded.code_vaddr) as u32,
                prog_info: Vec::new(),
                args: k
                    .args
                    .iter()
                    .filter(|a| !a.value_kind.is_hidden())
                    .enumerate()
                    .map(|(i, a)| Arg {
                        name: arg_name(i),
                        record: crate::hsa::arg_record(a),
                        declaration: "",
                    })
                    .collect(),
                code_object: Some(Box::new(k.clone())),
            })
            .collect();
        let info = CodeObjectInfo {
            version: co.code_object_version,
            processor: co.processor.name.clone(),
            printf_formats: co
                .printf_formats
                .iter()
                .map(|f| crate::printf::Format {
                    id: f.id,
                    arg_sizes: f.arg_sizes.clone(),
                    format: crate::printf::unescape(&f.format),
                })
                .collect(),
            opencl: co
                .kernels
                .iter()
                .map(|k| (k.name.clone(), crate::hsa::opencl_version(co, &k.name)))
                .collect(),
            base: loaded.base(),
        };
        Ok(Program {
            version,
            kernels,
            decoded: Mutex::new(Vec::new()),
            code_words: loaded.code_words,
            scratch_relocations: Vec::new(),
            image: loaded.image,
            memory: memory.clone(),
            lines: None,
            code_offset: loaded.code_vaddr,
            code_object: Some(info),
            dispatches: std::sync::atomic::AtomicU64::new(0),
            printf_handler: None,
        })
    }

    /// True for a program loaded from an AMDHSA code object.
    pub fn is_code_object(&self) -> bool {
        self.code_object.is_some()
    }

    /// The code object version and processor name of a program loaded
    /// from a code object (`None` for a Gallium binary).
    pub fn code_object_target(&self) -> Option<(u8, &str)> {
        self.code_object
            .as_ref()
            .map(|c| (c.version, c.processor.as_str()))
    }

    /// Sends the text a launch's `printf` calls print to `handler`
    /// instead of standard output: for OpenCL C once per launch, after
    /// it, the records in the order the device wrote them; for HIP
    /// ([`crate::hostcall`]) once per `printf` call, as the call ends
    /// (work-items print in no fixed order, as on the device).
    pub fn set_printf_handler(&mut self, handler: PrintfHandler) {
        self.printf_handler = Some(handler);
    }

    /// Delivers printf text.
    pub(crate) fn emit_printf(&self, text: &str) {
        match &self.printf_handler {
            Some(h) => h(text),
            None => {
                use std::io::Write as _;
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes());
                let _ = out.flush();
            }
        }
    }

    /// Loads the binary of a `gcn_kernel!` kernel handle, on the GCN version
    /// of the device it was assembled for; argument names come from the
    /// handle.
    pub fn from_kernel(memory: &Memory, kernel: &Kernel) -> Result<Program, LoadError> {
        let device = Device::from_name(kernel.device)
            .ok_or_else(|| LoadError::UnknownDevice(kernel.device.to_string()))?;
        let mut program = Program::load(memory, kernel.binary, device.version())?;
        if let Some(k) = program.kernels.iter_mut().find(|k| k.name == kernel.name) {
            if k.args.len() == kernel.args.len() {
                k.args = kernel.args.to_vec();
            }
        }
        if !kernel.lines.is_empty() {
            program.set_line_table(LineTable::from_static(kernel.lines));
        }
        Ok(program)
    }

    /// Loads an already parsed binary.
    pub fn from_binary(
        memory: &Memory,
        binary: &GalliumBinary,
        version: GcnVersion,
    ) -> Result<Program, LoadError> {
        runnable(version)?;
        let code = &binary.code;
        let rodata = binary.global_data.as_deref().unwrap_or(&[]);
        // Clover places the constant data right after the code; the code
        // reaches it PC-relative.
        let mut image = Vec::with_capacity(code.len() + rodata.len());
        image.extend_from_slice(code);
        image.extend_from_slice(rodata);
        let image = memory.buffer_from_slice(&image).map_err(LoadError::Alloc)?;
        let code_words = gcn_asm::decode::words_from_bytes(code);
        let kernels = binary
            .kernels
            .iter()
            .map(|k| ProgramKernel {
                name: k.name.clone(),
                offset: k.offset,
                prog_info: k.prog_info.clone(),
                args: k
                    .args
                    .iter()
                    .enumerate()
                    .map(|(i, record)| Arg {
                        name: arg_name(i),
                        record: *record,
                        declaration: "",
                    })
                    .collect(),
                code_object: None,
            })
            .collect();
        Ok(Program {
            version,
            kernels,
            decoded: Mutex::new(Vec::new()),
            code_words,
            scratch_relocations: binary.scratch_relocations.clone(),
            image,
            memory: memory.clone(),
            lines: None,
            code_offset: 0,
            code_object: None,
            dispatches: std::sync::atomic::AtomicU64::new(0),
            printf_handler: None,
        })
    }

    /// Gives the program the source positions of its instructions: faults,
    /// check reports and trace records then cite `FILE:LINE:COL`.
    pub fn set_line_table(&mut self, table: LineTable) {
        self.lines = (!table.is_empty()).then(|| Arc::new(table));
    }

    /// The line table, when the program has one.
    pub fn line_table(&self) -> Option<&LineTable> {
        self.lines.as_deref()
    }

    /// Where the instruction at byte offset `pc` came from, when known.
    pub fn location(&self, pc: u32) -> Option<Location<'_>> {
        self.lines.as_ref()?.at(pc)
    }

    /// The GCN version the program runs on.
    pub fn version(&self) -> GcnVersion {
        self.version
    }

    /// The kernels, sorted by name.
    pub fn kernels(&self) -> &[ProgramKernel] {
        &self.kernels
    }

    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Result<&ProgramKernel, LoadError> {
        self.kernels
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| LoadError::NoKernel {
                name: name.to_string(),
                available: self.kernels.iter().map(|k| k.name.clone()).collect(),
            })
    }

    /// Device address of the code (`.text`; for a code object, its
    /// executable segment); a Gallium binary's `.rodata` follows it.
    pub fn code_base(&self) -> u64 {
        self.image.ptr().0 + self.code_offset
    }

    /// The code pre-decoded from byte offset `entry` (a kernel's first
    /// instruction), decoded at the first call for that entry.
    #[cfg(test)]
    pub(crate) fn ops(&self, entry: u32) -> Arc<Decoded> {
        self.ops_waves(entry, false)
    }

    /// [`Program::ops`] for waves of 32 lanes (`wave32`: lane masks are one
    /// SGPR) or 64.
    pub(crate) fn ops_waves(&self, entry: u32, wave32: bool) -> Arc<Decoded> {
        let mut decoded = self.decoded.lock().unwrap_or_else(|e| e.into_inner());
        let key = (entry, wave32);
        if let Some((_, d)) = decoded.iter().find(|(e, _)| *e == key) {
            return d.clone();
        }
        let mut d = predecode_from_waves(&self.code_words, self.version, entry, wave32);
        // A launch's waves: their registers are gone once they end.
        d.end_discards_registers = true;
        let d = Arc::new(d);
        decoded.push((key, d.clone()));
        d
    }

    /// The code with its scratch relocations patched for a scratch buffer
    /// whose descriptor words 0 and 1 are `words`, pre-decoded from `entry` (as Mesa
    /// patches `SCRATCH_RSRC_DWORD0/1` at load); `None` when the code has
    /// no relocations.
    pub(crate) fn ops_with_scratch(&self, words: [u32; 2], entry: u32) -> Option<Decoded> {
        if self.scratch_relocations.is_empty() {
            return None;
        }
        let mut code = self.code_words.clone();
        for r in &self.scratch_relocations {
            if let Some(w) = code.get_mut((r.offset / 4) as usize) {
                *w = match r.half {
                    ScratchHalf::Low => words[0],
                    ScratchHalf::High => words[1],
                };
            }
        }
        let mut d = predecode_from(&code, self.version, entry);
        d.end_discards_registers = true;
        Some(d)
    }

    /// The code as words.
    pub fn code_words(&self) -> &[u32] {
        &self.code_words
    }

    /// The memory the program lives in.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// The disassembled instruction at byte offset `pc`, for messages.
    pub fn instruction_text(&self, pc: u32) -> String {
        let Some(words) = self.code_words.get((pc / 4) as usize..) else {
            return "(outside the code)".to_string();
        };
        match gcn_asm::decode::decode(words, u64::from(pc & !3), self.version) {
            Ok(instr) if pc.is_multiple_of(4) => instr.to_string(),
            _ => format!(".int {:#010x}", words[0]),
        }
    }
}

/// Reads a code object from `bytes` wherever they lie: the ELF reader
/// wants them 8-byte aligned (`include_bytes!` and sub-slices need not
/// be), so unaligned bytes are copied into an aligned buffer first.
fn read_code_object(bytes: &[u8]) -> Result<gcn_asm::rocm::CodeObject, LoadError> {
    let read = |b: &[u8]| gcn_asm::rocm::read(b).map_err(|e| LoadError::CodeObject(e.to_string()));
    if bytes.as_ptr().align_offset(8) == 0 {
        return read(bytes);
    }
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    let aligned: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
    aligned[..bytes.len()].copy_from_slice(bytes);
    read(&aligned[..bytes.len()])
}

/// The readable message (what [`fmt::Display`] writes), so that
/// `fn main() -> Result<(), Box<dyn Error>>` with `?` prints it rather
/// than a dump of the fields.
impl fmt::Debug for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
