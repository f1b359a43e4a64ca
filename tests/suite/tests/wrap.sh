# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: the FG eviction clock over a scan larger than memory. The
# runner sources every file here; the registry names the tests and what
# they need.

# clock-wrap: fg's refault distance has an eviction clock of a few bits
# in the shadow entry (21 with NODES_SHIFT=10); a clock that wraps after
# the memory's worth of evictions reads a refault one wrap and a little
# later as soon, so in a fault as a restore and a memory stall. A scan of a
# file one memory's worth (rounded up to a power of two, as such a wrap
# is) plus 1.5x its memcg's limit refaults every page that much later: no
# refault is soon, and fg must restore no more than mglru does for the
# same scan in the same boot. Two passes in each memcg: the first leaves
# the shadows, the second reads them.
t_clock_wrap() {
	[ "$(policy_now)" != classic ] || { SKIP_WHY="no refault distance under classic"; return 4; }
	[ -f "$cg_base/memory.lru_gen_policy" ] || [ -f "$(dirname "$cg_base")/memory.lru_gen_policy" ] ||
		{ SKIP_WHY="no memory.lru_gen_policy (kernel without the per-memcg policy)"; return 4; }
	pages=$(awk '$1 == "MemTotal:" { print int($2 / 4) }' /proc/meminfo)
	wrap=1
	while [ "$wrap" -lt "$pages" ]; do wrap=$((wrap * 2)); done
	# the memcg a quarter of the wrap: the shadow shrinker keeps shadow
	# entries for up to about 8 times a memcg's pages, so a smaller one
	# would have lost them before they came back
	mkib=$wrap
	kib=$((wrap * 4 + mkib * 3 / 2))
	free=$(df -k "$workdir" | awk 'NR == 2 { print $4 }')
	[ "$free" -gt $((kib + 65536)) ] || { SKIP_WHY="--workdir has ${free} KiB free, the scan needs $((kib + 65536))"; return 4; }
	f=$file_dir/wrap
	"$LIBEXEC/thrash" --dir "$f" --size "${kib}K" --mode prepare 9>&- || return 1
	rc=0
	for pol in mglru fg; do
		sync
		echo 1 > /proc/sys/vm/drop_caches
		m=$(new_memcg "wrap-$pol" "${mkib}K") || return 1
		echo "$pol" > "$m/memory.lru_gen_policy" || { echo "cannot put ${m##*/} on $pol"; return 1; }
		snap "$tmp/a" "$m"
		p0=$(psi_some "$m")
		in_memcg "$m" "$LIBEXEC/thrash" --dir "$f" --size "${kib}K" --reads $((kib / 2)) \
			--mode mmap --sequential > /dev/null || { echo "the scan in ${m##*/} failed"; rc=1; }
		p1=$(psi_some "$m")
		snap "$tmp/b" "$m"
		delta "$tmp/a" "$tmp/b" | awk -v pol="$pol" -v psi="$((${p1:-0} - ${p0:-0}))" '
			$1 == "memory.stat" { d[$2] = $3 + 0 }
			END {
				printf "%s %d %d %d %d\n", pol, d["workingset_refault_file"],
					d["workingset_activate_file"], d["workingset_restore_file"], psi
			}' >> "$tmp/wrap"
		rmdir "$m" 2>/dev/null || true
	done
	rm -rf "$f"
	awk -v pages="$pages" -v kib="$kib" '
		{ r[$1] = $2; a[$1] = $3; s[$1] = $4; p[$1] = $5
		  printf "%s: a %d KiB file scanned twice, %d refaults, %d activations, %d restores; memory.pressure some +%d us\n",
			$1, kib, $2, $3, $4, $5 }
		END {
			bad = 0
			if (r["fg"] < pages / 2) { print "too few fg refaults to judge: the second pass did not refault"; bad = 1 }
			if (s["fg"] > s["mglru"] + r["fg"] / 100) {
				print "fg restores more than mglru (and 1% of its refaults): old refaults read as soon"; bad = 1
			}
			exit bad
		}' "$tmp/wrap" || rc=1
	rm -f "$tmp/wrap"
	return $rc
}
