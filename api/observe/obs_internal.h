/*
 * obs_internal.h — what the observation files share (not installed): the
 * msgpack key table of the stored body, the limits, field paths for error
 * messages, times and number formatting. The format itself
 * is documented in docs/formats.md; keep the two in step.
 */
#ifndef H2EMV_OBS_INTERNAL_H
#define H2EMV_OBS_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* Top-level keys of the body map, in the order they are stored and
 * rendered. Never renumber: bodies on disk use these. */
enum obs_key {
	OBS_K_T = 1,
	OBS_K_T_END = 2,
	OBS_K_ACTION = 3,
	OBS_K_GOAL = 4,
	OBS_K_GOAL_STATUS = 5,
	OBS_K_LOCATION = 6,
	OBS_K_OBJECTS = 7,
	OBS_K_RELATIONS = 8,
	OBS_K_PERSONS = 9,
	OBS_K_SPEECH = 10,
	OBS_K_NOTE = 11,
	OBS_K_ID = 12, /* the producer's id, the key of idempotent ingest */
	OBS_K_LAST = OBS_K_ID, /* the last key a JSON field names */
	/* The offset t was written in, minutes east of UTC (an int, never 0):
	 * not a field of its own but read from t ("...T07:02:41-08:00"), so
	 * questions can use the robot's local day; t is rendered back in it. */
	OBS_K_ZONE = 13,
	OBS_K_BODY_LAST = OBS_K_ZONE
};

/* Keys inside the nested maps. */
enum { OBS_ACT_NAME = 1, OBS_ACT_ARGS = 2, OBS_ACT_STATUS = 3 };
enum { OBS_OBJ_ID = 1, OBS_OBJ_TYPE = 2, OBS_OBJ_STATE = 3, OBS_OBJ_RELATIONS = 4 };
enum { OBS_PER_NAME = 1, OBS_PER_ID = 2 };
enum { OBS_SP_SPEAKER = 1, OBS_SP_TEXT = 2 };

/* Action and goal status, stored as these small integers. */
enum obs_status {
	OBS_ST_PREPARING = 1,
	OBS_ST_RUNNING = 2,
	OBS_ST_SUCCEEDED = 3,
	OBS_ST_FAILED = 4,
	OBS_ST_ABORTED = 5,
	OBS_ST_LAST = OBS_ST_ABORTED
};

/* JSON names, indexed by the enums above (index 0 unused). */
extern const char *const obs_top_names[OBS_K_BODY_LAST + 1];
extern const char *const obs_status_names[OBS_ST_LAST + 1];

/* The status another word robots log means ("ok", "DONE", "in_progress",
 * ROS actionlib's "PREEMPTED"), any letter case, "_" / "-" / " " alike:
 * 1-5, or 0 when it is none (docs/formats.md, "Status values"). */
int obs_status_word(const char *s, size_t n);

/* What a status field is told to be when it is none of them. */
#define OBS_STATUS_EXPECTED                                                        \
	"one of preparing, running, succeeded, failed, aborted (or ok, done, error, " \
	"cancelled and the like)"

/* Limits (docs/formats.md, "Limits"). */
#define OBS_MAX_STRING (64u << 10) /* bytes in any string or key */
#define OBS_MAX_ITEMS 10000u       /* items in any array, members in any object */
#define OBS_MAX_ARGS_DEPTH 16      /* nesting of action.args, args itself = 1 */
/* A body is never larger: a real needs 3 JSON characters and at most 9
 * msgpack bytes, everything else shrinks, so 2.25 x the JSON limit bounds
 * every body we write. Checked before unpacking so hostile bytes cannot
 * make the zone large. */
#define OBS_MAX_BODY (3u << 20)

/* An observation id: 1..OBS_ID_MAX bytes, each printable ASCII other than
 * space (0x21..0x7e), so it can be written anywhere without escaping
 * doubts and used as a key as it is. */
#define OBS_ID_MAX 128
int obs_id_ok(const char *s, size_t n);

/* Times: µs since the epoch, years 1970..9999. */
#define OBS_TIME_MAX INT64_C(253402300799999999) /* 9999-12-31T23:59:59.999999Z */

/* --------------------------------------------------------- field paths -- */

#define OBS_PATH_MAX 32

/* The position of the value being looked at, for messages such as
 * "objects[2].state": a stack of object keys (key != NULL) and array
 * indexes. Keys are borrowed from the document being read. */
typedef struct obs_path {
	int depth;
	struct {
		const char *key;
		size_t klen;
		size_t idx;
	} c[OBS_PATH_MAX];
} obs_path;

