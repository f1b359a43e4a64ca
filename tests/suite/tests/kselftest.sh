# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: the upstream mm and cgroup selftests. The runner sources
# every file here; the registry names the tests and what they need.

# ksft COLLECTION CATEGORY... -- ARGS...: run_kselftest.sh ARGS once per
# CATEGORY (none: once), its output as diag, and one KTAP subtest per
# result it reports into $tmp/sub (kselftest.awk reads them). A CATEGORY
# is passed to the program in KSELFTEST_<PROG>_ARGS as "-t CATEGORY"
# (run_vmtests.sh's) and names its results. A failure named in the skip
# list (it fails on stock 6.12 here too) is a skip with that reason; any
# other failure fails the test.
ksft() {
	coll=$1
	shift
	[ -x "$KSELFTEST/run_kselftest.sh" ] || { SKIP_WHY="no kselftests at $KSELFTEST (package mglru-fg-tests)"; return 4; }
	[ -f "$CG/cgroup.controllers" ] || { SKIP_WHY="no cgroup v2 at $CG"; return 4; }
	# swap is among the registry's needs: the zswap and swap tests (and
	# any test that overcommits) need it, and without it one drove a guest
	# into a global OOM that killed init.
	known=/dev/null
	[ ! -r "$KSELFTEST_SKIP" ] || known=$KSELFTEST_SKIP
	# Append only: the runner reopens /dev/stdout for the programs' output,
	# and a second, non-appending offset into the file would overwrite it.
	cats=
	while [ "$1" != -- ]; do cats="$cats $1" && shift; done
	shift
	: > "$tmp/ksft"
	for cat in ${cats:--}; do
		[ "$cat" != - ] || cat=
		echo "# category: $cat" >> "$tmp/ksft"
		nb=$(wc -c < "$tmp/ksft")
		# The timeout (-o) is per program run, here per category.
		KSELFTEST_RUN_VMTESTS_SH_ARGS=${cat:+"-t $cat"} \
			"$KSELFTEST/run_kselftest.sh" -o "$ksft_timeout" "$@" >> "$tmp/ksft" 2>&1 9>&-
		# as it comes, so a console shows how far a long run got
		tail -c +"$((nb + 1))" "$tmp/ksft"
	done
	awk -f "$TESTLIB/kselftest.awk" -v mode=run -v coll="$coll" -v sub_out="$tmp/sub" -v skips="$known" "$tmp/ksft"
}

# One run per run_vmtests.sh category, in its order: a category that
# hangs (under emulation, say) then costs its own timeout, not the rest.
t_kselftest_mm() {
	[ -r "$KSELFTEST/mm/run_vmtests.sh" ] || { SKIP_WHY="no mm kselftests at $KSELFTEST/mm"; return 4; }
	all=$(sed -n 's/.*CATEGORY="\([a-z_0-9]*\)".*/\1/p' "$KSELFTEST/mm/run_vmtests.sh" | awk '!s[$0]++')
	cats=$all
	if [ -n "$ksft_cats" ]; then
		cats=$(echo "$ksft_cats" | tr , ' ')
		for c in $cats; do
			echo "$all" | grep -qx "$c" || { echo "no run_vmtests.sh category '$c' (there are: $(echo $all))"; return 1; }
		done
	fi
	# shellcheck disable=SC2086
	ksft mm $cats -- -t mm:run_vmtests.sh
}

# test_zswap needs zswap on; a kernel that builds it in but leaves it off
# (ours: CONFIG_ZSWAP_DEFAULT_ON=n, as Debian's) failed 5 of its 6 tests.
t_kselftest_cgroup() {
	zswap=$SYS/module/zswap/parameters/enabled
	if [ -w "$zswap" ] && [ "$(cat "$zswap")" = N ]; then
		echo Y > "$zswap" && at_exit zswap
	fi
	ksft cgroup -- -c cgroup
}
