/*
 * serve_http.h — `h2emv serve`'s HTTP side over libmicrohttpd: the daemon
 * (a few epoll threads for every connection, serve_http.c), the workers
 * that answer requests which take time off those threads (serve_jobs.c),
 * the watch on slow clients (serve_conn.c) and streamed tree exports
 * (serve_stream.c). serve.h holds what has no socket in it.
 */
#ifndef H2EMV_SERVE_HTTP_H
#define H2EMV_SERVE_HTTP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/serve.h"

struct MHD_Connection;
struct MHD_Daemon;
struct MHD_Response;
struct sockaddr;

/* What a client may take of the server (options of `serve`). */
typedef struct serve_limits {
	unsigned timeout;        /* --timeout: a connection idle this long is closed (s) */
	unsigned header_timeout; /* --header-timeout: the request's headers within (s) */
	unsigned min_rate;       /* --min-rate: a body slower than this (bytes/s) is cut */
	unsigned per_client;     /* --per-client: connections from one address */
	unsigned max_conns;      /* --max-connections */
	unsigned threads;        /* epoll threads of libmicrohttpd */
	unsigned workers;        /* threads answering observations, asks, say, feedback */
	unsigned max_heavy;      /* --max-exports: tree exports streaming at once */
} serve_limits;

/* ------------------------------------------------ workers (serve_jobs.c) -- */

typedef void (*serve_job_fn)(void *arg);
typedef struct serve_jobs serve_jobs;

/* Start `n` threads taking jobs in order. NULL when they cannot start. */
serve_jobs *serve_jobs_start(unsigned n);
/* Queue fn(arg); -1 when more than `max_queued` jobs already wait (the
 * caller answers 503). */
int serve_jobs_submit(serve_jobs *j, serve_job_fn fn, void *arg, size_t max_queued);
/* Run what is queued, then stop and join the threads. */
void serve_jobs_stop(serve_jobs *j);

/* ---------------------------------------- connections (serve_conn.c) -- */

/* Where a connection is: waiting for a request's headers (from its
 * opening or its previous answer), reading a body, or being answered. */
enum { SERVE_CONN_HEADERS, SERVE_CONN_BODY, SERVE_CONN_ANSWER };

typedef struct serve_conns serve_conns;

/* The watch: a thread that cuts, every quarter of a second, a connection
 * whose headers are not in `header_timeout` s after it opened (or after
 * its previous answer) and a body arriving slower than `min_rate` bytes a
 * second once `header_timeout` s have passed. NULL when it cannot start. */
serve_conns *serve_conns_start(const serve_limits *lim);
void serve_conns_stop(serve_conns *w);
/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback (cls: the watch). */
void serve_conns_notify(void *cls, struct MHD_Connection *c, void **socket_ctx, int toe);
/* The connection of request `c` moves to `phase`; `bytes` more of its body
 * came. */
void serve_conns_phase(serve_conns *w, struct MHD_Connection *c, int phase);
void serve_conns_bytes(serve_conns *w, struct MHD_Connection *c, size_t bytes);
/* Connections cut for being slow, refused beyond --per-client, and open
 * now. */
void serve_conns_counts(serve_conns *w, uint64_t *cut_headers, uint64_t *cut_body,
                        uint64_t *refused, unsigned *open);

/* ------------------------------------------------------ server -- */

typedef struct serve_server {
	serve_state st;
	serve_guard guard;
	const char *token; /* NULL: no authentication */
	size_t token_len;
	serve_limits lim;
	serve_jobs *jobs;
	serve_conns *conns;
	pthread_mutex_t mu;
	unsigned inflight;       /* requests begun and not completed */
	unsigned heavy;          /* export requests in flight (until sent or cut) */
	unsigned exporters;      /* export threads running (they hold a snapshot) */
	uint64_t heavy_refused;  /* 503 for an export beyond lim.max_heavy */
	int draining;
} serve_server;

/* Start the daemon on `addr` (v6: an IPv6 address). NULL when it cannot
 * listen (errno may say why). */
struct MHD_Daemon *serve_http_start(serve_server *s, const struct sockaddr *addr, int v6);
/* Stop: refuse new work, let the requests in flight finish (30 s at
 * most), stop the daemon, the workers and the builder. */
void serve_http_drain(serve_server *s, struct MHD_Daemon *d);

/* ------------------------------------------- streams (serve_stream.c) -- */

/* GET /v1/tree as a stream: the snapshot is opened now (so a missing one
 * is still a JSON error, in `e`), then a thread exports it into a bounded
 * buffer that the response (chunked) drains; the connection is suspended
 * while the buffer is empty. *resp is the response to queue. Returns 0,
 * or -1 with `e` set. `done` is called (from any thread) once the stream
 * ends, with `done_arg`. */
int serve_stream_tree(struct MHD_Response **resp, struct MHD_Connection *c, h2emv_mem *mem,
                      uint64_t snapshot, const char *format, void (*done)(void *),
                      void *done_arg, serve_err *e);
/* Ask every stream running to end now (the server stops). */
void serve_stream_cancel_all(void);

/* The OpenAPI description of the routes (docs/openapi.json, embedded at
 * build time), and its length. */
extern const char serve_openapi[];
extern const size_t serve_openapi_len;

#endif
