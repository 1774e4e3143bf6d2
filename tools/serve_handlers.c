/*
 * serve_handlers.c — what each route of `h2emv serve` does, through the
 * public API only: store observations durably and acknowledge them with
 * their sequence numbers, answer questions from the newest finished
 * snapshot, talk, learn rules, and describe snapshots, the service's
 * state and its metrics (the tree is streamed: serve_stream.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tools/ask_input.h"
#include "tools/cli.h"
#include "tools/serve.h"

static const char oom_body[] =
	"{\"error\":{\"code\":\"out_of_memory\",\"message\":\"out of memory\"}}";

void serve_reply_json(serve_reply *out, int status, json_t *v)
{
	char *text = v ? json_dumps(v, JSON_COMPACT) : NULL;
	json_decref(v);
	out->type = "application/json";
	if (!text) {
		out->status = 500;
		out->body = strdup(oom_body);
		out->len = out->body ? strlen(out->body) : 0;
		return;
	}
	out->status = status;
	out->len = strlen(text);
	/* a newline ends the body, as the command line's JSON does */
	char *p = realloc(text, out->len + 2);
	if (p) {
		text = p;
		text[out->len++] = '\n';
		text[out->len] = '\0';
	}
	out->body = text;
}

void serve_reply_error(serve_reply *out, const serve_err *e)
{
	serve_reply_json(out, e->http, serve_err_json(e));
}

/* A failed library call as an HTTP error. */
static void reply_status(serve_reply *out, int rc, const h2emv_error *err, const char *what)
{
	serve_err e;
	const char *msg = err && err->message[0] ? err->message : h2emv_strerror(rc);
	switch (rc) {
	case H2EMV_EPARSE: serve_err_set(&e, 400, "bad_request", "%s: %s", what, msg); break;
	case H2EMV_EINVAL: serve_err_set(&e, 400, "bad_request", "%s: %s", what, msg); break;
	case H2EMV_ELIMIT: serve_err_set(&e, 413, "too_large", "%s: %s", what, msg); break;
	case H2EMV_ENOTFOUND: serve_err_set(&e, 404, "not_found", "%s: %s", what, msg); break;
	case H2EMV_EBUSY: serve_err_set(&e, 503, "busy", "%s: %s", what, msg); break;
	case H2EMV_ENOSPC: serve_err_set(&e, 507, "disk_full", "%s: %s", what, msg); break;
	case H2EMV_ENOMEM: serve_err_set(&e, 500, "out_of_memory", "%s: %s", what, msg); break;
	case H2EMV_EFORMAT: /* a tree from before typed facts: nothing a retry mends */
		serve_err_set(&e, 409, "needs_upgrade", "%s: %s%s", what, msg,
		              strstr(msg, "h2emv upgrade") ? ""
		                                           : "; stop the server and run `h2emv "
		                                             "upgrade -m DIR` once");
		break;
	default: serve_err_set(&e, 500, "internal", "%s: %s", what, msg); break;
	}
	serve_reply_error(out, &e);
}

/* -------------------------------------------------------- observations -- */

/* The one place observations are stored: items [0, n) durably in one
 * transaction, all or nothing; items[k] gets each one's seq (a resent id
 * gets the seq it already has and is marked a duplicate). */
static int store_items(h2emv_ingest_result *res, h2emv_mem *mem, const char *const *json,
                       const size_t *len, const uint64_t *lines, h2emv_ingest_item *items,
                       size_t n, h2emv_error *err)
{
	h2emv_ingest_options o = H2EMV_INGEST_OPTIONS_INIT;
	o.lines = lines;
	o.items = items;
	return h2emv_ingest_opts(res, mem, json, len, n, &o, err);
}

/* An error about one item of the call (res.failed names it), as opposed to
 * one about the store. */
static int item_error(int rc)
{
	return rc == H2EMV_EPARSE || rc == H2EMV_ELIMIT || rc == H2EMV_EEXIST;
}

/* The arrays of the items of `b` not marked bad; returns their count. */
static size_t collect(const serve_obs_batch *b, const char **json, size_t *len, size_t *idx,
                      uint64_t *lines)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++)
		if (!b->items[i].bad) {
			json[n] = b->items[i].json;
			len[n] = b->items[i].len;
			lines[n] = b->items[i].line;
			idx[n++] = i;
		}
	return n;
}

