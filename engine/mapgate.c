/*
 * mapgate.c — keeps LMDB from remapping under a reader. Growing the map
 * (or reopening the environment) unmaps the pages every open read view
 * points into, so it must wait until no read view is open in this process.
 * A reader-writer lock would do, except that a snapshot may be closed by a
 * different thread than opened it (MDB_NOTLS), which POSIX forbids for
 * rwlocks. So: a counter under a mutex, and a flag that holds new readers
 * back while a remap waits (no starvation).
 */
#include <errno.h>
#include <time.h>

#include "engine/env.h"

void gate_init(map_gate *g)
{
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->readers = 0;
	g->remapping = 0;
	g->epoch = 0;
}

void gate_destroy(map_gate *g)
{
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

void gate_read_enter(map_gate *g)
{
	pthread_mutex_lock(&g->mu);
	while (g->remapping)
		pthread_cond_wait(&g->cv, &g->mu);
	g->readers++;
	pthread_mutex_unlock(&g->mu);
}

int gate_read_try_enter(map_gate *g)
{
	pthread_mutex_lock(&g->mu);
	int in = !g->remapping;
	g->readers += in;
	pthread_mutex_unlock(&g->mu);
	return in;
}

void gate_read_exit(map_gate *g)
{
	pthread_mutex_lock(&g->mu);
	if (--g->readers == 0)
		pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

int gate_remap_begin(map_gate *g, int wait_seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += wait_seconds;
	pthread_mutex_lock(&g->mu);
	while (g->remapping) /* one remap at a time */
		if (pthread_cond_timedwait(&g->cv, &g->mu, &until) == ETIMEDOUT)
			goto busy;
	g->remapping = 1;
	g->epoch++;
	while (g->readers > 0)
		if (wait_seconds == 0 ||
		    pthread_cond_timedwait(&g->cv, &g->mu, &until) == ETIMEDOUT) {
			g->remapping = 0;
			pthread_cond_broadcast(&g->cv);
			goto busy;
		}
	pthread_mutex_unlock(&g->mu);
	return H2EMV_OK;
busy:
	pthread_mutex_unlock(&g->mu);
	return H2EMV_EBUSY;
}

void gate_remap_end(map_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->remapping = 0;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}
