/*
 * serve_stream.c — GET /v1/tree without the document in memory: a thread
 * exports the snapshot (h2emv_snap_export) into a ring of STREAM_RING
 * bytes, waiting while it is full; the response (chunked, its size
 * unknown) drains it from libmicrohttpd's thread, suspending the
 * connection while it is empty and resumed by the exporter when more comes.
 * So an export of any size holds STREAM_RING bytes of the server's memory
 * (plus the library's 64 KiB buffer), however slowly the client reads.
 */
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "tools/serve_http.h"

#define STREAM_RING (256u * 1024u)

typedef struct stream {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *ring;
	size_t r, len;   /* read position and bytes held */
	int done;        /* the export ended */
	int failed;      /* ... with an error: the stream is cut, not ended */
	int cancelled;   /* the response is gone, or the server stops */
	int suspended;   /* the connection waits for bytes (resume it) */
	int refs;        /* the response and the exporter */
	struct MHD_Connection *c;
	h2emv_snap *snap;
	h2emv_mem *mem;        /* its pages let go of behind the export */
	size_t since_release;  /* bytes written since (exporter thread only) */
	h2emv_export_options o;
	void (*done_fn)(void *);
	void *done_arg;
	struct stream *prev, *next; /* every stream, for serve_stream_cancel_all */
} stream;

static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
static stream *all;

static void unref(stream *s)
{
	pthread_mutex_lock(&s->mu);
	int left = --s->refs;
	pthread_mutex_unlock(&s->mu);
	if (left)
		return;
	pthread_mutex_lock(&all_mu);
	if (s->prev)
		s->prev->next = s->next;
	else
		all = s->next;
	if (s->next)
		s->next->prev = s->prev;
	pthread_mutex_unlock(&all_mu);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s->ring);
	free(s);
}

/* Under mu: the connection waits for what just changed. */
static void wake_reader(stream *s)
{
	if (s->suspended) {
		s->suspended = 0;
		MHD_resume_connection(s->c);
	}
}

/* An export reads the whole snapshot: every node's page comes back into
 * the map between two of the releaser's passes (serve_worker.c), so it
 * lets go of them itself, every EXPORT_RELEASE bytes written. */
#define EXPORT_RELEASE (256u * 1024u)

/* The export's writer: into the ring, waiting for room. */
static int ring_write(void *ctx, const void *data, size_t n)
{
	stream *s = ctx;
	const char *p = data;
	s->since_release += n;
	if (s->since_release >= EXPORT_RELEASE) {
		s->since_release = 0;
		h2emv_mem_release_pages(s->mem);
	}
	pthread_mutex_lock(&s->mu);
	while (n && !s->cancelled) {
		if (s->len == STREAM_RING) {
			pthread_cond_wait(&s->cv, &s->mu);
			continue;
		}
		size_t w = (s->r + s->len) % STREAM_RING;
		size_t k = STREAM_RING - s->len;
		if (k > STREAM_RING - w)
			k = STREAM_RING - w; /* up to the ring's end, the rest next turn */
		if (k > n)
			k = n;
		memcpy(s->ring + w, p, k);
		s->len += k;
		p += k;
		n -= k;
		wake_reader(s);
	}
	int rc = s->cancelled ? -1 : 0;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static void *exporter(void *arg)
{
	stream *s = arg;
	h2emv_error err = { 0 };
	int rc = h2emv_snap_export(s->snap, ring_write, s, &s->o, &err);
	h2emv_snap_close(s->snap);
	pthread_mutex_lock(&s->mu);
	s->done = 1;
	s->failed = rc != H2EMV_OK;
	wake_reader(s);
	pthread_mutex_unlock(&s->mu);
	s->done_fn(s->done_arg);
	unref(s);
	return NULL;
}

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	stream *s = cls;
	(void)pos;
	pthread_mutex_lock(&s->mu);
	if (s->len == 0) {
		ssize_t end = s->failed ? MHD_CONTENT_READER_END_WITH_ERROR
		                        : MHD_CONTENT_READER_END_OF_STREAM;
		if (!s->done) {
			/* nothing yet: wait off the event loop until the exporter
			 * resumes us (under mu, so its resume comes after) */
			s->suspended = 1;
			MHD_suspend_connection(s->c);
			end = 0;
		}
		pthread_mutex_unlock(&s->mu);
		return end;
	}
	size_t n = s->len < max ? s->len : max;
	if (n > STREAM_RING - s->r)
		n = STREAM_RING - s->r;
	memcpy(buf, s->ring + s->r, n);
	s->r = (s->r + n) % STREAM_RING;
	s->len -= n;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return (ssize_t)n;
}

