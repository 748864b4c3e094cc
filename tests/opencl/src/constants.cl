// Constant memory: program-scope __constant tables (.rodata) and a
// __constant pointer argument.
#pragma OPENCL FP_CONTRACT OFF

__constant uint crc_table[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
    0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
    0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

__constant float weights[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };

kernel void crc32_nibble(global const uint *in, global uint *out)
{
    uint v = in[get_global_id(0)];
    uint crc = 0xffffffff;
    for (int b = 0; b < 8; b++) {
        crc ^= (v >> (4 * b)) & 15;
        crc = crc_table[crc & 15] ^ (crc >> 4);
    }
    out[get_global_id(0)] = ~crc;
}

kernel void blur5(global const float *in, global float *out, int n)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int k = -2; k <= 2; k++) {
        int j = clamp(i + k, 0, n - 1);
        acc += weights[k + 2] * in[j];
    }
    out[i] = acc;
}

kernel void poly_const(constant float *coeffs, int degree, global const float *in,
                       global float *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    float acc = coeffs[degree];
    for (int k = degree - 1; k >= 0; k--)
        acc = acc * x + coeffs[k];
    out[i] = acc;
}
