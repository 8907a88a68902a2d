vcl 4.1;
# Varnish 7.1 in front of several `chart-archive serve` replicas, each serving its own read-only
# copy of the archive (docs/operations.md, "Many readers").
#
# - Caches what serve marks cacheable (`Cache-Control: public, max-age=N`, with an ETag) and keeps
#   an expired answer for a day to revalidate it: Varnish asks the backend with `If-None-Match`,
#   and a 304 refreshes the cached answer without sending it again.
# - A dated snapshot (max-age of an hour or more) stays as long as serve says. An answer about the
#   latest state (the feed, the charts, search: max-age under an hour) stays at most
#   `latest_ttl` in Varnish, so a new chart reaches readers within seconds of the replicas'
#   swap, while clients still keep it for the max-age serve gave.
# - Never caches uploads or other writes, requests with `Authorization`, or answers marked
#   `no-store` (errors, the health check); an error the backend sends without `no-store` is kept
#   at most two seconds.
# - Balances over the replicas round robin, each checked on /api/health; a request a replica
#   fails to answer is asked of the next one.
# - A `BAN` request from this machine drops every cached answer under its path (`BAN /` drops
#   all), for an operator who wants a new chart seen at once.
#
# The backends below are examples: one block per replica, each added to the director in vcl_init.

import directors;

probe health {
  .url = "/api/health";
  .interval = 2s;
  .timeout = 1s;
  .window = 3;
  .threshold = 2;
}

# BACKENDS (one per replica)
backend replica1 {
  .host = "127.0.0.1";
  .port = "8081";
  .probe = health;
  .connect_timeout = 1s;
  .first_byte_timeout = 10s;
}

backend replica2 {
  .host = "127.0.0.1";
  .port = "8082";
  .probe = health;
  .connect_timeout = 1s;
  .first_byte_timeout = 10s;
}
# END BACKENDS

acl banning {
  "127.0.0.1";
  "::1";
}

sub vcl_init {
  new replicas = directors.round_robin();
  # DIRECTOR (one line per replica)
  replicas.add_backend(replica1);
  replicas.add_backend(replica2);
  # END DIRECTOR
}

sub vcl_recv {
  set req.backend_hint = replicas.backend();
  if (req.method == "BAN") {
    if (!(client.ip ~ banning)) {
      return (synth(403, "Forbidden"));
    }
    ban("obj.http.X-Cached-URL ~ ^" + req.url);
    return (synth(200, "Banned"));
  }
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  if (req.http.Authorization) {
    return (pass);
  }
  # serve answers no cookie; a client's cookies must not split the cache.
  unset req.http.Cookie;
  return (hash);
}

sub vcl_backend_response {
  # Kept for bans that test the URL without a request (ban lurker friendly).
  set beresp.http.X-Cached-URL = bereq.url;
  if (beresp.status >= 400) {
    if (beresp.ttl > 2s) {
      set beresp.ttl = 2s;
    }
    set beresp.grace = 0s;
    set beresp.keep = 0s;
    return (deliver);
  }
  if (beresp.http.Cache-Control ~ "no-store") {
    set beresp.uncacheable = true;
    set beresp.ttl = 10s;
    return (deliver);
  }
  if (beresp.ttl < 1h && beresp.ttl > 5s) {
    # latest_ttl: an answer about the latest state is asked of a replica again every 5 s.
    set beresp.ttl = 5s;
  }
  set beresp.grace = 5s;
  # Expired answers are kept a day and revalidated with their ETag.
  set beresp.keep = 1d;
  return (deliver);
}

sub vcl_backend_error {
  # A replica that does not answer (stopped, before its health check says so): the next one.
  if (bereq.retries < 1) {
    return (retry);
  }
}

sub vcl_deliver {
  unset resp.http.X-Cached-URL;
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
