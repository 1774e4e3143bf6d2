/*
 * rules.c — the versioned relevance rules: how a version is stored and
 * read back, which version is in force, and the two ways of making a new
 * one (feedback through the policy, and revert). The bytes of a version
 * are rules_codec.c's business; what a rewrite may drop is rules_repair.c's.
 *
 * Storage. Version N >= 1 is one record in the `rules` database under N as
 * 4 bytes big endian; version 0 is never stored: it is the default rule
 * alone. The record body is a msgpack array of 7:
 *
 *   [0] uint   version (equals the key)
 *   [1] uint   parent: the version it was derived from (< version)
 *   [2] int    created, µs since the epoch
 *   [3] bool   repaired: a rule the rewrite dropped was restored
 *   [4] str    the feedback that made it ("revert to version N" for a revert)
 *   [5] array  the learned rules, one str each, in order. RULE_DEFAULT is not
 *              stored: it is items[0] of every version when read back.
 *   [6] array  tokens spent: [prompt uint, completion uint, calls uint]
 *
 * Any msgpack form of each type reads back (msgpack-c writes the smallest;
 * versions before it wrote str32 and array32 beyond the fix forms).
 * `meta` key "rules_current" holds the version in force as a msgpack array
 * of one fixed-width uint64 (10 bytes). Records are never overwritten. Writing a record is the
 * commit point of a new version; the pointer moves after it, in a second
 * transaction, so a reader takes the pointer and then follows N+1, N+2, ...
 * while they exist: a crash between the two writes loses nothing and
 * leaves no version half made.
 *
 * Concurrency: writers (feedback, revert) take an exclusive flock on
 * <dir>/rules.lock around read-current → learn → write, so two processes
 * (or threads) never both make version N+1; the second waits, then learns
 * from the first one's rules. Readers take no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "api/mem/mem.h"
#include "api/policy/builtin/builtin.h"
#include "api/rules/rules_codec.h"

#define CURRENT_KEY "rules_current"

/* What rules_repair.c gives this one (it has no header of its own). */
int rules_repair(pol_rule_list *out, int *repaired, const char *const *old, size_t n_old,
                 const pol_rule_list *proposed, const char *feedback,
                 h2emv_error *err);                                 /* rules_repair.c */

/* ------------------------------------------------------- reading versions -- */

