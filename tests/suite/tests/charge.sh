# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: cgroup v1 charge moving. The runner sources every file
# here; the registry names the tests and what they need.

# charge-move: cgroup v1's move_charge_at_immigrate recharges a task's
# pages, folio by folio, while the task keeps reading and mapping them;
# the lockless FG updates must never account a recharged folio to the
# memcg it left. The task goes back and forth between two v1 memcgs for
# --seconds; then, stopped, each memcg's generations agree with its
# memory.stat, and emptied (force_empty), a type memory.stat has no
# pages of has none in the generations. The v1 memory controller must be
# free to mount: it is not while cgroup v2 uses it (any systemd host, or
# after a v2 test), and a v1 memcg that keeps pages charged keeps it
# there, so this has a suite of its own (charge), and skips where it
# cannot mount.
t_charge_move() {
	grep -q '^memory' /proc/cgroups || { SKIP_WHY="no memory controller"; return 4; }
	v1=$tmp/v1
	mkdir -p "$v1"
	# undone on exit (its task runs for a day), so before it is there
	at_exit v1
	mount -t cgroup -o memory mglru-fg-v1 "$v1" 2>/dev/null ||
		{ SKIP_WHY="cannot mount the v1 memory controller (CONFIG_MEMCG_V1=n, or cgroup v2 uses it)"; return 4; }
	rc=0
	for g in a b; do
		mkdir "$v1/$g" && echo "$memcg_max" > "$v1/$g/memory.limit_in_bytes" &&
			echo 3 > "$v1/$g/memory.move_charge_at_immigrate" || rc=1
	done
	if [ $rc = 0 ]; then
		sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' v1 "$v1/a" \
			"$LIBEXEC/accstress" --dir "$file_dir" --file "$(size_of 2 1)" --anon "$(size_of 1 2)" \
			--seconds 86400 --seed 13 9>&- &
		pa=$!
		moves=0 t0=$(date +%s)
		while [ $(($(date +%s) - t0)) -lt "$seconds" ] && kill -0 "$pa" 2>/dev/null; do
			for g in b a; do
				echo "$pa" > "$v1/$g/cgroup.procs" 2>/dev/null && moves=$((moves + 1))
			done
		done
		kill -0 "$pa" 2>/dev/null || { wait "$pa"; echo "accstress ended early (exit $?)"; rc=1; }
		echo "moved the task $moves times in $(($(date +%s) - t0)) s, each move recharging what it maps"
		kill -STOP "$pa" 2>/dev/null
		# SIGSTOP takes a thread only on its way back to user mode: one
		# in reclaim finishes it first, and an aging walk applies its
		# batched generation sizes only at its end (reset_batch_size()).
		# Until then a generation can count below zero, which
		# lru_gen_full shows as 0, so compare only once all are stopped.
		stopped "$pa" || { echo "accstress did not stop within 10 s"; rc=1; }
		for g in a b; do lru_consistent "$v1/$g" "$(policy_now)" "$v1" || rc=1; done
		kill -KILL "$pa" 2>/dev/null
		wait "$pa" 2>/dev/null
		for g in a b; do
			# what force_empty cannot take (swap cache still busy, say)
			# stays, and must still agree: a type memory.stat has no
			# pages of has none in the generations either
			echo 0 > "$v1/$g/memory.force_empty" 2>/dev/null
			lru_consistent "$v1/$g" "$(policy_now)" "$v1" || rc=1
			sizes=$(lru_sizes "$v1/$g" "$v1")
			[ -z "$sizes" ] || awk -v sizes="$sizes" -v g="$g" '
				$1 ~ /^(in)?active_anon$/ { anon += $2 } $1 ~ /^(in)?active_file$/ { file += $2 }
				END {
					split(sizes, n, " ")
					if ((anon == 0 && n[1] != 0) || (file == 0 && n[2] != 0)) {
						printf "v1 %s: memory.stat empty, generations %d anon, %d file pages\n", g, n[1], n[2]
						exit 1
					}
				}' "$v1/$g/memory.stat" || rc=1
		done
	fi
	for g in a b; do
		[ -d "$v1/$g" ] || continue
		rmdir "$v1/$g" || { echo "could not remove v1 memcg $g"; rc=1; }
	done
	umount "$v1" || { echo "could not unmount the v1 memory controller"; rc=1; }
	# The hierarchy goes away once its memcgs are freed; v1 memcgs that
	# still hold a few pages keep it, and the controller, in v1 (which is
	# why this test has a boot of its own). Say which it is.
	i=0
	while ! grep -qw memory "$CG/cgroup.controllers" && [ $i -lt 10 ]; do
		sleep 1
		i=$((i + 1))
	done
	grep -qw memory "$CG/cgroup.controllers" ||
		echo "the memory controller stays in v1 (memcgs with pages charged); later v2 tests of this run skip"
	return $rc
}