void obs_path_key(obs_path *p, const char *key, size_t klen);
void obs_path_idx(obs_path *p, size_t idx);
void obs_path_pop(obs_path *p);
/* Write the path as text ("action.args.hand", "objects[2]"), truncated to
 * fit `cap` bytes, always NUL-terminated. */
void obs_path_format(char *out, size_t cap, const obs_path *p);

/* Fill `err` (may be NULL): status, line, column, field = the path, and a
 * message "line L, column C: field 'P': <fmt>" (parts that are zero or
 * empty left out, `prefix` put first if not NULL). Returns `status`. */
int obs_errorv(h2emv_error *err, int status, uint64_t line, uint64_t column,
               const obs_path *path, const char *prefix, const char *fmt, va_list ap);

/* obs_errorv with no line, column or field. */
int obs_fail(h2emv_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The 1-based column (in characters) of the value at `path` in JSON text
 * that has already been parsed, or of its key when `at_key` and the last
 * component is a key. 0 if it cannot be found. */
uint64_t obs_locate(const char *text, size_t len, const obs_path *path, int at_key);
/* The path of the value that byte `pos` of JSON text lies in, from
 * scanning text[0..pos) (which need not be valid past that point): the
 * field of a syntax error that jansson reports at `pos`. */
void obs_path_at(obs_path *out, const char *text, size_t len, size_t pos);
/* The 1-based column (in characters) of byte `pos`. */
uint64_t obs_column_of(const char *text, size_t len, size_t pos);

/* ---------------------------------------------------------------- time -- */

/* Parse an RFC 3339 date-time (see docs/formats.md) into µs since the
 * epoch. Returns 0, or -1 with *why set to a phrase for the message. */
int obs_time_parse(int64_t *out, const char *s, size_t n, const char **why);
/* The same, also giving the offset the text was written in, in minutes
 * east of UTC (0 for Z or no zone). */
int obs_time_parse_zone(int64_t *out, int *zone_min, const char *s, size_t n, const char **why);
/* "2024-06-26T19:48:57.810898Z" (27 characters + NUL) for 0..OBS_TIME_MAX;
 * with a zone "2024-06-26T11:48:57.810898-08:00" (32 + NUL). */
#define OBS_TIME_TEXT 33
void obs_time_format(char out[OBS_TIME_TEXT], int64_t us);
/* The same instant written in the local time of offset `zone_min`
 * (minutes east of UTC; 0 or out of range: UTC with Z). */
void obs_time_format_zone(char out[OBS_TIME_TEXT], int64_t us, int zone_min);
/* The offset a body map's key 13 holds (0 when none or out of range);
 * obs_body_peek.c. (A msgpack_object: include msgpack.h first.) */
struct msgpack_object;
int obs_body_zone_of(const struct msgpack_object *root);
/* A stored offset is within +-23:59 (parse_zone's limit). */
#define OBS_ZONE_MAX (23 * 60 + 59)

/* t and t_end (t when absent) of a stored observation body, read from the
 * map's first entries without decoding the rest (api/obs_ingest.c).
 * Returns 0, or -1 when the bytes do not start that way. */
int obs_body_times(int64_t *t, int64_t *t_end, const void *body, size_t blen);

/* ------------------------------------------------------ action strings -- */

typedef struct obs_span {
	const char *s;
	size_t n;
} obs_span;

/* Split an action string "Name(arg, ...)" (grammar in docs/formats.md)
 * into its trimmed name and the text between the parentheses (*inside;
 * inside->s == NULL for a bare "Name"). Returns 0, or -1 with *why. */
int obs_action_split(const char *s, size_t n, obs_span *name, obs_span *inside,
                     const char **why);
/* The next argument of `*rest` (start with *inside): trimmed, quotes
 * removed. Returns 1 with *arg, 0 when done, -1 with *why on an empty
 * argument or unbalanced brackets or quotes. */
int obs_action_next_arg(obs_span *rest, obs_span *arg, const char **why);

/* ---------------------------------------------------------- text, numbers -- */

/* Append s[0..n) to `out` as a JSON string (quotes, backslashes and control
 * characters escaped; s must be valid UTF-8). Returns 0 or H2EMV_ENOMEM. */
struct eng_buf;
int obs_json_string(struct eng_buf *out, const char *s, size_t n);

/* Byte-wise order of two keys, shorter first on a common prefix: the order
 * object members are stored in. */
int obs_key_cmp(const char *a, size_t an, const char *b, size_t bn);

/* The shortest text that reads back as exactly `d` (finite) and reads as a
 * JSON real, not an integer: "0.5", "1.0", "1e-7". Locale independent. */
#define OBS_REAL_TEXT 40
size_t obs_real_format(char out[OBS_REAL_TEXT], double d);

#endif