/* Version 0: the default rule alone. */
static int version_zero(h2emv_rules **out, h2emv_error *err)
{
	h2emv_rules *r = rules_alloc(0);
	if (r)
		r->feedback = strdup("");
	if (!r || !r->feedback) {
		h2emv_rules_free(r);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	*out = r;
	return H2EMV_OK;
}

/* Read version `v` (0 is the default alone) in view `rd`. */
static int load_version(h2emv_rules **out, eng_read *rd, uint32_t v, h2emv_error *err)
{
	if (v == 0)
		return version_zero(out, err);
	uint8_t key[4];
	be32(key, v);
	eng_buf b = { 0 };
	h2emv_error e = { 0 };
	int rc = eng_kv_get(&b, rd, ENG_KV_RULES, key, sizeof key, &e);
	if (rc == H2EMV_OK)
		rc = rules_decode(out, b.data, b.len, v, err);
	else if (rc == H2EMV_ENOTFOUND)
		rc = eng_fail(err, rc, "there is no rules version %u", v);
	else if (err)
		*err = e;
	eng_buf_free(&b);
	return rc;
}

/* Does version v have a record? 1 yes, 0 no, < 0 an error. */
static int version_exists(eng_read *rd, uint32_t v, h2emv_error *err)
{
	uint8_t key[4];
	be32(key, v);
	eng_buf b = { 0 };
	h2emv_error e = { 0 };
	int rc = eng_kv_get(&b, rd, ENG_KV_RULES, key, sizeof key, &e);
	eng_buf_free(&b);
	if (rc == H2EMV_OK)
		return 1;
	if (rc == H2EMV_ENOTFOUND)
		return 0;
	if (err)
		*err = e;
	return rc;
}

/* The version in force: the pointer in meta, then any later versions whose
 * record was written but whose pointer move was lost. */
static int read_current(uint32_t *out, eng_read *rd, h2emv_error *err)
{
	eng_buf b = { 0 };
	h2emv_error e = { 0 };
	uint64_t v = 0;
	int rc = eng_kv_get(&b, rd, ENG_KV_META, CURRENT_KEY, strlen(CURRENT_KEY), &e);
	if (rc == H2EMV_OK) {
		/* put_current writes [v] fixed width: 10 bytes, any other length is damage */
		int d = b.len == 10 ? mp_decode_u64s(&v, 1, b.data, b.len) : H2EMV_ECORRUPT;
		if (d == H2EMV_ENOMEM)
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		else if (d || v > UINT32_MAX)
			rc = eng_fail(err, H2EMV_ECORRUPT, "meta value '%s' is malformed", CURRENT_KEY);
	} else if (rc == H2EMV_ENOTFOUND) {
		rc = H2EMV_OK;
	} else if (err) {
		*err = e;
	}
	eng_buf_free(&b);
	while (rc == H2EMV_OK && v < UINT32_MAX) {
		int x = version_exists(rd, (uint32_t)v + 1, err);
		if (x < 0)
			rc = x;
		else if (x == 0)
			break;
		else
			v++;
	}
	*out = (uint32_t)v;
	return rc;
}

int h2emv_rules_current(uint32_t *out, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_rules_current: bad arguments");
	eng_read *rd;
	int rc = eng_read_begin(&rd, mem->env, err);
	if (rc)
		return rc;
	rc = read_current(out, rd, err);
	eng_read_end(rd);
	return rc;
}

/* Version `v` literally (0 = the default alone), or the current one. */
static int get_version(h2emv_rules **out, h2emv_mem *mem, uint32_t v, int current,
                       h2emv_error *err)
{
	eng_read *rd;
	int rc = eng_read_begin(&rd, mem->env, err);
	if (rc)
		return rc;
	if (current)
		rc = read_current(&v, rd, err);
	if (rc == H2EMV_OK)
		rc = load_version(out, rd, v, err);
	eng_read_end(rd);
	return rc;
}

int h2emv_rules_get(h2emv_rules **out, h2emv_mem *mem, uint32_t version, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_rules_get: bad arguments");
	return get_version(out, mem, version, version == 0, err);
}

int rules_current_list(pol_rule_list *out, uint32_t *version, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "rules_current_list: bad arguments");
	h2emv_rules *r;
	int rc = get_version(&r, mem, 0, 1, err);
	if (rc)
		return rc;
	out->items = r->items;
	out->n = r->n;
	if (version)
		*version = r->version;
	r->items = NULL;
	r->n = 0;
	h2emv_rules_free(r);
	return H2EMV_OK;
}

/* ------------------------------------------------------ writing versions -- */

/* Hold <dir>/rules.lock exclusively; *fd gets the descriptor to close. */
static int lock_rules(int *fd, h2emv_mem *mem, h2emv_error *err)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s/rules.lock", eng_dir(mem->env)) >= (int)sizeof path)
		return eng_fail(err, H2EMV_EINVAL, "the memory's path is too long");
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		return eng_fail(err, errno == EACCES || errno == EROFS ? H2EMV_EREADONLY : H2EMV_EIO,
		                "%s: %s", path, strerror(errno));
	while (flock(*fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			int e = errno;
			close(*fd);
			return eng_fail(err, H2EMV_EIO, "locking %s: %s", path, strerror(e));
		}
	}
	return H2EMV_OK;
}

static int put_current(h2emv_mem *mem, uint32_t v, h2emv_error *err)
{
	eng_buf b = { 0 };
	uint64_t x = v;
	int rc = mp_encode_u64s(&b, &x, 1) ? eng_fail(err, H2EMV_ENOMEM, "out of memory")
	         : eng_kv_put(mem->env, ENG_KV_META, CURRENT_KEY, strlen(CURRENT_KEY), b.data, b.len,
	                      err);
	eng_buf_free(&b);
	return rc;
}

