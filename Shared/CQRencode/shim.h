#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H
// libqrencode makes the QR codes of invitation and address links, drawn in the terminal.
#include <qrencode.h>
#endif
