/*
 * obs_action.c — the short form of an action, "Name(arg, 'a, b', f(x))",
 * as robots and planners print them: split into a name and arguments.
 * Quotes group an argument that holds commas or brackets; brackets nest.
 */
#include <string.h>

#include "api/observe/obs_internal.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static obs_span trim(const char *s, size_t n)
{
	while (n > 0 && is_space(*s))
		s++, n--;
	while (n > 0 && is_space(s[n - 1]))
		n--;
	return (obs_span){ s, n };
}

int obs_action_split(const char *s, size_t n, obs_span *name, obs_span *inside,
                     const char **why)
{
	obs_span all = trim(s, n);
	const char *open = memchr(all.s, '(', all.n);
	const char *close = memchr(all.s, ')', all.n);
	inside->s = NULL;
	inside->n = 0;
	if (!open) {
		*name = all;
		if (close) {
			*why = "')' without '('";
			return -1;
		}
	} else {
		*name = trim(all.s, (size_t)(open - all.s));
		if (all.s[all.n - 1] != ')') {
			*why = "expected ')' at the end";
			return -1;
		}
		*inside = trim(open + 1, (size_t)(all.s + all.n - 1 - (open + 1)));
		if (inside->n == 0)
			inside->s = open + 1; /* "Name()": no arguments, but a list */
	}
	if (name->n == 0) {
		*why = "the name is empty";
		return -1;
	}
	if (memchr(name->s, ')', name->n)) {
		*why = "')' in the name";
		return -1;
	}
	return 0;
}

/* Where the argument starting at s[0] ends: at a comma outside brackets
 * and quotes, or at n. -1 if brackets or quotes do not balance. */
static long arg_end(const char *s, size_t n)
{
	int depth = 0;
	char quote = 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (quote) {
			quote = ch == quote ? 0 : quote;
		} else if (ch == '\'' || ch == '"') {
			quote = ch;
		} else if (ch == '(' || ch == '[' || ch == '{') {
			depth++;
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (--depth < 0)
				return -1;
		} else if (ch == ',' && depth == 0) {
			return (long)i;
		}
	}
	return depth || quote ? -1 : (long)n;
}

int obs_action_next_arg(obs_span *rest, obs_span *arg, const char **why)
{
	if (!rest->s || rest->n == 0)
		return 0;
	long end = arg_end(rest->s, rest->n);
	if (end < 0) {
		*why = "unbalanced brackets or quotes in the arguments";
		return -1;
	}
	*arg = trim(rest->s, (size_t)end);
	if ((size_t)end < rest->n) {
		rest->s += end + 1;
		rest->n -= (size_t)end + 1;
		if (trim(rest->s, rest->n).n == 0)
			arg->n = 0; /* "f(a, )": report the missing last argument */
	} else {
		rest->s = NULL;
		rest->n = 0;
	}
	if (arg->n == 0) {
		*why = "an argument is empty (write '' for an empty string)";
		return -1;
	}
	/* 'a, b' is one quoted argument; 'a' 'b' is not (the first quote
	 * closes before the end) and is kept as written. */
	if (arg->s[0] == '\'' || arg->s[0] == '"') {
		const char *close = memchr(arg->s + 1, arg->s[0], arg->n - 1);
		if (close == arg->s + arg->n - 1) {
			arg->s++;
			arg->n -= 2;
		}
	}
	return 1;
}
