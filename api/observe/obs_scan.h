/*
 * obs_scan.h — the observation reader's JSON scanner (api/obs_scan.c) and
 * what the reader shares between its files (api/obs_parse.c, the entry
 * point, errors and the top-level fields; api/obs_parse_scene.c, the scene
 * fields). Not installed.
 */
#ifndef H2EMV_OBS_SCAN_H
#define H2EMV_OBS_SCAN_H

#include <stdint.h>

#include <msgpack.h>

#include "api/observe/obs_internal.h"
#include "engine/engine.h"

/* ------------------------------------------------------------ tokens -- */

enum os_type { OS_OBJECT = 1, OS_ARRAY, OS_STRING, OS_INT, OS_REAL, OS_TRUE, OS_FALSE, OS_NULL };

/* One JSON value, in document order. A container's members follow it
 * (for objects: key token, value, key token, value...); `next` is the
 * index just past the value and everything it holds. */
typedef struct os_tok {
	const char *s; /* strings and keys: the decoded bytes (no NUL inside) */
	uint32_t n;    /* strings: bytes; containers: members or items */
	uint32_t next;
	uint8_t type;
	union {
		int64_t i;
		double d;
	} v;
} os_tok;

#define OS_LOCAL_TOKENS 192
#define OS_LOCAL_SCRATCH 2048
/* jansson's limit (JSON_PARSER_MAX_DEPTH): a scalar counts as a level. */
#define OS_MAX_DEPTH 2048

/* The tokens of one document. Small documents (a robot's observation)
 * live entirely in the struct, on the caller's stack; bigger ones spill to
 * the heap. os_doc_free releases what was spilled. */
typedef struct os_doc {
	os_tok *tok;
	size_t ntok, cap;
	char *scratch; /* decoded strings that had escapes */
	size_t scratch_len;
	os_tok local_tok[OS_LOCAL_TOKENS];
	char local_scratch[OS_LOCAL_SCRATCH];
} os_doc;

/* Tokenize text[0..len) (no NUL byte in it) with jansson's rules as the
 * observation reader uses them: strict JSON, any top-level value, strict
 * UTF-8, no \u0000, no lone surrogate, integers within int64, finite
 * reals, no duplicate key, at most OS_MAX_DEPTH levels. Returns 0, 1 when
 * the text is not such JSON, or H2EMV_ENOMEM. `d` is initialised here;
 * call os_doc_free whatever the result. */
int os_scan(os_doc *d, const char *text, size_t len);
void os_doc_free(os_doc *d);

/* Report the JSON error os_scan found, worded as the reference reader
 * words it (status, column, field and jansson's detail). */
int os_syntax_error(h2emv_error *err, const char *text, size_t len, uint64_t line);

/* ------------------------------------------------ the reader's state -- */

typedef struct octx {
	h2emv_error *err;
	uint64_t line;
	const char *text;
	size_t len;
	const os_tok *tok;
	eng_buf *out;
	msgpack_packer pk;
	int nomem;
	int64_t t;
	char *id;
	size_t *id_len;
	obs_path path;
} octx;

/* Fail at the current path; `at_key`: point at the key of the last
 * component. The column is found in the text (obs_locate). */
int op_fail_at(octx *c, int status, int at_key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define op_fail(c, status, ...) op_fail_at(c, status, 0, __VA_ARGS__)

const char *op_type(const os_tok *v);
int op_clip(const char *s, size_t n, size_t max);

/* Members of object `o` sorted into the slots of names[0..n): slot[k] is
 * the index of the value of names[k], 0 when absent (a value is never
 * token 0). An unknown member is an error ("unknown field"). */
int op_slots(octx *c, uint32_t o, const char *const *names, size_t n, const char *what,
             uint32_t *slot);
/* Is slot `v` present and not null (null counts as absent)? */
int op_has(const octx *c, uint32_t v);
/* Slot `v` must be present (null included); error at `name` otherwise. */
int op_require(octx *c, uint32_t v, const char *name, const char *what);

void op_pack_strn(octx *c, const char *s, size_t n);
int op_check_strn(octx *c, size_t n, int ident);
int op_check_items(octx *c, size_t n);
int op_put_ident(octx *c, uint32_t v);
int op_put_text(octx *c, uint32_t v);
/* Run `fn` on value `v` with the path at member `name`. */
int op_put_member(octx *c, uint32_t v, const char *name, int (*fn)(octx *, uint32_t));
int op_put_array_of(octx *c, uint32_t v, int (*fn)(octx *, uint32_t), const char *what);
int op_put_scalar(octx *c, uint32_t v, int *rc);

/* The members of object `o` in stored order (obs_key_cmp): key token
 * indexes into *keys (`local` when it has room for `cap`, else malloc'd:
 * free it when it is not `local`). */
int op_sorted_keys(octx *c, uint32_t o, uint32_t *local, size_t cap, uint32_t **keys);

/* obs_parse_scene.c */
int op_put_objects(octx *c, uint32_t v);
int op_put_relations(octx *c, uint32_t v);
int op_put_persons(octx *c, uint32_t v);
int op_put_speech(octx *c, uint32_t v);

#endif
