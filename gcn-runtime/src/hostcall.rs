//! HIP's hostcall: the channel through which a wave asks the host for a
//! service (the device libraries' `__ockl_hostcall_internal`), served as
//! the HIP runtime's host thread serves it (ROCclr's `devhostcall.cpp`,
//! `devhcmessages.cpp` and `devhcprintf.cpp`). clang-15 and hipcc lower
//! HIP's `printf` to it.
//!
//! **The buffer** (what the `hidden_hostcall_buffer` argument points to,
//! one per launch, `HostcallBuffer`): a header of six `u64` — the
//! address of the packet headers, the address of the payloads, the
//! doorbell signal, the free stack, the ready stack, the index mask —
//! then `HostcallBuffer::packets` packet headers (`next`, the active
//! mask, the service id, the control word whose bit 0 is READY; 24 bytes)
//! and as many payloads (64 lanes × 8 `u64`). The stacks are lock-free
//! stacks of tagged pointers: the low bits (`& index mask`) index a packet,
//! the bits above are a tag the device advances on every push to the free
//! stack. The doorbell is an `amd_signal_t` whose event mailbox is set, so
//! a wave that rings it also sends `s_sendmsg sendmsg(MSG_INTERRUPT)`.
//!
//! **A hostcall**, done by the wave's first active lane for all of them:
//! pop a packet from the free stack (compare-and-swap, `s_sleep` between
//! tries), write the header (service, the wave's EXEC as active mask,
//! READY), every active lane writes its eight `u64` into its payload slot,
//! push the packet onto the ready stack, add 1 to the doorbell's value,
//! store the event id in the mailbox and send the interrupt; then wait
//! (`s_sleep`) until READY is clear, each lane reads words 0 and 1 of its
//! slot as the answer, and the packet goes back onto the free stack.
//!
//! **Serving** (`HostcallServer`): when a wave sends the interrupt, the
//! emulator does there and then what the host thread does when the
//! doorbell rings: it takes the whole ready stack (swapping in 0), runs
//! the packet's service for every lane of its active mask, and clears
//! READY. The wave's wait loop then ends at its first look. A wave that
//! executes `s_sleep` polls the ready stack the same way (the host thread
//! also notices a doorbell that rings without an interrupt), so a packet
//! pushed without an interrupt is served too. A wave can then only wait
//! in vain for a packet that is READY but not on the ready stack (a kernel
//! that damaged the buffer): one that sleeps [`MAX_IDLE_SLEEPS`] times in
//! a row with nothing to serve while such a packet is there stops with a
//! [`FaultKind::Hostcall`] fault naming the packet, instead of spinning
//! until its step budget is spent. (A wave that sleeps for another reason,
//! with no packet READY, is not counted.)
//!
//! **Services**: [`SERVICE_PRINTF`] only. Its requests are *messages*: the
//! first `u64` of a lane's slot is a descriptor (bit 0 BEGIN, bit 1 END,
//! bits 2–4 reserved, bits 5–7 the number of `u64` that follow, bits 8–63
//! the message id), the next ones the message's contents. BEGIN opens a
//! message and answers its id in word 0, later hostcalls of the lane send
//! that id; at END the message is complete: a control word (0: standard
//! output, 1: standard error), the format string (NUL-terminated, padded
//! to 8 bytes), then each argument in one `u64` (integers zero-extended,
//! floats as doubles, pointers) or, for `%s`, as its bytes (NUL-terminated,
//! padded). The text is formatted by [`crate::printf`]'s formatter with C's
//! rules and delivered at once, as HIP prints it; the answer (word 0) is
//! the number of bytes printed, or -1 for a control word other than 0
//! or 1. Any other service id, a descriptor with reserved bits, a message id
//! that is not open, a damaged ready stack or a message that does not
//! format is a [`FaultKind::Hostcall`] fault of the wave that sent the
//! interrupt (named with its PC and instruction by the launch), never a
//! panic or a hang.

use std::sync::Mutex;

