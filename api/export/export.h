/*
 * export.h — what the export files share (api/export*.c): a buffered writer
 * over the caller's h2emv_write_fn, and the JSON of one node and of the
 * document's head (docs/formats.md §5, "h2emv-export/1").
 */
#ifndef H2EMV_API_EXPORT_H
#define H2EMV_API_EXPORT_H

#include <jansson.h>

#include "engine/engine.h"
#include "h2emv.h"

struct robot_profile;

#define EXPORT_SCHEMA "h2emv-export/1"

/* Output buffered in 64 KiB pieces. The first failure sticks: later
 * writes do nothing and xw_flush keeps returning EIO. */
typedef struct xw {
	h2emv_write_fn fn;
	void *ctx;
	eng_buf buf;
	eng_buf dump; /* xw_json's scratch */
	int status;
} xw;

int xw_put(xw *w, const void *p, size_t n);
int xw_puts(xw *w, const char *s);
/* Hand what is buffered to the writer; returns the sticky status. */
int xw_flush(xw *w);
/* Dump the object `v` compactly, then, when `extra` is not NULL, add the
 * `extra_len` bytes of JSON text at `extra` inside it, before its closing
 * brace (members, each starting with a comma). With `html` set, '<', '>'
 * and '&' are written as \u003c, \u003e, \u0026 so the text can sit
 * inside a <script> element (they only ever occur inside JSON strings,
 * where the escapes mean the same). Returns the writer's status, or ENOMEM. */
int xw_json(xw *w, const json_t *v, int html, const char *extra, size_t extra_len);

/* What node JSON needs besides the node. */
typedef struct xnode_ctx {
	const struct robot_profile *prof; /* scenes' facts; NULL: the generic mapping */
	int tasks;                        /* the outermost goal is a task fact */
	int no_facts;                     /* leave out facts and observations */
} xnode_ctx;

/* "ID:VERSION" into out (>= 32 bytes); returns out. */
char *export_ref(char *out, h2emv_ref r);
/* "scene", "event", "goal", "summary", "root", "forgotten" or "unknown". */
const char *export_kind_name(int kind);

/* The JSON object of one node (docs/formats.md §5.2) in two parts: the
 * returned object holds its head (ref to extended), and `tail` (emptied
 * first) gets the rest as JSON text to go inside the object after it
 * (xw_json's `extra`): its facts, its children and, for a scene, its
 * observation's canonical JSON. The tail is written as text, not built as
 * objects and dumped: it is most of an export. `parent` may be NULL. NULL
 * when out of memory. */
json_t *export_node_json(xnode_ctx *x, const h2emv_node *n, const char *parent, eng_buf *tail);

/* The head of the document: format, generator, snapshot, config, rules,
 * scope. NULL with `err` filled on failure. */
json_t *export_head_json(h2emv_snap *snap, const h2emv_export_options *o, h2emv_error *err);

#endif
