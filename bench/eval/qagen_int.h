/*
 * qagen_int.h — what the two halves of question generation share: the
 * occurrences found in a history (qagen_scan.c) and the names helper.
 */
#ifndef H2EMV_QAGEN_INT_H
#define H2EMV_QAGEN_INT_H

#include "bench/eval/qagen.h"

/* One occurrence of a kind of event: template + key name the kind, a and b
 * carry what the question and the answer need (action and object class,
 * object and place, task and its first step, ...). */
typedef struct qg_occ {
	char tmpl[24];
	char key[160];
	char a[128], b[160];
	char list[320];  /* act-when: the object classes in view; place-where:
	                    the transport's steps ("" when unknown) */
	int64_t t0, t1;
} qg_occ;

typedef struct qg_scan {
	qg_occ *o;
	size_t n, cap;
	/* running state while scanning */
	char held[64];
	char task[128], task_first[160];
	int64_t task_t0, task_t1;
} qg_scan;

int qg_scan_history(qg_scan *s, const qg_history *h, h2emv_error *err);
void qg_scan_free(qg_scan *s);

/* "CoffeeMachine" → "coffee machine", "Sink_Basin" → "sink basin". */
void qg_human(char *out, size_t cap, const char *name);

#endif
