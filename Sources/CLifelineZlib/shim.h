#ifndef LIFELINE_CZLIB_SHIM_H
#define LIFELINE_CZLIB_SHIM_H
#include <zlib.h>
#endif
