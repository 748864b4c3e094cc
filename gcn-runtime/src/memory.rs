//! Device memory: one 64-bit address space with explicit allocations.
//!
//! Every byte a kernel can reach belongs to an allocation; an access
//! outside all of them is a [`MemFault`], never host undefined behaviour.
//!
//! Allocations are mapped in pages, as the GPU's virtual memory maps them:
//! each one starts on a fresh [`PAGE_SIZE`] (4 KiB, the GCN VM page) page —
//! so its base is also aligned to [`ALLOCATION_ALIGN`] (256 bytes, image
//! descriptors store base/256) — and its backing store extends to the end
//! of its last page. Two allocations never share a page, and unmapped guard
//! gaps ([`GUARD_GAP`]) separate them. A kernel's access inside a mapped
//! page completes as on hardware: a read of the slack past the allocated
//! bytes returns what is there (zeros unless a kernel wrote them), a write
//! lands in the slack and never in another allocation; the `oob` check
//! ([`crate::check`]) reports such accesses against the exact size. An
//! access outside every mapped page is a [`MemFault`] (the GPU's VM fault).
//!
//! Host-side views keep the exact size: [`Buffer`]'s accessors and
//! [`Memory::read`]/[`Memory::write`] fault on a byte past the allocated
//! ones. The memory limit and [`Memory::in_use`] count what is reserved:
//! whole pages (`Allocation::mapped_size`).
//!
//! Work-groups run on several host threads at once and share global
//! memory, so the storage is made of `AtomicU32` words: plain loads and
//! stores are relaxed atomic accesses (the same machine instructions as
//! ordinary ones on x86-64 and AArch64), racy kernels are merely racy (as on
//! a GPU) instead of undefined behaviour, and 32-bit atomics are real host
//! atomics. The word runs of coalesced wave accesses are copied by
//! `load_words` and `store_words` (inline assembly on x86-64, each
//! aligned word read or written whole). 64-bit atomics take a striped lock
//! (documented on `Allocation::atomic_u64`).

use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, Mutex, RwLock};

use bytemuck::Pod;

use crate::kernel::DevicePtr;

/// Alignment of every allocation's base address (every base is also a page
/// boundary, [`PAGE_SIZE`]).
pub const ALLOCATION_ALIGN: u64 = 256;
/// The page size of the device address space (the GCN VM page): every
/// allocation is mapped in whole pages of its own.
pub const PAGE_SIZE: u64 = 4096;
/// Unmapped bytes left between two allocations (and before the first).
pub const GUARD_GAP: u64 = 64 * 1024;
/// The first address handed out: low addresses stay unmapped, so that a
/// null or small pointer faults.
pub const FIRST_ADDRESS: u64 = 0x10_0000;
/// The default memory limit (bytes of all allocations together, counted in
/// whole pages).
pub const DEFAULT_LIMIT: u64 = 8 << 30;

/// Why a memory access failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemFault {
    /// The first address of the access.
    pub address: u64,
    /// Its size in bytes.
    pub size: u32,
}

impl fmt::Display for MemFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-byte access at {:#x} is outside every allocation",
            self.size, self.address
        )
    }
}

/// So that host code's `?` carries it (`Memory::read`/`write`).
impl std::error::Error for MemFault {}

/// Why an allocation could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllocError {
    /// The memory limit would be exceeded.
    LimitExceeded {
        /// Bytes asked for, rounded up to whole pages (what would be
        /// reserved).
        requested: u64,
        /// Bytes in use.
        in_use: u64,
        /// The limit.
        limit: u64,
    },
    /// The host could not provide the memory (the allocation is within
    /// the device limit but larger than what the host has).
    HostMemory {
        /// Bytes asked for, rounded up to whole pages.
        requested: u64,
    },
    /// A read-back or upload whose size does not match the buffer.
    SizeMismatch {
        /// Elements in the buffer.
        buffer: usize,
        /// Elements given.
        given: usize,
    },
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocError::LimitExceeded {
                requested,
                in_use,
                limit,
            } => write!(
                f,
                "allocating {requested} bytes exceeds the device memory limit \
                 ({in_use} of {limit} bytes in use)"
            ),
            AllocError::HostMemory { requested } => write!(
                f,
                "the host cannot provide the {requested} bytes this device allocation needs"
            ),
            AllocError::SizeMismatch { buffer, given } => write!(
                f,
                "the buffer holds {buffer} elements but {given} were given"
            ),
        }
    }
}

impl std::error::Error for AllocError {}

/// One allocation: a range of device addresses backed by host words.
pub(crate) struct Allocation {
    base: u64,
    /// The bytes asked for (what host views see).
    size: u64,
    /// `size` rounded up to whole pages (at least one): the bytes mapped,
    /// which kernels can reach.
    mapped: u64,
    /// The backing store of the mapped bytes.
    words: Box<[AtomicU32]>,
    /// For an allocation made uninitialised ([`Memory::buffer_uninit`]):
    /// one bit per byte, set once the byte is written (by the host or a
    /// kernel). `None` for ordinary allocations, which pay nothing.
    written: Option<Box<[AtomicU32]>>,
}

impl fmt::Debug for Allocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Allocation({:#x}, {} bytes)", self.base, self.size)
    }
}

/// Locks for the 64-bit atomics, chosen by address.
static ATOMIC64_LOCKS: [Mutex<()>; 64] = [const { Mutex::new(()) }; 64];

impl Allocation {
    fn new(base: u64, size: u64, uninit: bool) -> Result<Self, AllocError> {
        let mapped = mapped_bytes(size);
        // Fallible: an allocation the host cannot hold is an error, not an
        // abort of the process.
        let zeroed = |n: u64| -> Result<Box<[AtomicU32]>, AllocError> {
            let error = AllocError::HostMemory { requested: mapped };
            let n = usize::try_from(n).map_err(|_| error.clone())?;
            let mut v: Vec<AtomicU32> = Vec::new();
            v.try_reserve_exact(n).map_err(|_| error)?;
            v.extend((0..n).map(|_| AtomicU32::new(0)));
            Ok(v.into_boxed_slice())
        };
        let words = zeroed(mapped / 4)?;
        let written = if uninit {
            Some(zeroed(mapped.div_ceil(32))?)
        } else {
            None
        };
        Ok(Allocation {
            base,
            size,
            mapped,
            words,
            written,
        })
    }

    /// True when the allocation tracks written bytes.
    #[inline]
    pub fn tracks_writes(&self) -> bool {
        self.written.is_some()
    }

    /// Marks `[offset, offset + len)` written (tracked allocations).
    #[inline]
    fn mark(&self, offset: u64, len: u64) {
        if let Some(bits) = &self.written {
            for b in offset..offset + len {
                bits[(b / 32) as usize].fetch_or(1 << (b % 32), Relaxed);
            }
        }
    }

