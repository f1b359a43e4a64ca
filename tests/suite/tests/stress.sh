# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: the policy switch and every access path under load. The
# runner sources every file here; the registry names the tests and what
# they need.

# classic <-> mglru while three memcgs work (anon with swap, files, both):
# no OOM kill, data intact, enabled always agrees with policy, and the
# generations agree with memory.stat afterwards.
t_policy_toggle() {
	[ -w "$LRU/policy" ] || { SKIP_WHY="no writable $LRU/policy (kernel without the policy switch)"; return 4; }
	orig=$(policy_now) rc=0
	[ "$orig" != fg ] || { SKIP_WHY="fg cannot be left at run time; boot classic or mglru"; return 4; }
	save_policy
	ma=$(new_memcg toggle-anon) && mf=$(new_memcg toggle-file) && mm=$(new_memcg toggle-mixed) || return 1
	{ in_memcg "$ma" "$LIBEXEC/anonverify" --size "$(size_x3)" --passes 1000 --seed 7; } 9>&- &
	pa=$!
	{ in_memcg "$mf" "$LIBEXEC/filepressure" --dir "$file_dir/toggle-file" --size "$(size_x3)" --passes 1000 --seed 8; } 9>&- &
	pf=$!
	{ in_memcg "$mm" "$LIBEXEC/accstress" --dir "$file_dir" --file "$(size_of 2 1)" --anon "$(size_of 1 2)" \
		--seconds 86400 --seed 9; } 9>&- &
	pm=$!
	i=0 t0=$(date +%s)
	while [ $i -lt "$toggles" ]; do
		for p in classic mglru; do
			"$LIBEXEC/kwrite" "$LRU/policy" "$p" >/dev/null || { echo "write $p failed"; rc=1; }
			enabled_agrees "$p" || rc=1
		done
		i=$((i + 1))
	done
	echo "toggled classic <-> mglru $toggles times in $(($(date +%s) - t0)) s under pressure"
	"$LIBEXEC/kwrite" "$LRU/policy" "$orig" >/dev/null
	[ "$(policy_now)" = "$orig" ] || { echo "could not restore $orig"; rc=1; }
	# The workloads loop until stopped; a dead one has failed already.
	for p in $pa $pf $pm; do
		kill -0 "$p" 2>/dev/null || { wait "$p"; echo "a workload ended early (exit $?)"; rc=1; }
	done
	for m in "$ma" "$mf" "$mm"; do echo 1 > "$m/cgroup.kill"; done
	wait
	for m in "$ma" "$mf" "$mm"; do
		if [ "$(oom_kills "$m")" -ne 0 ]; then
			echo "OOM kill in ${m##*/} while switching; its generations now:"
			lru_gen_of "$m"
			rc=1
		fi
		lru_consistent "$m" "$orig" || rc=1
	done
	rm -rf "$file_dir/toggle-file"
	return $rc
}

# Every access path at once in one memcg under pressure (accstress): the
# memcg path needs a cgroup of its own to create and remove children in.
# Under the multi-gen LRU with memory.lru_gen_policy, two at once: one
# memcg follows fg and one mglru, so that each policy's paths race the
# other's in one kernel.
t_access_stress() {
	pols=$(policy_now) rc=0 pids=
	m=$(new_memcg "access-$pols") || return 1
	if [ "$pols" != classic ] && [ -f "$m/memory.lru_gen_policy" ]; then
		rmdir "$m" && m=$(new_memcg access-fg) && m2=$(new_memcg access-mglru) || return 1
		write_expect "$m/memory.lru_gen_policy" fg ok && write_expect "$m2/memory.lru_gen_policy" mglru ok || return 1
		set -- "$m" fg "$m2" mglru
	else
		set -- "$m" "$pols"
	fi
	i=1
	while [ $i -lt $# ]; do
		eval "c=\${$i}"
		echo +memory > "$c/cgroup.subtree_control" && mkdir "$c/work" && mkdir -p "$file_dir/${c##*/}" || return 1
		snap "$tmp/a.${c##*/}" "$c"
		{ in_memcg "$c/work" "$LIBEXEC/accstress" --dir "$file_dir/${c##*/}" --file "$(size_x3)" \
			--anon "$(size_of 1 2)" --seconds "$seconds" --cgroup "$c"; } > "$tmp/acc.${c##*/}" 2>&1 9>&- &
		pids="$pids $!"
		i=$((i + 2))
	done
	for p in $pids; do
		c=$1 pol=$2
		shift 2
		wait "$p" || { echo "${c##*/}: accstress failed"; rc=1; }
		echo "${c##*/} ($pol):"
		cat "$tmp/acc.${c##*/}"
		snap "$tmp/b.${c##*/}" "$c"
		delta "$tmp/a.${c##*/}" "$tmp/b.${c##*/}"
		[ "$(oom_kills "$c")" -eq 0 ] || { echo "${c##*/}: unexpected OOM kill"; rc=1; }
		# the lockless LRU size updates of fg, after every path raced them
		lru_consistent "$c/work" "$pol" || rc=1
		lru_drained "$c/work" || rc=1
	done
	return $rc
}
