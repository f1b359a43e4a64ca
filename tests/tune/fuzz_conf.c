// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the configuration parser, merging, resolution, and
 * the value helpers the rest of the program feeds parsed values to.
 * Crashes found here go to tests/tune/corpus-regressions/, which the unit
 * tests replay. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "values.h"

static void diag(void *userdata, enum conf_diag level, const char *file, unsigned line,
		 const char *msg)
{
	(void)userdata;
	/* Every diagnostic must name a real place and say something. */
	if (!file || !msg || !*msg || line == 0 || (level != CONF_ERROR && level != CONF_WARNING))
		abort();
}

static void exercise(const struct conf *c)
{
	char buf[4096];

	for (int p = 0; p < POLICY__MAX; p++) {
		struct conf_resolved r;

		conf_resolve_global(c, (enum policy)p, &r);
		for (size_t i = 0; i < c->n_slices; i++) {
			const char *name = c->slices[i].name;
			bool is_prefix;
			const char *why;

			if (!slice_name_valid(name, &is_prefix, &why) || is_prefix != c->slices[i].is_prefix)
				abort();
			if (conf_section_for(c, name) != (long)i)
				abort();
			if (slice_cgroup_path(name, buf, sizeof(buf)) < 0)
				abort();
			conf_resolve_slice(c, name, (enum policy)p, &r);
			for (int k = 0; k < KEY__MAX; k++) {
				if (!r.set[k] || !conf_key_is_size((enum conf_key)k))
					continue;
				uint64_t bytes = size_resolve(&r.val[k].size, 16ull << 30);

				format_bytes(bytes, buf, sizeof(buf));
				cgroup_shown_value(bytes, 4096, buf, sizeof(buf));
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conf merged, one, two;
	char *text = malloc(size + 1);
	enum policy pol;

	conf_init(&merged);
	conf_init(&one);
	conf_init(&two);
	conf_parse(&one, "/fuzz/10.conf", (const char *)data, size, diag, NULL);
	conf_merge(&merged, &one);
	/* a second copy merges into sections that already exist */
	conf_parse(&two, "/fuzz/20.conf", (const char *)data, size, diag, NULL);
	conf_merge(&merged, &two);
	exercise(&merged);
	conf_free(&merged);

	/* the kernel-file parsers take NUL-terminated text */
	memcpy(text, data, size);
	text[size] = '\0';
	parse_policy_file(text, &pol);
	parse_enabled_file(text, &pol);
	free(text);
	return 0;
}
