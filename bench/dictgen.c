/*
 * dictgen.c — trains the default zstd dictionary h2emv ships for
 * observations (engine/dict_obs_default.zdict, compiled into the library
 * by CMakeLists.txt). Samples: the canonical msgpack bodies (what records
 * compress) of our simulator's observations (bench/obsgen) and of the
 * JSONL histories named on the command line (other robots of ours:
 * tests/data, the bench/realqa worlds). Deterministic for the same inputs.
 *
 *   dictgen OUT.zdict [--obsgen N] [--seed S] [--dict-id ID] FILE.jsonl...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>

#include "api/observe/observation.h"
#include "bench/bench_util.h"
#include "bench/obsgen.h"

#define DICT_CAP (32u << 10)

typedef struct samples {
	eng_buf data;
	size_t *sizes;
	size_t n, cap;
} samples;

static void add(samples *s, const char *json, size_t len, const char *where, size_t line)
{
	eng_buf b = { 0 };
	h2emv_error err;
	if (obs_from_json(&b, json, len, line, &err))
		bench_die("%s: %s", where, err.message);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->sizes = realloc(s->sizes, s->cap * sizeof *s->sizes);
		if (!s->sizes)
			bench_die("out of memory");
	}
	if (eng_buf_append(&s->data, b.data, b.len))
		bench_die("out of memory");
	s->sizes[s->n++] = b.len;
	eng_buf_free(&b);
}

static void add_file(samples *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		bench_die("cannot open %s", path);
	char *line = NULL;
	size_t cap = 0, no = 0, before = s->n;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		no++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (len > 0)
			add(s, line, (size_t)len, path, no);
	}
	free(line);
	fclose(f);
	fprintf(stderr, "dictgen: %zu observations from %s\n", s->n - before, path);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bench_die("usage: dictgen OUT.zdict [--obsgen N] [--seed S] [--dict-id ID] FILE.jsonl...");
	size_t n_gen = 20000;
	unsigned long long seed = 7, dict_id = 0;
	samples s = { 0 };
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--obsgen") && i + 1 < argc)
			n_gen = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--dict-id") && i + 1 < argc)
			dict_id = strtoull(argv[++i], NULL, 0);
		else
			add_file(&s, argv[i]);
	}
	obs_set obs;
	if (obsgen_make(&obs, n_gen, seed))
		bench_die("out of memory");
	for (size_t i = 0; i < obs.n; i++)
		add(&s, obs.line[i], obs.len[i], "obsgen", i + 1);
	fprintf(stderr, "dictgen: %zu observations from obsgen (seed %llu)\n", obs.n, seed);
	obs_set_free(&obs);

	void *dict = malloc(DICT_CAP);
	if (!dict)
		bench_die("out of memory");
	/* what ZDICT_trainFromBuffer does, with our dictionary id */
	ZDICT_fastCover_params_t p;
	memset(&p, 0, sizeof p);
	p.d = 8;
	p.steps = 4;
	p.zParams.dictID = (unsigned)dict_id;
	p.zParams.compressionLevel = 3;
	size_t got = ZDICT_optimizeTrainFromBuffer_fastCover(dict, DICT_CAP, s.data.data, s.sizes,
	                                                     (unsigned)s.n, &p);
	if (ZDICT_isError(got))
		bench_die("training failed: %s", ZDICT_getErrorName(got));
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(dict, 1, got, f) != got || fclose(f))
		bench_die("cannot write %s", argv[1]);
	fprintf(stderr, "dictgen: %zu bytes, dictionary id %u, from %zu samples (%zu bytes)\n", got,
	        ZDICT_getDictID(dict, got), s.n, s.data.len);
	free(dict);
	free(s.sizes);
	eng_buf_free(&s.data);
	return 0;
}