/* Store the good items of `b`, in order, as `ingest --skip-bad` does. The
 * whole batch goes in one transaction when every item is good (validated
 * once, inside the ingest). Otherwise every item is validated first, then
 * the good ones are stored in runs, an item the clock discipline refuses
 * being marked bad and skipped: at most one transaction per such item.
 * Returns OK, or the first error that is not about one item (the items
 * stored before it keep their seqs). */
static int store_good(serve_obs_batch *b, h2emv_mem *mem, h2emv_error *err)
{
	const char **json = malloc((b->n + 1) * sizeof *json);
	size_t *len = malloc((b->n + 1) * sizeof *len), *idx = malloc((b->n + 1) * sizeof *idx);
	uint64_t *lines = malloc((b->n + 1) * sizeof *lines);
	h2emv_ingest_item *items = malloc((b->n + 1) * sizeof *items);
	int rc = H2EMV_OK;
	if (!json || !len || !idx || !lines || !items) {
		rc = H2EMV_ENOMEM;
		goto done;
	}
	size_t n = collect(b, json, len, idx, lines);
	h2emv_ingest_result res = { 0 };
	rc = store_items(&res, mem, json, len, lines, items, n, err);
	if (rc == H2EMV_OK) {
		for (size_t k = 0; k < n; k++) {
			b->items[idx[k]].seq = items[k].seq;
			b->items[idx[k]].duplicate = items[k].duplicate;
		}
		goto done;
	}
	if (!item_error(rc))
		goto done;
	serve_validate_observations(b);
	n = collect(b, json, len, idx, lines);
	rc = H2EMV_OK;
	for (size_t start = 0; start < n;) {
		h2emv_error e = { 0 };
		rc = store_items(&res, mem, json + start, len + start, lines + start, items + start,
		                 n - start, &e);
		size_t upto = n;
		if (item_error(rc) && res.failed < n - start) {
			upto = start + res.failed;
			serve_obs_item *bad = &b->items[idx[upto]];
			bad->bad = 1;
			bad->err = e;
			bad->err.status = rc;
			rc = upto > start ? store_items(&res, mem, json + start, len + start,
			                                lines + start, items + start, upto - start, &e)
			                  : H2EMV_OK;
		}
		if (rc) {
			*err = e;
			break;
		}
		for (size_t k = start; k < upto; k++) {
			b->items[idx[k]].seq = items[k].seq;
			b->items[idx[k]].duplicate = items[k].duplicate;
		}
		start = upto == n ? n : upto + 1;
	}
done:
	free(json);
	free(len);
	free(idx);
	free(lines);
	free(items);
	return rc;
}

static void h_observations(serve_reply *out, serve_state *st, const char *body, size_t blen)
{
	serve_obs_batch b;
	serve_err e;
	if (serve_parse_observations(&b, body, blen, &e)) {
		serve_obs_batch_free(&b);
		serve_reply_error(out, &e);
		return;
	}
	if (serve_waits_for_space(st)) {
		/* what fits now is the room gc, compaction and the builder need to
		 * recover: keep it for them (docs/serve.md) */
		serve_obs_batch_free(&b);
		serve_err_set(&e, 507, "disk_full",
		              "the disk is full and the builder is waiting for space; nothing was "
		              "stored: send the batch again later");
		serve_reply_error(out, &e);
		return;
	}
	h2emv_error err = { 0 };
	int rc = store_good(&b, st->mem, &err);
	json_t *seqs = json_array(), *errors = json_array();
	uint64_t stored = 0, refused = 0, dups = 0, first = 0, last = 0;
	for (size_t i = 0; i < b.n && seqs && errors; i++) {
		serve_obs_item *it = &b.items[i];
		if (it->seq && it->duplicate) {
			dups++;
		} else if (it->seq) {
			stored++;
			first = first ? first : it->seq;
			last = it->seq;
		}
		json_array_append_new(seqs, it->seq ? json_integer((json_int_t)it->seq) : json_null());
		if (it->bad) {
			refused++;
			json_array_append_new(errors,
			                      json_pack("{s:I,s:I,s:s,s:s}", "line", (json_int_t)it->line,
			                                "column", (json_int_t)it->err.column, "field",
			                                it->err.field, "message", it->err.message));
		}
	}
	serve_worker_notify(st, stored, refused, last);
	json_t *o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:o}", "stored", (json_int_t)stored,
	                      "refused", (json_int_t)refused, "duplicates", (json_int_t)dups,
	                      "first_seq", (json_int_t)first, "last_seq", (json_int_t)last,
	                      "seqs", seqs, "errors", errors);
	int status = 200;
	if (o && rc) {
		/* the store failed: say so; the seqs name what is durable anyway */
		serve_reply tmp = { 0 };
		reply_status(&tmp, rc, &err, "storing the observations");
		json_t *eo = json_loadb(tmp.body, tmp.len, 0, NULL);
		status = tmp.status;
		free(tmp.body);
		if (eo)
			json_object_set_new(o, "error", json_incref(json_object_get(eo, "error")));
		json_decref(eo);
	} else if (o && refused) {
		serve_err_set(&e, 422, "bad_observations",
		              "%llu of %zu observations were refused (see errors, by line); the other "
		              "%llu are stored",
		              (unsigned long long)refused, b.n, (unsigned long long)stored);
		json_object_set_new(o, "error", json_pack("{s:s,s:s}", "code", e.code, "message",
		                                          e.message));
		status = 422;
	}
	serve_obs_batch_free(&b);
	serve_reply_json(out, status, o);
}

