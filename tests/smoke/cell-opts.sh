# shellcheck shell=sh
# Sourced by run and arm, which pass cell's options on to it.
# cell_opts ARGS...: the leading cell options of ARGS into $opts (one
# string: cell takes only single words, so the callers split it on
# spaces) and their number of words into $nopts, for the caller to shift.
cell_opts() {
	opts='' nopts=0
	while [ $# -gt 0 ]; do
		case $1 in
		--softlockup-report | --tcg-single | --print-dir) opts="$opts $1" _n=1 ;;
		--*) [ $# -ge 2 ] || die "$1 needs a value"; opts="$opts $1 $2" _n=2 ;;
		*) break ;;
		esac
		shift "$_n"
		nopts=$((nopts + _n))
	done
}
