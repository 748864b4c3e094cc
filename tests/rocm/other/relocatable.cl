// A relocatable object as `clang -target amdgcn-- -c` writes it (not linked):
// the tools must name it and say what to do (tests/rocm/compile.sh makes
// other/relocatable-tahiti.o of it).
kernel void k(global int *o)
{
    o[get_global_id(0)] = 1;
}
