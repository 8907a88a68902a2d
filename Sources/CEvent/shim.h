// The system's headers first: libevent's event-config.h defines _GNU_SOURCE, which would give
// this module another struct fd_set than the one Foundation's modules (CDispatch) have, and the
// two then clash ("fds_bits ... is not present in definition of 'fd_set'") in any Swift module
// that imports both. Included first, glibc's features are settled without it.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/time.h>
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
