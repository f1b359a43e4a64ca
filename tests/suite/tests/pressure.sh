# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: data intact under memory pressure, and thrashing seen.
# The runner sources every file here; the registry names the tests and
# what they need.

# thrash: a file 1.5x memory.max read uniformly at random, by read() in
# one memcg and through a mapping in another. The file is written outside
# them and dropped from the cache, so every read() miss after a block's
# first read is the refault of a page evicted moments before. Under the
# multi-gen LRU 6.12 counts each such refault as a workingset activation
# (read: at least 90% of the refaults), and each one in a page fault also
# as a restore, which sets PG_workingset and so makes the read a memory
# stall for PSI (mmap: restores at least 90% of the activations; fault
# read-around also brings back pages evicted long ago, which are not
# recent, so the activations themselves are not judged there). mglru and
# fg must both report the thrashing so. Classic activates by refault
# distance, so it is only shown. memory.pressure's some total is printed
# for the A/B (make fg-check).
t_thrash() {
	pol=$(policy_now)
	f=$file_dir/thrash
	"$LIBEXEC/thrash" --dir "$f" --size "$(size_of 3 2)" --mode prepare 9>&- || return 1
	rc=0
	for mode in read mmap; do
		# no page of the file cached (nor charged to the other memcg)
		sync
		echo 1 > /proc/sys/vm/drop_caches
		m=$(new_memcg "thrash-$mode") || return 1
		snap "$tmp/a" "$m"
		p0=$(psi_some "$m")
		# a fault miss reads around it, so mmap thrashes with fewer reads
		reads=120000
		[ "$mode" = read ] || reads=40000
		in_memcg "$m" "$LIBEXEC/thrash" --dir "$f" --size "$(size_of 3 2)" --reads "$reads" \
			--mode "$mode" > /dev/null || { echo "thrash --mode $mode failed"; rc=1; }
		p1=$(psi_some "$m")
		snap "$tmp/b" "$m"
		[ "$(oom_kills "$m")" -eq 0 ] || { echo "unexpected OOM kill"; rc=1; }
		delta "$tmp/a" "$tmp/b" | awk -v mode="$mode" -v pol="$pol" -v psi="$((${p1:-0} - ${p0:-0}))" '
			$1 == "memory.stat" { d[$2] = $3 + 0 }
			END {
				r = d["workingset_refault_file"]; a = d["workingset_activate_file"]
				s = d["workingset_restore_file"]
				printf "thrash %s: %d refaults, %d activations, %d restores; memory.pressure some +%d us\n",
					mode, r, a, s, psi
				printf "result: thrash,%s,refaults,%d\nresult: thrash,%s,activations,%d\n", mode, r, mode, a
				printf "result: thrash,%s,restores,%d\nresult: thrash,%s,psi_some_us,%d\n", mode, s, mode, psi
				bad = 0
				if (r < 1000) { print "too few refaults to judge: the file did not thrash"; bad = 1 }
				if (pol != "classic" && mode == "read" && a < 0.9 * r) {
					print "activations under 90% of the refaults"; bad = 1
				}
				if (pol != "classic" && mode == "mmap" && (a < 1000 || s < 0.9 * a)) {
					print "restores under 90% of the activations in page faults"; bad = 1
				}
				exit bad
			}' || rc=1
	done
	rm -rf "$f"
	return $rc
}

t_anon_selftest() {
	out=$("$LIBEXEC/anonverify" --size 4M --passes 1 --corrupt 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 1 ] && echo "$out" | grep -q 'mismatches=[1-9]' ||
		{ echo "the verifier did not catch the flipped byte (exit $rc)"; return 1; }
}

t_anon_swap() {
	m=$(new_memcg anon) || return 1
	measured "$m" "$LIBEXEC/anonverify" --size "$(size_x3)" --passes 2 --pageout
}

t_file_pressure() {
	rc=0
	m=$(new_memcg file) || return 1
	measured "$m" "$LIBEXEC/filepressure" --dir "$file_dir/file" --size "$(size_x3)" --passes 2 || rc=1
	rm -rf "$file_dir/file"
	return $rc
}

t_mixed_memcgs() {
	a=$(new_memcg mixed-a) && b=$(new_memcg mixed-b) || return 1
	snap "$tmp/a" "$a"
	half=$(size_x3 2)
	pids= seed=10
	for m in "$a" "$b"; do
		seed=$((seed + 1))
		{ in_memcg "$m" "$LIBEXEC/anonverify" --size "$half" --passes 2 --seed $seed; } 9>&- &
		pids="$pids $!"
		{ in_memcg "$m" "$LIBEXEC/filepressure" --dir "$file_dir/${m##*/}" --size "$half" \
			--passes 1 --seed $seed; } 9>&- &
		pids="$pids $!"
	done
	rc=0
	for p in $pids; do wait "$p" || rc=1; done
	for m in "$a" "$b"; do
		[ "$(oom_kills "$m")" -eq 0 ] || { echo "unexpected OOM kill in ${m##*/}"; rc=1; }
	done
	snap "$tmp/b" "$a"
	delta "$tmp/a" "$tmp/b"
	return $rc
}