use crate::exec::{Fault, FaultKind, Wave, WAVE_SIZE};
use crate::memory::{AllocError, Allocation, Buffer, MemView, Memory};

/// The service id of a call of a host function (not served).
pub const SERVICE_FUNCTION_CALL: u32 = 1;
/// The service id of `printf` (served).
pub const SERVICE_PRINTF: u32 = 2;
/// The service id of device memory allocation (`malloc`/`free` in device
/// code; not served).
pub const SERVICE_DEVMEM: u32 = 3;

/// Times in a row a wave may execute `s_sleep` with no hostcall packet to
/// serve while a packet is READY off the ready stack, before it is taken
/// to wait for an answer that will not come.
pub const MAX_IDLE_SLEEPS: u32 = 1 << 16;

/// A sleeping wave looks for READY packets off the ready stack once every
/// this many idle sleeps.
const SLEEPS_PER_LOOK: u32 = 1 << 12;

/// Bytes of a packet header: `next`, the active mask, the service id, the
/// control word.
const HEADER_BYTES: u64 = 24;
/// Bytes of a payload: eight `u64` for each of the 64 lanes.
const PAYLOAD_BYTES: u64 = (WAVE_SIZE * 8 * 8) as u64;
/// Bytes of a lane's payload slot.
const SLOT_BYTES: u64 = 64;
/// Offsets in the buffer's header.
const HEADERS_PTR: u64 = 0;
const PAYLOADS_PTR: u64 = 8;
const DOORBELL: u64 = 16;
const FREE_STACK: u64 = 24;
const READY_STACK: u64 = 32;
const INDEX_MASK: u64 = 40;
/// Where the packet headers start (the buffer's header is 48 bytes).
const HEADERS_AT: u64 = 64;
/// Bytes of the doorbell (`amd_signal_t`), followed by its mailbox.
const SIGNAL_BYTES: u64 = 64;
/// `amd_signal_t.kind`: AMD_SIGNAL_KIND_USER.
const SIGNAL_KIND_USER: u64 = 1;
/// The doorbell's value at the start (ROCclr's SIGNAL_INIT).
const SIGNAL_INIT: u64 = 1;
/// The event id the doorbell's mailbox receives (any non-zero value: the
/// device stores it in the mailbox and sends its low byte in M0).
const EVENT_ID: u32 = 0x48;

/// A launch's hostcall buffer in device memory, with its doorbell signal
/// (one allocation), initialised as ROCclr's `HostcallBuffer::initialize`
/// does: every packet on the free stack, the ready stack empty.
pub(crate) struct HostcallBuffer {
    buffer: Buffer<u8>,
    packets: u64,
    payloads_at: u64,
}

impl HostcallBuffer {
    /// A buffer of `packets` packets (a power of two, at least 2: at least
    /// as many as waves that can be in a hostcall at once; one per wave
    /// that can run at once is enough, since a wave holds at most one).
    pub fn new(memory: &Memory, packets: u32) -> Result<HostcallBuffer, AllocError> {
        let packets = u64::from(packets.max(2).next_power_of_two());
        let payloads_at = (HEADERS_AT + packets * HEADER_BYTES).next_multiple_of(64);
        let signal_at = payloads_at + packets * PAYLOAD_BYTES;
        let size = signal_at + SIGNAL_BYTES + 8;
        let buffer = memory.buffer_zeroed::<u8>(size as usize)?;
        let base = buffer.ptr().0;
        let mut bytes = vec![0u8; size as usize];
        let mut put = |at: u64, v: u64| {
            bytes[at as usize..at as usize + 8].copy_from_slice(&v.to_le_bytes());
        };
        let mask = packets - 1;
        put(HEADERS_PTR, base + HEADERS_AT);
        put(PAYLOADS_PTR, base + payloads_at);
        put(DOORBELL, base + signal_at);
        put(INDEX_MASK, mask);
        // The free stack: packet i links to i - 1, packet 1 to packet 0
        // with tag 1 (a tagged pointer is never 0), the top is the last.
        let mut next = mask + 1;
        for i in 1..packets {
            put(HEADERS_AT + i * HEADER_BYTES, next);
            next = i;
        }
        put(FREE_STACK, next);
        put(READY_STACK, 0);
        // The doorbell: a user signal with an event mailbox (right after
        // it), so that ringing it sends the interrupt.
        put(signal_at, SIGNAL_KIND_USER);
        put(signal_at + 8, SIGNAL_INIT);
        put(signal_at + 16, base + signal_at + SIGNAL_BYTES);
        put(signal_at + 24, u64::from(EVENT_ID));
        buffer.write_from(&bytes)?;
        Ok(HostcallBuffer {
            buffer,
            packets,
            payloads_at,
        })
    }