static void reader_free(void *cls)
{
	stream *s = cls;
	pthread_mutex_lock(&s->mu);
	s->cancelled = 1;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	unref(s);
}

static stream *stream_new(struct MHD_Connection *c)
{
	stream *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	if (!(s->ring = malloc(STREAM_RING)) || pthread_mutex_init(&s->mu, NULL)) {
		free(s->ring);
		free(s);
		return NULL;
	}
	if (pthread_cond_init(&s->cv, NULL)) {
		pthread_mutex_destroy(&s->mu);
		free(s->ring);
		free(s);
		return NULL;
	}
	s->c = c;
	s->refs = 2;
	return s;
}

static void free_unstarted(stream *s)
{
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s->ring);
	free(s);
}

int serve_stream_tree(struct MHD_Response **resp, struct MHD_Connection *c, h2emv_mem *mem,
                      uint64_t snapshot, const char *format, void (*done)(void *),
                      void *done_arg, serve_err *e)
{
	stream *s = stream_new(c);
	if (!s) {
		serve_err_set(e, 500, "out_of_memory", "out of memory");
		return -1;
	}
	h2emv_error err = { 0 };
	int rc = h2emv_snap_open(&s->snap, mem, snapshot ? snapshot : H2EMV_SNAP_LATEST, &err);
	if (rc) {
		free_unstarted(s);
		if (rc == H2EMV_ENOTFOUND && !snapshot)
			serve_err_set(e, 409, "nothing_built", "nothing has been built yet");
		else
			serve_err_set(e, rc == H2EMV_ENOTFOUND ? 404 : 500,
			              rc == H2EMV_ENOTFOUND ? "not_found" : "internal", "tree: %s",
			              err.message[0] ? err.message : h2emv_strerror(rc));
		return -1;
	}
	s->o = (h2emv_export_options)H2EMV_EXPORT_OPTIONS_INIT;
	s->o.format = !strcmp(format, "dot")    ? H2EMV_EXPORT_DOT
	              : !strcmp(format, "html") ? H2EMV_EXPORT_HTML
	                                        : H2EMV_EXPORT_JSON;
	s->done_fn = done;
	s->done_arg = done_arg;
	s->mem = mem;
	*resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024, reader, s,
	                                          reader_free);
	pthread_t t;
	if (!*resp) {
		h2emv_snap_close(s->snap);
		free_unstarted(s);
		serve_err_set(e, 500, "out_of_memory", "out of memory");
		return -1;
	}
	pthread_mutex_lock(&all_mu);
	s->next = all;
	if (all)
		all->prev = s;
	all = s;
	pthread_mutex_unlock(&all_mu);
	pthread_attr_t at;
	int started = !pthread_attr_init(&at) &&
	              !pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) &&
	              !pthread_create(&t, &at, exporter, s);
	pthread_attr_destroy(&at);
	if (!started) {
		/* the response ends the stream with an error at once */
		h2emv_snap_close(s->snap);
		pthread_mutex_lock(&s->mu);
		s->done = s->failed = 1;
		pthread_mutex_unlock(&s->mu);
		done(done_arg);
		unref(s);
	}
	return 0;
}

void serve_stream_cancel_all(void)
{
	pthread_mutex_lock(&all_mu);
	for (stream *s = all; s; s = s->next) {
		pthread_mutex_lock(&s->mu);
		s->cancelled = 1;
		pthread_cond_signal(&s->cv);
		pthread_mutex_unlock(&s->mu);
	}
	pthread_mutex_unlock(&all_mu);
}
