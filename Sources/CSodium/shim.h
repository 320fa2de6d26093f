#ifndef MENURANK_CSODIUM_SHIM_H
#define MENURANK_CSODIUM_SHIM_H
#include <sodium.h>
#endif
