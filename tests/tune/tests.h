/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TUNE_TESTS_H
#define TUNE_TESTS_H

void tests_values(void);
void tests_conf(void);
void tests_cli(void);
void tests_apply(void);
void tests_files(void);
void tests_revert(void);
void tests_loop(void);
void tests_auto(void);

#endif
