/* Typed-buffer kernels for the emulator's test (tests/typed_buffers.rs):
 * the buffer resources (V#s) are by-value uint4 arguments, used through
 * LLVM's buffer intrinsics, which clang reaches through asm labels. */

float4 load_format(uint4 rsrc, int vindex, int voffset, int soffset, int aux)
    __asm("llvm.amdgcn.struct.buffer.load.format.v4f32");
void store_format(float4 v, uint4 rsrc, int vindex, int voffset, int soffset, int aux)
    __asm("llvm.amdgcn.struct.buffer.store.format.v4f32");
float4 tload(uint4 rsrc, int vindex, int voffset, int soffset, int format, int aux)
    __asm("llvm.amdgcn.struct.tbuffer.load.v4f32");
void tstore(float4 v, uint4 rsrc, int vindex, int voffset, int soffset, int format, int aux)
    __asm("llvm.amdgcn.struct.tbuffer.store.v4f32");
uint atomic_add(uint v, uint4 rsrc, int vindex, int voffset, int soffset, int aux)
    __asm("llvm.amdgcn.struct.buffer.atomic.add.i32");

/* dst[i] = src[i], converted by the formats of the two V#s. */
kernel void convert(uint4 src, uint4 dst) {
    int i = get_global_id(0);
    store_format(load_format(src, i, 0, 0, 0), dst, i, 0, 0, 0);
}

/* The formats from the instruction: [16_16_16_16, FLOAT] in,
 * [10_11_11, FLOAT] out (LLVM's format operand: dfmt | nfmt << 4). */
kernel void tconvert(uint4 src, uint4 dst) {
    int i = get_global_id(0);
    tstore(tload(src, i, 0, 0, 12 | 7 << 4, 0), dst, i, 0, 0, 6 | 7 << 4, 0);
}

/* Every work-item adds its id to counter[i % 4]; old[i] gets the value
 * before its add. */
kernel void count(uint4 counter, global uint *old) {
    int i = get_global_id(0);
    old[i] = atomic_add(i, counter, i % 4, 0, 0, 0);
}
