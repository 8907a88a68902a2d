// The system's headers first: libevent's event-config.h defines _GNU_SOURCE, which would give
// this module another struct fd_set than the one Foundation's modules (CDispatch) have, and the
// two then clash ("fds_bits ... is not present in definition of 'fd_set'") in any Swift module
// that imports both. Included first, glibc's features are settled without it.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/time.h>
#include <stdlib.h>
#include <string.h>
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

/// Adds a header to a list as given, without libevent's check of its value: a block of header
/// lines the server made and checked itself (its name the first line's, its value the rest of
/// the first line and every other line, joined by CR LF), which libevent then writes out as one
/// header, "name: value" and CR LF, and frees as its own (with free). 0, or -1 out of memory.
static inline int chart_archive_add_header_lines(struct evkeyvalq *headers, const char *name,
                                                 const char *value) {
  struct evkeyval *header = calloc(1, sizeof(struct evkeyval));
  if (header == NULL) return -1;
  header->key = strdup(name);
  header->value = strdup(value);
  if (header->key == NULL || header->value == NULL) {
    free(header->key);
    free(header->value);
    free(header);
    return -1;
  }
  // TAILQ_INSERT_TAIL, a macro Swift cannot call.
  header->next.tqe_next = NULL;
  header->next.tqe_prev = headers->tqh_last;
  *headers->tqh_last = header;
  headers->tqh_last = &header->next.tqe_next;
  return 0;
}
