/* Source of the seed with structs by value (make_seeds.sh): one the
 * convention passes in fa and a registers (a float and an int, through a
 * nested struct and an array), one of up to 8 bytes in a registers (a
 * packed struct with a bitfield), one by reference (a union inside), so
 * the fuzzer starts from the loader's struct classification
 * (src/runtime/elf_dwarf_agg.c). */
#include <warpscope/kernel.h>

struct inner { float x[1]; };
struct fp_pair { struct inner in; int n; };
struct __attribute__((packed)) bits { char c; int flags : 5; short s; };
union word { int i; float f; };
struct big { union word w[3]; long long d; };

WS_KERNEL void seed_byval(struct fp_pair p, struct bits b, struct big g, int *out)
{
    out[0] = (int)p.in.x[0] + p.n + b.c + b.flags + b.s + g.w[2].i + (int)g.d;
}
