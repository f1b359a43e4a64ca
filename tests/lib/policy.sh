# shellcheck shell=sh
# The reclaim policy a running kernel is in, as mglru-fg-test and the
# benchmark's guest read it (installed beside tap.sh). LRU: the lru_gen
# directory (default /sys/kernel/mm/lru_gen).

# in_force FILE: the choice FILE shows in brackets ("mglru [fg]"), or its
# one word (a memcg's "classic"). The t ends the cycle after a bracket:
# "[classic] mglru fg" would otherwise print twice.
in_force() { sed -n -e 's/.*\[\([a-z]*\)\].*/\1/p' -e t -e '/^classic$/p' "$1"; }

# policy_now: classic, mglru or fg; a kernel without the policy file
# (Debian's) runs mglru unless lru_gen/enabled reads 0x0000, and one
# without lru_gen at all runs classic.
policy_now() {
	if [ -r "${LRU:=/sys/kernel/mm/lru_gen}/policy" ]; then
		in_force "$LRU/policy"
	elif [ -r "$LRU/enabled" ]; then
		case $(cat "$LRU/enabled") in 0x0000) echo classic ;; *) echo mglru ;; esac
	else
		echo classic
	fi
}
# policy_source: where policy_now read it, for a diagnostic line
policy_source() {
	if [ -r "${LRU:=/sys/kernel/mm/lru_gen}/policy" ]; then echo "$LRU/policy"
	elif [ -r "$LRU/enabled" ]; then echo "$LRU/enabled (no policy file: stock kernel)"
	else echo "no $LRU (kernel without MGLRU)"; fi
}