    /// The undefined bytes of `[offset, offset + len)` (`len` ≤ 64) as a
    /// mask, bit `i` for byte `offset + i`: bytes nothing wrote, or that a
    /// kernel wrote with undefined bits (the `uninit` check's shadow). Always
    /// 0 for an allocation that does not track writes.
    pub fn undefined_bytes(&self, offset: u64, len: u32) -> u64 {
        let Some(bits) = &self.written else {
            return 0;
        };
        let mut out = 0u64;
        for i in 0..u64::from(len.min(64)) {
            let b = offset + i;
            let Some(word) = bits.get((b / 32) as usize) else {
                break;
            };
            if word.load(Relaxed) >> (b % 32) & 1 == 0 {
                out |= 1 << i;
            }
        }
        out
    }

    /// True when a byte of `[offset, offset + len)` is undefined (see
    /// [`Allocation::undefined_bytes`]); always false for an allocation
    /// that does not track writes.
    pub fn any_undefined(&self, offset: u64, len: u64) -> bool {
        let Some(bits) = &self.written else {
            return false;
        };
        let end = offset.saturating_add(len);
        let mut b = offset;
        while b < end {
            let Some(word) = bits.get((b / 32) as usize) else {
                return false;
            };
            let n = (32 - b % 32).min(end - b);
            let mask = if n == 32 {
                u32::MAX
            } else {
                ((1u32 << n) - 1) << (b % 32)
            };
            if !word.load(Relaxed) & mask != 0 {
                return true;
            }
            b += n;
        }
        false
    }

    /// Marks every byte of `[offset, offset + len)` undefined (nothing wrote
    /// it); nothing for an allocation that does not track writes.
    pub(crate) fn mark_undefined(&self, offset: u64, len: u64) {
        let Some(bits) = &self.written else {
            return;
        };
        let end = offset.saturating_add(len).min(self.mapped);
        let mut b = offset;
        while b < end {
            let Some(word) = bits.get((b / 32) as usize) else {
                break;
            };
            if b.is_multiple_of(32) && end - b >= 32 {
                word.store(0, Relaxed);
                b += 32;
            } else {
                word.fetch_and(!(1 << (b % 32)), Relaxed);
                b += 1;
            }
        }
    }

    /// Marks the bytes of `[offset, offset + len)` whose bit is set in
    /// `undefined` as undefined again (a kernel stored undefined bits
    /// there); the others stay as the store left them. Nothing for an
    /// allocation that does not track writes.
    pub fn set_undefined(&self, offset: u64, len: u32, undefined: u64) {
        let Some(bits) = &self.written else {
            return;
        };
        for i in 0..u64::from(len.min(64)) {
            if undefined >> i & 1 != 0 {
                let b = offset + i;
                if let Some(word) = bits.get((b / 32) as usize) {
                    word.fetch_and(!(1 << (b % 32)), Relaxed);
                }
            }
        }
    }

    /// First device address.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Size in bytes (as allocated: what host views see).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Bytes mapped: the size rounded up to whole pages ([`PAGE_SIZE`],
    /// at least one page). Kernels can reach all of them; the bytes past
    /// [`Allocation::size`] are the slack the `oob` check reports.
    pub fn mapped_size(&self) -> u64 {
        self.mapped
    }

    /// True when `[offset, offset + len)` lies inside the allocated bytes
    /// (not the page slack after them).
    #[inline]
    pub fn contains(&self, offset: u64, len: u64) -> bool {
        fits(offset, len, self.size)
    }

    /// True when `[offset, offset + len)` lies inside the mapped pages.
    #[inline]
    fn mapped_contains(&self, offset: u64, len: u64) -> bool {
        fits(offset, len, self.mapped)
    }

    /// Reads the dword at byte `offset` (a multiple of 4, inside).
    #[inline]
    fn word(&self, offset: u64) -> u32 {
        self.words[(offset >> 2) as usize].load(Relaxed)
    }

    /// Reads `out.len()` bytes from `offset`; the range must be inside the
    /// mapped pages.
    pub fn read(&self, offset: u64, out: &mut [u8]) {
        if offset & 3 == 0 && out.len() == 4 {
            out.copy_from_slice(&self.word(offset).to_le_bytes());
            return;
        }
        for (i, b) in out.iter_mut().enumerate() {
            let at = offset + i as u64;
            *b = self.word(at & !3).to_le_bytes()[(at & 3) as usize];
        }
    }

    /// Writes `data` at `offset`; the range must be inside the mapped
    /// pages. Whole aligned
    /// dwords are single stores; partial dwords are merged with a
    /// compare-and-swap so that neighbouring bytes written by other lanes
    /// or threads are kept.
    pub fn write(&self, offset: u64, data: &[u8]) {
        self.mark(offset, data.len() as u64);
        let mut i = 0;
        while i < data.len() {
            let at = offset + i as u64;
            let index = (at >> 2) as usize;
            if at & 3 == 0 && data.len() - i >= 4 {
                let w = u32::from_le_bytes(data[i..i + 4].try_into().unwrap_or([0; 4]));
                self.words[index].store(w, Relaxed);
                i += 4;
                continue;
            }
            let shift = (at & 3) * 8;
            let value = u32::from(data[i]) << shift;
            let mask = !(0xffu32 << shift);
            let _ = self.words[index].fetch_update(Relaxed, Relaxed, |w| Some((w & mask) | value));
            i += 1;
        }
    }

    /// Loads the aligned dword at `offset` (a multiple of 4, inside).
    #[inline]
    pub fn load_u32(&self, offset: u64) -> u32 {
        self.word(offset)
    }

    /// Stores the aligned dword at `offset` (a multiple of 4, inside).
    #[inline]
    pub fn store_u32(&self, offset: u64, value: u32) {
        self.mark(offset, 4);
        self.words[(offset >> 2) as usize].store(value, Relaxed);
    }

    /// Atomically replaces the aligned dword at `offset` by `f(old)` and
    /// returns the old value (a host compare-and-swap loop).
    pub fn atomic_u32(&self, offset: u64, f: impl Fn(u32) -> u32) -> u32 {
        self.mark(offset, 4);
        let word = &self.words[(offset >> 2) as usize];
        match word.fetch_update(Relaxed, Relaxed, |w| Some(f(w))) {
            Ok(old) | Err(old) => old,
        }
    }

    /// Atomically replaces the aligned qword at `offset` (a multiple of 8,
    /// inside) by `f(old)` and returns the old value.
    ///
    /// The storage is 32-bit words, so the two halves are updated under one
    /// of 64 striped host locks chosen by address: 64-bit atomics are
    /// atomic with respect to each other. A 32-bit access racing with a
    /// 64-bit atomic on the same qword may see one half updated (kernels
    /// that mix the two sizes on one address are outside what the GCN
    /// memory model orders anyway).
    pub fn atomic_u64(&self, offset: u64, f: impl Fn(u64) -> u64) -> u64 {
        self.mark(offset, 8);
        let stripe = ((self.base + offset) >> 3) as usize % ATOMIC64_LOCKS.len();
        let _guard = ATOMIC64_LOCKS[stripe]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let lo = self.word(offset);
        let hi = self.word(offset + 4);
        let old = u64::from(lo) | (u64::from(hi) << 32);
        let new = f(old);
        self.store_u32(offset, new as u32);
        self.store_u32(offset + 4, (new >> 32) as u32);
        old
    }

    fn copy_in(&self, offset: u64, data: &[u8]) {
        self.mark(offset, data.len() as u64);
        self.write(offset, data);
    }
}

