#ifndef CUTF8PROC_SHIM_H
#define CUTF8PROC_SHIM_H
// utf8proc: grapheme cluster breaks and East Asian widths for the terminal UI (CONVENTIONS.md
// "C libraries"): text width comes from Unicode's data, never from a table of our own.
#include <utf8proc.h>
#endif
