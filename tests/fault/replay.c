/*
 * replay.c — the disk model of the power-loss simulation. Events of the
 * I/O recorder's log are applied in order: a file keeps every write made
 * before its last completed fsync/fdatasync and every O_DSYNC write that
 * returned; creates, renames and unlinks last only after an fsync of the
 * directory (strict POSIX: ext4 and XFS often persist more, never less),
 * and the later ones persist as a random prefix, as a journaling file
 * system commits them in order. At a cut, each write since its file's last
 * sync is kept, torn (a prefix cut at any byte, or a random subset of its
 * 512-byte sectors) or lost, and the write in flight may be torn.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"

static int push_idx(size_t **a, size_t *n, size_t *cap, size_t v)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		size_t *p = realloc(*a, nc * sizeof *p);
		if (!p)
			return -1;
		*a = p;
		*cap = nc;
	}
	(*a)[(*n)++] = v;
	return 0;
}

/* Put bytes [from, to) of a write (relative to its start) into buf/len. */
static int put(uint8_t **d, size_t *len, size_t *cap, uint64_t off, const uint8_t *data,
               size_t from, size_t to)
{
	if (from >= to)
		return 0;
	size_t end = (size_t)off + to;
	if (end > *cap) {
		size_t nc = *cap ? *cap : 65536;
		while (nc < end)
			nc *= 2;
		uint8_t *p = realloc(*d, nc);
		if (!p)
			return -1;
		*d = p;
		*cap = nc;
	}
	if (end > *len) {
		memset(*d + *len, 0, end - *len);
		*len = end;
	}
	memcpy(*d + off + from, data + from, to - from);
	return 0;
}

static int set_len(uint8_t **d, size_t *len, size_t *cap, size_t nl)
{
	if (nl > *cap) {
		uint8_t *p = realloc(*d, nl);
		if (!p)
			return -1;
		*d = p;
		*cap = nl;
	}
	if (nl > *len)
		memset(*d + *len, 0, nl - *len);
	*len = nl;
	return 0;
}

static fobj *new_file(replay *r, uint64_t ino)
{
	if (r->nfiles == sizeof r->files / sizeof r->files[0])
		return NULL;
	fobj *f = calloc(1, sizeof *f);
	if (f) {
		f->ino = ino;
		r->files[r->nfiles++] = f;
	}
	return f;
}

static fobj *current_file(replay *r, uint64_t ino)
{
	for (size_t i = r->nfiles; i-- > 0;)
		if (r->files[i]->ino == ino)
			return r->files[i];
	return NULL;
}

int replay_is_data_op(uint32_t t)
{
	return t == IOLOG_WRITE || t == IOLOG_DSYNCW || t == IOLOG_TRUNC;
}

/* Split the log into events and bind each to its file incarnation. */
int replay_load(replay *r, const char *path)
{
	memset(r, 0, sizeof *r);
	r->log = fault_slurp(path, &r->loglen);
	if (!r->log) {
		fprintf(stderr, "powercut: cannot read %s\n", path);
		return -1;
	}
	size_t cap = 0;
	for (size_t at = 0; at < r->loglen;) {
		if (r->loglen - at < sizeof(iolog_rec)) {
			fprintf(stderr, "powercut: the log ends inside a record\n");
			return -1;
		}
		iolog_rec hv;
		const iolog_rec *h = &hv;
		memcpy(&hv, r->log + at, sizeof hv);
		size_t need = sizeof *h + h->namelen + (size_t)h->len;
		if (h->magic != IOLOG_MAGIC || r->loglen - at < need || h->namelen > 600) {
			fprintf(stderr, "powercut: a damaged record at byte %zu of the log\n", at);
			return -1;
		}
		if (r->nev == cap) {
			cap = cap ? cap * 2 : 1024;
			event *p = realloc(r->ev, cap * sizeof *p);
			if (!p)
				return -1;
			r->ev = p;
		}
		event *e = &r->ev[r->nev];
		memset(e, 0, sizeof *e);
		e->h = hv;
		if (h->namelen) {
			char *nm = malloc(h->namelen + 1);
			if (!nm)
				return -1;
			memcpy(nm, r->log + at + sizeof *h, h->namelen);
			nm[h->namelen] = 0;
			e->name = nm;
		}
		e->data = (const uint8_t *)r->log + at + sizeof *h + h->namelen;
		switch (h->type) {
		case IOLOG_BASE:
		case IOLOG_CREATE:
			e->f = new_file(r, h->ino);
			if (!e->f)
				return -1;
			break;
		case IOLOG_SNAPSHOT:
			e->f = current_file(r, h->ino);
			if (!e->f) {
				e->f = new_file(r, h->ino);
				e->implicit_create = 1;
			}
			if (!e->f)
				return -1;
			break;
		case IOLOG_WRITE:
		case IOLOG_DSYNCW:
		case IOLOG_TRUNC:
		case IOLOG_SYNC:
			e->f = h->ino ? current_file(r, h->ino) : NULL;
			if (h->ino && !e->f) /* a file unknown to the directory: give it a body */
				e->f = new_file(r, h->ino);
			if (h->ino && !e->f)
				return -1;
			break;
		case IOLOG_ACK: {
			size_t before = r->nacks;
			if (fault_parse_acks(&r->acks, &r->nacks, &r->capacks, (const char *)e->data,
			                     (size_t)h->len))
				return -1;
			size_t *p = realloc(r->ack_at, (r->capacks ? r->capacks : 1) * sizeof *p);
			if (!p)
				return -1;
			r->ack_at = p;
			for (size_t i = before; i < r->nacks; i++)
				r->ack_at[i] = r->nev;
			unsigned long long cursor;
			if (sscanf((const char *)e->data, "built %llu", &cursor) == 1) {
				uint64_t *b = realloc(r->built, (r->nbuilt + 1) * sizeof *b);
				size_t *ba = b ? realloc(r->built_at, (r->nbuilt + 1) * sizeof *ba) : NULL;
				if (b)
					r->built = b;
				if (!ba)
					return -1;
				r->built_at = ba;
				r->built[r->nbuilt] = cursor;
				r->built_at[r->nbuilt++] = r->nev;
			}
			break;
		}
		default: break;
		}
		at += need;
		r->nev++;
	}
	return 0;
}

