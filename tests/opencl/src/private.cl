// A private array indexed dynamically: LLVM puts it in scratch memory
// (the scratch buffer resource comes from .scratchsym relocations).

kernel void private_array(global const int *in, global int *out)
{
    int a[64];
    size_t i = get_global_id(0);
    int seed = in[i];
    for (int j = 0; j < 64; j++)
        a[j] = seed * j + (j ^ seed);
    int acc = 0;
    int k = seed & 63;
    for (int j = 0; j < 32; j++) {
        acc += a[k];
        a[(k * 5 + 3) & 63] ^= acc;
        k = (k * 17 + a[k]) & 63;
    }
    out[i] = acc;
}