    /// The device address the `hidden_hostcall_buffer` argument gets.
    pub fn address(&self) -> u64 {
        self.buffer.ptr().0
    }
}

/// The messages a launch's hostcalls are assembling, by id (ROCclr's
/// `MessageHandler`: an id is reused once its message ended).
#[derive(Default)]
struct Messages {
    /// The contents of each open message; `None`: the id is free.
    slots: Vec<Option<Vec<u64>>>,
    /// Ids of ended messages, reused last-freed first.
    free: Vec<u64>,
}

impl Messages {
    /// Opens a message; its id.
    fn open(&mut self) -> u64 {
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = Some(Vec::new());
                id
            }
            None => {
                self.slots.push(Some(Vec::new()));
                self.slots.len() as u64 - 1
            }
        }
    }

    /// The contents of open message `id`.
    fn get(&mut self, id: u64) -> Option<&mut Vec<u64>> {
        self.slots
            .get_mut(usize::try_from(id).ok()?)
            .and_then(Option::as_mut)
    }

    /// Ends open message `id`: its contents.
    fn close(&mut self, id: u64) -> Vec<u64> {
        let data = self.slots[id as usize].take().unwrap_or_default();
        self.free.push(id);
        data
    }
}

/// Serves a launch's hostcall buffer (see the module documentation): the
/// waves' environment holds it, and the interrupt message and `s_sleep`
/// call it.
pub(crate) struct HostcallServer<'a> {
    buffer: &'a HostcallBuffer,
    messages: Mutex<Messages>,
    /// Receives the text of each `printf` to standard output, as it ends.
    emit: &'a (dyn Fn(&str) + Sync),
}

impl<'a> HostcallServer<'a> {
    /// A server of `buffer` that delivers printf text to `emit`.
    pub fn new(buffer: &'a HostcallBuffer, emit: &'a (dyn Fn(&str) + Sync)) -> Self {
        HostcallServer {
            buffer,
            messages: Mutex::new(Messages::default()),
            emit,
        }
    }

    /// `wave` sent `s_sendmsg sendmsg(MSG_INTERRUPT)`: serve the ready
    /// packets.
    pub fn interrupt(&self, wave: &mut Wave, mem: &MemView) -> Result<(), Fault> {
        wave.hostcall_sleeps = 0;
        self.serve(mem).map(|_| ()).map_err(hostcall_fault)
    }

