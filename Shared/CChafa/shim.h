#ifndef CCHAFA_SHIM_H
#define CCHAFA_SHIM_H
// chafa draws images in the terminal: kitty, sixel or iTerm2 graphics where the terminal has them,
// Unicode symbols otherwise.
#include <chafa.h>
#endif
