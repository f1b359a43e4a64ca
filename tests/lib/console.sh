# shellcheck shell=sh
# The one judge of a guest's console log on the host, for the smoke
# cells, the package boots and the benchmark. Needs TOP.

# console_splats LOG OUT [IGNORE_ERE]: OUT gets the lines of LOG that
# config/oops-patterns calls a broken kernel, less any matching IGNORE_ERE
# (the harness's own lines; reports judged apart). True when there are any.
console_splats() {
	grep -v '^#' "$TOP/config/oops-patterns" > "$2.patterns"
	if [ -n "${3:-}" ]; then grep -v -E "$3" "$1"; else cat "$1"; fi |
		grep -E -f "$2.patterns" > "$2"
	_cs_rc=$?
	rm -f "$2.patterns"
	[ "$_cs_rc" -eq 0 ]
}

# console_judge NAME LOG SENTINEL QEMU_RC [IGNORE_ERE [OOM_WHY]]: three
# unnumbered KTAP lines (tap_cell numbers them), each with its evidence:
#   "NAME console clean": no splat (console_splats, first 20 in LOG.oops);
#   "NAME no OOM kill": the kernel killed nothing; with OOM_WHY, the reason
#     that kills are expected, a skip;
#   "NAME done sentinel": a line starts with SENTINEL, so the guest got to
#     its end, and QEMU was not stopped by its timeout (exit 124).
console_judge() {
	if console_splats "$2" "$2.oops" "${5:-}"; then
		echo "not ok - $1 console clean"
		head -n 20 "$2.oops" | sed 's/^/# /'
	else
		echo "ok - $1 console clean"
	fi
	_cs_ooms=$(grep -c 'invoked oom-killer' "$2" || true)
	if [ -n "${6:-}" ]; then
		echo "ok - $1 no OOM kill # SKIP $6 ($_cs_ooms here)"
	elif [ "$_cs_ooms" -gt 0 ]; then
		echo "not ok - $1 no OOM kill # $_cs_ooms, and none is expected"
		grep -m 3 'invoked oom-killer\|Killed process' "$2" | sed 's/^/# /'
	else
		echo "ok - $1 no OOM kill"
	fi
	if grep -q "^$3" "$2" && [ "$4" -ne 124 ]; then
		echo "ok - $1 done sentinel"
	else
		echo "not ok - $1 done sentinel # no '$3' line; qemu exit $4"
		tail -n 15 "$2" | sed 's/^/# /'
	fi
}