static int apply_full(fobj *f, const event *e)
{
	if (e->h.type == IOLOG_TRUNC)
		return set_len(&f->d, &f->len, &f->cap, (size_t)e->h.off);
	return put(&f->d, &f->len, &f->cap, e->h.off, e->data, 0, (size_t)e->h.len);
}

static int make_durable(fobj *f, const replay *r)
{
	for (size_t i = 0; i < f->npend; i++)
		if (apply_full(f, &r->ev[f->pend[i]]))
			return -1;
	f->npend = 0;
	return 0;
}

static nsent *ns_find(names *ns, const char *name)
{
	for (size_t i = 0; i < ns->n; i++)
		if (!strcmp(ns->e[i].name, name))
			return &ns->e[i];
	return NULL;
}

static void ns_remove(names *ns, const char *name)
{
	nsent *e = ns_find(ns, name);
	if (e)
		*e = ns->e[--ns->n];
}

static int ns_link(names *ns, const char *name, fobj *f)
{
	nsent *e = ns_find(ns, name);
	if (!e) {
		if (ns->n == sizeof ns->e / sizeof ns->e[0] || strlen(name) >= sizeof e->name)
			return -1;
		e = &ns->e[ns->n++];
		strcpy(e->name, name);
	}
	e->f = f;
	return 0;
}

/* Apply one directory change to a name table. */
static int dir_apply(names *ns, const event *e)
{
	switch (e->h.type) {
	case IOLOG_BASE:
	case IOLOG_CREATE:
	case IOLOG_SNAPSHOT: return ns_link(ns, e->name, e->f);
	case IOLOG_UNLINK: ns_remove(ns, e->name); return 0;
	case IOLOG_RENAME: {
		const char *old = e->name, *new = e->name + strlen(e->name) + 1;
		nsent *o = ns_find(ns, old);
		if (!o) /* its create is not durable yet: the rename cannot be either */
			return 0;
		fobj *f = o->f;
		ns_remove(ns, old);
		return ns_link(ns, new, f);
	}
	default: return 0;
	}
}

int replay_is_dir_op(const event *e)
{
	return e->h.type == IOLOG_CREATE || e->h.type == IOLOG_RENAME ||
	       e->h.type == IOLOG_UNLINK || (e->h.type == IOLOG_SNAPSHOT && e->implicit_create);
}

/* Move the durable state forward to just before event `to`. */
int replay_advance(replay *r, size_t to)
{
	for (; r->pos < to; r->pos++) {
		const event *e = &r->ev[r->pos];
		if (replay_is_dir_op(e) && push_idx(&r->dirpend, &r->ndirpend, &r->capdirpend, r->pos))
			return -1;
		switch (e->h.type) {
		case IOLOG_BASE:
			if (put(&e->f->d, &e->f->len, &e->f->cap, 0, e->data, 0, (size_t)e->h.len) ||
			    dir_apply(&r->durable, e))
				return -1;
			break;
		case IOLOG_WRITE:
		case IOLOG_DSYNCW:
		case IOLOG_TRUNC:
			if (push_idx(&e->f->pend, &e->f->npend, &e->f->cappend, r->pos))
				return -1;
			break;
		case IOLOG_SYNC:
			for (size_t i = 0; i < r->nfiles; i++)
				if ((!e->f || r->files[i] == e->f) && make_durable(r->files[i], r))
					return -1;
			break;
		case IOLOG_SNAPSHOT:
			e->f->npend = 0;
			e->f->len = 0;
			if (put(&e->f->d, &e->f->len, &e->f->cap, 0, e->data, 0, (size_t)e->h.len))
				return -1;
			break;
		case IOLOG_DIRSYNC:
			for (size_t i = 0; i < r->ndirpend; i++)
				if (dir_apply(&r->durable, &r->ev[r->dirpend[i]]))
					return -1;
			r->ndirpend = 0;
			break;
		default: break;
		}
	}
	return 0;
}

