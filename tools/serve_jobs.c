/*
 * serve_jobs.c — the threads of `h2emv serve` that answer what takes time
 * (storing a batch durably, a question, say, feedback), so that the few
 * epoll threads of libmicrohttpd only move bytes: a request that needs one
 * is suspended, queued here, and resumed with its answer.
 */
#include <stdlib.h>

#include "tools/serve_http.h"

typedef struct job {
	serve_job_fn fn;
	void *arg;
	struct job *next;
} job;

struct serve_jobs {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	job *head, *tail;
	size_t queued;
	int stop;
	unsigned n;
	pthread_t *threads;
};

static void *worker(void *arg)
{
	serve_jobs *j = arg;
	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (!j->head && !j->stop)
			pthread_cond_wait(&j->cv, &j->mu);
		job *k = j->head;
		if (!k)
			break; /* stopping, nothing left */
		j->head = k->next;
		if (!j->head)
			j->tail = NULL;
		j->queued--;
		pthread_mutex_unlock(&j->mu);
		k->fn(k->arg);
		free(k);
		pthread_mutex_lock(&j->mu);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

serve_jobs *serve_jobs_start(unsigned n)
{
	serve_jobs *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	j->threads = calloc(n, sizeof *j->threads);
	if (!j->threads || pthread_mutex_init(&j->mu, NULL)) {
		free(j->threads);
		free(j);
		return NULL;
	}
	if (pthread_cond_init(&j->cv, NULL)) {
		pthread_mutex_destroy(&j->mu);
		free(j->threads);
		free(j);
		return NULL;
	}
	for (; j->n < n; j->n++)
		if (pthread_create(&j->threads[j->n], NULL, worker, j))
			break;
	if (j->n == 0) {
		serve_jobs_stop(j);
		return NULL;
	}
	return j;
}

int serve_jobs_submit(serve_jobs *j, serve_job_fn fn, void *arg, size_t max_queued)
{
	job *k = malloc(sizeof *k);
	if (!k)
		return -1;
	*k = (job){ fn, arg, NULL };
	pthread_mutex_lock(&j->mu);
	if (j->queued >= max_queued || j->stop) {
		pthread_mutex_unlock(&j->mu);
		free(k);
		return -1;
	}
	if (j->tail)
		j->tail->next = k;
	else
		j->head = k;
	j->tail = k;
	j->queued++;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
	return 0;
}

void serve_jobs_stop(serve_jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	j->stop = 1;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	for (unsigned i = 0; i < j->n; i++)
		pthread_join(j->threads[i], NULL);
	pthread_cond_destroy(&j->cv);
	pthread_mutex_destroy(&j->mu);
	free(j->threads);
	free(j);
}
