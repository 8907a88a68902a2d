// libevent's event loop, buffers and evhttp (`serve`, ChartArchiveServer), loaded on first use.
#include "lazy.h"

#include <sys/types.h>
#include <sys/time.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <event2/thread.h>
#include <event2/util.h>

CHART_ARCHIVE_HIDDEN struct chart_archive_library chart_archive_event_core = {
  "libevent_core-2.1.so.7", 0};
CHART_ARCHIVE_HIDDEN struct chart_archive_library chart_archive_event_extra = {
  "libevent_extra-2.1.so.7", 0};
CHART_ARCHIVE_HIDDEN struct chart_archive_library chart_archive_event_pthreads = {
  "libevent_pthreads-2.1.so.7", 0};

LAZY(chart_archive_event_core, int, bufferevent_decref, (struct bufferevent *bufev), (bufev))
LAZY(chart_archive_event_core, int, bufferevent_disable,
  (struct bufferevent *bufev, short event),
  (bufev, event))
LAZY(chart_archive_event_core, int, bufferevent_enable,
  (struct bufferevent *bufev, short event),
  (bufev, event))
LAZY(chart_archive_event_core, struct evbuffer *, bufferevent_get_input,
  (struct bufferevent *bufev),
  (bufev))
LAZY(chart_archive_event_core, struct evbuffer *, bufferevent_get_output,
  (struct bufferevent *bufev),
  (bufev))
LAZY_VOID(chart_archive_event_core, bufferevent_getcb,
  (struct bufferevent *bufev, bufferevent_data_cb *readcb_ptr, bufferevent_data_cb *writecb_ptr,
    bufferevent_event_cb *eventcb_ptr, void **cbarg_ptr),
  (bufev, readcb_ptr, writecb_ptr, eventcb_ptr, cbarg_ptr))
LAZY(chart_archive_event_core, int, bufferevent_getfd, (struct bufferevent *bufev), (bufev))
LAZY_VOID(chart_archive_event_core, bufferevent_incref, (struct bufferevent *bufev), (bufev))
LAZY(chart_archive_event_core, int, bufferevent_set_timeouts,
  (struct bufferevent *bufev, const struct timeval *timeout_read, const struct timeval
    *timeout_write),
  (bufev, timeout_read, timeout_write))
LAZY_VOID(chart_archive_event_core, bufferevent_setcb,
  (struct bufferevent *bufev, bufferevent_data_cb readcb, bufferevent_data_cb writecb,
    bufferevent_event_cb eventcb, void *cbarg),
  (bufev, readcb, writecb, eventcb, cbarg))
LAZY(chart_archive_event_core, struct bufferevent *, bufferevent_socket_new,
  (struct event_base *base, int fd, int options),
  (base, fd, options))
LAZY_VOID(chart_archive_event_core, bufferevent_trigger,
  (struct bufferevent *bufev, short iotype, int options),
  (bufev, iotype, options))
LAZY(chart_archive_event_core, int, evbuffer_add,
  (struct evbuffer *buf, const void *data, size_t datlen),
  (buf, data, datlen))
LAZY(chart_archive_event_core, struct evbuffer_cb_entry *, evbuffer_add_cb,
  (struct evbuffer *buffer, evbuffer_cb_func cb, void *cbarg),
  (buffer, cb, cbarg))
LAZY(chart_archive_event_core, int, evbuffer_add_reference,
  (struct evbuffer *outbuf, const void *data, size_t datlen, evbuffer_ref_cleanup_cb cleanupfn, void
    *cleanupfn_arg),
  (outbuf, data, datlen, cleanupfn, cleanupfn_arg))
LAZY(chart_archive_event_core, ssize_t, evbuffer_copyout,
  (struct evbuffer *buf, void *data_out, size_t datlen),
  (buf, data_out, datlen))
LAZY(chart_archive_event_core, ssize_t, evbuffer_copyout_from,
  (struct evbuffer *buf, const struct evbuffer_ptr *pos, void *data_out, size_t datlen),
  (buf, pos, data_out, datlen))