/* A torn write: a prefix cut at any byte, or a random subset of its
 * 512-byte sectors (as a disk may reorder them). */
static int apply_torn(uint8_t **d, size_t *len, size_t *cap, const event *e, uint64_t *rng)
{
	size_t n = (size_t)e->h.len;
	if (n == 0)
		return 0;
	if (fault_below(rng, 2) == 0)
		return put(d, len, cap, e->h.off, e->data, 0, (size_t)fault_below(rng, n));
	uint64_t off = e->h.off;
	size_t from = 0;
	while (from < n) {
		size_t to = (size_t)(((off + from) / 512 + 1) * 512 - off);
		if (to > n)
			to = n;
		if (fault_below(rng, 2) && put(d, len, cap, off, e->data, from, to))
			return -1;
		from = to;
	}
	return 0;
}

/* Write the directory as it could be found after losing power just before
 * event r->pos (which was in flight). */
int replay_materialize(replay *r, const char *dir, uint64_t *rng)
{
	names ns = r->durable;
	size_t keep = r->ndirpend ? (size_t)fault_below(rng, r->ndirpend + 1) : 0;
	r->dirops_dropped += r->ndirpend - keep;
	for (size_t i = 0; i < keep; i++)
		if (dir_apply(&ns, &r->ev[r->dirpend[i]]))
			return -1;
	const event *inflight = r->pos < r->nev ? &r->ev[r->pos] : NULL;
	uint8_t *d = NULL;
	size_t cap = 0;
	for (size_t k = 0; k < ns.n; k++) {
		fobj *f = ns.e[k].f;
		size_t len = f->len;
		if (len + 1 > cap) {
			uint8_t *p = realloc(d, len + 1);
			if (!p)
				return -1;
			d = p;
			cap = len + 1;
		}
		memcpy(d, f->d, len);
		for (size_t i = 0; i < f->npend; i++) {
			const event *e = &r->ev[f->pend[i]];
			uint64_t x = fault_below(rng, 100);
			int rc = 0;
			if (e->h.type == IOLOG_DSYNCW) { /* returned, so on the disk */
				rc = put(&d, &len, &cap, e->h.off, e->data, 0, (size_t)e->h.len);
			} else if (e->h.type == IOLOG_TRUNC) {
				if (x < 50)
					rc = set_len(&d, &len, &cap, (size_t)e->h.off);
			} else if (x < 45) {
				r->writes_kept++;
				rc = put(&d, &len, &cap, e->h.off, e->data, 0, (size_t)e->h.len);
			} else if (x < 70) {
				r->writes_torn++;
				rc = apply_torn(&d, &len, &cap, e, rng);
			} else {
				r->writes_dropped++;
			}
			if (rc)
				return -1;
		}
		if (inflight && inflight->f == f &&
		    (inflight->h.type == IOLOG_WRITE || inflight->h.type == IOLOG_DSYNCW) &&
		    fault_below(rng, 2)) {
			r->inflight_torn++;
			if (apply_torn(&d, &len, &cap, inflight, rng))
				return -1;
		}
		char path[4600];
		snprintf(path, sizeof path, "%s/%s", dir, ns.e[k].name);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || (len && write(fd, d, len) != (ssize_t)len) || close(fd) != 0) {
			fprintf(stderr, "powercut: writing %s: %s\n", path, strerror(errno));
			free(d);
			return -1;
		}
	}
	free(d);
	return 0;
}

/* After the whole log, with every write and directory change applied, the
 * rebuilt files must equal the live ones: the recorder saw every change
 * (lock files aside: LMDB writes its own through a mapping and rebuilds it
 * on open). */
int replay_self_test(replay *r, const char *mem)
{
	if (replay_advance(r, r->nev))
		return -1;
	if (r->ndirpend) /* not wrong in itself: the cuts show whether it matters */
		printf("powercut: note: %zu directory changes were never followed by a directory "
		       "sync\n",
		       r->ndirpend);
	names all = r->durable;
	for (size_t i = 0; i < r->ndirpend; i++)
		if (dir_apply(&all, &r->ev[r->dirpend[i]]))
			return -1;
	int bad = 0;
	for (size_t k = 0; k < all.n; k++) {
		const nsent *e = &all.e[k];
		if (strstr(e->name, "lock")) /* lock files: written through mappings */
			continue;
		fobj *f = e->f;
		if (make_durable(f, r))
			return -1;
		char path[4600];
		snprintf(path, sizeof path, "%s/%s", mem, e->name);
		size_t len;
		char *live = fault_slurp(path, &len);
		if (!live || len != f->len || memcmp(live, f->d, len)) {
			fprintf(stderr, "powercut: SELF-TEST: the replayed %s (%zu bytes) differs from "
			                "the live file (%zu bytes): the recorder missed a change\n",
			        e->name, f->len, live ? len : 0);
			bad = 1;
		}
		free(live);
	}
	return bad ? -1 : 0;
}