/* Under the lock: the current version, loaded. Also moves the pointer to
 * it, which fails early (before anyone pays for a policy call) when the
 * memory is read-only and mends a pointer a crash left behind. */
static int begin_write(h2emv_rules **cur, h2emv_mem *mem, h2emv_error *err)
{
	int rc = get_version(cur, mem, 0, 1, err);
	if (rc == H2EMV_OK && (rc = put_current(mem, (*cur)->version, err)) != H2EMV_OK) {
		h2emv_rules_free(*cur);
		*cur = NULL;
	}
	if (rc == H2EMV_OK && (*cur)->version == UINT32_MAX) {
		h2emv_rules_free(*cur);
		*cur = NULL;
		rc = eng_fail(err, H2EMV_ELIMIT, "no rules version numbers are left");
	}
	return rc;
}

/* Store `r` (its version = current + 1, under the lock) and move the
 * pointer. The record is the commit: once it is written the version is in
 * force, so a failure to move the pointer afterwards is not reported (the
 * next reader follows the chain and the next writer mends it). */
static int commit(h2emv_mem *mem, const h2emv_rules *r, h2emv_error *err)
{
	eng_read *rd;
	int rc = eng_read_begin(&rd, mem->env, err);
	if (rc)
		return rc;
	int x = version_exists(rd, r->version, err);
	eng_read_end(rd);
	if (x < 0)
		return x;
	if (x > 0)
		return eng_fail(err, H2EMV_EBUSY,
		                "rules version %u was written by someone not holding rules.lock",
		                r->version);
	eng_buf b = { 0 };
	uint8_t key[4];
	be32(key, r->version);
	rc = rules_encode(&b, r, err);
	if (rc == H2EMV_OK)
		rc = eng_kv_put(mem->env, ENG_KV_RULES, key, sizeof key, b.data, b.len, err);
	eng_buf_free(&b);
	if (rc == H2EMV_OK)
		(void)put_current(mem, r->version, NULL);
	return rc;
}

/* A new version after `cur` holding the default and `learned` (taken). */
static int make_version(h2emv_rules **out, const h2emv_rules *cur, pol_rule_list *learned,
                        const char *feedback, int repaired, const pol_usage *u,
                        h2emv_error *err)
{
	h2emv_rules *r = rules_alloc(learned->n);
	if (!r || !(r->feedback = strdup(feedback))) {
		h2emv_rules_free(r);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < learned->n; i++) {
		r->items[r->n++] = learned->items[i];
		learned->items[i] = NULL;
	}
	r->version = cur->version + 1;
	r->parent = cur->version;
	r->created = eng_now_us();
	r->repaired = repaired;
	if (u)
		tokens_add(&r->tokens, u);
	*out = r;
	return H2EMV_OK;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int check_feedback(const char *fb, h2emv_error *err)
{
	size_t n = strlen(fb), i = 0;
	while (i < n && is_space(fb[i]))
		i++;
	if (i == n)
		return eng_fail(err, H2EMV_EINVAL, "the feedback is empty");
	if (!rules_text_ok(fb, n))
		return eng_fail(err, H2EMV_EINVAL,
		                "the feedback must be at most 4 KiB of valid UTF-8 (it is %zu bytes)", n);
	/* whatever the policy: a greeting or thanks is never a rule, and is
	 * refused before a model is asked */
	if (bi_small_talk(fb))
		return eng_fail(err, H2EMV_EINVAL,
		                "not a rule: that is small talk; feedback must say what to remember or "
		                "what may be forgotten, e.g. \"You should always remember where you "
		                "put the keys\"");
	return H2EMV_OK;
}

/* The policy's rules as clean single-line text: whitespace runs (newlines
 * too) become one space, ends trimmed, blank ones dropped. A rule that is
 * not UTF-8 or is too long makes the whole reply unusable. */
static int clean_proposal(pol_rule_list *l, h2emv_error *err)
{
	if (l->n && !l->items)
		return eng_fail(err, H2EMV_EINTERNAL, "the policy returned rules without an array");
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		char *s = l->items[i];
		size_t n = s ? strlen(s) : 0;
		if (s && !rules_text_ok(s, n))
			return eng_fail(err, H2EMV_EPARSE,
			                "the policy's rule %zu is longer than 4 KiB or not UTF-8", i + 1);
		size_t w = 0;
		for (size_t j = 0; j < n; j++) {
			if (!is_space(s[j]))
				s[w++] = s[j];
			else if (w && !is_space(s[j + 1]) && s[j + 1])
				s[w++] = ' ';
		}
		if (w == 0) {
			free(s);
			continue;
		}
		s[w] = '\0';
		l->items[k++] = s;
	}
	l->n = k;
	return H2EMV_OK;
}

