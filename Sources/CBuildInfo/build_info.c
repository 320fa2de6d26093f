#include "build_info.h"

#ifndef MENURANK_VERSION
#define MENURANK_VERSION "0.0.0-dev"
#endif

const char *menurank_build_version(void) { return MENURANK_VERSION; }