LAZY(chart_archive_event_core, int, evbuffer_drain, (struct evbuffer *buf, size_t len), (buf, len))
LAZY_VOID(chart_archive_event_core, evbuffer_free, (struct evbuffer *buf), (buf))
LAZY(chart_archive_event_core, int, evbuffer_freeze,
  (struct evbuffer *buf, int at_front),
  (buf, at_front))
LAZY(chart_archive_event_core, size_t, evbuffer_get_length, (const struct evbuffer *buf), (buf))
LAZY(chart_archive_event_core, struct evbuffer *, evbuffer_new, (void), ())
LAZY(chart_archive_event_core, int, evbuffer_peek,
  (struct evbuffer *buffer, ssize_t len, struct evbuffer_ptr *start_at, struct iovec *vec_out, int
    n_vec),
  (buffer, len, start_at, vec_out, n_vec))
LAZY(chart_archive_event_core, int, evbuffer_ptr_set,
  (struct evbuffer *buffer, struct evbuffer_ptr *ptr, size_t position, enum evbuffer_ptr_how how),
  (buffer, ptr, position, how))
LAZY(chart_archive_event_core, int, evbuffer_remove_cb_entry,
  (struct evbuffer *buffer, struct evbuffer_cb_entry *ent),
  (buffer, ent))
LAZY(chart_archive_event_core, struct evbuffer_ptr, evbuffer_search,
  (struct evbuffer *buffer, const char *what, size_t len, const struct evbuffer_ptr *start),
  (buffer, what, len, start))
LAZY(chart_archive_event_core, int, evbuffer_unfreeze,
  (struct evbuffer *buf, int at_front),
  (buf, at_front))
LAZY(chart_archive_event_core, int, evbuffer_write, (struct evbuffer *buffer, int fd), (buffer, fd))
LAZY(chart_archive_event_core, int, evconnlistener_disable, (struct evconnlistener *lev), (lev))
LAZY(chart_archive_event_core, int, evconnlistener_enable, (struct evconnlistener *lev), (lev))
LAZY_VOID(chart_archive_event_core, evconnlistener_set_error_cb,
  (struct evconnlistener *lev, evconnlistener_errorcb errorcb),
  (lev, errorcb))
LAZY_VOID(chart_archive_event_core, event_active,
  (struct event *ev, int res, short ncalls),
  (ev, res, ncalls))
LAZY(chart_archive_event_core, int, event_add,
  (struct event *ev, const struct timeval *timeout),
  (ev, timeout))
LAZY(chart_archive_event_core, int, event_base_dispatch, (struct event_base *a0), (a0))
LAZY_VOID(chart_archive_event_core, event_base_free, (struct event_base *a0), (a0))
LAZY(chart_archive_event_core, int, event_base_loopexit,
  (struct event_base *a0, const struct timeval *a1),
  (a0, a1))
LAZY(chart_archive_event_core, struct event_base *, event_base_new_with_config,
  (const struct event_config *a0),
  (a0))
LAZY(chart_archive_event_core, int, event_base_once,
  (struct event_base *a0, int a1, short a2, event_callback_fn a3, void *a4, const struct timeval
    *a5),
  (a0, a1, a2, a3, a4, a5))
LAZY(chart_archive_event_core, int, event_base_update_cache_time, (struct event_base *base), (base))
LAZY_VOID(chart_archive_event_core, event_config_free, (struct event_config *cfg), (cfg))
LAZY(chart_archive_event_core, struct event_config *, event_config_new, (void), ())
LAZY(chart_archive_event_core, int, event_config_set_flag,
  (struct event_config *cfg, int flag),
  (cfg, flag))
LAZY_VOID(chart_archive_event_core, event_free, (struct event *a0), (a0))
LAZY(chart_archive_event_core, struct event *, event_new,
  (struct event_base *a0, int a1, short a2, event_callback_fn a3, void *a4),
  (a0, a1, a2, a3, a4))
LAZY(chart_archive_event_core, int, evutil_make_socket_nonblocking, (int sock), (sock))

LAZY(chart_archive_event_extra, struct evhttp_bound_socket *, evhttp_accept_socket_with_handle,
  (struct evhttp *http, int fd),
  (http, fd))
