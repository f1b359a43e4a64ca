# shellcheck shell=sh
# The one KTAP library: make check and the other host drivers, and
# mglru-fg-test on an installed system or in a guest (the tests package
# installs this file as /usr/share/mglru-fg/tap.sh).
#
#   tap_begin [PLAN]      "KTAP version 1", and the plan when it is known
#   tap_ok, tap_notok NAME; tap_skip NAME WHY; tap_diag (stdin as "# ")
#   tap_run NAME CMD...   one check, its output in $TAP_LOGDIR (exit 4: skip,
#                         the last line of its output the reason)
#   tap_cell CMD...       a command that prints unnumbered results
#                         ("ok - NAME", "not ok - NAME", "ok - NAME # SKIP WHY"),
#                         "# " lines and nested KTAP blocks (indented 4 spaces)
#   tap_sub NAME FILE     FILE's results as the nested block of the next result
#   tap_guest NAME PREFIX LOG   the KTAP that a guest printed to LOG (lines
#                         starting with PREFIX) as a nested block
#   tap_done              the plan (when tap_begin had none), kselftest's
#                         Totals and "N passed, N failed, N skipped"; false
#                         when any failed
# Everything printed also goes to $TAP_COPY when set (mglru-fg-test --ktap).
#
# The totals count leaves, as kunit.py does: the result line of a subtest
# sums up its block, whose results are counted, and counts itself only when
# it failed and no result of its block did (a truncated run).

TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0 _tap_plan=
TAP_LOGDIR=${TAP_LOGDIR:-${TMPDIR:-/tmp}/tap.$$}
# _tap_kD: a nested block at depth D+1 came since the last result at depth
# D; _tap_fD: something in it failed. Depth 0 is this document's own.
_tap_reset() { _tap_k0=0 _tap_f0=0 _tap_k1=0 _tap_f1=0 _tap_k2=0 _tap_f2=0 _tap_k3=0 _tap_f3=0; }
_tap_reset

tap_out() {
	printf '%s\n' "$*"
	[ -z "${TAP_COPY:-}" ] || printf '%s\n' "$*" >> "$TAP_COPY"
}
tap_diag() { while IFS= read -r _tap_d; do tap_out "# $_tap_d"; done; }

tap_begin() {
	tap_out "KTAP version 1"
	_tap_plan=${1:-}
	[ -z "$_tap_plan" ] || tap_out "1..$_tap_plan"
}

# _tap_count DEPTH ok|skip|fail: tally a result line at DEPTH.
_tap_count() {
	eval "_tap_kids=\${_tap_k$1:-0} _tap_bad=\${_tap_f$1:-0}"
	eval "_tap_k$1=0 _tap_f$1=0"
	if [ "${_tap_kids:-0}" = 0 ] || { [ "$2" = fail ] && [ "${_tap_bad:-0}" = 0 ]; }; then
		case $2 in
		ok) TAP_PASS=$((TAP_PASS + 1)) ;;
		skip) TAP_SKIP=$((TAP_SKIP + 1)) ;;
		fail) TAP_FAIL=$((TAP_FAIL + 1)) _tap_bad=1 ;;
		esac
	fi
	[ "$1" -gt 0 ] || return 0
	_tap_up=$(($1 - 1))
	eval "_tap_k$_tap_up=1"
	[ "${_tap_bad:-0}" = 0 ] || eval "_tap_f$_tap_up=1"
}

tap_ok() { TAP_N=$((TAP_N + 1)); tap_out "ok $TAP_N $1"; _tap_count 0 ok; }
tap_notok() { TAP_N=$((TAP_N + 1)); tap_out "not ok $TAP_N $1"; _tap_count 0 fail; }
tap_skip() { TAP_N=$((TAP_N + 1)); tap_out "ok $TAP_N $1 # SKIP $2"; _tap_count 0 skip; }

