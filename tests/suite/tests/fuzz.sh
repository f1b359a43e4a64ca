# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: trinity and stress-ng. The runner sources every file
# here; the registry names the tests and what they need.

# trinity: Debian's (and Fedora's) syscall fuzzer, as nobody, in a memcg
# of --memcg-max with zram swap, for --seconds, on the memory system calls
# and the file reads and splices that take page cache through them. Its
# children may be OOM killed in that memcg, and trinity starts new ones;
# an OOM kill outside it fails. The splats are judged from dmesg by the
# loop in main(); here: it ran system calls, and it stopped within a
# minute of SIGINT (a hang in the kernel shows as one that does not).
TRINITY_CALLS='mmap munmap mprotect madvise mremap msync mlock mlock2 munlock mlockall munlockall
mincore remap_file_pages brk process_madvise userfaultfd memfd_create splice vmsplice tee
read pread64 readv preadv preadv2 fadvise64 readahead'
t_trinity() {
	sp=$(setpriv_path) || { SKIP_WHY="no setpriv of util-linux"; return 4; }
	m=$(new_memcg trinity) || return 1
	d=$file_dir/trinity
	mkdir "$d" && chown 65534:65534 "$d" || return 1
	set --
	for c in $TRINITY_CALLS; do set -- "$@" -c "$c"; done
	snap "$tmp/a" "$m"
	(cd "$d" && in_memcg "$m" "$sp" --reuid=65534 --regid=65534 --clear-groups \
		trinity -q -l off -C 4 --disable-fds=sockets "$@") > "$tmp/trinity" 2>&1 9>&- &
	pid=$!
	sleep "$seconds" 9>&-
	# as Ctrl-C would: to trinity and its children (an asynchronous
	# list of this shell ignores SIGINT itself, trinity does not)
	kill -INT $(cat "$m/cgroup.procs") 2>/dev/null
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
	rc=0
	if kill -0 "$pid" 2>/dev/null; then
		echo "trinity did not stop within 60 s of SIGINT"
		rc=1
	fi
	echo 1 > "$m/cgroup.kill"
	wait "$pid" 2>/dev/null
	snap "$tmp/b" "$m"
	grep -E 'Enabled [0-9]+|Ran [0-9]+ syscalls|iterations|tainted' "$tmp/trinity" | tail -n 4
	# its summary on exit, else its last progress line
	ran=$(sed -n -e 's/.*Ran \([0-9]*\) syscalls.*/\1/p' -e 's/.*\] \([0-9]*\) iterations\..*/\1/p' "$tmp/trinity" | tail -n1)
	echo "trinity: ${ran:-no count of} system calls in $seconds s, $(oom_kills "$m") OOM kills in its memcg"
	[ "${ran:-0}" -gt 0 ] || { echo "trinity ran no system call:"; tail -n 20 "$tmp/trinity"; rc=1; }
	oom_outside "$tmp/a" "$tmp/b" || rc=1
	return $rc
}

# oom_outside BEFORE AFTER: OOM kills the machine counted beyond those of
# the memcg snapped (memory.events counts its subtree).
oom_outside() {
	awk '$2 == "oom_kill" { d[$1] += (FNR == NR ? -$3 : $3) }
		END { n = d["vmstat"] - d["memory.events"]; if (n > 0) printf "%d OOM kills outside the memcg\n", n; exit n > 0 }' "$1" "$2"
}

# stress-ng: each stressor of its vm class, and the memory ones that map,
# remap or share pages, in turn in a memcg of 4 x --memcg-max with swap,
# two instances for --seconds/10 (at least 5 s) with stress-ng's own
# --verify, and KSM merging on where the kernel and stress-ng have it (its
# --ksm: not in bookworm's 0.15). A stressor
# stress-ng cannot run here (no resource, not implemented: its exit 3
# and 4) is a skip of its own; the watchdog stressor is left out (it arms
# /dev/watchdog). Stressors that eat memory are OOM killed in their memcg
# by design, and stress-ng starts them again: kills outside it fail.
# madvise runs without CAP_SYS_ADMIN: as root it also poisons its own
# pages (MADV_HWPOISON), and with CONFIG_MEMORY_FAILURE its workers die
# of SIGBUS under every policy. That is memory-failure injection, not
# reclaim; without the capability the kernel refuses that one advice
# (EPERM) and the stressor still exercises the others.
STRESS_NG_MORE='memfd mincore remap rmap'