LAZY(chart_archive_event_extra, int, evhttp_add_header,
  (struct evkeyvalq *headers, const char *key, const char *value),
  (headers, key, value))
LAZY(chart_archive_event_extra, struct evconnlistener *, evhttp_bound_socket_get_listener,
  (struct evhttp_bound_socket *bound),
  (bound))
LAZY_VOID(chart_archive_event_extra, evhttp_connection_free,
  (struct evhttp_connection *evcon),
  (evcon))
LAZY(chart_archive_event_extra, struct bufferevent *, evhttp_connection_get_bufferevent,
  (struct evhttp_connection *evcon),
  (evcon))
LAZY(chart_archive_event_extra, struct evhttp *, evhttp_connection_get_server,
  (struct evhttp_connection *evcon),
  (evcon))
LAZY_VOID(chart_archive_event_extra, evhttp_connection_set_closecb,
  (struct evhttp_connection *evcon, void (*a1)(struct evhttp_connection *, void *), void *a2),
  (evcon, a1, a2))
LAZY_VOID(chart_archive_event_extra, evhttp_connection_set_timeout,
  (struct evhttp_connection *evcon, int timeout_in_secs),
  (evcon, timeout_in_secs))
LAZY_VOID(chart_archive_event_extra, evhttp_del_accept_socket,
  (struct evhttp *http, struct evhttp_bound_socket *bound_socket),
  (http, bound_socket))
LAZY_VOID(chart_archive_event_extra, evhttp_free, (struct evhttp *http), (http))
LAZY(chart_archive_event_extra, struct evhttp *, evhttp_new, (struct event_base *base), (base))
LAZY(chart_archive_event_extra, enum evhttp_cmd_type, evhttp_request_get_command,
  (const struct evhttp_request *req),
  (req))
LAZY(chart_archive_event_extra, struct evhttp_connection *, evhttp_request_get_connection,
  (struct evhttp_request *req),
  (req))
LAZY(chart_archive_event_extra, struct evbuffer *, evhttp_request_get_input_buffer,
  (struct evhttp_request *req),
  (req))
LAZY(chart_archive_event_extra, struct evkeyvalq *, evhttp_request_get_input_headers,
  (struct evhttp_request *req),
  (req))
LAZY(chart_archive_event_extra, struct evkeyvalq *, evhttp_request_get_output_headers,
  (struct evhttp_request *req),
  (req))
LAZY(chart_archive_event_extra, const char *, evhttp_request_get_uri,
  (const struct evhttp_request *req),
  (req))
LAZY_VOID(chart_archive_event_extra, evhttp_request_set_on_complete_cb,
  (struct evhttp_request *req, void (*cb)(struct evhttp_request *, void *), void *cb_arg),
  (req, cb, cb_arg))
LAZY_VOID(chart_archive_event_extra, evhttp_send_reply,
  (struct evhttp_request *req, int code, const char *reason, struct evbuffer *databuf),
  (req, code, reason, databuf))
LAZY_VOID(chart_archive_event_extra, evhttp_set_allowed_methods,
  (struct evhttp *http, uint16_t methods),
  (http, methods))
LAZY_VOID(chart_archive_event_extra, evhttp_set_bevcb,
  (struct evhttp *http, struct bufferevent *(*cb)(struct event_base *, void *), void *arg),
  (http, cb, arg))
LAZY_VOID(chart_archive_event_extra, evhttp_set_gencb,
  (struct evhttp *http, void (*cb)(struct evhttp_request *, void *), void *arg),
  (http, cb, arg))
LAZY_VOID(chart_archive_event_extra, evhttp_set_max_body_size,
  (struct evhttp *http, ssize_t max_body_size),
  (http, max_body_size))
LAZY_VOID(chart_archive_event_extra, evhttp_set_max_headers_size,
  (struct evhttp *http, ssize_t max_headers_size),
  (http, max_headers_size))
LAZY_VOID(chart_archive_event_extra, evhttp_set_timeout,
  (struct evhttp *http, int timeout_in_secs),
  (http, timeout_in_secs))

LAZY(chart_archive_event_pthreads, int, evthread_use_pthreads, (void), ())
