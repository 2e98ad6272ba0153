#ifndef CNOTIFY_SHIM_H
#define CNOTIFY_SHIM_H
#include <libnotify/notify.h>
#endif
