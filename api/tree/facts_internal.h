/*
 * facts_internal.h — what the facts_*.c files share and nothing else
 * uses: a fact's strings and key, setting a slot from text
 * (facts_base.c), and the facts a note tells (facts_note.c), which
 * facts_from_scene (facts_extract.c) calls.
 */
#ifndef H2EMV_FACTS_INTERNAL_H
#define H2EMV_FACTS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <msgpack.h>

#include "api/tree/facts.h"

struct scene;
struct robot_profile;

/* Free a fact's strings and zero it. */
void fact_free(fact *f);

/* Give `f` one block holding the strings lens[i] bytes of src[i] (NULL:
 * absent). */
int fact_strings(fact *f, const char *const *src, const size_t *lens);

/* What makes two facts the same (facts_merge): every slot, but for an
 * action the place the robot happened to be at. */
uint64_t fact_key(const fact *f);

/* A new zeroed fact at the end of `f`, or NULL out of memory. */
fact *fact_push(facts *f);

/* Set an empty slot to a cleaned copy of s[0, n) (trimmed, markup
 * removed, bounded); a slot already set is kept. Returns 0. */
int fact_set(fact *f, int slot, const char *s, size_t n);
int fact_sets(fact *f, int slot, const char *s);

/* Append v to an action's other parameters, FS_STATE, at most 200 bytes
 * in all. */
void fact_append_state(fact *f, const char *v);

/* The action a note without one tells, and the note as a fact of its own
 * (the action it was written beside is out->v[first] when there is one). */
int facts_note_action(facts *out, const struct scene *s, const struct robot_profile *prof);
int facts_note(facts *out, size_t first, const struct scene *s);

/* The unit a key ends in ("weight_kg": "kg"); NULL none. */
const char *fact_key_unit(const char *key, size_t klen);

/* The child of a map that names it ("name", "label", "title", "type") as a
 * string; NULL none. */
const msgpack_object *fact_named_child(const msgpack_object *o);
/* Does a map hold a reason ("error", "cause") as a string? */
int fact_reason_child(const msgpack_object *o);

/* Is the key a container of other parameters ("parameters", "args")? */
int fact_container_key(const char *key, size_t klen);

/* facts_keys.c: how a parameter's key and value are read. */
int fx_key_noun(const char *key, size_t klen, char *out);
int fx_set_named(fact *f, int slot, const char *key, size_t klen, const char *p, size_t n);
int fx_one_word(const char *key, size_t klen);
int fx_has_word(const char *s, const char *w);
void fx_add_other(fact *f, const char *key, size_t klen, const char *p, size_t n);
int fx_names_person(const struct scene *s, const char *p, size_t n);
int fx_names_seen_object(const struct scene *s, const char *p, size_t n);
int fx_role_slot(int role);
int fx_positional_role(int cls, int pos, int npos);
int fx_key_in_name(const char *name, const char *key, size_t klen);
int fx_person_named(const char *action, const char *key, size_t klen);
int fx_kv_pair(const msgpack_object *o, const msgpack_object **v, const char **k, size_t *kl);
int fx_recipient_key(const char *key, size_t klen);
int fx_looks_like_name(const char *p, size_t n);
size_t fx_keyed_text(const char *p, size_t n);
int fx_all_numbers(const msgpack_object *o);

#endif
