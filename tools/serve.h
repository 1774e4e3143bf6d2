/*
 * serve.h — what the parts of `h2emv serve` share: the request parsers and
 * router (serve_request.c, no sockets: the fuzz target drives them), the
 * handlers (serve_handlers.c), the background builder and the counters
 * behind /v1/status and /metrics (serve_worker.c). cmd_serve.c wires them
 * to libmicrohttpd.
 */
#ifndef H2EMV_SERVE_H
#define H2EMV_SERVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

struct json_t;
struct textbuf;

/* ------------------------------------------------------------ requests -- */

typedef enum serve_route_id {
	SERVE_OBSERVATIONS = 1, /* POST /v1/observations */
	SERVE_ASK,              /* POST /v1/ask */
	SERVE_SAY,              /* POST /v1/say */
	SERVE_FEEDBACK,         /* POST /v1/feedback */
	SERVE_RULES,            /* GET /v1/rules */
	SERVE_SNAPSHOTS,        /* GET /v1/snapshots */
	SERVE_TREE,             /* GET /v1/tree */
	SERVE_STATUS,           /* GET /v1/status */
	SERVE_METRICS,          /* GET /metrics */
	SERVE_OPENAPI           /* GET /openapi.json (and /v1/openapi.json) */
} serve_route_id;

/* What is wrong with a request: the HTTP status (4xx, or 5xx for our own
 * failures), a short machine-readable code and a sentence for a human. */
typedef struct serve_err {
	int http;
	const char *code;
	char message[600];
} serve_err;

