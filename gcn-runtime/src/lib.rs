//! Runtime support for GCN kernels: kernel handles and the Gallium kernel
//! input buffer ([`kernel`]), device memory ([`memory`]), loaded programs
//! ([`program`]: Gallium binaries, and AMDHSA code objects run under the
//! HSA ABI, [`hsa`], with device `printf`, [`printf`](mod@printf), and
//! HIP's hostcall, [`hostcall`]),
//! dispatch ([`launch`], [`Launcher`]) and the CPU emulator that runs them
//! (its fidelity: [`exec`]), the per-instruction profile ([`profile`]),
//! the sanitizer checks it runs them under — missing
//! `s_waitcnt` (also at barriers), missing wait states, LDS races, undefined
//! values used where they matter — with
//! the instruction trace ([`check`]), buffer resources (V#s,
//! [`descriptor`]) and the data/number formats they convert with
//! ([`format`](mod@format)). It re-exports the
//! assembler ([`gcn_asm`]) and the [`gcn_kernel!`] macro, so a user depends
//! on this one crate.
//!
//! # Guide
//!
//! ## 1. Write a kernel
//!
//! [`gcn_kernel!`] assembles CLRX source at compile time (here as Rust
//! tokens; a string literal or a file work too) into a GalliumCompute
//! binary, a [`Kernel`](kernel::Kernel) handle per kernel and a struct with
//! one field per argument. A named `.arg` is also an assembler symbol,
//! `KERNEL::NAME`, holding its byte offset in the kernel input buffer.
//!
//! ```
//! gcn_runtime::gcn_kernel! {
//!     mod scale;                                 // the items go into `mod scale`
//!     .gallium
//!     .gpu tonga                                 // GCN 1.2
//!     .kernel scale                              // data[i] *= factor
//!         .args
//!             .arg data, global, 8
//!             .arg factor, scalar, 4
//!             .arg griddim
//!             .arg gridoffset
//!         .config
//!             .dims x
//!     .text
//!     scale:
//!         s_load_dword     s2, s[0:1], 0x18      // local size x
//!         s_load_dwordx2   s[6:7], s[0:1], scale::data
//!         s_load_dword     s3, s[0:1], scale::factor
//!         s_waitcnt        lgkmcnt(0)
//!         s_mul_i32        s2, s2, s4            // group id * local size
//!         v_add_u32        v0, vcc, s2, v0       // global id
//!         v_lshlrev_b32    v1, 2, v0
//!         v_mov_b32        v3, s7
//!         v_add_u32        v2, vcc, s6, v1
//!         v_addc_u32       v3, vcc, v3, 0, vcc
//!         flat_load_dword  v4, v[2:3]
//!         s_waitcnt        vmcnt(0) & lgkmcnt(0)
//!         v_mul_lo_u32     v4, v4, s3
//!         flat_store_dword v[2:3], v4
//!         s_endpgm
//! }
//!
//! // What the macro made: the handle and the argument struct.
//! assert_eq!(scale::SCALE.name, "scale");
//! assert_eq!(scale::SCALE.device, "tonga");
//! let names: Vec<_> = scale::SCALE.user_args().map(|a| a.name).collect();
//! assert_eq!(names, ["data", "factor"]);
//! # fn _unused(_: scale::ScaleArgs) {}
//! ```
//!
//! ## 2. Run it
//!
//! A [`Memory`] is one device address space; a [`Program`] is a binary
//! loaded into it (for the GCN version of the kernel's device); a launch
//! runs a grid of work-groups on the emulator and returns
//! [`LaunchStats`]:
//!
//! ```
//! # gcn_runtime::gcn_kernel! {
//! #     mod scale;
//! #     .gallium
//! #     .gpu tonga
//! #     .kernel scale
//! #         .args
//! #             .arg data, global, 8
//! #             .arg factor, scalar, 4
//! #             .arg griddim
//! #             .arg gridoffset
//! #         .config
//! #             .dims x
//! #     .text
//! #     scale:
//! #         s_load_dword     s2, s[0:1], 0x18
//! #         s_load_dwordx2   s[6:7], s[0:1], scale::data
//! #         s_load_dword     s3, s[0:1], scale::factor
//! #         s_waitcnt        lgkmcnt(0)
//! #         s_mul_i32        s2, s2, s4
//! #         v_add_u32        v0, vcc, s2, v0
//! #         v_lshlrev_b32    v1, 2, v0
//! #         v_mov_b32        v3, s7
//! #         v_add_u32        v2, vcc, s6, v1
//! #         v_addc_u32       v3, vcc, v3, 0, vcc
//! #         flat_load_dword  v4, v[2:3]
//! #         s_waitcnt        vmcnt(0) & lgkmcnt(0)
//! #         v_mul_lo_u32     v4, v4, s3
//! #         flat_store_dword v[2:3], v4
//! #         s_endpgm
//! # }
//! use gcn_runtime::{Dispatch, LaunchOptions, Memory, Program};
//!
//! let memory = Memory::default();
//! let program = Program::from_kernel(&memory, &scale::SCALE)?;
//! let data = memory.buffer_from_slice(&(0..256).collect::<Vec<u32>>())?;
//! let stats = program.launch_args(
//!     &scale::ScaleArgs { data: data.ptr(), factor: 3 },
//!     &Dispatch::new_1d(256, 64),                // 256 work-items, 64 per group
//!     &LaunchOptions::default(),
//! )?;
//! assert_eq!(data.to_vec(), (0..256).map(|i| 3 * i).collect::<Vec<u32>>());
//! assert_eq!((stats.work_groups, stats.waves), (4, 4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Program::launcher`] is the same launch with every option: the
//! [`LaunchOptions`], the check reports returned instead of failing on
//! them ([`Launcher::reports`]), an instruction trace
//! ([`Launcher::trace`]) and a per-instruction profile
//! ([`Launcher::profile`]):
//!
//! ```
//! # gcn_runtime::gcn_kernel! {
//! #     mod scale;
//! #     .gallium
//! #     .gpu tonga
//! #     .kernel scale
//! #         .args
//! #             .arg data, global, 8
//! #             .arg factor, scalar, 4
//! #             .arg griddim
//! #             .arg gridoffset
//! #         .config
//! #             .dims x
//! #     .text
//! #     scale:
//! #         s_load_dword     s2, s[0:1], 0x18
//! #         s_load_dwordx2   s[6:7], s[0:1], scale::data
//! #         s_load_dword     s3, s[0:1], scale::factor
//! #         s_waitcnt        lgkmcnt(0)
//! #         s_mul_i32        s2, s2, s4
//! #         v_add_u32        v0, vcc, s2, v0
//! #         v_lshlrev_b32    v1, 2, v0
//! #         v_mov_b32        v3, s7
//! #         v_add_u32        v2, vcc, s6, v1
//! #         v_addc_u32       v3, vcc, v3, 0, vcc
//! #         flat_load_dword  v4, v[2:3]
//! #         s_waitcnt        vmcnt(0) & lgkmcnt(0)
//! #         v_mul_lo_u32     v4, v4, s3
//! #         flat_store_dword v[2:3], v4
//! #         s_endpgm
//! # }
//! # use gcn_runtime::{Dispatch, Memory, Program};
//! # let memory = Memory::default();
//! # let program = Program::from_kernel(&memory, &scale::SCALE)?;
//! # let data = memory.buffer_from_slice(&(0..256).collect::<Vec<u32>>())?;
//! let run = program
//!     .launcher(&scale::ScaleArgs { data: data.ptr(), factor: 3 }, &Dispatch::new_1d(256, 64))
//!     .profile(true)
//!     .run()?;
//! let profile = run.profile.expect("asked for");
//! assert_eq!(profile.total, run.stats.instructions);
//! assert_eq!(profile.instructions[0].count, 4); // each instruction once per wave
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 3. Errors are values
//!
//! A kernel that goes wrong stops the dispatch with an error naming the
//! kernel, work-group, wave, instruction and lane — never a host crash.
//! Here the kernel stores through a null pointer:
//!
//! ```
//! use gcn_runtime::{Dispatch, LaunchError, LaunchOptions, Memory, Program};
//!
//! gcn_runtime::gcn_kernel! {
//!     mod bad;
//!     .gallium
//!     .gpu tonga
//!     .kernel bad
//!         .args
//!             .arg out, global, 8
//!         .config
//!             .dims x
//!     .text
//!     bad:
//!         s_load_dwordx2   s[2:3], s[0:1], bad::out
//!         s_waitcnt        lgkmcnt(0)
//!         v_mov_b32        v2, s2
//!         v_mov_b32        v3, s3
//!         flat_store_dword v[2:3], v0
//!         s_endpgm
//! }
//!
//! let memory = Memory::default();
//! let program = Program::from_kernel(&memory, &bad::BAD).unwrap();
//! let args = bad::BadArgs { out: gcn_runtime::DevicePtr(0) };
//! let err = program
//!     .launch_args(&args, &Dispatch::new_1d(64, 64), &LaunchOptions::default())
//!     .unwrap_err();
//! let LaunchError::Exec(fault) = &err else { panic!("{err}") };
//! assert_eq!(fault.instruction, "flat_store_dword v[2:3], v0");
//! // The message starts at the kernel's source line (here, this file's).
//! assert!(err.to_string().contains(": kernel 'bad', work-group (0, 0, 0), wave 0"), "{err}");
//! ```
//!
//! ## 4. Without the macro
//!
//! The same at run time: assemble with [`gcn_asm`], load the bytes with
//! [`Program::load`], and pass the arguments as [`ArgValue`]s in `.arg`
//! order (any GalliumCompute binary, from `gcnasm -b gallium` or
//! `clrxasm`, loads the same way):
//!
//! ```
//! use gcn_runtime::{memory::Memory, program::Program, launch::LaunchOptions};
//! use gcn_runtime::kernel::{ArgValue, Dispatch};
//! use gcn_runtime::gcn_asm::{assemble, AssembleOptions, GcnVersion};
//!
//! // out[i] = i, on GCN 1.2 (tonga).
//! let source = r#"
//! .gallium
//! .gpu tonga
//! .kernel ids
//!     .args
//!         .arg out, global, 8
//!         .arg griddim
//!         .arg gridoffset
//!     .config
//!         .dims x
//!         .tgsize
//! .text
//! ids:
//!     s_load_dword     s2, s[0:1], 0x18        # local size x
//!     s_load_dwordx2   s[6:7], s[0:1], 0x24    # out
//!     s_waitcnt        lgkmcnt(0)
//!     s_mul_i32        s2, s2, s4              # group id * local size
//!     v_add_u32        v0, vcc, s2, v0         # global id
//!     v_lshlrev_b32    v1, 2, v0
//!     v_mov_b32        v3, s7
//!     v_add_u32        v2, vcc, s6, v1
//!     v_addc_u32       v3, vcc, v3, 0, vcc
//!     flat_store_dword v[2:3], v0
//!     s_endpgm
//! "#;
//! let binary = assemble(source, &AssembleOptions::default()).unwrap().gallium_bytes().unwrap();
//! let memory = Memory::default();
//! let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).unwrap();
//! let out = memory.buffer_zeroed::<u32>(256).unwrap();
//! program
//!     .launch("ids", &[ArgValue::Pointer(out.ptr())], &Dispatch::new_1d(256, 64), &LaunchOptions::default())
//!     .unwrap();
//! assert_eq!(out.to_vec(), (0..256).collect::<Vec<u32>>());
//! ```
//!
//! ## 5. Work-groups, LDS and barriers
//!
//! The waves of a work-group share its LDS and meet at `s_barrier`. Here a
//! group of 128 work-items (two waves) reverses its 128 values through
//! LDS: each wave writes its half, the barrier waits for both, then each
//! reads the other's. A `local` argument is LDS the caller sizes
//! ([`LocalMemory`]); the kernel receives its offset.
//!
//! ```
//! use gcn_runtime::{gcn_kernel, Dispatch, LocalMemory, Memory, Program};
//!
//! gcn_kernel! {
//!     mod rev;
//!     .gallium
//!     .gpu tonga
//!     .kernel rev
//!         .args
//!             .arg data, global, 8
//!             .arg tmp, local, 4
//!         .config
//!             .dims x
//!     .text
//!     rev:
//!         s_load_dwordx2   s[6:7], s[0:1], rev::data
//!         s_load_dword     s3, s[0:1], rev::tmp      // tmp's offset in LDS
//!         s_mov_b32        m0, -1                    // DS address limit: all of LDS
//!         v_lshlrev_b32    v1, 2, v0                 // 4 × local id
//!         s_waitcnt        lgkmcnt(0)
//!         v_mov_b32        v3, s7
//!         v_add_u32        v2, vcc, s6, v1
//!         v_addc_u32       v3, vcc, v3, 0, vcc
//!         flat_load_dword  v4, v[2:3]                // data[id]
//!         v_add_u32        v5, vcc, s3, v1
//!         s_waitcnt        vmcnt(0) & lgkmcnt(0)
//!         ds_write_b32     v5, v4                    // tmp[id] = data[id]
//!         s_waitcnt        lgkmcnt(0)
//!         s_barrier                                  // both waves wrote
//!         s_add_u32        s5, s3, 127 * 4
//!         v_sub_u32        v6, vcc, s5, v1
//!         ds_read_b32      v7, v6                    // tmp[127 - id]
//!         s_waitcnt        lgkmcnt(0)
//!         flat_store_dword v[2:3], v7
//!         s_endpgm
//! }
//!
//! let memory = Memory::default();
//! let program = Program::from_kernel(&memory, &rev::REV)?;
//! let data = memory.buffer_from_slice(&(0..128).collect::<Vec<u32>>())?;
//! let args = rev::RevArgs { data: data.ptr(), tmp: LocalMemory(128 * 4) };
//! // The checks are on: a missing barrier would be an `lds-race` error.
//! let run = program.launcher(&args, &Dispatch::new_1d(128, 128)).run()?;
//! assert_eq!(data.to_vec(), (0..128).rev().collect::<Vec<u32>>());
//! assert_eq!((run.stats.work_groups, run.stats.waves), (1, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 6. Code objects
//!
//! An AMDHSA code object (clang's `amdgcn-amd-amdhsa` target, hipcc)
//! loads with [`Program::load_code_object`] (on the processor its
//! `e_flags` name) and runs the same way, one [`ArgValue`] per explicit
//! argument of its metadata; the hidden arguments, the dispatch packet and
//! the user SGPRs are the runtime's ([`hsa`]). Here an OpenCL C kernel
//! compiled by clang-15 (a fixture of the repository's `tests/rocm/`):
//!
//! ```
//! use gcn_runtime::{ArgValue, Dispatch, LaunchOptions, Memory, Program};
//!
//! let bytes = include_bytes!("../../tests/rocm/gen/v4/gfx900/grids.co");
//! let memory = Memory::default();
//! let program = Program::load_code_object(&memory, bytes)?;
//! // grid3d writes 4 ints per work-item of an 8×6×4 grid.
//! let out = memory.buffer_zeroed::<i32>(4 * 8 * 6 * 4)?;
//! program.launch(
//!     "grid3d",
//!     &[ArgValue::Pointer(out.ptr())],
//!     &Dispatch::new(3, [8, 6, 4], [4, 3, 2]),
//!     &LaunchOptions::default(),
//! )?;
//! let last = &out.to_vec()[4 * (8 * 6 * 4 - 1)..];
//! assert_eq!(last[0], 7 + 1000 * 5 + 1_000_000 * 3); // x + 1000 y + 1000000 z
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 7. From the command line
//!
//! `gcnrun` (this crate's `cli` feature: `cargo install --path gcn-runtime
//! --features cli`) runs a kernel of a binary or a source file with
//! arguments given on the command line; see the README.

