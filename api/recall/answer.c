/*
 * answer.c — the public answer object's freeing (include/h2emv.h), apart
 * from both question paths that make answers (recall.c from typed facts,
 * emv.c by exploring node texts), so neither calls back into the other.
 */
#include <stdlib.h>

#include "h2emv.h"

void h2emv_answer_free(h2emv_answer *a)
{
	if (!a)
		return;
	free(a->text);
	free(a->evidence);
	free(a->trace);
	free(a);
}
