#include "CBench.h"
int cbench_placeholder(void) { return 0; }
