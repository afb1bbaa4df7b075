/* Self-test input for check_layers.py: checked as if it were a file of the
 * device layer, this include of the runtime must be reported. */
#include "runtime/runtime.h"
