// libmicrohttpd (Debian's libmicrohttpd-dev 0.9.75) for waypoint-web. MHD_start_daemon and
// MHD_get_connection_info are variadic, which Swift cannot call, and its error log hands a
// va_list: these wrappers give each a fixed signature. Sources/WebCompanion/HTTPServer.swift
// is their only caller.
#ifndef WAYPOINT_HTTP_H
#define WAYPOINT_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The server's bounds and TLS material; every count is checked by the caller.
struct waypoint_http_settings {
    const struct sockaddr *address; ///< the one address to listen on (IPv4 or IPv6)
    int ipv6;                       ///< nonzero when `address` is an IPv6 address
    unsigned int connection_limit;  ///< connections at once, each with its own thread
    unsigned int address_limit;     ///< connections at once from one client address
    unsigned int timeout_seconds;   ///< a connection quiet this long is closed
    size_t connection_memory_bytes; ///< a connection's buffer: the request line and headers fit in it
    size_t thread_stack_bytes;      ///< each connection thread's stack
    const char *tls_certificate_pem; ///< NULL for plain HTTP
    const char *tls_key_pem;
};

/// Called on the listening thread when a connection is accepted (`started` nonzero) and when
/// it is cleaned up, before its socket is closed (`started` zero).
typedef void (*waypoint_http_connection_notice)(void *context, struct MHD_Connection *connection, int started);

/// Called with each message libmicrohttpd logs, formatted.
typedef void (*waypoint_http_log)(void *context, const char *message);

/// Starts a server with a thread per connection on a socket bound with IP_FREEBIND, so that
/// the address of a network not up yet (the phone's hotspot at boot) can be listened on and
/// starts answering when the interface comes. Sets `*port` to the port bound (the kernel's
/// choice for 0). NULL when it could not (errno says why, and the log callback has the
/// library's words).
struct MHD_Daemon *waypoint_http_start(const struct waypoint_http_settings *settings,
                                       MHD_AccessHandlerCallback handler, void *handler_context,
                                       MHD_RequestCompletedCallback completed, void *completed_context,
                                       waypoint_http_connection_notice notice, void *notice_context,
                                       waypoint_http_log log, void *log_context, uint16_t *port);

/// The connection's socket, or -1.
int waypoint_http_connection_socket(struct MHD_Connection *connection);

/// Writes the client's address (`192.0.2.7`, `2001:db8::1`) as text into `text`, at most
/// `size` bytes with the terminating zero; an empty string when it is not an IP address.
void waypoint_http_client_address(struct MHD_Connection *connection, char *text, size_t size);

/// A response holding a copy of `size` bytes.
struct MHD_Response *waypoint_http_copied_response(size_t size, const void *bytes);

#endif
