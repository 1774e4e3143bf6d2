/* serveutil.h — what the tests of `h2emv serve` share (serveutil.c). */
#ifndef H2EMV_SERVEUTIL_H
#define H2EMV_SERVEUTIL_H
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

typedef struct server {
	pid_t pid;
	unsigned port;
	char *dir, *log;
} server;

/* Children (servers, clients) killed by the teardown if a test leaves
 * them: track when started, untrack when waited for. */
void track(pid_t pid);
void untrack(pid_t pid);
/* SIGTERM to what is left, SIGKILL after 10 s. */
void kill_leftovers(void);
/* A cmocka teardown: kill_leftovers. */
int teardown(void **state);
/* In a forked child: die with this program, whatever ends it. */
void die_with_parent(pid_t parent);

/* Start `h2emv serve` on 127.0.0.1:0 with `extra` options (a --listen
 * there wins: clients still connect to 127.0.0.1); read the port from its
 * first line of output. Its stderr goes to s->log. */
void start(server *s, const char *tag, const char *extra);
/* SIGTERM; the exit status (a failure after 60 s). */
int stop(server *s);
void cleanup(server *s);

/* One request over a fresh connection: `head` is the request line and
 * headers, each ending in CRLF, without Content-Length and the blank
 * line. *head_out (when not NULL) gets the answer's status line and
 * headers, *body_out its body (dechunked; both malloc'd). Returns the
 * status, or -1 when there is no answer. */
long http_raw(char **head_out, char **body_out, unsigned port, const char *head,
              const char *body, size_t len);
/* A request as a robot's client sends it: Host 127.0.0.1, a body as
 * application/json (JSON Lines to /v1/observations as
 * application/x-ndjson), and `auth`, a header line without its CRLF, or
 * NULL. */
long http_port(char **body_out, unsigned port, const char *method, const char *path,
               const char *body, size_t len, const char *auth);
/* http_port on the server; fails the test when there is no answer. */
long http(char **body_out, const server *s, const char *method, const char *path,
          const char *body, size_t len, const char *auth);
/* Parse JSON or fail. */
json_t *parse(const char *text);
/* Send a request expecting `status`; the answer as JSON. */
json_t *call(const server *s, long status, const char *method, const char *path,
             const char *body);
/* An error answer with `status` and `code`. */
void expect_error(const server *s, long status, const char *code, const char *method,
                  const char *path, const char *body);
/* The integer at a.b (b may be NULL), or fail. */
json_int_t geti(json_t *o, const char *a, const char *b);
/* Until the builder has folded everything (fails after 120 s). */
void wait_built(const server *s);
/* tests/data/household-sample.jsonl; malloc'd. */
char *sample(size_t *len);
/* A request with Host `host` (NULL: HTTP/1.0 without one) and `extra`
 * header lines (each ending in CRLF); the status (a failure when there is
 * no answer), with *head_out and *body_out as http_raw gives them. */
long raw(char **head_out, char **body_out, const server *s, const char *method,
         const char *path, const char *host, const char *extra, const char *body);
/* A raw request refused with `status` and the JSON error `code`. */
void expect_raw(const server *s, long status, const char *code, const char *method,
                const char *path, const char *host, const char *extra, const char *body);
/* The value of the line "NAME VALUE" of /metrics (NAME with its labels),
 * or -1. */
double metric(const server *s, const char *name);

#endif
