#ifndef CBENCH_H
#define CBENCH_H
int cbench_placeholder(void);
#endif
