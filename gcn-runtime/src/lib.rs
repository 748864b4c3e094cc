//! Runtime support for GCN kernels: kernel handles and the Gallium kernel
//! input buffer ([`kernel`]), device memory ([`memory`]), loaded programs
//! ([`program`]), dispatch ([`launch`]) and the CPU emulator that runs them
//! ([`exec`]); buffer resources (V#s, [`descriptor`]) and the data/number
//! formats they convert with ([`format`](mod@format)).
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
//! It re-exports the assembler and the `gcn_kernel!` macro, so a user
//! depends on this one crate.

#![warn(missing_docs)]

pub use gcn_asm;
pub use gcn_macros::gcn_kernel;

pub mod descriptor;
pub mod exec;
pub mod format;
pub mod image;
pub mod kernel;
pub mod launch;
pub mod memory;
pub mod program;

pub use kernel::{ArgValue, DevicePtr, Dispatch, KernelArgs, LocalMemory};
pub use launch::{ExecError, LaunchError, LaunchOptions, LaunchStats};
pub use memory::{Buffer, Memory};
pub use program::Program;