# _tap_nested LINE: print a line of a nested block and tally it if it is
# a result.
_tap_nested() {
	tap_out "$1"
	_tap_i=${1%%[! ]*}
	_tap_r=${1#"$_tap_i"}
	_tap_dd=$((${#_tap_i} / 4))
	[ "$_tap_dd" -gt 0 ] || return 0
	case $_tap_r in
	"not ok "[0-9]*) _tap_count "$_tap_dd" fail ;;
	"ok "[0-9]*" # SKIP"*) _tap_count "$_tap_dd" skip ;;
	"ok "[0-9]*) _tap_count "$_tap_dd" ok ;;
	esac
}

# tap_sub NAME FILE: FILE holds results ("ok 1 x", nested blocks indented
# further); printed as the block of the result that the caller prints next.
tap_sub() {
	tap_out "    KTAP version 1"
	tap_out "    # Subtest: $1"
	tap_out "    1..$(grep -c '^\(not \)\{0,1\}ok [0-9]' "$2")"
	while IFS= read -r _tap_l; do _tap_nested "    $_tap_l"; done < "$2"
}

# tap_guest NAME PREFIX LOG: the KTAP document that a guest printed on
# its console LOG, each line after PREFIX, as unnumbered output for
# tap_cell: a nested block, then "ok - NAME" when the document is whole
# (its summary line came) and nothing in it failed.
tap_guest() {
	_tap_sum=
	sed -n "s/^$2//p" "$3" | tr -d '\r' > "$3.ktap"
	while IFS= read -r _tap_l; do
		case $_tap_l in
		"KTAP version 1") echo "    $_tap_l"; echo "    # Subtest: $1" ;;
		[0-9]*" passed, "*) _tap_sum=$_tap_l; echo "    # $_tap_l" ;;
		*) echo "    $_tap_l" ;;
		esac
	done < "$3.ktap"
	case $_tap_sum in
	'') echo "not ok - $1 # no summary line: the run did not finish" ;;
	*" 0 failed"*) echo "ok - $1" ;;
	*) echo "not ok - $1" ;;
	esac
}

tap_run() {
	_tap_name=$1
	shift
	mkdir -p "$TAP_LOGDIR"
	_tap_log=$TAP_LOGDIR/$(echo "$_tap_name" | tr -c 'A-Za-z0-9_.-' _).log
	_tap_t0=$(date +%s)
	if "$@" > "$_tap_log" 2>&1; then _tap_rc=0; else _tap_rc=$?; fi
	_tap_dt=$(($(date +%s) - _tap_t0))
	case $_tap_rc in
	0) tap_ok "$_tap_name"; tap_out "# $_tap_name: ${_tap_dt}s" ;;
	4) tap_skip "$_tap_name" "$(tail -n1 "$_tap_log")" ;;
	*)
		tap_notok "$_tap_name"
		tap_out "# $_tap_name: exit $_tap_rc after ${_tap_dt}s; last lines of $_tap_log:"
		tail -n 25 "$_tap_log" | tap_diag
		;;
	esac
	return 0
}

# A command that fails without reporting a failure counts as one.
# The cell's output is all copied into the stream, so its log is only a
# buffer: a file of its own, since two drivers (make stress beside make
# fg-check) share one TAP_LOGDIR and number their cells alike, and removed
# once read.
tap_cell() {
	mkdir -p "$TAP_LOGDIR"
	_tap_log=$(mktemp "$TAP_LOGDIR/cell.XXXXXX") || { tap_notok "$* (no buffer in $TAP_LOGDIR)"; return 0; }
	if "$@" > "$_tap_log" 2>&1; then _tap_rc=0; else _tap_rc=$?; fi
	_tap_fails=$TAP_FAIL
	_tap_reset
	while IFS= read -r _tap_l; do
		case $_tap_l in
		"not ok - "*) tap_notok "${_tap_l#not ok - }" ;;
		"ok - "*" # SKIP "*) _tap_x=${_tap_l#ok - }; tap_skip "${_tap_x%% # SKIP *}" "${_tap_x#* # SKIP }" ;;
		"ok - "*) tap_ok "${_tap_l#ok - }" ;;
		"    "*) _tap_nested "$_tap_l" ;;
		"#"*) tap_out "$_tap_l" ;;
		*) tap_out "# $_tap_l" ;;
		esac
	done < "$_tap_log"
	rm -f "$_tap_log"
	[ "$_tap_k0" = 0 ] || tap_notok "$* (a nested block without its result line)"
	[ "$_tap_rc" -eq 0 ] || [ "$TAP_FAIL" -gt "$_tap_fails" ] || tap_notok "$* (exit $_tap_rc)"
	return 0
}

tap_done() {
	[ -n "$_tap_plan" ] || tap_out "1..$TAP_N"
	tap_out "# Totals: pass:$TAP_PASS fail:$TAP_FAIL xfail:0 xpass:0 skip:$TAP_SKIP error:0"
	tap_out "$TAP_PASS passed, $TAP_FAIL failed, $TAP_SKIP skipped"
	[ "$TAP_FAIL" -eq 0 ]
}
