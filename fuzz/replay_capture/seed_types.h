/* The structs the struct seed's kernel takes by value (seed_kernels.c,
 * seed_program.c). */
#ifndef WS_FUZZ_SEED_TYPES_H
#define WS_FUZZ_SEED_TYPES_H
typedef struct seed_pair { /* in registers: a float and an int */
    float x;
    int n;
} seed_pair;
typedef struct seed_big { /* by reference: each lane's own copy */
    int v[5];
    float f;
} seed_big;
#endif
