# shellcheck shell=sh
# Minimal KTAP producer for our test scripts: tap_run NAME CMD... runs one
# check with its output in a log, and tap_done prints the plan and the
# "N passed, N failed, N skipped" line and sets the exit status.
# A check that exits 4 is a skip (kselftest's code); its last output line
# is the reason.

TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0
TAP_LOGDIR=${TAP_LOGDIR:-${TMPDIR:-/tmp}/tap.$$}
mkdir -p "$TAP_LOGDIR"
echo "KTAP version 1"

tap_ok() { TAP_N=$((TAP_N + 1)) TAP_PASS=$((TAP_PASS + 1)); echo "ok $TAP_N $1"; }
tap_notok() { TAP_N=$((TAP_N + 1)) TAP_FAIL=$((TAP_FAIL + 1)); echo "not ok $TAP_N $1"; }
tap_skip() { TAP_N=$((TAP_N + 1)) TAP_SKIP=$((TAP_SKIP + 1)); echo "ok $TAP_N $1 # SKIP $2"; }
tap_diag() { sed 's/^/# /'; }

tap_run() {
	_name=$1
	shift
	_log=$TAP_LOGDIR/$(echo "$_name" | tr -c 'A-Za-z0-9_.-' _).log
	_t0=$(date +%s)
	if "$@" > "$_log" 2>&1; then _rc=0; else _rc=$?; fi
	_dt=$(($(date +%s) - _t0))
	case $_rc in
	0) tap_ok "$_name"; echo "# $_name: ${_dt}s" ;;
	4) tap_skip "$_name" "$(tail -n1 "$_log")" ;;
	*)
		tap_notok "$_name"
		echo "# $_name: exit $_rc after ${_dt}s; last lines of $_log:"
		tail -n 25 "$_log" | tap_diag
		;;
	esac
	return 0
}

tap_done() {
	echo "1..$TAP_N"
	echo "# Totals: pass:$TAP_PASS fail:$TAP_FAIL skip:$TAP_SKIP"
	if [ "$TAP_SKIP" -gt 0 ]; then
		echo "$TAP_PASS passed, $TAP_FAIL failed, $TAP_SKIP skipped"
	else
		echo "$TAP_PASS passed, $TAP_FAIL failed"
	fi
	[ "$TAP_FAIL" -eq 0 ]
}

# tap_cell CMD...: run a command that prints unnumbered results
# ("ok - NAME", "not ok - NAME", "ok - NAME # SKIP WHY") and "# " lines,
# and number them into this stream. A command that fails without
# reporting a failure counts as one.
tap_cell() {
	_log=$TAP_LOGDIR/cell.$TAP_N.log
	if "$@" > "$_log" 2>&1; then _rc=0; else _rc=$?; fi
	_fails=$TAP_FAIL
	while IFS= read -r _l; do
		case $_l in
		"not ok - "*) tap_notok "${_l#not ok - }" ;;
		"ok - "*" # SKIP "*) _n=${_l#ok - }; tap_skip "${_n%% # SKIP *}" "${_n#* # SKIP }" ;;
		"ok - "*) tap_ok "${_l#ok - }" ;;
		"#"*) echo "$_l" ;;
		*) echo "# $_l" ;;
		esac
	done < "$_log"
	[ "$_rc" -eq 0 ] || [ "$TAP_FAIL" -gt "$_fails" ] || tap_notok "$* (exit $_rc)"
	return 0
}