void serve_err_set(serve_err *e, int http, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* {"error":{"code":...,"message":...}}; NULL when out of memory. */
struct json_t *serve_err_json(const serve_err *e);

/* Find the route of `method` `path` (the path without its query). Returns
 * 0 with *out set, or fills `e` (404 unknown route; 405 wrong method, with
 * *allow the method the route takes) and returns -1. */
int serve_route(serve_route_id *out, const char **allow, const char *method, const char *path,
                serve_err *e);
/* The routes, for the OpenAPI test: their count, and route i's path and
 * method. */
size_t serve_route_count(void);
void serve_route_at(size_t i, const char **path, const char **method);
/* Whether the route reads a request body. */
int serve_route_has_body(serve_route_id r);
/* The method the route at `path` takes ("GET", "POST"), NULL when there
 * is no such route (OPTIONS answers with it). */
const char *serve_route_method(const char *path);

/* One observation of a POST /v1/observations body. */
typedef struct serve_obs_item {
	char *json;          /* its text (owned) */
	size_t len;
	uint64_t line;       /* JSON Lines: the body's line; array: the element, 1-based */
	int bad;             /* refused: err says why */
	h2emv_error err;
	uint64_t seq;        /* set once stored (a duplicate: the seq its id has) */
	int duplicate;       /* its id was already stored: nothing stored again */
} serve_obs_item;

typedef struct serve_obs_batch {
	serve_obs_item *items;
	size_t n, cap;
	int array;           /* the body was a JSON array */
} serve_obs_batch;

/* Split a body into observations: a JSON array (when its first non-blank
 * byte is '[') whose elements are each passed on as compact JSON text, else
 * JSON Lines with blank lines skipped. Items are not validated here (the
 * ingest call does it once, naming the line). Returns 0, or -1 with `e`
 * set when the body as a whole is unusable (an array that is not JSON, no
 * observation at all, out of memory). Free with serve_obs_batch_free in
 * any case. */
int serve_parse_observations(serve_obs_batch *out, const char *body, size_t len, serve_err *e);
/* Validate each item (h2emv_obs_validate) without storing: a bad item is
 * marked bad, with its line and message. */
void serve_validate_observations(serve_obs_batch *b);
void serve_obs_batch_free(serve_obs_batch *b);

/* POST /v1/ask {question, at?, snapshot?, trace?}. `at` is a time string
 * (at_text, for cli_when) or microseconds (at_us). */
typedef struct serve_ask_req {
	char *question;      /* owned */
	char *at_text;       /* owned, or NULL */
	h2emv_time at_us;    /* 0 when not given as a number */
	uint64_t snapshot;
	int trace;
} serve_ask_req;

int serve_parse_ask(serve_ask_req *out, const char *body, size_t len, serve_err *e);
void serve_ask_req_free(serve_ask_req *r);

/* POST /v1/say and /v1/feedback: {"text": "..."}; *out is malloc'd. */
int serve_parse_text(char **out, const char *body, size_t len, serve_err *e);

/* GET /v1/tree's query: snapshot (absent/empty = newest) and format
 * (absent = json). Returns 0 or -1 with `e` set. */
int serve_parse_tree_query(uint64_t *snapshot, const char **format, const char *snap_arg,
                           const char *format_arg, serve_err *e);

/* Compare a request's Authorization header with the token, in time that
 * does not depend on where they differ. 1 when it is "Bearer <token>". */
int serve_auth_ok(const char *header, const char *token, size_t token_len);

/* --------------------------------------------- guard (serve_guard.c) -- */

/* Who may talk to the server besides a program that can reach the port
 * (docs/serve.md, "Web pages"): the names a Host header may carry, and
 * the web origins allowed to read and write (--cors). Strings are
 * borrowed (the command line's), valid while the server runs. */
typedef struct serve_guard {
	const char *hosts[40];
	size_t n_hosts;
	const char *cors[32];
	size_t n_cors;
} serve_guard;

/* Add an allowed Host name (no port; IPv6 in brackets) or --cors origin.
 * -1 when the list is full. */
int serve_guard_add_host(serve_guard *g, const char *name);
int serve_guard_add_cors(serve_guard *g, const char *origin);
/* A request's Host and Origin headers (NULL when absent). The Host must
 * name an allowed host (any port or none); an Origin must be the server's
 * own (http or https, an allowed host) or one of the --cors origins, then
 * *cors points to it (else NULL). Returns 0, or -1 with `e` set (403
 * bad_host or bad_origin). */
int serve_guard_check(const char **cors, const serve_guard *g, const char *host,
                      const char *origin, serve_err *e);
/* A body for `route` must be application/json (POST /v1/observations:
 * also application/x-ndjson); parameters such as charset are ignored.
 * Returns 0 (and always for a route without a body), or -1 with `e` set
 * (415 unsupported_media_type). */
int serve_content_type_check(serve_route_id route, const char *ctype, serve_err *e);
/* Whether NAME may be given to --allow-host (letters, digits, '-', '.',
 * '_'; or an IPv6 address in brackets), and ORIGIN to --cors
 * ("http://NAME[:PORT]" or "https://...", nothing after). */
int serve_host_name_valid(const char *name);
int serve_origin_valid(const char *origin);

/* ------------------------------------------------------- state, worker -- */

#define SERVE_LAT_BUCKETS 12

typedef struct serve_batch_mark {
	uint64_t last_seq;
	double received; /* wall clock, seconds */
} serve_batch_mark;

typedef struct serve_state {
	h2emv_mem *mem;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t worker;
	int worker_running;
	int stop;              /* the worker stops at its next safe point */
	int wake;              /* new observations wait */
	double last_ingest;    /* wall clock of the last stored batch */
	unsigned nightly_min;  /* minute of the UTC day for nightly maintenance */
	int nightly_day;       /* the UTC day (days since epoch) it last ran */
	unsigned idle_after;   /* seconds without observations before maintenance */
	int maintenance;       /* 0: never run h2emv_maintain */
	/* batches received and not yet built, oldest first (lag in seconds) */
	serve_batch_mark *marks;
	size_t n_marks, cap_marks;
	/* what the worker is doing: "idle", "building", "maintaining", "stopped",
	 * or SERVE_STATE_DISK_FULL */
	const char *state;
	char last_error[600];  /* "" when none, or when the work that failed succeeded since */
	int last_error_kind;   /* 1 build, 2 maintenance, 0 none */
	double last_error_at;
	char cleared_error[600]; /* the last error that cleared, and when */
	double cleared_at;
	uint64_t compactions_skipped; /* compaction due, its copy did not fit */
	char compact_skipped_why[512];
	double last_maintain;  /* wall clock of the last h2emv_maintain, 0 = never */
	double last_trim;      /* wall clock of the last malloc_trim */
	pthread_t releaser;    /* lets go of the store's mapped pages (serve_worker.c) */
	int releaser_running;
	int releaser_stop;     /* atomic */
	uint64_t page_releases; /* atomic */
	uint64_t heap_trims;
	double started;
	/* counters (under mu) */
	uint64_t obs_received, obs_refused, batches, obs_built, snapshots_built, nodes_forgotten;
	uint64_t builds, build_errors, maintain_runs, gc_runs, compactions, compactions_deferred;
	uint64_t gc_snapshots_dropped, gc_versions_deleted, gc_obs_reclaimed;
	uint64_t questions, question_errors, questions_not_ready, says, feedbacks;
	uint64_t lat_buckets[SERVE_LAT_BUCKETS]; /* cumulative as Prometheus wants at output */
	double lat_sum;
	h2emv_tokens tok_build, tok_forget, tok_ask, tok_say;
	uint64_t http_requests, http_4xx, http_5xx;
	/* request limits */
	size_t max_body;
	/* the disk was full at the last build: the next waits until retry_at */
	int disk_full;
	unsigned backoff;      /* seconds of the current wait */
	double retry_at;
	uint64_t disk_full_waits;
	int full_maintained;   /* maintenance ran since the disk was found full */
	uint64_t full_maintain_runs; /* maintenance runs on a full disk */
	/* metrics of the HTTP side (connections, exports), added to /metrics */
	void (*extra_metrics)(void *ctx, struct textbuf *b);
	void *extra_ctx;
} serve_state;

/* The builder's state while it waits for space, and its longest wait. */
#define SERVE_STATE_DISK_FULL "disk full: waiting for space"
#define SERVE_DISK_FULL_MAX_WAIT 30

extern const double serve_lat_bounds[SERVE_LAT_BUCKETS];

double serve_now(void);
int serve_state_init(serve_state *st, h2emv_mem *mem);
void serve_state_destroy(serve_state *st);
/* Start / stop the background builder. Stop waits for a safe point (after
 * a commit) and joins. */
int serve_worker_start(serve_state *st);
void serve_worker_stop(serve_state *st);
/* 1 while the builder waits for disk space: new batches are refused (507)
 * so that the room left goes to the recovery. */
int serve_waits_for_space(serve_state *st);
/* A batch up to `last_seq` is durable: count it and wake the builder. */
void serve_worker_notify(serve_state *st, uint64_t n_stored, uint64_t n_refused,
                         uint64_t last_seq);
/* How a question ended: answered, refused with an error, or asked before
 * anything was built (409 nothing_built: not a failure of the memory, so
 * counted apart from the errors). */
typedef enum serve_question_end {
	SERVE_Q_ANSWERED,
	SERVE_Q_FAILED,
	SERVE_Q_NOT_READY
} serve_question_end;

/* Count one question that ended as `end` after `seconds` (the latency
 * histogram counts answered ones only). */
void serve_count_question(serve_state *st, double seconds, serve_question_end end,
                          const h2emv_tokens *t);

/* ------------------------------------------------------------ handlers -- */

/* A response: a status, a body (malloc'd) and its type. */
typedef struct serve_reply {
	int status;
	char *body;
	size_t len;
	const char *type;
	const char *allow;     /* for 405 */
	int auth_challenge;    /* for 401: send WWW-Authenticate */
	unsigned retry_after;  /* for 503: seconds, sent as Retry-After */
} serve_reply;

/* Answer one request whose route is known (but GET /v1/tree, streamed by
 * serve_stream.c, and the OpenAPI description). Fills `out` (never fails:
 * an out-of-memory is a 500 with a fixed body). */
void serve_handle(serve_reply *out, serve_state *st, serve_route_id route, const char *body,
                  size_t len);
/* Fill `out` with the JSON error `e`. */
void serve_reply_error(serve_reply *out, const serve_err *e);
/* Fill `out` with `v` (consumed) as compact JSON and status `status`. */
void serve_reply_json(serve_reply *out, int status, struct json_t *v);

/* Text grown piece by piece (the metrics page, a tree export). Zeroed to
 * start; the first failed growth sets `oom` and later additions do
 * nothing; `s` is NUL-terminated once anything was added. */
typedef struct textbuf {
	char *s;
	size_t len, cap;
	int oom;
} textbuf;

void tb_add(textbuf *b, const void *p, size_t n);
void tb_printf(textbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The Prometheus text of /metrics; malloc'd. */
char *serve_metrics_text(serve_state *st, size_t *len);
/* The object of /v1/status. */
struct json_t *serve_status_json(serve_state *st);

#endif
