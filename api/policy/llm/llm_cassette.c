/*
 * llm_cassette.c — recorded exchanges, one JSON object per line, keyed by
 * the XXH3 of the request body: loaded whole and checked line by line for
 * replay (a damaged line is reported by number), appended to one line per
 * exchange when recording. A key recorded several times replays in order.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "api/policy/llm/llm_impl.h"

#define CASSETTE_MAX ((off_t)256 << 20)

typedef struct entry {
	uint64_t key;
	uint64_t line;     /* keeps recorded order among equal keys */
	char *content;
	uint64_t prompt_tokens, completion_tokens;
	uint32_t served;   /* on a run's first entry: replies given so far */
} entry;

struct llm_cassette {
	char *path;
	int fd;            /* record: the file, opened for appending; else -1 */
	pthread_mutex_t lock;
	entry *e;          /* replay: sorted by (key, line) */
	size_t n, cap;
};

const char *llm_cassette_path(const llm_cassette *k)
{
	return k->path;
}

static int cassette_alloc(llm_cassette **out, const char *path, h2emv_error *err)
{
	llm_cassette *k = calloc(1, sizeof *k);
	if (!k || !(k->path = strdup(path))) {
		free(k);
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	}
	k->fd = -1;
	if (pthread_mutex_init(&k->lock, NULL)) {
		free(k->path);
		free(k);
		return llm_fail(NULL, err, H2EMV_ENOMEM, "cannot make a mutex");
	}
	*out = k;
	return H2EMV_OK;
}

void llm_cassette_free(llm_cassette *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	for (size_t i = 0; i < k->n; i++)
		free(k->e[i].content);
	free(k->e);
	free(k->path);
	pthread_mutex_destroy(&k->lock);
	free(k);
}

/* ---------------------------------------------------------------- replay -- */

