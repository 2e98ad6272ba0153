#ifndef CDBUS_SHIM_H
#define CDBUS_SHIM_H
#include <dbus/dbus.h>
#include <sys/eventfd.h>

// libdbus defines its type codes as cast macros (`((int) 'y')`), which Swift does not import.
// These constants carry the same values under names Swift can see.
static const int CDBus_typeInvalid = DBUS_TYPE_INVALID;
static const int CDBus_typeByte = DBUS_TYPE_BYTE;
static const int CDBus_typeBoolean = DBUS_TYPE_BOOLEAN;
static const int CDBus_typeInt16 = DBUS_TYPE_INT16;
static const int CDBus_typeUInt16 = DBUS_TYPE_UINT16;
static const int CDBus_typeInt32 = DBUS_TYPE_INT32;
static const int CDBus_typeUInt32 = DBUS_TYPE_UINT32;
static const int CDBus_typeInt64 = DBUS_TYPE_INT64;
static const int CDBus_typeUInt64 = DBUS_TYPE_UINT64;
static const int CDBus_typeDouble = DBUS_TYPE_DOUBLE;
static const int CDBus_typeString = DBUS_TYPE_STRING;
static const int CDBus_typeObjectPath = DBUS_TYPE_OBJECT_PATH;
static const int CDBus_typeSignature = DBUS_TYPE_SIGNATURE;
static const int CDBus_typeUnixFD = DBUS_TYPE_UNIX_FD;
static const int CDBus_typeArray = DBUS_TYPE_ARRAY;
static const int CDBus_typeVariant = DBUS_TYPE_VARIANT;
static const int CDBus_typeStruct = DBUS_TYPE_STRUCT;
static const int CDBus_typeDictEntry = DBUS_TYPE_DICT_ENTRY;

static const int CDBus_messageTypeMethodCall = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int CDBus_messageTypeMethodReturn = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int CDBus_messageTypeError = DBUS_MESSAGE_TYPE_ERROR;
static const int CDBus_messageTypeSignal = DBUS_MESSAGE_TYPE_SIGNAL;

static const unsigned int CDBus_nameFlagDoNotQueue = DBUS_NAME_FLAG_DO_NOT_QUEUE;

/// The C error struct under a name that does not collide with the Swift `DBusError`.
typedef DBusError CDBus_Error;

/// Appends one string-like basic value (string, object path, signature): libdbus wants the
/// address of a `const char *`, which is awkward to spell from Swift.
static inline dbus_bool_t CDBus_appendStringLike(DBusMessageIter *iter, int type, const char *value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}

/// Appends a byte array in one copy (`ay`), used for secrets so they never pass through a Swift array.
static inline dbus_bool_t CDBus_appendByteArray(DBusMessageIter *array, const void *bytes, int count) {
    return dbus_message_iter_append_fixed_array(array, DBUS_TYPE_BYTE, &bytes, count);
}

/// Reads the elements of a byte array in place; the pointer is valid while the message lives.
static inline const void *CDBus_readByteArray(DBusMessageIter *array, int *count) {
    const void *bytes = NULL;
    dbus_message_iter_get_fixed_array(array, &bytes, count);
    return bytes;
}

/// A non-blocking eventfd that wakes a connection's loop thread (Glibc does not export eventfd to Swift).
static inline int CDBus_makeWakeFD(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
#endif
