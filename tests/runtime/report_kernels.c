/* Kernels whose faults are reported with an inline chain; the later ones
 * claim (#line) source paths long enough that the report must shorten
 * them to keep the kernel's own line. Markers name the lines the test
 * looks for. */
#include <warpscope/kernel.h>

WS_DEVICE void short3(int *p, int i) { p[i] = 1; } /* SHORT3 */
WS_DEVICE void short2(int *p, int i) { short3(p, i + 1); } /* SHORT2 */
WS_DEVICE void short1(int *p, int i) { short2(p, i + 1); } /* SHORT1 */
WS_KERNEL void chain_store(int *p, int i) { short1(p, i); } /* SHORT0 */

#line 1 "/a_project_checked_out_somewhere_deep/subsystem_with_a_long_directory_name_01/subsystem_with_a_long_directory_name_02/subsystem_with_a_long_directory_name_03/subsystem_with_a_long_directory_name_04/subsystem_with_a_long_directory_name_05/subsystem_with_a_long_directory_name_06/deep_kernel_source.c"
WS_DEVICE void level3(int *p, int i) { p[i] = 1; } /* LONGDIR3 */
WS_DEVICE void level2(int *p, int i) { level3(p, i + 1); } /* LONGDIR2 */
WS_DEVICE void level1(int *p, int i) { level2(p, i + 1); } /* LONGDIR1 */
WS_KERNEL void deep_store(int *p, int i) { level1(p, i); } /* LONGDIR0 */
WS_DEVICE void wait_here(unsigned id) { ws_barrier(id); } /* LONGDIR_WAIT */
WS_DEVICE void wait_for(unsigned id) { wait_here(id); }
/* lanes wait at different barriers: a deadlock, reported with where */
WS_KERNEL void deep_deadlock(int *out)
{
    if (threadIdx_x() < 16) wait_for(0); /* LONGDIR_DL */
    else wait_for(1);
    out[threadIdx_x()] = 1;
}

#line 1 "/src/a_source_file_whose_own_name_is_very_long_a_source_file_whose_own_name_is_very_long_a_source_file_whose_own_name_is_very_long_a_source_file_whose_own_name_is_very_long_a_source_file_whose_own_name_is_very_long_end.c"
WS_DEVICE void name3(int *p, int i) { p[i] = 1; } /* LONGNAME3 */
WS_DEVICE void name2(int *p, int i) { name3(p, i + 1); }
WS_DEVICE void name1(int *p, int i) { name2(p, i + 1); }
WS_KERNEL void long_name_store(int *p, int i) { name1(p, i); } /* LONGNAME0 */
