#ifndef CNOTIFY_SHIM_H
#define CNOTIFY_SHIM_H
#include <libnotify/notify.h>
#include <gio/gio.h>

// Wrappers for GLib macros and variadic functions that Swift cannot call (CONVENTIONS.md "C libraries").

/// The handler type of NotifyNotification's "closed" signal.
typedef void (*CNotify_ClosedHandler)(NotifyNotification *notification, gpointer userData);

/// g_signal_connect_data(notification, "closed", ...): G_CALLBACK is a cast macro.
static inline gulong CNotify_connectClosed(NotifyNotification *notification, CNotify_ClosedHandler handler,
                                           gpointer userData, GClosureNotify destroyUserData) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(handler), userData, destroyUserData,
                                 (GConnectFlags)0);
}

/// The id the server gave the notification (0 before the first show and after it closed); the "id"
/// property is read with the variadic g_object_get.
static inline guint32 CNotify_serverID(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return (guint32)id;
}

/// A synchronous D-Bus call with no argument or one string argument, checked against `replyType`
/// (g_variant_new and G_VARIANT_TYPE are variadic / a cast macro). Returns NULL and sets `error` on failure.
static inline GVariant *CNotify_call(GDBusConnection *connection, const char *destination, const char *path,
                                     const char *interface, const char *method, const char *stringArgument,
                                     const char *replyType, gboolean autoStart, gint timeoutMs,
                                     GError **error) {
    GVariant *parameters = stringArgument != NULL ? g_variant_new("(s)", stringArgument) : NULL;
    return g_dbus_connection_call_sync(connection, destination, path, interface, method, parameters,
                                       G_VARIANT_TYPE(replyType),
                                       autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       timeoutMs, NULL, error);
}

/// G_DBUS_ERROR and G_IO_ERROR are macros over quark functions.
static inline GQuark CNotify_dbusErrorQuark(void) { return G_DBUS_ERROR; }
static inline GQuark CNotify_ioErrorQuark(void) { return G_IO_ERROR; }

#endif