/// The allocations of a device, sorted by base address; lookups during a
/// dispatch go through an immutable snapshot ([`MemView`]).
#[derive(Debug)]
struct Space {
    allocations: Vec<Arc<Allocation>>,
    next: u64,
    in_use: u64,
}

/// A device's memory: the address space and its allocations.
///
/// Cloning gives another handle to the same memory.
///
/// ```
/// use gcn_runtime::{AllocError, Memory};
///
/// // 64 KiB of device memory; each allocation takes whole 4 KiB pages.
/// let memory = Memory::with_limit(64 * 1024);
/// let a = memory.buffer_from_slice(&[1u32, 2, 3, 4])?;
/// let b = memory.buffer_zeroed::<f32>(1500)?; // 6000 bytes: 2 pages
/// assert_eq!(memory.in_use(), 3 * 4096);
/// // Past the limit an allocation is an error value, not an abort.
/// let too_big = memory.buffer_zeroed::<u8>(64 * 1024).unwrap_err();
/// assert!(matches!(too_big, AllocError::LimitExceeded { .. }));
/// // Reads and writes by device address (a kernel's view of it).
/// memory.write(a.ptr_at(2).0, &7u32.to_le_bytes())?;
/// assert_eq!(a.to_vec(), [1, 2, 7, 4]);
/// // An address no allocation holds is a fault value.
/// assert!(memory.read(0x10, &mut [0u8; 4]).is_err());
/// drop((a, b)); // frees their pages
/// assert_eq!(memory.in_use(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Memory {
    space: Arc<RwLock<Space>>,
    limit: u64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::with_limit(DEFAULT_LIMIT)
    }
}

impl Memory {
    /// An empty address space that holds at most `limit` bytes.
    pub fn with_limit(limit: u64) -> Self {
        Memory {
            space: Arc::new(RwLock::new(Space {
                allocations: Vec::new(),
                next: FIRST_ADDRESS,
                in_use: 0,
            })),
            limit,
        }
    }

    /// The memory limit in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes reserved now: each live allocation counts its whole pages
    /// (its mapped size), which is what the limit bounds.
    pub fn in_use(&self) -> u64 {
        self.read_space().in_use
    }

    fn read_space(&self) -> std::sync::RwLockReadGuard<'_, Space> {
        self.space.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_space(&self) -> std::sync::RwLockWriteGuard<'_, Space> {
        self.space.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Allocates `size` zeroed bytes, mapped in whole pages of their own (at
    /// least one).
    pub(crate) fn allocate(&self, size: u64) -> Result<Arc<Allocation>, AllocError> {
        self.allocate_with(size, false)
    }

    fn allocate_with(&self, size: u64, uninit: bool) -> Result<Arc<Allocation>, AllocError> {
        let mut space = self.write_space();
        let reserved = mapped_bytes(size);
        if space.in_use.saturating_add(reserved) > self.limit {
            return Err(AllocError::LimitExceeded {
                requested: reserved,
                in_use: space.in_use,
                limit: self.limit,
            });
        }
        // A fresh page, so that no page holds two allocations.
        let base = space.next.next_multiple_of(PAGE_SIZE);
        let allocation = Arc::new(Allocation::new(base, size, uninit)?);
        space.next = base + reserved + GUARD_GAP;
        space.in_use += reserved;
        space.allocations.push(allocation.clone());
        Ok(allocation)
    }

    /// Returns an allocation's bytes to the space (its addresses are not
    /// reused, so a stale pointer faults).
    fn free(&self, base: u64) {
        let mut space = self.write_space();
        if let Some(i) = space.allocations.iter().position(|a| a.base == base) {
            let a = space.allocations.remove(i);
            space.in_use -= a.mapped;
        }
    }

    /// An immutable snapshot of the allocations, for a dispatch.
    pub(crate) fn view(&self) -> MemView {
        MemView::of(self.read_space().allocations.clone())
    }

    /// A typed buffer holding a copy of `data`.
    pub fn buffer_from_slice<T: Pod>(&self, data: &[T]) -> Result<Buffer<T>, AllocError> {
        let buffer = self.buffer_zeroed::<T>(data.len())?;
        buffer.allocation.copy_in(0, bytemuck::cast_slice(data));
        Ok(buffer)
    }

    /// A typed buffer of `len` zeroed elements.
    pub fn buffer_zeroed<T: Pod>(&self, len: usize) -> Result<Buffer<T>, AllocError> {
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        Ok(Buffer {
            allocation: self.allocate(bytes)?,
            memory: self.clone(),
            len,
            _type: PhantomData,
        })
    }

    /// A typed buffer of `len` elements whose contents are undefined, as
    /// device memory from an allocator is: it reads as zeros, and the
    /// `uninit` check ([`crate::check::defined`]) tracks which bytes are
    /// defined — written by the host ([`Buffer::write_from`]) or by a
    /// kernel's stores and atomics with defined data — and reports a value
    /// loaded from undefined bytes where it matters (a branch, an address,
    /// a computed result stored back).
    pub fn buffer_uninit<T: Pod>(&self, len: usize) -> Result<Buffer<T>, AllocError> {
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        Ok(Buffer {
            allocation: self.allocate_with(bytes, true)?,
            memory: self.clone(),
            len,
            _type: PhantomData,
        })
    }

    /// A typed buffer of `len` copies of `value`.
    pub fn buffer_filled<T: Pod>(&self, len: usize, value: T) -> Result<Buffer<T>, AllocError> {
        self.buffer_from_slice(&vec![value; len])
    }

    /// Reads `out.len()` bytes at device address `address` from the host:
    /// they must lie inside the allocated bytes (the page slack after an
    /// allocation faults here, unlike a kernel's access).
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let view = self.view();
        let (a, offset) = view.find_exact(address, out.len() as u64)?;
        a.read(offset, out);
        Ok(())
    }

    /// Writes `data` at device address `address` from the host: inside the
    /// allocated bytes, as [`Memory::read`].
    pub fn write(&self, address: u64, data: &[u8]) -> Result<(), MemFault> {
        let view = self.view();
        let (a, offset) = view.find_exact(address, data.len() as u64)?;
        a.write(offset, data);
        Ok(())
    }
}

/// The bytes an allocation of `size` bytes maps: whole pages, at least one.
fn mapped_bytes(size: u64) -> u64 {
    size.max(1).saturating_add(PAGE_SIZE - 1) & !(PAGE_SIZE - 1)
}

/// Whether `len` bytes at `offset` lie inside `size` bytes.
#[inline]
fn fits(offset: u64, len: u64, size: u64) -> bool {
    offset.checked_add(len).is_some_and(|end| end <= size)
}

