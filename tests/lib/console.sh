# shellcheck shell=sh
# The one judge of a console or dmesg log on the host, for the smoke
# cells, the package boots and the benchmark. Needs TOP.

# console_splats LOG OUT [IGNORE_ERE]: OUT gets the lines of LOG that
# config/oops-patterns calls a broken kernel, less any matching IGNORE_ERE
# (the harness's own lines; reports judged apart). True when there are any.
console_splats() {
	grep -v '^#' "$TOP/config/oops-patterns" > "$2.patterns"
	if [ -n "${3:-}" ]; then grep -v -E "$3" "$1"; else cat "$1"; fi |
		grep -E -f "$2.patterns" > "$2"
	_rc=$?
	rm -f "$2.patterns"
	[ "$_rc" -eq 0 ]
}

# console_check NAME LOG OUT [IGNORE_ERE]: the unnumbered KTAP line
# "NAME console clean" (tap_cell numbers it), with the first splats.
console_check() {
	if console_splats "$2" "$3" "${4:-}"; then
		echo "not ok - $1 console clean"
		sed 's/^/# /' "$3" | head -n 20
	else
		echo "ok - $1 console clean"
	fi
}
