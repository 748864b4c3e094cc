//! A loaded GalliumCompute binary: code and constant data placed in device
//! memory as Clover places them, and its kernels. The code is pre-decoded
//! at a kernel's first launch, from that kernel's entry
//! (`exec::predecode_from`), and kept for later launches.

use std::fmt;
use std::sync::{Arc, LazyLock, Mutex};

use gcn_asm::gallium::{self, GalliumBinary, ScratchHalf, ScratchRelocation};
use gcn_asm::{Device, GcnVersion};

use crate::exec::{predecode_from, Decoded};
use crate::kernel::{Arg, Kernel};
use crate::lines::{LineTable, Location};
use crate::memory::{AllocError, Buffer, Memory};

/// Why a program could not be loaded or a kernel found.
#[derive(Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The bytes are not a GalliumCompute binary.
    Gallium(String),
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
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Gallium(m) => write!(f, "not a GalliumCompute binary: {m}"),
            LoadError::NoKernel { name, available } => write!(
                f,
                "no kernel named '{name}' (the binary has: {})",
                if available.is_empty() {
                    "none".to_string()
                } else {
                    available.join(", ")
                }
            ),
            LoadError::UnknownDevice(d) => write!(f, "unknown device '{d}'"),
            LoadError::Alloc(e) => write!(f, "{e}"),
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
    /// `gcn_kernel!` handle, which knows the names).
    pub args: Vec<Arg>,
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
fn arg_name(index: usize) -> &'static str {
    static NAMES: LazyLock<Mutex<Vec<&'static str>>> = LazyLock::new(|| Mutex::new(Vec::new()));
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    while names.len() <= index {
        let n = names.len();
        names.push(Box::leak(format!("arg{n}").into_boxed_str()));
    }
    names[index]
}

/// A GalliumCompute binary loaded into device memory for one GCN version.
pub struct Program {
    version: GcnVersion,
    kernels: Vec<ProgramKernel>,
    /// The pre-decoded code per kernel entry, made at the first launch.
    decoded: Mutex<Vec<(u32, Arc<Decoded>)>>,
    code_words: Vec<u32>,
    scratch_relocations: Vec<ScratchRelocation>,
    /// `.text` then `.rodata`, in device memory (kept alive here).
    image: Buffer<u8>,
    memory: Memory,
    /// Source positions of the instructions, when known.
    lines: Option<Arc<LineTable>>,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("version", &self.version)
            .field("kernels", &self.kernels)
            .field("code_base", &format_args!("{:#x}", self.code_base()))
            .finish()
    }
}

impl Program {
    /// Loads a GalliumCompute binary (as `gcnasm -b gallium` or clrxasm
    /// writes it) into `memory`, to run on `version`.
    pub fn load(memory: &Memory, bytes: &[u8], version: GcnVersion) -> Result<Program, LoadError> {
        let binary = gallium::read(bytes).map_err(|e| LoadError::Gallium(e.message))?;
        Program::from_binary(memory, &binary, version)
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

    /// Device address of the code (`.text`); `.rodata` follows it.
    pub fn code_base(&self) -> u64 {
        self.image.ptr().0
    }

    /// The code pre-decoded from byte offset `entry` (a kernel's first
    /// instruction), decoded at the first call for that entry.
    pub(crate) fn ops(&self, entry: u32) -> Arc<Decoded> {
        let mut decoded = self.decoded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, d)) = decoded.iter().find(|(e, _)| *e == entry) {
            return d.clone();
        }
        let d = Arc::new(predecode_from(&self.code_words, self.version, entry));
        decoded.push((entry, d.clone()));
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
        Some(predecode_from(&code, self.version, entry))
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

/// The readable message (what [`fmt::Display`] writes), so that
/// `fn main() -> Result<(), Box<dyn Error>>` with `?` prints it rather
/// than a dump of the fields.
impl fmt::Debug for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
