# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: the FG counters and what active_file means under fg. The
# runner sources every file here; the registry names the tests and what
# they need.

# fg-counters: a file workload under pressure moves lru_fg_promote_fd
# under fg, and no lru_fg_* counter under other policies.
t_fg_counters() {
	grep -q '^lru_fg_promote_fd ' /proc/vmstat ||
		{ SKIP_WHY="no lru_fg_* counters in /proc/vmstat (kernel without CONFIG_LRU_GEN_FG)"; return 4; }
	m=$(new_memcg fgcount) || return 1
	snap "$tmp/a"
	in_memcg "$m" "$LIBEXEC/hotcold" --dir "$file_dir/fgcount" --hot "$(size_of 1 4)" \
		--cold "$(size_of 1 1)" --rounds 2 --warm 2 --seed 9 >/dev/null || { echo "hotcold failed"; return 1; }
	snap "$tmp/b"
	rm -rf "$file_dir/fgcount"
	awk '$2 ~ /^lru_fg_/' "$tmp/a" > "$tmp/fa"
	awk '$2 ~ /^lru_fg_/' "$tmp/b" > "$tmp/fb"
	moved=$(delta "$tmp/fa" "$tmp/fb")
	echo "${moved:-no lru_fg_* counter moved}"
	if [ "$(policy_now)" = fg ]; then
		echo "$moved" | grep -q " lru_fg_promote_fd +" ||
			{ echo "lru_fg_promote_fd did not move under fg"; return 1; }
	else
		[ -z "$moved" ] || { echo "lru_fg_* counters moved under $(policy_now)"; return 1; }
	fi
}

# memstat MEMCG KEY: KEY of MEMCG's memory.stat, in pages.
memstat() { awk -v k="$2" '$1 == k { print int($2 / 4096) }' "$1/memory.stat"; }

# age_memcg MEMCG: one aging step (force_scan) of MEMCG on every node.
age_memcg() {
	awk -v path="${1#"$CG"}" '
		$1 == "memcg" { cur = $3; if (cur == path) id = $2; next }
		cur == path && $1 == "node" { node = $2; next }
		cur == path && NF >= 4 && $1 ~ /^[0-9]+$/ { max[node] = $1 }
		END { for (n in max) print "+", id, n, max[n], 0, 1 }' "$SYS/kernel/debug/lru_gen" |
		while read -r cmd; do
			"$LIBEXEC/kwrite" "$SYS/kernel/debug/lru_gen" "$cmd" >/dev/null || return 1
		done
}

# fg-active: a file a quarter of memory.max, read five times, then aged
# three times through debugfs with nothing read. Under fg a folio read
# three times or more counts as active whatever its generation, so
# active_file holds the file before and after the aging. Under mglru
# active means "in the two youngest generations", so the aging empties
# it: the contrast shows the test can tell the two apart. Either way the
# generations must agree with memory.stat, and with the file gone the
# memcg's file LRU sizes must be back to about zero.
t_fg_active() {
	pol=$(policy_now)
	case $pol in fg | mglru) ;; *) SKIP_WHY="no generations under $pol"; return 4 ;; esac
	[ -w "$SYS/kernel/debug/lru_gen" ] || { SKIP_WHY="no writable $SYS/kernel/debug/lru_gen"; return 4; }
	m=$(new_memcg fgactive) || return 1
	f=$file_dir/fgactive
	pages=$(($(echo "$(size_of 1 4)" | tr -d K) / 4))
	in_memcg "$m" sh -c 'dd if=/dev/zero of="$1" bs=4096 count="$2" 2>/dev/null && sync &&
		for i in 1 2 3 4 5; do cat "$1" > /dev/null; done' sh "$f" "$pages" ||
		{ echo "could not write and read $f"; return 1; }
	a0=$(memstat "$m" active_file) i0=$(memstat "$m" inactive_file)
	for i in 1 2 3; do age_memcg "$m" || { echo "aging $m through debugfs failed"; return 1; }; done
	a1=$(memstat "$m" active_file) i1=$(memstat "$m" inactive_file)
	echo "$pol: file $pages pages; active_file $a0 -> $a1, inactive_file $i0 -> $i1 pages across 3 aging steps"
	rc=0
	if [ "$pol" = fg ]; then
		[ $((a0 * 4)) -ge $((pages * 3)) ] || { echo "fg: a file read 5 times is not active"; rc=1; }
		[ $((a1 * 10)) -ge $((a0 * 9)) ] || { echo "fg: aging moved active_file"; rc=1; }
	else
		[ $((a1 * 4)) -le "$pages" ] || { echo "mglru: aging left the file active"; rc=1; }
	fi
	lru_consistent "$m" "$pol" || rc=1
	rm -f "$f"
	a2=$(memstat "$m" active_file) i2=$(memstat "$m" inactive_file)
	echo "file removed: active_file $a2, inactive_file $i2 pages"
	[ $((a2 + i2)) -le $((64 * $(nproc))) ] || { echo "the file LRU sizes did not come back down"; rc=1; }
	return $rc
}
