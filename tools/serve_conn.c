/*
 * serve_conn.c — what keeps slow clients from holding `h2emv serve`'s
 * connections: libmicrohttpd closes a connection idle for --timeout, but a
 * client that sends a header line every few seconds is never idle. So each
 * connection is watched here from its opening: its request's headers must
 * be in within --header-timeout seconds (counted again after each answer,
 * for the next request of a kept-alive connection), and a body must then
 * arrive at --min-rate bytes a second at least (averaged, after the same
 * grace). A connection past either is shut down (shutdown(2) on its
 * socket: libmicrohttpd then sees it closed and frees it). Connections
 * being answered are never cut. And one client address may hold at most
 * --per-client connections: one more is shut down as it opens
 * (libmicrohttpd's own per-address limit counts per thread of its pool).
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "tools/serve_http.h"

typedef struct conn {
	int fd;
	int phase;
	int cut;
	double since;  /* when the phase began (monotonic s) */
	uint64_t bytes; /* of the body, in phase BODY */
	unsigned char addr[16]; /* the client's address (IPv4: 4 bytes) */
	int family;
	struct conn *prev, *next;
} conn;

struct serve_conns {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	int stop;
	serve_limits lim;
	conn *head;
	unsigned open;
	uint64_t cut_headers, cut_body, refused;
};

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Under mu: cut what is overdue. */
static void sweep(serve_conns *w, double now)
{
	double grace = w->lim.header_timeout;
	for (conn *k = w->head; k; k = k->next) {
		if (k->cut || k->phase == SERVE_CONN_ANSWER)
			continue;
		double age = now - k->since;
		int slow_head = k->phase == SERVE_CONN_HEADERS && age > grace;
		int slow_body = k->phase == SERVE_CONN_BODY && age > grace &&
		                (double)k->bytes < (double)w->lim.min_rate * age;
		if (!slow_head && !slow_body)
			continue;
		/* the fd is still this connection's: it is closed only after
		 * the notification that takes the record out, under mu */
		shutdown(k->fd, SHUT_RDWR);
		k->cut = 1;
		if (slow_head)
			w->cut_headers++;
		else
			w->cut_body++;
	}
}

static void *watch(void *arg)
{
	serve_conns *w = arg;
	pthread_mutex_lock(&w->mu);
	while (!w->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 250 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
		sweep(w, mono());
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

serve_conns *serve_conns_start(const serve_limits *lim)
{
	serve_conns *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->lim = *lim;
	pthread_condattr_t ca;
	if (pthread_mutex_init(&w->mu, NULL)) {
		free(w);
		return NULL;
	}
	if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_cond_init(&w->cv, &ca)) {
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	pthread_condattr_destroy(&ca);
	if (pthread_create(&w->thread, NULL, watch, w)) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

void serve_conns_stop(serve_conns *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	/* the daemon is stopped: every connection was notified closed */
	while (w->head) {
		conn *k = w->head;
		w->head = k->next;
		free(k);
	}
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

/* The client's address into k (family 0: unknown, never limited). */
static void client_address(conn *k, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (!ci || !ci->client_addr)
		return;
	const struct sockaddr *sa = ci->client_addr;
	if (sa->sa_family == AF_INET) {
		memcpy(k->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		k->family = AF_INET;
	} else if (sa->sa_family == AF_INET6) {
		memcpy(k->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		k->family = AF_INET6;
	}
}

/* Under mu: the connections open (not cut) from k's address. */
static unsigned same_client(const serve_conns *w, const conn *k)
{
	unsigned n = 0;
	size_t len = k->family == AF_INET ? 4 : 16;
	for (const conn *o = w->head; o; o = o->next)
		n += !o->cut && o->family == k->family && !memcmp(o->addr, k->addr, len);
	return n;
}

void serve_conns_notify(void *cls, struct MHD_Connection *c, void **socket_ctx, int toe)
{
	serve_conns *w = cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		conn *k = ci ? calloc(1, sizeof *k) : NULL;
		*socket_ctx = k;
		if (!k)
			return; /* not watched: libmicrohttpd's idle timeout still holds */
		k->fd = ci->connect_fd;
		k->phase = SERVE_CONN_HEADERS;
		k->since = mono();
		client_address(k, c);
		pthread_mutex_lock(&w->mu);
		if (k->family && same_client(w, k) >= w->lim.per_client) {
			shutdown(k->fd, SHUT_RDWR);
			k->cut = 1;
			w->refused++;
		}
		k->next = w->head;
		if (w->head)
			w->head->prev = k;
		w->head = k;
		w->open++;
		pthread_mutex_unlock(&w->mu);
		return;
	}
	conn *k = *socket_ctx;
	if (!k)
		return;
	pthread_mutex_lock(&w->mu);
	if (k->prev)
		k->prev->next = k->next;
	else
		w->head = k->next;
	if (k->next)
		k->next->prev = k->prev;
	w->open--;
	pthread_mutex_unlock(&w->mu);
	free(k);
	*socket_ctx = NULL;
}

static conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

void serve_conns_phase(serve_conns *w, struct MHD_Connection *c, int phase)
{
	conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&w->mu);
	k->phase = phase;
	k->since = mono();
	k->bytes = 0;
	pthread_mutex_unlock(&w->mu);
}

void serve_conns_bytes(serve_conns *w, struct MHD_Connection *c, size_t bytes)
{
	conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&w->mu);
	k->bytes += bytes;
	pthread_mutex_unlock(&w->mu);
}

void serve_conns_counts(serve_conns *w, uint64_t *cut_headers, uint64_t *cut_body,
                        uint64_t *refused, unsigned *open)
{
	pthread_mutex_lock(&w->mu);
	*refused = w->refused;
	*cut_headers = w->cut_headers;
	*cut_body = w->cut_body;
	*open = w->open;
	pthread_mutex_unlock(&w->mu);
}
