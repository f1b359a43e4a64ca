# shellcheck shell=sh
# The two rules of an A/B verdict, "below FACTOR x" and "within the
# spread", in one place: tests/bench/report, the one judge of make bench's
# and make fg-check's goals, uses both. Each is false when a number is
# missing.

# below A B FACTOR: A < B x FACTOR
below() {
	[ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ] && awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a < b * f) }'
}
# within A B SPREAD: A and B differ by no more than SPREAD (the run-to-run
# spread, or a share of one of them). The numbers are decimals, which
# binary floating point holds inexactly: 0.1901 - 0.1902 comes out a hair
# above 0.0001, so a difference equal to the spread is allowed a rounding
# error far below the places printed.
within() {
	[ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ] && awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = a < 0 ? -a : a; if (b > m) m = b; if (-b > m) m = -b
		exit !(d <= s + 1e-9 * m) }'
}