/// A snapshot of the allocations for lookups during a dispatch.
#[derive(Debug, Clone)]
pub(crate) struct MemView {
    allocations: Vec<Arc<Allocation>>,
    /// `[base, mapped size]` of each allocation, in the same order: the
    /// lookup searches this contiguous array, so that each step of the
    /// binary search is one load rather than a load through an `Arc`.
    spans: Vec<[u64; 2]>,
    /// True when an allocation tracks written bytes
    /// ([`Allocation::tracks_writes`]): without one, no device byte is
    /// undefined and the definedness check needs no lookup.
    tracks_any: bool,
    /// Per allocation, in the same order, what compiled code reads to move
    /// a dense wave access itself ([`DenseSpan`]), then [`NO_SPAN`].
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    dense: Vec<DenseSpan>,
    /// The last allocation (index into `dense`, [`NO_SPAN`]'s at first)
    /// each memory instruction of compiled code used, by the instruction's
    /// slot modulo [`DENSE_HINTS`]: shared by the dispatch's threads, each
    /// hint one atomic word, so a racing update can only cost a lookup.
    /// Every hint is an index into `dense` (compiled code reads the span
    /// it names without a bounds check).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    hints: Arc<[AtomicU32]>,
}

/// Where compiled code may move a dense wave access itself: the device
/// range `[base, end)` of one allocation's words, and the host address of
/// its first word. `end` is `base` (the range is empty) for an allocation
/// that tracks written bytes (its accesses must mark them) or that a FLAT
/// aperture could overlap (a FLAT address there is LDS or private memory).
///
/// An access of `n` bytes at `first` is inside when `base <= first <=
/// end - n`: `end` is at least [`FIRST_ADDRESS`], so `end - n` does not
/// wrap for the accesses compiled code makes (at most 1 KiB).
#[derive(Debug, Clone, Copy)]
#[repr(C)]
pub(crate) struct DenseSpan {
    pub base: u64,
    pub end: u64,
    pub host: u64,
}

/// The span after a view's allocations that no access is inside (`base`
/// and `end` the highest address): the hint of an instruction that has
/// found no span yet, so that every hint names a span.
const NO_SPAN: DenseSpan = DenseSpan {
    base: u64::MAX,
    end: u64::MAX,
    host: 0,
};

/// Lookups [`MemView::dense_lookup`] answered (tests: compiled code took
/// its inline path).
#[cfg(test)]
pub(crate) static DENSE_FOUND: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The hints of a [`MemView`] (a power of two).
pub(crate) const DENSE_HINTS: usize = 64;

impl MemView {
    /// A view of `allocations` (sorted by base address).
    fn of(allocations: Vec<Arc<Allocation>>) -> Self {
        let spans = allocations.iter().map(|a| [a.base, a.mapped]).collect();
        let tracks_any = allocations.iter().any(|a| a.tracks_writes());
        let dense = allocations
            .iter()
            .map(|a| {
                let bytes = 4 * a.words.len() as u64;
                let apertures = [
                    crate::exec::flat::SHARED_APERTURE,
                    crate::exec::flat::PRIVATE_APERTURE,
                ];
                let overlaps = |start: u64| {
                    a.base < start.saturating_add(crate::exec::flat::APERTURE_SIZE)
                        && start < a.base.saturating_add(bytes)
                };
                let usable = !a.tracks_writes() && !apertures.into_iter().any(overlaps);
                DenseSpan {
                    base: a.base,
                    end: if usable { a.base + bytes } else { a.base },
                    host: a.words.as_ptr() as u64,
                }
            })
            .chain([NO_SPAN])
            .collect::<Vec<_>>();
        let none = (dense.len() - 1) as u32;
        MemView {
            allocations,
            spans,
            tracks_any,
            dense,
            hints: (0..DENSE_HINTS).map(|_| AtomicU32::new(none)).collect(),
        }
    }

    /// The spans compiled code moves dense accesses in ([`DenseSpan`]),
    /// never empty: the hints index it.
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    pub(crate) fn dense_spans(&self) -> &[DenseSpan] {
        &self.dense
    }

    /// The hints of compiled code's memory instructions ([`MemView::hints`]).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    pub(crate) fn dense_hints(&self) -> &[AtomicU32] {
        &self.hints
    }

    /// The span holding the 4-byte-aligned `[address, address + bytes)`
    /// whole, recorded as hint `hint`, and the host address of `address`:
    /// what compiled code asks when its hint does not hold the access.
    /// `None`: the access takes the interpreter's path.
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    pub(crate) fn dense_lookup(&self, hint: usize, address: u64, bytes: u64) -> Option<u64> {
        if address & 3 != 0 {
            return None;
        }
        let i = self.spans.partition_point(|&[base, _]| base <= address);
        let span = self.dense.get(i.checked_sub(1)?)?;
        let offset = address.wrapping_sub(span.base);
        if address < span.base || !fits(offset, bytes, span.end - span.base) {
            return None;
        }
        self.hints.get(hint)?.store((i - 1) as u32, Relaxed);
        #[cfg(test)]
        DENSE_FOUND.fetch_add(1, Relaxed);
        Some(span.host + offset)
    }

    /// True when an allocation of the view tracks written bytes.
    #[inline]
    pub(crate) fn tracks_any(&self) -> bool {
        self.tracks_any
    }
}

impl MemView {
    /// The allocation whose mapped pages hold `[address, address + len)`
    /// and the offset of `address` in it: what a kernel's access reaches
    /// (the page slack past the allocated bytes included; the `oob` check
    /// compares with [`Allocation::size`]).
    #[inline]
    pub fn find(&self, address: u64, len: u64) -> Result<(&Allocation, u64), MemFault> {
        let i = self.spans.partition_point(|&[base, _]| base <= address);
        if i > 0 {
            let [base, size] = self.spans[i - 1];
            let offset = address - base;
            if fits(offset, len, size) {
                return Ok((&self.allocations[i - 1], offset));
            }
        }
        Err(MemFault {
            address,
            size: len as u32,
        })
    }

    /// [`MemView::find`] for the host: `[address, address + len)` must
    /// lie inside the allocated bytes, not the page slack.
    pub fn find_exact(&self, address: u64, len: u64) -> Result<(&Allocation, u64), MemFault> {
        match self.find(address, len) {
            Ok((a, offset)) if a.contains(offset, len) => Ok((a, offset)),
            _ => Err(MemFault {
                address,
                size: len as u32,
            }),
        }
    }

    /// The allocation nearest to `address` — the one holding it, else the
    /// closer of the ones just below and just above — as (base, size), the
    /// size as allocated: what a report of a stray access names (memcheck
    /// style).
    pub fn nearest(&self, address: u64) -> Option<(u64, u64)> {
        let i = self.spans.partition_point(|&[base, _]| base <= address);
        let span = |j: usize| [self.spans[j][0], self.allocations[j].size];
        let below = i.checked_sub(1).map(span);
        let above = (i < self.spans.len()).then(|| span(i));
        let distance = |[base, size]: [u64; 2]| {
            if address < base {
                base - address
            } else {
                (address - base).saturating_sub(size.saturating_sub(1))
            }
        };
        [below, above]
            .into_iter()
            .flatten()
            .min_by_key(|&span| distance(span))
            .map(|[base, size]| (base, size))
    }