static int hex_key(const char *s, uint64_t *out)
{
	uint64_t x = 0;
	if (strlen(s) != 16)
		return -1;
	for (int i = 0; i < 16; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	*out = x;
	return 0;
}

static int count_ok(json_t *reply, const char *name, uint64_t *out)
{
	json_t *v = json_object_get(reply, name);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* Check one line and turn it into *e. */
static int parse_line(llm_cassette *k, const char *text, size_t len, uint64_t line, entry *e,
                      h2emv_error *err)
{
	json_error_t je;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	const char *bad = NULL;
	static const char oom[] = "out of memory";
	if (!o) {
		int rc = llm_fail_line(NULL, err, H2EMV_EPARSE, line, "cassette %s line %llu: not JSON: %s",
		                       k->path, (unsigned long long)line, je.text);
		if (err)
			err->column = je.column > 0 ? (uint64_t)je.column : 0;
		return rc;
	}
	json_t *key = json_object_get(o, "key"), *reply = json_object_get(o, "reply");
	json_t *content = json_object_get(reply, "content");
	json_t *decision = json_object_get(o, "decision");
	if (!json_is_object(o))
		bad = "a line must be a JSON object";
	else if (!json_is_string(key) || hex_key(json_string_value(key), &e->key))
		bad = "\"key\" must be 16 lowercase hex digits";
	else if (!json_is_string(decision) || llm_decision_parse(json_string_value(decision)) < 0)
		bad = "\"decision\" must name a decision (group, summarize, relevance, learn, qa, "
		      "route, judge)";
	else if (!json_is_object(json_object_get(o, "request")))
		bad = "\"request\" must be an object";
	else if (!json_is_object(reply) || !json_is_string(content))
		bad = "\"reply\" must be an object with a string \"content\"";
	else if (count_ok(reply, "prompt_tokens", &e->prompt_tokens) ||
	         count_ok(reply, "completion_tokens", &e->completion_tokens))
		bad = "\"reply\" needs non-negative integers \"prompt_tokens\" and \"completion_tokens\"";
	else if (!(e->content = strndup(json_string_value(content), json_string_length(content))))
		bad = oom;
	e->line = line;
	e->served = 0;
	json_decref(o);
	if (bad)
		return llm_fail_line(NULL, err, bad == oom ? H2EMV_ENOMEM : H2EMV_EPARSE, line,
		                     "cassette %s line %llu: %s", k->path, (unsigned long long)line, bad);
	return H2EMV_OK;
}

static int cmp_entry(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

static int load_lines(llm_cassette *k, FILE *f, h2emv_error *err)
{
	char *buf = NULL;
	size_t bufcap = 0;
	ssize_t got;
	uint64_t line = 0;
	int rc = H2EMV_OK;
	while ((got = getline(&buf, &bufcap, f)) >= 0) {
		line++;
		if (blank(buf, (size_t)got))
			continue;
		if (k->n == k->cap) {
			size_t cap = k->cap ? 2 * k->cap : 64;
			entry *a = realloc(k->e, cap * sizeof *a);
			if (!a) {
				rc = llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory loading cassette %s",
				              k->path);
				break;
			}
			k->e = a;
			k->cap = cap;
		}
		entry *e = &k->e[k->n];
		e->content = NULL;
		if ((rc = parse_line(k, buf, (size_t)got, line, e, err))) {
			free(e->content);
			break;
		}
		k->n++;
	}
	if (!rc && ferror(f))
		rc = llm_fail(NULL, err, H2EMV_EIO, "cannot read cassette %s: %s", k->path,
		              strerror(errno));
	free(buf);
	return rc;
}

int llm_cassette_load(llm_cassette **out, const char *path, h2emv_error *err)
{
	*out = NULL;
	llm_cassette *k;
	int rc = cassette_alloc(&k, path, err);
	if (rc)
		return rc;
	struct stat st;
	FILE *f = fopen(path, "rb");
	if (!f)
		rc = llm_fail(NULL, err, H2EMV_EIO, "cannot open cassette %s: %s", path, strerror(errno));
	else if (fstat(fileno(f), &st))
		rc = llm_fail(NULL, err, H2EMV_EIO, "cannot stat cassette %s: %s", path, strerror(errno));
	else if (st.st_size > CASSETTE_MAX)
		rc = llm_fail(NULL, err, H2EMV_ELIMIT, "cassette %s is larger than 256 MiB", path);
	else
		rc = load_lines(k, f, err);
	if (f)
		fclose(f);
	if (rc) {
		llm_cassette_free(k);
		return rc;
	}
	if (k->n)
		qsort(k->e, k->n, sizeof *k->e, cmp_entry);
	*out = k;
	return H2EMV_OK;
}

int llm_cassette_find(llm_cassette *k, uint64_t key, const char **content,
                      uint64_t *prompt_tokens, uint64_t *completion_tokens)
{
	size_t lo = 0, hi = k->n;
	while (lo < hi) { /* the first entry with e.key >= key */
		size_t mid = lo + (hi - lo) / 2;
		if (k->e[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == k->n || k->e[lo].key != key)
		return H2EMV_ENOTFOUND;
	size_t end = lo;
	while (end < k->n && k->e[end].key == key)
		end++;
	pthread_mutex_lock(&k->lock);
	entry *first = &k->e[lo];
	size_t i = lo + (first->served < end - lo ? first->served : end - lo - 1);
	if (first->served < UINT32_MAX)
		first->served++;
	pthread_mutex_unlock(&k->lock);
	*content = k->e[i].content;
	*prompt_tokens = k->e[i].prompt_tokens;
	*completion_tokens = k->e[i].completion_tokens;
	return H2EMV_OK;
}

/* ---------------------------------------------------------------- record -- */

int llm_cassette_open(llm_cassette **out, const char *path, h2emv_error *err)
{
	*out = NULL;
	llm_cassette *k;
	int rc = cassette_alloc(&k, path, err);
	if (rc)
		return rc;
	k->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (k->fd < 0) {
		rc = llm_fail(NULL, err, H2EMV_EIO, "cannot open cassette %s for appending: %s", path,
		              strerror(errno));
		llm_cassette_free(k);
		return rc;
	}
	*out = k;
	return H2EMV_OK;
}

/* The line for one exchange, "\n"-terminated, malloc'd; NULL when out of
 * memory. */
static char *make_line(uint64_t key, int decision, const char *request, const llm_reply *r)
{
	char hex[LLM_KEY_LEN];
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)key);
	json_t *req = json_loads(request, 0, NULL);
	json_t *o = json_object(), *rep = json_object();
	char *s = NULL;
	if (req && o && rep && !json_object_set_new(o, "key", json_string(hex)) &&
	    !json_object_set_new(o, "decision", json_string(llm_decision_name(decision))) &&
	    !json_object_set(o, "request", req) &&
	    !json_object_set_new(rep, "content", json_string(r->content)) &&
	    !json_object_set_new(rep, "prompt_tokens", json_integer((json_int_t)r->prompt_tokens)) &&
	    !json_object_set_new(rep, "completion_tokens",
	                         json_integer((json_int_t)r->completion_tokens)) &&
	    !json_object_set(o, "reply", rep))
		s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(req);
	json_decref(rep);
	json_decref(o);
	if (!s)
		return NULL;
	size_t n = strlen(s);
	char *line = realloc(s, n + 2);
	if (!line) {
		free(s);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = 0;
	return line;
}

/* Every occurrence of `secret` in the line overwritten with '*' (same
 * length, so the line stays valid JSON): a server that echoes the key
 * must not get it into a file. */
static void blank_secret(char *line, const char *secret)
{
	size_t k = secret ? strlen(secret) : 0;
	for (char *p = line; k && (p = strstr(p, secret)); p += k)
		memset(p, '*', k);
}

int llm_cassette_append(llm_cassette *k, uint64_t key, int decision, const char *request,
                        const llm_reply *reply, const char *secret, h2emv_error *err)
{
	char *line = make_line(key, decision, request, reply);
	if (!line)
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory recording to cassette %s",
		                k->path);
	blank_secret(line, secret);
	size_t n = strlen(line), done = 0;
	int rc = H2EMV_OK;
	/* one write per line under the lock, on an O_APPEND descriptor, so
	 * lines from concurrent calls never interleave */
	pthread_mutex_lock(&k->lock);
	while (done < n) {
		ssize_t w = write(k->fd, line + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = llm_fail(NULL, err, errno == ENOSPC ? H2EMV_ENOSPC : H2EMV_EIO,
			              "cannot append to cassette %s: %s", k->path, strerror(errno));
			break;
		}
		done += (size_t)w;
	}
	if (!rc && fsync(k->fd) && errno != EINVAL)
		rc = llm_fail(NULL, err, H2EMV_EIO, "cannot sync cassette %s: %s", k->path,
		              strerror(errno));
	pthread_mutex_unlock(&k->lock);
	free(line);
	return rc;
}