/* ------------------------------------------------------------ questions -- */

static void h_ask(serve_reply *out, serve_state *st, const char *body, size_t blen)
{
	double t0 = serve_now();
	serve_ask_req q;
	serve_err e;
	if (serve_parse_ask(&q, body, blen, &e)) {
		serve_reply_error(out, &e);
		serve_count_question(st, 0, SERVE_Q_FAILED, NULL);
		return;
	}
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	o.snapshot = q.snapshot;
	o.trace = q.trace;
	o.at = q.at_us;
	char why[300];
	int bad = !ask_question_ok(q.question);
	if (bad)
		serve_err_set(&e, 400, "bad_field", "the field 'question' holds no word: ask "
		              "something, such as \"Where did you put the keys?\"");
	else if ((bad = q.at_text ? ask_at_parse(&o.at, st->mem, q.at_text, why, sizeof why)
	                          : q.at_us ? ask_at_check(q.at_us, why, sizeof why) : 0))
		serve_err_set(&e, 400, "bad_field", "the field 'at': %s", why);
	if (bad) {
		serve_reply_error(out, &e);
		serve_ask_req_free(&q);
		serve_count_question(st, 0, SERVE_Q_FAILED, NULL);
		return;
	}
	h2emv_answer *a = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_ask(&a, st->mem, q.question, &o, &err);
	serve_question_end end = rc ? SERVE_Q_FAILED : SERVE_Q_ANSWERED;
	if (rc == H2EMV_ENOTFOUND && !o.at && !o.snapshot) {
		serve_err_set(&e, 409, "nothing_built",
		              "nothing has been built yet: the builder folds the observations sent "
		              "to POST /v1/observations; ask again in a moment");
		serve_reply_error(out, &e);
		end = SERVE_Q_NOT_READY;
	} else if (rc) {
		reply_status(out, rc, &err, "ask");
	} else {
		serve_reply_json(out, 200, cli_answer_json(q.question, a, q.trace));
	}
	serve_count_question(st, serve_now() - t0, end, a ? &a->tokens : NULL);
	h2emv_answer_free(a);
	serve_ask_req_free(&q);
}

/* ---------------------------------------------------------------- rules -- */

static json_t *rules_json(const h2emv_rules *r)
{
	uint32_t v = r->version;
	return json_pack("{s:i,s:i,s:I,s:b,s:s,s:o,s:o}", "version", (int)v, "parent",
	                 (int)(v ? r->parent : 0), "created", (json_int_t)(v ? r->created : 0),
	                 "repaired", v && r->repaired, "feedback",
	                 v && r->feedback ? r->feedback : "", "tokens", cli_tokens_json(&r->tokens),
	                 "items", cli_rules_items_json(r->items, r->n));
}

