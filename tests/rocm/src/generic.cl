// std: CL2.0 (generic pointers: a function not inlined that takes a
// pointer into private, local or global memory alike; the casts to the
// generic address space read the apertures: s_getreg SH_MEM_BASES on
// gfx9, the queue on gfx8 with code object v4, hidden arguments in v5).

__attribute__((noinline)) void bump(int *p, int n, int step)
{
    for (int i = 0; i < n; i++)
        p[i] += step * i;
}

kernel void generic_spaces(global int *out, local int *tmp)
{
    int priv[8];
    int l = get_local_id(0), g = get_global_id(0);
    for (int i = 0; i < 8; i++)
        priv[i] = g + i;
    bump(priv, 8, 3);
    tmp[l] = 10 * g;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    bump(tmp + (l ^ 1), 1, 0);
    if (l % 2 == 0)
        bump(tmp + l, 2, 5);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * g] = priv[g % 8] + priv[(g + 3) % 8];
    out[2 * g + 1] = tmp[l];
    bump(out + 2 * g, 2, 7);
}