    /// Reads `out.len()` bytes at `address`.
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let (a, offset) = self.find(address, out.len() as u64)?;
        a.read(offset, out);
        Ok(())
    }

    /// Writes `data` at `address`.
    pub fn write(&self, address: u64, data: &[u8]) -> Result<(), MemFault> {
        let (a, offset) = self.find(address, data.len() as u64)?;
        a.write(offset, data);
        Ok(())
    }

    /// Reads a little-endian dword at `address` (any alignment).
    #[inline]
    pub fn read_u32(&self, address: u64) -> Result<u32, MemFault> {
        let (a, offset) = self.find(address, 4)?;
        if offset & 3 == 0 {
            return Ok(a.load_u32(offset));
        }
        let mut b = [0; 4];
        a.read(offset, &mut b);
        Ok(u32::from_le_bytes(b))
    }

    /// Writes a little-endian dword at `address` (any alignment).
    #[inline]
    pub fn write_u32(&self, address: u64, value: u32) -> Result<(), MemFault> {
        let (a, offset) = self.find(address, 4)?;
        if offset & 3 == 0 {
            a.store_u32(offset, value);
        } else {
            a.write(offset, &value.to_le_bytes());
        }
        Ok(())
    }
}

/// The allocation a wave's lanes most likely touch, checked per lane with
/// two compares instead of a search (the lanes of one memory instruction
/// nearly always address one buffer).
struct Hint<'a> {
    allocation: Option<&'a Allocation>,
}

impl<'a> Hint<'a> {
    #[inline]
    fn offset(
        &mut self,
        view: &'a MemView,
        address: u64,
        len: u64,
    ) -> Result<(&'a Allocation, u64), MemFault> {
        if let Some(a) = self.allocation {
            let offset = address.wrapping_sub(a.base);
            if address >= a.base && a.mapped_contains(offset, len) {
                return Ok((a, offset));
            }
        }
        let (a, offset) = view.find(address, len)?;
        self.allocation = Some(a);
        Ok((a, offset))
    }
}

/// Where all lanes of an access fall ([`MemView::aligned_span`]).
enum Span<'a> {
    /// A dense access (every lane on, lane `l` right after lane `l - 1`):
    /// the words it covers, lane `l` taking the `l`-th group of them.
    Dense(&'a [AtomicU32]),
    /// Any other access inside one allocation.
    Within(&'a Allocation),
}

impl MemView {
    /// The `count` words from the 4-byte-aligned `address` on, when they lie
    /// in one allocation that does not track written bytes: the storage a
    /// dense (coalesced) wave access reads or writes directly after this one
    /// range check. `None` sends the access down the per-lane path, which
    /// names the faulting lane.
    #[inline]
    pub fn dense_words(&self, address: u64, count: usize) -> Option<&[AtomicU32]> {
        if address & 3 != 0 {
            return None;
        }
        let (allocation, offset) = self.find(address, 4 * count as u64).ok()?;
        if allocation.tracks_writes() {
            return None;
        }
        let first = (offset >> 2) as usize;
        allocation.words.get(first..first + count)
    }

    /// Loads the dword at `addresses[lane]` into `out[lane]` for every lane
    /// of `mask`; the first lane whose address is outside every allocation
    /// stops it with that lane and fault.
    #[inline]
    pub fn gather_u32(
        &self,
        addresses: &[u64; 64],
        mask: u64,
        out: &mut [u32; 64],
    ) -> Result<(), (usize, MemFault)> {
        self.gather_dwords::<1>(addresses, mask, std::array::from_mut(out))
    }

    /// Stores `values[lane]` at `addresses[lane]` for every lane of `mask`
    /// (in lane order, so the highest lane wins on equal addresses).
    #[inline]
    pub fn scatter_u32(
        &self,
        addresses: &[u64; 64],
        mask: u64,
        values: &[u32; 64],
    ) -> Result<(), (usize, MemFault)> {
        self.scatter_dwords::<1>(addresses, mask, std::array::from_ref(values))
    }

    /// Where the lanes of `mask` make `len`-byte accesses in one
    /// allocation at addresses that are all multiples of 4: the lanes of a
    /// memory instruction nearly always address one buffer with aligned
    /// dwords, so one range check (on the lowest and highest address,
    /// computed branch-free) serves them all. `None` also for an
    /// allocation made uninitialised (its accessors track written bytes).
    #[inline]
    fn aligned_span(&self, addresses: &[u64; 64], mask: u64, len: u64) -> Option<Span<'_>> {
        if mask == 0 {
            return None;
        }
        // The commonest case first: every lane on, lane `l` at `first +
        // len * l` (a coalesced access). One xor-fold tells it, and the
        // range is the first and last lane's.
        let first = addresses[0];
        let mut off_stride = 0u64;
        let mut expected = first;
        for &a in addresses {
            off_stride |= a ^ expected;
            expected = expected.wrapping_add(len);
        }
        if mask == u64::MAX && off_stride == 0 {
            return self
                .dense_words(first, (16 * len) as usize)
                .map(Span::Dense);
        }
        let mut low = u64::MAX;
        let mut high = 0u64;
        let mut bits = 0u64;
        for (lane, &a) in addresses.iter().enumerate() {
            let on = 0u64.wrapping_sub(mask >> lane & 1);
            low = low.min(a | !on);
            high = high.max(a & on);
            bits |= a & on;
        }
        if bits & 3 != 0 || high.checked_add(len).is_none() {
            return None;
        }
        let (allocation, _) = self.find(low, high + len - low).ok()?;
        (!allocation.tracks_writes()).then_some(Span::Within(allocation))
    }

    /// Loads the `N` consecutive dwords at `addresses[lane]` into
    /// `out[0..N][lane]` for every lane of `mask` (any alignment): one
    /// range check per lane for all `N` dwords, and a search of the
    /// allocations only when a lane leaves the previous lane's allocation.
    /// The first lane whose `4 * N` bytes are not inside one allocation
    /// stops it with that lane and fault (earlier lanes are loaded).
    #[inline]
    pub fn gather_dwords<const N: usize>(
        &self,
        addresses: &[u64; 64],
        mask: u64,
        out: &mut [[u32; 64]; N],
    ) -> Result<(), (usize, MemFault)> {
        match self.aligned_span(addresses, mask, 4 * N as u64) {
            Some(Span::Dense(words)) => {
                load_rows(words, out);
                return Ok(());
            }
            Some(Span::Within(a)) => {
                for lane in 0..64 {
                    if mask >> lane & 1 != 0 {
                        let first = ((addresses[lane] - a.base) >> 2) as usize;
                        for (k, o) in out.iter_mut().enumerate() {
                            o[lane] = a.words[first + k].load(Relaxed);
                        }
                    }
                }
                return Ok(());
            }
            None => {}
        }
        let mut hint = Hint { allocation: None };
        let mut lanes = mask;
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let (a, offset) = hint
                .offset(self, addresses[lane], 4 * N as u64)
                .map_err(|f| (lane, f))?;
            if offset & 3 == 0 {
                for (k, o) in out.iter_mut().enumerate() {
                    o[lane] = a.load_u32(offset + 4 * k as u64);
                }
            } else {
                for (k, o) in out.iter_mut().enumerate() {
                    let mut b = [0; 4];
                    a.read(offset + 4 * k as u64, &mut b);
                    o[lane] = u32::from_le_bytes(b);
                }
            }
        }
        Ok(())
    }

    /// Stores `values[0..N][lane]` as `N` consecutive dwords at
    /// `addresses[lane]` for every lane of `mask` (any alignment; in lane
    /// order, so the highest lane wins on equal addresses). The first lane
    /// whose `4 * N` bytes are not inside one allocation stops it with that
    /// lane and fault (earlier lanes are stored).
    #[inline]
    pub fn scatter_dwords<const N: usize>(
        &self,
        addresses: &[u64; 64],
        mask: u64,
        values: &[[u32; 64]; N],
    ) -> Result<(), (usize, MemFault)> {
        match self.aligned_span(addresses, mask, 4 * N as u64) {
            Some(Span::Dense(words)) => {
                store_rows(values, words);
                return Ok(());
            }
            Some(Span::Within(a)) => {
                for lane in 0..64 {
                    if mask >> lane & 1 != 0 {
                        let first = ((addresses[lane] - a.base) >> 2) as usize;
                        for (k, v) in values.iter().enumerate() {
                            a.words[first + k].store(v[lane], Relaxed);
                        }
                    }
                }
                return Ok(());
            }
            None => {}
        }
        let mut hint = Hint { allocation: None };
        let mut lanes = mask;
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let (a, offset) = hint
                .offset(self, addresses[lane], 4 * N as u64)
                .map_err(|f| (lane, f))?;
            if offset & 3 == 0 {
                for (k, v) in values.iter().enumerate() {
                    a.store_u32(offset + 4 * k as u64, v[lane]);
                }
            } else {
                for (k, v) in values.iter().enumerate() {
                    a.write(offset + 4 * k as u64, &v[lane].to_le_bytes());
                }
            }
        }
        Ok(())
    }
}