t_stress_ng() {
	m=$(new_memcg stress-ng "$(size_of 4 1)") || return 1
	d=$file_dir/stress-ng
	mkdir "$d" || return 1
	# --ksm (merge the stressors' pages) is newer than bookworm's 0.15
	ksm= ksm_why="this kernel has no KSM"
	stress-ng --help 2>&1 | grep -q -- '--ksm' || ksm_why="stress-ng has no --ksm"
	if [ -w "$KSM/run" ] && stress-ng --help 2>&1 | grep -q -- '--ksm'; then
		ksm_run=$(cat "$KSM/run")
		[ "$ksm_run" = 1 ] || { echo 1 > "$KSM/run" && at_exit ksm; }
		ksm=--ksm
	fi
	per=$((seconds / 10))
	[ "$per" -ge 5 ] || per=5
	nocap=
	sp=$(setpriv_path) && nocap="$sp --inh-caps=-sys_admin --bounding-set=-sys_admin"
	stressors=$(stress-ng --class 'vm?' 2>&1 | sed -n 's/^class .vm. stressors: //p')
	[ -n "$stressors" ] || { echo "stress-ng --class vm? listed no stressor"; return 1; }
	snap "$tmp/a" "$m"
	rc=0 sn=0 ok=0 skipped=0
	for st in $stressors $STRESS_NG_MORE; do
		[ "$st" != watchdog ] || continue
		sn=$((sn + 1))
		# stress-ng will not start mlockmany without --pathological, for
		# fear of locking a whole machine's memory; the memcg bounds it.
		patho= wrap=
		[ "$st" != mlockmany ] || patho=--pathological
		if [ "$st" = madvise ]; then
			[ -n "$nocap" ] || { echo "ok $sn $st # SKIP no setpriv of util-linux to drop CAP_SYS_ADMIN" >> "$tmp/sub"
				skipped=$((skipped + 1)); continue; }
			wrap=$nocap
		fi
		# shellcheck disable=SC2086
		(cd "$d" && in_memcg "$m" $wrap stress-ng --"$st" 2 --timeout "${per}s" --verify $ksm $patho \
			--temp-path "$d" --metrics-brief) > "$tmp/sng" 2>&1 9>&-
		r=$?
		case $r in
		0) echo "ok $sn $st" >> "$tmp/sub"; ok=$((ok + 1)) ;;
		3 | 4) echo "ok $sn $st # SKIP stress-ng exit $r: $(grep -m1 -i -E 'skipp|not implemented|no resource' "$tmp/sng" | sed 's/^stress-ng: [a-z]*: *\[[0-9]*\] //')" >> "$tmp/sub"
			skipped=$((skipped + 1)) ;;
		*) echo "not ok $sn $st # stress-ng exit $r" >> "$tmp/sub"; rc=1
			echo "stress-ng --$st, exit $r:"
			grep -v ' metrc: ' "$tmp/sng" | tail -n 10 ;;
		esac
	done
	snap "$tmp/b" "$m"
	echo "stress-ng: $sn stressors, $ok passed their verification, $skipped could not run here, $((sn - ok - skipped)) failed; ${per} s each; $(oom_kills "$m") OOM kills in their memcg; ${ksm:+KSM on}${ksm:-no KSM: $ksm_why}"
	oom_outside "$tmp/a" "$tmp/b" || rc=1
	[ "$ok" -gt 0 ] || { echo "no stressor ran"; rc=1; }
	return $rc
}
