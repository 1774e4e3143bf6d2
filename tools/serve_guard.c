/*
 * serve_guard.c — what keeps a web page out of `h2emv serve`: the Host a
 * request names must be the address served (DNS rebinding), a foreign
 * Origin needs --cors, and a body must say it is JSON (a page can send
 * text/plain or a form to any address without asking; JSON it cannot send
 * cross-origin without a CORS preflight). No sockets: pure checks on the
 * header values, refusals as serve_err.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tools/serve.h"

int serve_guard_add_host(serve_guard *g, const char *name)
{
	if (g->n_hosts == sizeof g->hosts / sizeof g->hosts[0])
		return -1;
	g->hosts[g->n_hosts++] = name;
	return 0;
}

int serve_guard_add_cors(serve_guard *g, const char *origin)
{
	if (g->n_cors == sizeof g->cors / sizeof g->cors[0])
		return -1;
	g->cors[g->n_cors++] = origin;
	return 0;
}

/* The length of the name in "NAME[:PORT]" or "[V6][:PORT]", or 0 when
 * what follows the name is not empty or ":DIGITS" (1 to 5). */
static size_t host_name_len(const char *hostport)
{
	size_t n;
	if (hostport[0] == '[') {
		const char *close = strchr(hostport, ']');
		if (!close)
			return 0;
		n = (size_t)(close - hostport) + 1;
	} else {
		n = strcspn(hostport, ":");
	}
	const char *rest = hostport + n;
	if (*rest == '\0')
		return n;
	size_t digits = strspn(rest + 1, "0123456789");
	return rest[0] == ':' && digits >= 1 && digits <= 5 && rest[1 + digits] == '\0' ? n : 0;
}

/* Whether "NAME[:PORT]" names one of the allowed hosts (any port: an ssh
 * tunnel or a proxy on another port is the same server). */
static int host_allowed(const serve_guard *g, const char *hostport)
{
	size_t n = host_name_len(hostport);
	if (n == 0)
		return 0;
	for (size_t i = 0; i < g->n_hosts; i++)
		if (strlen(g->hosts[i]) == n && !strncasecmp(g->hosts[i], hostport, n))
			return 1;
	return 0;
}

/* "http://NAME[:PORT]" or "https://..." whose host is allowed. */
static int origin_is_served(const serve_guard *g, const char *origin)
{
	const char *p = !strncasecmp(origin, "http://", 7)    ? origin + 7
	                : !strncasecmp(origin, "https://", 8) ? origin + 8
	                                                      : NULL;
	return p && host_allowed(g, p);
}

int serve_guard_check(const char **cors, const serve_guard *g, const char *host,
                      const char *origin, serve_err *e)
{
	*cors = NULL;
	if (!host || !host_allowed(g, host)) {
		serve_err_set(e, 403, "bad_host",
		              "the Host %s%.100s%s is not an address this server answers to (it "
		              "answers to 127.0.0.1, localhost, [::1], its --listen address and the "
		              "names given with --allow-host NAME)",
		              host ? "'" : "(none)", host ? host : "", host ? "'" : "");
		return -1;
	}
	if (!origin)
		return 0;
	/* --cors first: a page on another port of localhost may be named */
	for (size_t i = 0; i < g->n_cors; i++)
		if (!strcasecmp(g->cors[i], origin)) {
			*cors = g->cors[i];
			return 0;
		}
	if (origin_is_served(g, origin))
		return 0;
	serve_err_set(e, 403, "bad_origin",
	              "requests from the web page at '%.100s' are refused: start the server with "
	              "--cors %.100s to allow that origin",
	              origin, origin);
	return -1;
}

/* The media type of a Content-Type value (before any ';', blanks
 * trimmed) equals `want`, in any case. */
static int media_type_is(const char *ctype, const char *want)
{
	while (*ctype == ' ' || *ctype == '\t')
		ctype++;
	size_t n = strcspn(ctype, ";");
	while (n && (ctype[n - 1] == ' ' || ctype[n - 1] == '\t'))
		n--;
	return n == strlen(want) && !strncasecmp(ctype, want, n);
}

int serve_content_type_check(serve_route_id route, const char *ctype, serve_err *e)
{
	if (!serve_route_has_body(route))
		return 0;
	int ndjson = route == SERVE_OBSERVATIONS;
	if (ctype && (media_type_is(ctype, "application/json") ||
	              (ndjson && media_type_is(ctype, "application/x-ndjson"))))
		return 0;
	serve_err_set(e, 415, "unsupported_media_type",
	              "the body's Content-Type is %s%.80s%s; this route takes %s (curl: -H "
	              "'Content-Type: application/json')",
	              ctype ? "'" : "missing", ctype ? ctype : "", ctype ? "'" : "",
	              ndjson ? "application/json or application/x-ndjson" : "application/json");
	return -1;
}

int serve_host_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 253)
		return 0;
	if (name[0] == '[') /* an IPv6 address, in brackets as a Host carries it */
		return name[n - 1] == ']' && n > 2 && strspn(name + 1, "0123456789abcdefABCDEF:.") == n - 2;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '.' &&
		    name[i] != '_')
			return 0;
	return 1;
}

int serve_origin_valid(const char *origin)
{
	const char *p = !strncmp(origin, "http://", 7)    ? origin + 7
	                : !strncmp(origin, "https://", 8) ? origin + 8
	                                                  : NULL;
	if (!p)
		return 0;
	size_t n = host_name_len(p);
	if (n == 0 || n >= 256)
		return 0;
	char name[256];
	memcpy(name, p, n);
	name[n] = '\0';
	return serve_host_name_valid(name);
}
