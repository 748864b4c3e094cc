// printf: the device libraries write one record per call into the hidden
// printf buffer; the runtime formats them after the launch with the
// format strings of the code object's metadata (amdhsa.printf).

kernel void printf_formats(global const int *in, global int *out)
{
    uint i = get_global_id(0);
    int v = in[i];
    if (i % 16 == 3)
        printf("item %u: %d %5d %-5d| %x %#X %o %c %s %%\n", i, v, v, v, v, v, v & 0777,
               'a' + (int)(i / 16), "str");
    if (i == 7)
        printf("long %ld %lu %lx, short %hd, char %hhd\n", (long)v * 100000007L,
               (ulong)v * 3000000019UL, (ulong)v << 20, (short)v, (char)v);
    if (i % 32 == 5)
        // Products, not quotients: a float division need not be correctly
        // rounded in OpenCL C (gfx803 code is an ulp off), a product is.
        printf("float %f %.2f %e %.3e %g %G %8.3f|\n", (float)v * 0.14285715f,
               (float)v * 0.33333334f, (float)v * 1e10f, (float)v * 1.1111111e-6f,
               (float)v * 0.09090909f, (float)v * 1e-7f, (float)v * 0.07692308f);
    if (i == 9)
        printf("vec %v4hld %v2hlf %v4hhx\n", (int4)(v, -v, 2 * v, 7), (float2)(0.5f, -1.25f),
               (uchar4)(1, 0x7f, 0xab, 255));
    if (i == 0)
        printf("hello from the device\n");
    out[i] = v + 1;
}
