#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H
#include <sys/prctl.h>
#include <sys/resource.h>

/// prctl is variadic, which Swift cannot call: PR_SET_DUMPABLE 0 stops core dumps and ptrace
/// attachment by other processes of the same user, for processes that hold secrets.
static inline int CSystem_setDumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int CSystem_isDumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}
#endif