static int learn(pol_rule_list *out, int *repaired, pol_usage *u, h2emv_mem *mem,
                 const h2emv_rules *cur, const char *feedback, h2emv_error *err)
{
	h2emv_policy *p = mem->policy;
	if (!p || !p->learn)
		return eng_fail(err, H2EMV_EINTERNAL, "the policy '%s' cannot learn rules",
		                p && p->name ? p->name : "(none)");
	/* The policy sees the rules in force, the default first (as relevance
	 * does); whatever it makes of the default, items[0] stays RULE_DEFAULT. */
	pol_rules old = { (const char *const *)cur->items, cur->n };
	pol_rule_list proposed = { 0 };
	int rc = p->learn(p->ctx, &old, feedback, &proposed, u, err);
	if (rc == H2EMV_OK)
		rc = clean_proposal(&proposed, err);
	if (rc == H2EMV_OK)
		rc = rules_repair(out, repaired, old.items + 1, old.n - 1, &proposed, feedback, err);
	pol_rule_list_free(&proposed);
	return rc;
}

int h2emv_feedback(h2emv_rules **out, h2emv_mem *mem, const char *feedback, h2emv_error *err)
{
	if (!out || !mem || !feedback)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_feedback: bad arguments");
	int fd = -1, rc = check_feedback(feedback, err);
	if (rc == H2EMV_OK)
		rc = lock_rules(&fd, mem, err);
	if (rc)
		return rc;
	h2emv_rules *cur = NULL, *next = NULL;
	pol_rule_list learned = { 0 };
	pol_usage u = { 0 };
	int repaired = 0;
	rc = begin_write(&cur, mem, err);
	if (rc == H2EMV_OK)
		rc = learn(&learned, &repaired, &u, mem, cur, feedback, err);
	if (rc == H2EMV_OK)
		rc = make_version(&next, cur, &learned, feedback, repaired, &u, err);
	if (rc == H2EMV_OK)
		rc = commit(mem, next, err);
	close(fd); /* releases the lock */
	pol_rule_list_free(&learned);
	h2emv_rules_free(cur);
	if (rc) {
		h2emv_rules_free(next);
		return rc;
	}
	*out = next;
	return H2EMV_OK;
}

int h2emv_rules_revert(h2emv_rules **out, h2emv_mem *mem, uint32_t version, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_rules_revert: bad arguments");
	int fd = -1, rc = lock_rules(&fd, mem, err);
	if (rc)
		return rc;
	h2emv_rules *cur = NULL, *old = NULL, *next = NULL;
	char text[48];
	snprintf(text, sizeof text, "revert to version %u", version);
	rc = begin_write(&cur, mem, err);
	if (rc == H2EMV_OK && version > cur->version)
		rc = eng_fail(err, H2EMV_ENOTFOUND, "there is no rules version %u (the current is %u)",
		              version, cur->version);
	if (rc == H2EMV_OK)
		rc = get_version(&old, mem, version, 0, err);
	if (rc == H2EMV_OK) {
		pol_rule_list learned = { old->items + 1, old->n - 1 };
		rc = make_version(&next, cur, &learned, text, 0, NULL, err); /* moves the items */
	}
	if (rc == H2EMV_OK)
		rc = commit(mem, next, err);
	close(fd);
	h2emv_rules_free(cur);
	h2emv_rules_free(old);
	if (rc) {
		h2emv_rules_free(next);
		return rc;
	}
	*out = next;
	return H2EMV_OK;
}
