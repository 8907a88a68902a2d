#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <event2/thread.h>
#include <event2/util.h>

/// The first header of a header list (TAILQ_FIRST, a macro Swift cannot call), or NULL.
static inline struct evkeyval *chart_archive_first_header(struct evkeyvalq *headers) {
  return headers->tqh_first;
}

/// The header after one (TAILQ_NEXT), or NULL.
static inline struct evkeyval *chart_archive_next_header(struct evkeyval *header) {
  return header->next.tqe_next;
}