    /// `wave` executes `s_sleep`: serve what is ready; a fault when the
    /// wave has slept [`MAX_IDLE_SLEEPS`] times in a row with nothing to
    /// serve while a packet is READY off the ready stack (looked at every
    /// [`SLEEPS_PER_LOOK`] sleeps: a wave that finds none sleeps for
    /// another reason, and its count starts again).
    pub fn sleep(&self, wave: &mut Wave, mem: &MemView) -> Result<(), Fault> {
        if self.serve(mem).map_err(hostcall_fault)? > 0 {
            wave.hostcall_sleeps = 0;
            return Ok(());
        }
        wave.hostcall_sleeps += 1;
        if !wave.hostcall_sleeps.is_multiple_of(SLEEPS_PER_LOOK) {
            return Ok(());
        }
        match self.stranded(mem).map_err(hostcall_fault)? {
            None => wave.hostcall_sleeps = 0,
            Some(packet) if wave.hostcall_sleeps >= MAX_IDLE_SLEEPS => {
                return Err(hostcall_fault(format!(
                    "the wave executed s_sleep {MAX_IDLE_SLEEPS} times in a row while packet \
                     {packet} of the hostcall buffer was READY but not on the ready stack, where \
                     the host takes packets from: it waits for an answer that will not come (the \
                     packet was never pushed, the stack's `next` pointers are damaged, or READY \
                     was set again after the host served it)"
                )));
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// The first packet that is READY but not on the ready stack, if any.
    fn stranded(&self, mem: &MemView) -> Result<Option<u64>, String> {
        let b = self.buffer;
        let (alloc, at) = self.allocation(mem)?;
        let mask = b.packets - 1;
        let mut on_stack = vec![false; b.packets as usize];
        let mut next = {
            let mut w = [0u8; 8];
            alloc.read(at + READY_STACK, &mut w);
            u64::from_le_bytes(w)
        };
        // Bounded: a looping stack is cut after every packet was seen.
        for _ in 0..b.packets {
            if next == 0 {
                break;
            }
            on_stack[(next & mask) as usize] = true;
            let mut w = [0u8; 8];
            alloc.read(at + HEADERS_AT + (next & mask) * HEADER_BYTES, &mut w);
            next = u64::from_le_bytes(w);
        }
        Ok((0..b.packets).find(|&p| {
            !on_stack[p as usize]
                && alloc.load_u32(at + HEADERS_AT + p * HEADER_BYTES + 20) & 1 != 0
        }))
    }

    /// The buffer's allocation and the buffer's offset in it.
    fn allocation<'m>(&self, mem: &'m MemView) -> Result<(&'m Allocation, u64), String> {
        let base = self.buffer.address();
        mem.find_exact(base, self.buffer.buffer.byte_len())
            .map_err(|e| format!("the hostcall buffer at {base:#x} is no longer allocated ({e})"))
    }

    /// Takes the whole ready stack and serves each packet on it, as
    /// ROCclr's `HostcallBuffer::processPackets`; the number served.
    fn serve(&self, mem: &MemView) -> Result<u64, String> {
        let b = self.buffer;
        let (alloc, at) = self.allocation(mem)?;
        let ready = alloc.atomic_u64(at + READY_STACK, |_| 0);
        if ready == 0 {
            return Ok(0);
        }
        let mut messages = self.messages.lock().unwrap_or_else(|e| e.into_inner());
        let mask = b.packets - 1;
        let mut seen = vec![false; b.packets as usize];
        let mut next = ready;
        let mut served = 0;
        while next != 0 {
            let index = next & mask;
            if std::mem::replace(&mut seen[index as usize], true) {
                return Err(format!(
                    "packet {index} is on the hostcall buffer's ready stack twice (the stack's \
                     `next` pointers loop: the buffer is damaged)"
                ));
            }
            let header = at + HEADERS_AT + index * HEADER_BYTES;
            let word = |offset: u64| {
                let mut w = [0u8; 8];
                alloc.read(header + offset, &mut w);
                u64::from_le_bytes(w)
            };
            next = word(0);
            let active = word(8);
            let service = word(16) as u32;
            let payload = at + b.payloads_at + index * PAYLOAD_BYTES;
            let mut lanes = active;
            while lanes != 0 {
                let lane = u64::from(lanes.trailing_zeros());
                lanes &= lanes - 1;
                let slot_at = payload + lane * SLOT_BYTES;
                let mut bytes = [0u8; SLOT_BYTES as usize];
                alloc.read(slot_at, &mut bytes);
                let mut slot = [0u64; 8];
                for (w, b) in slot.iter_mut().zip(bytes.chunks_exact(8)) {
                    *w = u64::from_le_bytes(b.try_into().unwrap_or_default());
                }
                let before = slot;
                match service {
                    SERVICE_PRINTF => self.printf(&mut messages, &mut slot),
                    other => Err(unserved(other)),
                }
                .map_err(|e| format!("packet {index}, lane {lane}: {e}"))?;
                if slot != before {
                    for (i, w) in slot.iter().enumerate() {
                        alloc.write(slot_at + 8 * i as u64, &w.to_le_bytes());
                    }
                }
            }
            // READY off: the wave's wait loop ends.
            alloc.atomic_u32(header + 20, |c| c & !1);
            served += 1;
        }
        Ok(served)
    }

    /// One lane's `printf` hostcall (ROCclr's `MessageHandler::handlePayload`
    /// and `handlePrintf`): appends to its message, and at END prints it
    /// and answers the bytes printed.
    fn printf(&self, messages: &mut Messages, slot: &mut [u64; 8]) -> Result<(), String> {
        let desc = slot[0];
        if desc >> 2 & 7 != 0 {
            return Err(format!(
                "printf message descriptor {desc:#x} has reserved bits 2-4 set"
            ));
        }
        let len = (desc >> 5 & 7) as usize;
        let id = if desc & 1 != 0 {
            let id = messages.open();
            // BEGIN off, the id in bits 8-63: what the lane sends next.
            slot[0] = (desc & 0xfe) | id << 8;
            id
        } else {
            desc >> 8
        };
        let data = messages.get(id).ok_or_else(|| {
            format!(
                "printf message {id} (descriptor {desc:#x}) is not open: no BEGIN opened it, or \
                 an END closed it"
            )
        })?;
        data.extend_from_slice(&slot[1..1 + len]);
        if desc & 2 == 0 {
            return Ok(());
        }
        let data = messages.close(id);
        let Some((&control, message)) = data.split_first() else {
            return Err(format!("printf message {id} ended empty"));
        };
        // Only bit 0 of the control word is defined (the stream).
        if control & !1 != 0 {
            slot[0] = u64::MAX;
            return Ok(());
        }
        let text = hip_printf_text(message).map_err(|e| format!("printf message {id}: {e}"))?;
        if control == 0 {
            (self.emit)(&text);
        } else {
            use std::io::Write as _;
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
        slot[0] = text.len() as u64;
        Ok(())
    }
}

/// The text of a HIP printf message after its control word: the format
/// string and the arguments (see the module documentation), formatted by
/// [`crate::printf::format_with`].
pub(crate) fn hip_printf_text(message: &[u64]) -> Result<String, String> {
    let bytes: Vec<u8> = message.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bytes = &bytes[..];
    let (format, mut at) =
        c_string(bytes, 0).ok_or("the format string has no NUL in the message's bytes")?;
    let format = String::from_utf8_lossy(&format[..format.len() - 1]).into_owned();
    crate::printf::format_with(&format, |conversion| {
        let (arg, next) = if conversion == 's' {
            c_string(bytes, at).ok_or_else(|| {
                format!(
                    "the string of %s at byte {at} of the message has no NUL in its {} bytes",
                    bytes.len()
                )
            })?
        } else {
            let arg = bytes
                .get(at..at + 8)
                .ok_or_else(|| format!("no argument for %{conversion}"))?;
            (arg, at + 8)
        };
        at = next;
        Ok(arg)
    })
}

/// The NUL-terminated string at byte `at` of `bytes` (its NUL included),
/// and the byte after it and its padding to 8 bytes.
fn c_string(bytes: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let rest = bytes.get(at..)?;
    let n = rest.iter().position(|&b| b == 0)?;
    Some((&rest[..=n], at + (n + 1).next_multiple_of(8)))
}

/// The error of a service the emulator does not serve.
fn unserved(service: u32) -> String {
    let what = match service {
        SERVICE_FUNCTION_CALL => " (a call of a host function)",
        SERVICE_DEVMEM => " (device memory: malloc or free in device code)",
        4 => " (the address sanitizer's reports)",
        _ => "",
    };
    format!(
        "hostcall service {service}{what} is not served by the emulator (only service \
         {SERVICE_PRINTF}, printf, is)"
    )
}

fn hostcall_fault(message: String) -> Fault {
    Fault::new(FaultKind::Hostcall(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of a NUL-terminated string, padded to 8 bytes, as the
    /// device sends it.
    fn string_words(s: &str) -> Vec<u64> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        b.resize(b.len().next_multiple_of(8), 0);
        b.chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// A launch's buffer seen from the device side of the protocol.
    struct Device {
        memory: Memory,
        buffer: HostcallBuffer,
    }

    impl Device {
        fn new(packets: u32) -> Device {
            let memory = Memory::default();
            let buffer = HostcallBuffer::new(&memory, packets).unwrap();
            Device { memory, buffer }
        }

        fn read(&self, at: u64) -> u64 {
            let mut w = [0u8; 8];
            self.memory.read(at, &mut w).unwrap();
            u64::from_le_bytes(w)
        }

        fn write(&self, at: u64, v: u64) {
            self.memory.write(at, &v.to_le_bytes()).unwrap();
        }

        fn field(&self, offset: u64) -> u64 {
            self.read(self.buffer.address() + offset)
        }

        fn header(&self, packet: u64) -> u64 {
            self.field(HEADERS_PTR) + (packet & self.field(INDEX_MASK)) * HEADER_BYTES
        }

        fn slot(&self, packet: u64, lane: u64) -> u64 {
            self.field(PAYLOADS_PTR)
                + (packet & self.field(INDEX_MASK)) * PAYLOAD_BYTES
                + lane * SLOT_BYTES
        }

        /// What `__ockl_hostcall_internal` does before it rings the
        /// doorbell: pops a packet off the free stack, fills it for the
        /// lanes of `exec` (one slot each, in lane order) and pushes it
        /// onto the ready stack. The packet's tagged pointer.
        fn submit(&self, service: u32, exec: u64, slots: &[Vec<u64>]) -> u64 {
            let base = self.buffer.address();
            let packet = self.field(FREE_STACK);
            let header = self.header(packet);
            self.write(base + FREE_STACK, self.read(header));
            self.write(header + 8, exec);
            self.write(header + 16, u64::from(service) | 1 << 32);
            let lanes = (0..64u64).filter(|l| exec >> l & 1 != 0);
            for (lane, slot) in lanes.zip(slots) {
                for (i, &w) in slot.iter().enumerate() {
                    self.write(self.slot(packet, lane) + 8 * i as u64, w);
                }
            }
            self.write(header, self.field(READY_STACK));
            self.write(base + READY_STACK, packet);
            packet
        }

        /// Words 0 and 1 of a lane's slot: the answer.
        fn answer(&self, packet: u64, lane: u64) -> [u64; 2] {
            let s = self.slot(packet, lane);
            [self.read(s), self.read(s + 8)]
        }

        fn ready(&self, packet: u64) -> bool {
            self.read(self.header(packet) + 16) >> 32 & 1 != 0
        }
    }

    /// Runs `f` with a server of `device`'s buffer whose printf text goes
    /// into the returned string.
    fn serving<T>(
        device: &Device,
        f: impl FnOnce(&HostcallServer<'_>, &MemView) -> T,
    ) -> (T, String) {
        let text = Mutex::new(String::new());
        let emit = |t: &str| text.lock().unwrap().push_str(t);
        let server = HostcallServer::new(&device.buffer, &emit);
        let out = f(&server, &device.memory.view());
        drop(server);
        (out, text.into_inner().unwrap())
    }

    /// A printf descriptor: BEGIN, END, the words that follow, the id.
    fn desc(begin: bool, end: bool, len: u64, id: u64) -> u64 {
        u64::from(begin) | u64::from(end) << 1 | len << 5 | id << 8
    }

    #[test]
    fn the_buffer_starts_with_every_packet_free() {
        let d = Device::new(5);
        assert_eq!(d.field(INDEX_MASK), 7);
        assert_eq!(d.field(READY_STACK), 0);
        // The free stack: 7, 6, …, 1, then packet 0 with tag 1.
        let mut top = d.field(FREE_STACK);
        let mut seen = Vec::new();
        while top != 0 {
            seen.push(top);
            top = d.read(d.header(top));
        }
        assert_eq!(seen, [7, 6, 5, 4, 3, 2, 1, 8]);
        // The doorbell: a user signal at value 1 whose mailbox is set.
        let signal = d.field(DOORBELL);
        assert_eq!(d.read(signal), SIGNAL_KIND_USER);
        assert_eq!(d.read(signal + 8), SIGNAL_INIT);
        assert_ne!(d.read(signal + 16), 0);
        assert_eq!(d.read(signal + 24), u64::from(EVENT_ID));
    }

    #[test]
    fn printf_messages_are_assembled_per_lane_and_printed_at_their_end() {
        let d = Device::new(4);
        // Lanes 0 and 5 begin a message each (control word 0: stdout).
        let exec = 1 | 1 << 5;
        let begin = vec![desc(true, false, 1, 0), 0];
        let format = string_words("x=%d s=%s %5.2f|%c\n");
        assert!(format.len() <= 7);
        let fmt = |id: u64| {
            let mut v = vec![desc(false, false, format.len() as u64, id)];
            v.extend(&format);
            v
        };
        let args = |id: u64, x: i32, s: &str, f: f64, c: u8| {
            let s = string_words(s);
            let mut v = vec![
                desc(false, true, 3 + s.len() as u64, id),
                u64::from(x as u32),
            ];
            v.extend(s);
            v.extend([f.to_bits(), u64::from(c)]);
            v
        };
        let (_, text) = serving(&d, |s, mem| {
            let p = d.submit(SERVICE_PRINTF, exec, &[begin.clone(), begin.clone()]);
            assert_eq!(s.serve(mem), Ok(1));
            assert!(!d.ready(p));
            // Each lane got its own id, BEGIN cleared.
            let [a, b] = [d.answer(p, 0)[0], d.answer(p, 5)[0]];
            assert_eq!(a & 0xff, desc(false, false, 1, 0));
            assert_eq!(b & 0xff, desc(false, false, 1, 0));
            assert_ne!(a >> 8, b >> 8);
            // The format string, then the arguments (an int, a string, a
            // double, a char), the last hostcall with END.
            let p = d.submit(SERVICE_PRINTF, exec, &[fmt(a >> 8), fmt(b >> 8)]);
            s.serve(mem).unwrap();
            let p2 = d.submit(
                SERVICE_PRINTF,
                exec,
                &[
                    args(a >> 8, 42, "str", 3.13579, b'q'),
                    args(b >> 8, -7, "", -0.5, b'!'),
                ],
            );
            s.serve(mem).unwrap();
            assert!(!d.ready(p) && !d.ready(p2));
            // The answer at END: the bytes printed.
            assert_eq!(d.answer(p2, 0)[0], "x=42 s=str  3.14|q\n".len() as u64);
            // Both messages ended: an id sent again is not open.
            d.submit(SERVICE_PRINTF, 1, &[vec![desc(false, true, 0, a >> 8)]]);
            assert!(s.serve(mem).unwrap_err().contains("is not open"));
        });
        assert_eq!(text, "x=42 s=str  3.14|q\nx=-7 s= -0.50|!\n");
    }

    #[test]
    fn a_control_word_other_than_a_stream_answers_minus_one() {
        let d = Device::new(2);
        let mut slot = vec![desc(true, true, 3, 0), 4];
        slot.extend(string_words("hi\n"));
        let ((p, r), text) = serving(&d, |s, mem| {
            let p = d.submit(SERVICE_PRINTF, 1, &[slot]);
            (p, s.serve(mem))
        });
        assert_eq!((r, text.as_str()), (Ok(1), ""));
        assert_eq!(d.answer(p, 0)[0], u64::MAX);
    }

    #[test]
    fn other_services_and_damaged_buffers_are_errors() {
        let serve = |d: &Device| serving(d, |s, mem| s.serve(mem)).0.unwrap_err();
        let d = Device::new(2);
        d.submit(SERVICE_DEVMEM, 1, &[vec![0, 64]]);
        let e = serve(&d);
        assert!(
            e.contains("service 3 (device memory") && e.contains("lane 0"),
            "{e}"
        );
        let d = Device::new(2);
        d.submit(9, 2, &[vec![0]]);
        assert!(serve(&d).contains("hostcall service 9 is not served"));
        // Reserved descriptor bits; a message nobody opened.
        let d = Device::new(2);
        d.submit(SERVICE_PRINTF, 1, &[vec![desc(true, false, 0, 0) | 4]]);
        assert!(serve(&d).contains("reserved bits"));
        let d = Device::new(2);
        d.submit(SERVICE_PRINTF, 1, &[vec![desc(false, true, 0, 3)]]);
        assert!(serve(&d).contains("printf message 3"));
        // A format that does not format, a format with no NUL.
        let d = Device::new(2);
        let mut slot = vec![desc(true, true, 2, 0), 0];
        slot.extend(string_words("%d\n"));
        d.submit(SERVICE_PRINTF, 1, &[slot]);
        assert!(serve(&d).contains("no argument for %d"));
        let d = Device::new(2);
        d.submit(
            SERVICE_PRINTF,
            1,
            &[vec![desc(true, true, 2, 0), 0, u64::MAX]],
        );
        assert!(serve(&d).contains("no NUL"));
        // A ready stack whose `next` pointers loop.
        let d = Device::new(2);
        let p = d.submit(SERVICE_PRINTF, 0, &[]);
        d.write(d.header(p), p);
        assert!(serve(&d).contains("twice"));
    }

    #[test]
    fn a_wave_that_waits_for_a_stranded_packet_stops() {
        let d = Device::new(2);
        let mut wave = Wave::new(1, 1);
        let (result, _) = serving(&d, |s, mem| {
            // Nothing READY: sleeping for another reason, never a fault.
            for _ in 0..2 * MAX_IDLE_SLEEPS {
                s.sleep(&mut wave, mem)?;
            }
            // A packet pushed without an interrupt is served at a sleep.
            let p = d.submit(SERVICE_PRINTF, 0, &[]);
            s.sleep(&mut wave, mem)?;
            assert!(!d.ready(p));
            assert_eq!(wave.hostcall_sleeps, 0);
            // A packet READY that nobody pushed: the wave waits in vain.
            let stranded = d.field(FREE_STACK);
            d.write(d.header(stranded) + 16, u64::from(SERVICE_PRINTF) | 1 << 32);
            for _ in 1..MAX_IDLE_SLEEPS {
                s.sleep(&mut wave, mem)?;
            }
            // The interrupt starts the count again.
            s.interrupt(&mut wave, mem)?;
            assert_eq!(wave.hostcall_sleeps, 0);
            for _ in 0..MAX_IDLE_SLEEPS {
                s.sleep(&mut wave, mem)?;
            }
            Ok::<u64, Fault>(stranded & d.field(INDEX_MASK))
        });
        let _ = result.as_ref().map(|p| panic!("no fault (packet {p})"));
        let fault = result.unwrap_err();
        let packet = d.field(FREE_STACK) & d.field(INDEX_MASK);
        assert!(
            matches!(&fault.kind, FaultKind::Hostcall(m)
                if m.contains("waits for an answer") && m.contains(&format!("packet {packet} of"))),
            "{fault:?}"
        );
    }

    #[test]
    fn hip_messages_format_with_c_rules() {
        let mut m = string_words("%*d|%-*d|%.*f|%s|%p\n");
        m.extend([5, 42, (-4i32) as u32 as u64, 7, 2, 1.0f64.to_bits()]);
        m.extend(string_words("abcdefgh"));
        m.push(0xbeef);
        assert_eq!(
            hip_printf_text(&m).unwrap(),
            "   42|7   |1.00|abcdefgh|0xbeef\n"
        );
    }
}
