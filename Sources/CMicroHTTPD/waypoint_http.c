#include "waypoint_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

struct log_target {
    waypoint_http_log log;
    void *context;
};

// One server per process, so one log target; set before the server starts and never after.
static struct log_target log_target;

struct notice_target {
    waypoint_http_connection_notice notice;
    void *context;
};

// Likewise one target for the connections' notices.
static struct notice_target notice_target;

static void connection_noticed(void *context, struct MHD_Connection *connection, void **socket_context,
                               enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    struct notice_target *target = context;
    if (target->notice != NULL) target->notice(target->context, connection, code == MHD_CONNECTION_NOTIFY_STARTED);
}

static void log_formatted(void *context, const char *format, va_list arguments) {
    struct log_target *target = context;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    if (target->log != NULL) target->log(target->context, message);
}

struct MHD_Daemon *waypoint_http_start(const struct waypoint_http_settings *settings,
                                       MHD_AccessHandlerCallback handler, void *handler_context,
                                       MHD_RequestCompletedCallback completed, void *completed_context,
                                       waypoint_http_connection_notice notice, void *notice_context,
                                       waypoint_http_log log, void *log_context, uint16_t *port) {
    int family = settings->ipv6 ? AF_INET6 : AF_INET;
    socklen_t length = settings->ipv6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int listener = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) return NULL;
    int on = 1;
    // 15 and 78 are IP_FREEBIND and IPV6_FREEBIND (<linux/in.h>, <linux/in6.h>; glibc's headers
    // lack the second).
    if (setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
        || setsockopt(listener, settings->ipv6 ? IPPROTO_IPV6 : IPPROTO_IP, settings->ipv6 ? 78 : 15, &on, sizeof on) != 0
        || bind(listener, settings->address, length) != 0 || listen(listener, (int)settings->connection_limit) != 0) {
        int saved = errno;
        close(listener);
        errno = saved;
        return NULL;
    }
    struct sockaddr_storage bound;
    socklen_t bound_length = sizeof bound;
    getsockname(listener, (struct sockaddr *)&bound, &bound_length);
    *port = ntohs(settings->ipv6 ? ((struct sockaddr_in6 *)&bound)->sin6_port : ((struct sockaddr_in *)&bound)->sin_port);
    log_target.log = log;
    log_target.context = log_context;
    notice_target.notice = notice;
    notice_target.context = notice_context;
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL
                         | MHD_USE_ERROR_LOG;
    if (settings->ipv6) flags |= MHD_USE_IPv6;
    if (settings->tls_certificate_pem != NULL) flags |= MHD_USE_TLS;
    struct MHD_OptionItem options[] = {
        // The logger first, so that the library's messages about the other options reach it.
        {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)log_formatted, &log_target},
        {MHD_OPTION_LISTEN_SOCKET, listener, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->address_limit, NULL},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_noticed, &notice_target},
        {MHD_OPTION_CONNECTION_TIMEOUT, settings->timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->connection_memory_bytes, NULL},
        {MHD_OPTION_THREAD_STACK_SIZE, (intptr_t)settings->thread_stack_bytes, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_context},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)settings->tls_certificate_pem},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)settings->tls_key_pem},
        {MHD_OPTION_END, 0, NULL},
    };
    // Without TLS the certificate options (the last two) must not be passed at all.
    if (settings->tls_certificate_pem == NULL) {
        options[sizeof options / sizeof options[0] - 3].option = MHD_OPTION_END;
    }
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY,
                                                 options, MHD_OPTION_END);
    if (daemon == NULL) {
        int saved = errno;
        close(listener);
        errno = saved;
    }
    return daemon; // which closes the listener when stopped
}

struct MHD_Response *waypoint_http_copied_response(size_t size, const void *bytes) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

int waypoint_http_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

void waypoint_http_client_address(struct MHD_Connection *connection, char *text, size_t size) {
    if (size == 0) return;
    text[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, (socklen_t)size);
    }
}
