#include "runtime/path_text.h"
#include <string.h>

const char *ws_path_base(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash && slash[1] ? slash + 1 : path ? path : "?";
}