/// Copies device words into `out` (of the same length): the word runs of
/// dense wave loads. Other host threads may write the words meanwhile (a
/// racy kernel), so on x86-64 the bulk is copied by inline assembly, 64
/// bytes per step, outside Rust's memory model like a DMA engine: each
/// 4-byte-aligned word is read whole by the vector loads, which is all a
/// GPU guarantees a non-atomic load. Elsewhere, and for a tail of fewer
/// than 16 words, they are relaxed atomic loads.
#[inline]
pub(crate) fn load_words(words: &[AtomicU32], out: &mut [u32]) {
    assert_eq!(words.len(), out.len(), "load_words: lengths differ");
    let bulk = bulk_words(out.len());
    // SAFETY: `words` and `out` are valid for `bulk <= len` words each
    // (checked above) and do not overlap (`out` is a unique borrow).
    unsafe { copy_bulk(words.as_ptr().cast(), out.as_mut_ptr().cast(), bulk * 4) };
    for (o, w) in out[bulk..].iter_mut().zip(&words[bulk..]) {
        *o = w.load(Relaxed);
    }
}

/// Copies `values` into device words (of the same length): the word runs
/// of dense wave stores (`load_words` tells how).
#[inline]
pub(crate) fn store_words(values: &[u32], words: &[AtomicU32]) {
    assert_eq!(words.len(), values.len(), "store_words: lengths differ");
    let bulk = bulk_words(values.len());
    // SAFETY: as in `load_words`; the words are `AtomicU32`s, whose storage
    // may be written through a shared reference (interior mutability), and
    // `values` is a distinct borrow, so the ranges do not overlap.
    unsafe { copy_bulk(values.as_ptr().cast(), words.as_ptr() as *mut u8, bulk * 4) };
    for (v, w) in values[bulk..].iter().zip(&words[bulk..]) {
        w.store(*v, Relaxed);
    }
}

/// Copies a dense run of `64 * N` device words, lane-major (lane `l`'s
/// `N` words at `l * N`), into `N` register rows (`rows[k][l]` = word `k`
/// of lane `l`): the dense path of every wave load of `N` dwords.
#[inline]
pub(crate) fn load_rows<const N: usize>(words: &[AtomicU32], rows: &mut [[u32; 64]; N]) {
    if N == 1 {
        load_words(words, &mut rows[0]);
        return;
    }
    let mut run = [0u32; 64 * 4];
    let run = &mut run[..64 * N];
    load_words(words, run);
    for (k, row) in rows.iter_mut().enumerate() {
        for (out, group) in row.iter_mut().zip(run.chunks_exact(N)) {
            *out = group[k];
        }
    }
}

/// Copies `N` register rows into a dense run of `64 * N` device words,
/// lane-major: the inverse of [`load_rows`], for wave stores.
#[inline]
pub(crate) fn store_rows<const N: usize>(rows: &[[u32; 64]; N], words: &[AtomicU32]) {
    if N == 1 {
        store_words(&rows[0], words);
        return;
    }
    let mut run = [0u32; 64 * 4];
    let run = &mut run[..64 * N];
    for (k, row) in rows.iter().enumerate() {
        for (&value, group) in row.iter().zip(run.chunks_exact_mut(N)) {
            group[k] = value;
        }
    }
    store_words(run, words);
}

/// The words [`copy_bulk`] moves of a run of `len`: whole 64-byte steps on
/// x86-64, none elsewhere.
#[inline(always)]
fn bulk_words(len: usize) -> usize {
    if cfg!(target_arch = "x86_64") {
        len & !15
    } else {
        0
    }
}

/// Copies `bytes` (a multiple of 64) from `src` to `dst` with 16-byte SSE2
/// moves, four per step.
///
/// # Safety
/// `src` must be valid for reads and `dst` for writes of `bytes` bytes,
/// and the ranges must not overlap.
#[inline(always)]
unsafe fn copy_bulk(src: *const u8, dst: *mut u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    if bytes != 0 {
        std::arch::asm!(
            "2:",
            "movdqu {a}, xmmword ptr [{src} + {i}]",
            "movdqu {b}, xmmword ptr [{src} + {i} + 16]",
            "movdqu {c}, xmmword ptr [{src} + {i} + 32]",
            "movdqu {d}, xmmword ptr [{src} + {i} + 48]",
            "movdqu xmmword ptr [{dst} + {i}], {a}",
            "movdqu xmmword ptr [{dst} + {i} + 16], {b}",
            "movdqu xmmword ptr [{dst} + {i} + 32], {c}",
            "movdqu xmmword ptr [{dst} + {i} + 48], {d}",
            "add {i}, 64",
            "cmp {i}, {n}",
            "jb 2b",
            src = in(reg) src,
            dst = in(reg) dst,
            n = in(reg) bytes,
            i = inout(reg) 0usize => _,
            a = out(xmm_reg) _,
            b = out(xmm_reg) _,
            c = out(xmm_reg) _,
            d = out(xmm_reg) _,
            options(nostack),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (src, dst, bytes);
}

/// A typed buffer in device memory. Dropping it frees the allocation (its
/// addresses are never reused, so a kernel given a stale pointer faults).
///
/// ```
/// use gcn_runtime::Memory;
///
/// let memory = Memory::default();
/// let buffer = memory.buffer_from_slice(&[1u16, 2, 3])?;
/// assert_eq!((buffer.len(), buffer.byte_len()), (3, 6));
/// buffer.write_from(&[7, 8, 9])?; // the length must match
/// assert!(buffer.write_from(&[1, 2]).is_err());
/// assert_eq!(buffer.to_vec(), [7, 8, 9]);
/// // Device addresses, for kernel arguments (`ArgValue::Pointer`, or a
/// // `gcn_kernel!` struct's pointer field).
/// assert_eq!(buffer.ptr_at(2).0, buffer.ptr().0 + 4);
/// // Or filled with one value, or left undefined for the `uninit` check.
/// let ones = memory.buffer_filled(4, 1.0f32)?;
/// assert_eq!(ones.to_vec(), [1.0; 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Buffer<T: Pod> {
    allocation: Arc<Allocation>,
    memory: Memory,
    len: usize,
    _type: PhantomData<T>,
}

impl<T: Pod> fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Buffer<{}>({} elements at {:#x})",
            std::any::type_name::<T>(),
            self.len,
            self.allocation.base
        )
    }
}