/* POST /v1/say (feedback = 0) and POST /v1/feedback: {"text"}. */
static void h_talk(serve_reply *out, serve_state *st, const char *body, size_t blen,
                   int feedback)
{
	char *text;
	serve_err e;
	if (serve_parse_text(&text, body, blen, &e)) {
		serve_reply_error(out, &e);
		return;
	}
	h2emv_reply *r = NULL;
	h2emv_rules *rules = NULL;
	h2emv_error err = { 0 };
	int rc = feedback ? h2emv_feedback(&rules, st->mem, text, &err)
	                  : h2emv_say(&r, st->mem, text, &err);
	if (rc) {
		reply_status(out, rc, &err, feedback ? "feedback" : "say");
	} else {
		const h2emv_tokens *t = feedback ? &rules->tokens : &r->tokens;
		pthread_mutex_lock(&st->mu);
		*(feedback ? &st->feedbacks : &st->says) += 1;
		st->tok_say.prompt += t->prompt;
		st->tok_say.completion += t->completion;
		st->tok_say.calls += t->calls;
		pthread_mutex_unlock(&st->mu);
		serve_reply_json(out, 200, feedback ? rules_json(rules) : cli_reply_json(r));
	}
	h2emv_reply_free(r);
	h2emv_rules_free(rules);
	free(text);
}

static void h_rules(serve_reply *out, serve_state *st)
{
	h2emv_rules *r = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_rules_get(&r, st->mem, 0, &err);
	if (rc)
		reply_status(out, rc, &err, "rules");
	else
		serve_reply_json(out, 200, rules_json(r));
	h2emv_rules_free(r);
}

/* ------------------------------------------------------------ snapshots -- */

static void h_snapshots(serve_reply *out, serve_state *st)
{
	h2emv_snap_info *s = NULL;
	h2emv_pin *pins = NULL;
	size_t n = 0, np = 0;
	h2emv_error err = { 0 };
	int rc = h2emv_snap_list(&s, &n, st->mem, &err);
	if (rc == H2EMV_OK)
		rc = h2emv_pin_list(&pins, &np, st->mem, &err);
	if (rc) {
		h2emv_free(s);
		reply_status(out, rc, &err, "snapshots");
		return;
	}
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < n; i++) {
		json_t *names = json_array();
		for (size_t j = 0; names && j < np; j++)
			if (pins[j].seq == s[i].seq)
				json_array_append_new(names, json_string(pins[j].name));
		json_t *o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:i,s:[I,i],s:o}", "seq",
		                      (json_int_t)s[i].seq, "created", (json_int_t)s[i].created,
		                      "t_now", (json_int_t)s[i].t_now, "build_cursor",
		                      (json_int_t)s[i].build_cursor, "nodes", (json_int_t)s[i].n_nodes,
		                      "rules_version", (int)s[i].rules_version, "root",
		                      (json_int_t)s[i].root.id, (int)s[i].root.version, "pins", names);
		if (json_array_append_new(arr, o)) {
			json_decref(arr);
			arr = NULL;
		}
	}
	h2emv_free(s);
	h2emv_free(pins);
	serve_reply_json(out, 200, arr ? json_pack("{s:o}", "snapshots", arr) : NULL);
}

/* ------------------------------------------------------------- dispatch -- */

void serve_handle(serve_reply *out, serve_state *st, serve_route_id route, const char *body,
                  size_t len)
{
	serve_err e;
	memset(out, 0, sizeof *out);
	switch (route) {
	case SERVE_OBSERVATIONS: h_observations(out, st, body, len); break;
	case SERVE_ASK: h_ask(out, st, body, len); break;
	case SERVE_SAY: h_talk(out, st, body, len, 0); break;
	case SERVE_FEEDBACK: h_talk(out, st, body, len, 1); break;
	case SERVE_RULES: h_rules(out, st); break;
	case SERVE_SNAPSHOTS: h_snapshots(out, st); break;
	case SERVE_TREE:   /* streamed: serve_stream.c */
	case SERVE_OPENAPI: /* a constant: serve_http.c */
		serve_err_set(&e, 500, "internal", "route %d has no handler here", (int)route);
		serve_reply_error(out, &e);
		break;
	case SERVE_STATUS: serve_reply_json(out, 200, serve_status_json(st)); break;
	case SERVE_METRICS:
		out->body = serve_metrics_text(st, &out->len);
		out->status = out->body ? 200 : 500;
		out->type = "text/plain; version=0.0.4; charset=utf-8";
		if (!out->body) {
			out->body = strdup(oom_body);
			out->len = out->body ? strlen(out->body) : 0;
			out->type = "application/json";
		}
		break;
	}
}
