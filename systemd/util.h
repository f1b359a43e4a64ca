/* SPDX-License-Identifier: GPL-2.0-only */
/* Allocation that cannot fail: a helper this small has no useful way to
 * continue without memory, and checking every allocation would hide the
 * logic that matters. */
#ifndef MGLRU_FG_UTIL_H
#define MGLRU_FG_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("<2>mglru-fg-tune: out of memory\n", stderr);
		abort();
	}
	return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fputs("<2>mglru-fg-tune: out of memory\n", stderr);
		abort();
	}
	return p;
}

static inline char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static inline char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* Grows *v (elements of `size` bytes) so that one more fits. */
static inline void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 8;
	return xrealloc(v, *cap * size);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