impl<T: Pod> Buffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the buffer holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Size in bytes.
    pub fn byte_len(&self) -> u64 {
        (self.len * std::mem::size_of::<T>()) as u64
    }

    /// The device address of the first element, for argument fields.
    pub fn ptr(&self) -> DevicePtr {
        DevicePtr(self.allocation.base)
    }

    /// The device address of the first element, typed: for the pointer
    /// fields `gcn_kernel!` types by their element (`TypedPtr<f32>` takes
    /// a `Buffer<f32>`'s, not a `Buffer<u32>`'s).
    pub fn typed_ptr(&self) -> crate::kernel::TypedPtr<T> {
        crate::kernel::TypedPtr::from_raw(self.ptr())
    }

    /// The typed device address of element `index`.
    pub fn typed_ptr_at(&self, index: usize) -> crate::kernel::TypedPtr<T> {
        crate::kernel::TypedPtr::from_raw(self.ptr_at(index))
    }

    /// The device address of element `index`.
    pub fn ptr_at(&self, index: usize) -> DevicePtr {
        DevicePtr(self.allocation.base + (index * std::mem::size_of::<T>()) as u64)
    }

    /// The contents, copied out.
    pub fn to_vec(&self) -> Vec<T> {
        let mut out = vec![T::zeroed(); self.len];
        self.read_into(&mut out).unwrap_or(());
        out
    }

    /// Copies the contents into `out`, which must have [`Buffer::len`]
    /// elements.
    pub fn read_into(&self, out: &mut [T]) -> Result<(), AllocError> {
        if out.len() != self.len {
            return Err(AllocError::SizeMismatch {
                buffer: self.len,
                given: out.len(),
            });
        }
        self.allocation.read(0, bytemuck::cast_slice_mut(out));
        Ok(())
    }

    /// Overwrites the contents with `data`, which must have
    /// [`Buffer::len`] elements.
    pub fn write_from(&self, data: &[T]) -> Result<(), AllocError> {
        if data.len() != self.len {
            return Err(AllocError::SizeMismatch {
                buffer: self.len,
                given: data.len(),
            });
        }
        self.allocation.write(0, bytemuck::cast_slice(data));
        Ok(())
    }

    /// The buffer's bytes, copied out.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0; self.byte_len() as usize];
        self.allocation.read(0, &mut out);
        out
    }
}