#![warn(missing_docs)]

pub use gcn_asm;

/// Assembles GCN kernels at compile time: the macro's full documentation
/// follows (it comes from `gcn-macros`, where the macro is defined; this
/// crate re-exports it so that the expansion's `::gcn_runtime` paths
/// resolve).
///
/// # Example
///
/// A string-literal kernel (form 2) for GCN 1.0, reading its argument at
/// the dword offset of the `n::value` symbol:
///
/// ```
/// gcn_runtime::gcn_kernel! {
///     mod n;
///     r#"
///     .gallium
///     .kernel n
///         .args
///             .arg value, scalar, 4          # byte 36
///         .config
///             .dims x
///     .text
///     n:  s_load_dword s2, s[0:1], n::value/4   # GCN 1.0 SMRD: dword offset 9
///         s_endpgm
///     "#,
///     gpu = "pitcairn"
/// }
/// // The words llvm-mc gives for `s_load_dword s2, s[0:1], 9` on tahiti.
/// assert_eq!(&n::CODE[..4], &[0x09, 0x01, 0x01, 0xc0]);
/// ```
#[doc(inline)]
pub use gcn_macros::gcn_kernel;

pub mod check;
pub mod descriptor;
pub mod exec;
pub mod format;
pub mod hostcall;
pub mod hsa;
pub mod image;
pub mod kernel;
pub mod launch;
mod launcher;
pub mod lines;
pub mod memory;
pub mod printf;
pub mod profile;
pub mod program;

pub use check::{
    Check, CheckOptions, CheckReport, LaneChange, LanePairChange, Level, TraceChange, TraceFilter,
    TraceFloat, TraceRecord, TraceSink,
};
pub use exec::tier::{TierMode, TierStats};
pub use exec::{FaultKind, WAVE_SIZE};
pub use kernel::{ArgError, ArgValue, DevicePtr, Dispatch, KernelArgs, LocalMemory, TypedPtr};
pub use launch::{ExecError, LaunchError, LaunchOptions, LaunchStats};
pub use launcher::{LaunchArgs, LaunchOutcome, Launcher};
pub use memory::{AllocError, Buffer, MemFault, Memory};
pub use profile::{FamilyProfile, InstructionProfile, Profile};
pub use program::{LoadError, Program};
