#ifndef LIFELINE_LOGGEN_CZLIB_SHIM_H
#define LIFELINE_LOGGEN_CZLIB_SHIM_H
#include <zlib.h>
#endif