impl<T: Pod> Drop for Buffer<T> {
    fn drop(&mut self) {
        self.memory.free(self.allocation.base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allocation_the_host_cannot_hold_is_an_error() {
        // Within the (raised) device limit, far beyond any host: an error
        // value, not an aborted process; the space is unchanged.
        let memory = Memory::with_limit(u64::MAX);
        match memory.allocate(1 << 52) {
            Err(AllocError::HostMemory { requested }) => assert_eq!(requested, 1 << 52),
            other => panic!("{other:?}"),
        }
        assert_eq!(memory.in_use(), 0);
        let e = memory.buffer_uninit::<u8>(1 << 52).unwrap_err();
        assert!(e.to_string().contains("the host cannot provide"), "{e}");
        assert!(memory.allocate(64).is_ok());
    }

    #[test]
    fn word_runs_copy_exactly_their_words() {
        // Bulk steps (16 words), tails, a run starting off a 16-byte
        // boundary, and the words around the run left alone.
        for len in [0, 1, 5, 15, 16, 17, 64, 128, 256, 259] {
            for start in [0, 1, 3] {
                let words: Vec<AtomicU32> = (0..start + len + 2)
                    .map(|i| AtomicU32::new(0x1000_0000 + i as u32))
                    .collect();
                let run = &words[start..start + len];
                let mut out = vec![u32::MAX; len];
                load_words(run, &mut out);
                let want: Vec<u32> = (start..start + len)
                    .map(|i| 0x1000_0000 + i as u32)
                    .collect();
                assert_eq!(out, want, "load of {len} words at {start}");
                let values: Vec<u32> = (0..len).map(|i| !(i as u32)).collect();
                store_words(&values, run);
                for (i, w) in words.iter().enumerate() {
                    let want = if (start..start + len).contains(&i) {
                        !((i - start) as u32)
                    } else {
                        0x1000_0000 + i as u32
                    };
                    assert_eq!(
                        w.load(Relaxed),
                        want,
                        "word {i} after a store of {len} at {start}"
                    );
                }
            }
        }
    }

    #[test]
    fn buffers_round_trip_and_are_aligned_and_separated() {
        let m = Memory::default();
        let a = m.buffer_from_slice(&[1u32, 2, 3]).unwrap();
        let b = m.buffer_filled(5, 7u8).unwrap();
        assert_eq!(a.to_vec(), vec![1, 2, 3]);
        assert_eq!(b.to_vec(), vec![7; 5]);
        assert_eq!(a.ptr().0 % ALLOCATION_ALIGN, 0);
        assert_eq!(b.ptr().0 % ALLOCATION_ALIGN, 0);
        assert_eq!(a.ptr().0 % PAGE_SIZE, 0);
        assert_eq!(b.ptr().0 % PAGE_SIZE, 0);
        assert!(b.ptr().0 >= a.ptr().0 + PAGE_SIZE + GUARD_GAP);
        let v = m.view();
        assert_eq!(v.read_u32(a.ptr().0 + 4), Ok(2));
        // Past the end but inside the page: a kernel reads the slack
        // (zeros) and writes land there; the host sees 12 bytes.
        assert_eq!(v.read_u32(a.ptr().0 + 12), Ok(0));
        assert_eq!(v.read_u32(a.ptr().0 + 8), Ok(3));
        assert_eq!(v.read_u32(a.ptr().0 + 10), Ok(0));
        v.write_u32(a.ptr().0 + 4092, 9).unwrap();
        assert_eq!(v.read_u32(a.ptr().0 + 4092), Ok(9));
        assert_eq!(a.to_vec(), vec![1, 2, 3]);
        assert_eq!(b.to_vec(), vec![7; 5]);
        let mut four = [0u8; 4];
        assert!(m.read(a.ptr().0 + 12, &mut four).is_err());
        assert!(m.write(a.ptr().0 + 10, &[0; 4]).is_err());
        m.read(a.ptr().0 + 8, &mut four).unwrap();
        assert_eq!(four, [3, 0, 0, 0]);
        // Past the last page faults.
        assert_eq!(
            v.read_u32(a.ptr().0 + 4094),
            Err(MemFault {
                address: a.ptr().0 + 4094,
                size: 4
            })
        );
        assert!(v.read_u32(a.ptr().0 + 4096).is_err());
        assert!(v.read_u32(a.ptr().0 - 4).is_err());
        assert!(v.read_u32(0).is_err());
        // The nearest allocation is named with its allocated size.
        assert_eq!(v.nearest(a.ptr().0 + 5000), Some((a.ptr().0, 12)));
    }

    #[test]
    fn allocations_are_mapped_in_whole_pages() {
        let m = Memory::default();
        let sizes = [0u64, 1, 4095, 4096, 4097, 10000];
        let bufs: Vec<Buffer<u8>> = sizes
            .iter()
            .map(|&n| m.buffer_zeroed::<u8>(n as usize).unwrap())
            .collect();
        let v = m.view();
        let mut reserved = 0;
        for (b, &n) in bufs.iter().zip(&sizes) {
            let (a, _) = v.find(b.ptr().0, 1).unwrap();
            let pages = n.max(1).div_ceil(PAGE_SIZE) * PAGE_SIZE;
            assert_eq!((a.size(), a.mapped_size()), (n, pages));
            assert_eq!(b.byte_len(), n);
            assert!(v.find(b.ptr().0, pages).is_ok());
            assert!(v.find(b.ptr().0 + pages, 1).is_err());
            reserved += pages;
        }
        assert_eq!(m.in_use(), reserved);
        // No two allocations share a page.
        for w in bufs.windows(2) {
            assert!(w[1].ptr().0 / PAGE_SIZE > (w[0].ptr().0 + w[0].byte_len()) / PAGE_SIZE);
        }
    }

    #[test]
    fn unaligned_and_byte_writes_keep_neighbours() {
        let m = Memory::default();
        let a = m.buffer_zeroed::<u32>(4).unwrap();
        let v = m.view();
        v.write(a.ptr().0 + 3, &[0xaa, 0xbb, 0xcc]).unwrap();
        v.write_u32(a.ptr().0 + 6, 0x11223344).unwrap();
        assert_eq!(
            a.to_bytes(),
            vec![0, 0, 0, 0xaa, 0xbb, 0xcc, 0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(v.read_u32(a.ptr().0 + 3).unwrap(), 0x44ccbbaa);
    }

    #[test]
    fn limit_and_free() {
        // The limit counts whole pages: 600 bytes reserve 4096.
        let m = Memory::with_limit(6000);
        let a = m.buffer_zeroed::<u8>(600).unwrap();
        assert_eq!(m.in_use(), PAGE_SIZE);
        assert!(matches!(
            m.buffer_zeroed::<u8>(600),
            Err(AllocError::LimitExceeded { .. })
        ));
        let stale = a.ptr().0;
        drop(a);
        assert_eq!(m.in_use(), 0);
        let b = m.buffer_zeroed::<u8>(600).unwrap();
        assert_ne!(b.ptr().0, stale);
        assert!(m.view().read_u32(stale).is_err());
    }

    #[test]
    fn atomics_from_many_threads() {
        let m = Memory::default();
        let a = m.buffer_zeroed::<u64>(2).unwrap();
        let v = m.view();
        let (alloc, _) = v.find(a.ptr().0, 16).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        alloc.atomic_u32(0, |x| x + 1);
                        alloc.atomic_u64(8, |x| x + 0x1_0000_0001);
                    }
                });
            }
        });
        assert_eq!(a.to_vec(), vec![4000, 4000 * 0x1_0000_0001]);
    }

    #[test]
    fn gather_and_scatter_across_buffers_and_faults() {
        let m = Memory::default();
        let a = m.buffer_from_slice(&[10u32, 11, 12, 13]).unwrap();
        let b = m.buffer_from_slice(&[20u32, 21]).unwrap();
        let v = m.view();
        let mut addrs = [0u64; 64];
        addrs[0] = a.ptr().0 + 12;
        addrs[1] = b.ptr().0 + 4;
        addrs[2] = a.ptr().0 + 2; // unaligned
        addrs[3] = 0; // unmapped, but masked off
        let mut out = [0u32; 64];
        v.gather_u32(&addrs, 0b0111, &mut out).unwrap();
        assert_eq!(&out[..3], &[13, 21, 0x000b_0000]);
        assert_eq!(
            v.gather_u32(&addrs, 0b1111, &mut out),
            Err((
                3,
                MemFault {
                    address: 0,
                    size: 4
                }
            ))
        );
        let values = [7u32; 64];
        v.scatter_u32(&addrs, 0b0011, &values).unwrap();
        assert_eq!(a.to_vec()[3], 7);
        assert_eq!(b.to_vec()[1], 7);
    }

    #[test]
    fn multi_dword_gather_and_scatter_in_one_buffer_and_at_its_end() {
        let m = Memory::default();
        let data: Vec<u32> = (0..1024).collect();
        // 4096 bytes: the buffer ends with its page.
        let a = m.buffer_from_slice(&data).unwrap();
        let v = m.view();
        // Every lane in one buffer, aligned: the one-range-check path;
        // lane 63 reads the last two dwords exactly.
        let addrs: [u64; 64] = std::array::from_fn(|l| a.ptr().0 + 8 * l as u64 + 3584);
        let mut out = [[0u32; 64]; 2];
        v.gather_dwords(&addrs, u64::MAX, &mut out).unwrap();
        for (l, (&x, &y)) in out[0].iter().zip(&out[1]).enumerate() {
            assert_eq!([x, y], [896 + 2 * l as u32, 897 + 2 * l as u32]);
        }
        // One byte further: lane 63's second dword leaves the buffer and its page.
        let past = addrs.map(|x| x + 4);
        let e = v.gather_dwords(&past, u64::MAX, &mut out).unwrap_err();
        assert_eq!(e.0, 63);
        assert_eq!(e.1.address, a.ptr().0 + 4092);
        // The same lane masked off: no fault.
        v.gather_dwords(&past, u64::MAX >> 1, &mut out).unwrap();
        assert_eq!(out[1][62], 1022);
        // Scatter under a sparse mask, then an unaligned lane (the
        // per-lane path).
        let values = [[7u32; 64], [8u32; 64]];
        v.scatter_dwords(&addrs, 1 << 5 | 1 << 40, &values).unwrap();
        let back = a.to_vec();
        assert_eq!(&back[906..908], &[7, 8]);
        assert_eq!(&back[976..978], &[7, 8]);
        assert_eq!(back[908], 908);
        let mut odd = addrs;
        odd[1] = a.ptr().0 + 2;
        v.scatter_dwords(&odd, 0b10, &values).unwrap();
        // Bytes 2..10: dword 2's low bytes become 8's high (zero) bytes.
        assert_eq!(&a.to_vec()[..3], &[0x0007_0000, 0x0008_0000, 0]);
    }

    #[test]
    fn size_mismatch_is_an_error() {
        let m = Memory::default();
        let a = m.buffer_zeroed::<u16>(3).unwrap();
        let mut out = [0u16; 2];
        assert_eq!(
            a.read_into(&mut out),
            Err(AllocError::SizeMismatch {
                buffer: 3,
                given: 2
            })
        );
    }
}
