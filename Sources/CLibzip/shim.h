#ifndef LIFELINE_CLIBZIP_SHIM_H
#define LIFELINE_CLIBZIP_SHIM_H
#include <zip.h>
#endif
