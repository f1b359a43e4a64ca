# SPDX-License-Identifier: GPL-2.0
# mglru-fg-test: the policy as booted, its switch and the per-memcg
# policy. The runner sources every file here; the registry names the tests
# and what they need.

t_policy() {
	want=default
	for w in $(cat /proc/cmdline); do
		case $w in lru_gen=*) want=${w#lru_gen=} ;; esac
	done
	have=$(policy_now)
	echo "policy in force: $have (read from $(policy_source))"
	echo "lru_gen= on the command line: $want"
	[ -r "$LRU/enabled" ] && echo "lru_gen/enabled: $(cat "$LRU/enabled")"
	case $(echo "$want" | tr 'A-Z' 'a-z') in
	classic | 0 | n | off) exp=classic ;;
	mglru | 1 | y | on) exp=mglru ;;
	fg) exp=fg ;;
	*) exp= ;;
	esac
	if [ -r "$LRU/enabled" ]; then
		en=$(cat "$LRU/enabled")
		case $have in
		classic) [ "$en" = 0x0000 ] || { echo "policy is classic but enabled is $en"; return 1; } ;;
		*) [ $((en & 1)) -eq 1 ] || { echo "policy is $have but enabled is $en"; return 1; } ;;
		esac
	fi
	if [ "$want" != default ] && [ ! -r "$LRU/policy" ]; then
		SKIP_WHY="lru_gen=$want asked, but this kernel has no lru_gen= switch; it runs $have"
		return 4
	fi
	[ -r "$LRU/policy" ] || { echo "no lru_gen= given and no policy file: nothing to compare"; return 0; }
	booted=$(dmesg | sed -n 's/.*lru_gen: page reclaim policy: //p' | tail -n1)
	echo "dmesg: page reclaim policy: ${booted:-(no such line)}"
	[ "$booted" = "$have" ] || { echo "dmesg says ${booted:-nothing}, sysfs says $have"; return 1; }
	if [ -z "$exp" ]; then
		# Absent or invalid: the Kconfig default, and a warning if invalid.
		exp=$(kconfig_default) || { echo "cannot read the Kconfig default (no /proc/config.gz)"; return 1; }
		if [ "$want" != default ]; then
			dmesg | grep -q "lru_gen: ignoring lru_gen=$want:" ||
				{ echo "no warning in dmesg about lru_gen=$want"; return 1; }
			echo "dmesg warned about lru_gen=$want"
		fi
	fi
	[ "$have" = "$exp" ] || { echo "expected $exp, found $have"; return 1; }
	policy_walk
}

# The memcg walk of global reclaim (lru_gen_walk=): what the command line
# asked, or the memcg LRU with a warning for a value that names no walk.
policy_walk() {
	[ -r "$LRU/walk" ] || { echo "no $LRU/walk: a kernel with one memcg walk"; return 0; }
	wwant=
	for w in $(cat /proc/cmdline); do
		case $w in lru_gen_walk=*) wwant=${w#lru_gen_walk=} ;; esac
	done
	whave=$(in_force "$LRU/walk")
	echo "lru_gen/walk: $(cat "$LRU/walk"); lru_gen_walk= on the command line: ${wwant:-(none)}"
	case $(echo "$wwant" | tr 'A-Z' 'a-z') in
	lru | iter) wexp=$(echo "$wwant" | tr 'A-Z' 'a-z') ;;
	'') wexp=lru ;;
	*)
		wexp=lru
		dmesg | grep -q "lru_gen: ignoring lru_gen_walk=$wwant:" ||
			{ echo "no warning in dmesg about lru_gen_walk=$wwant"; return 1; }
		;;
	esac
	[ "$whave" = "$wexp" ] || { echo "expected the walk $wexp, found ${whave:-none}"; return 1; }
}

kconfig_default() {
	[ -r /proc/config.gz ] || return 1
	case $(zcat /proc/config.gz | grep '^CONFIG_LRU_DEFAULT_[A-Z_]*=y') in
	*MGLRU_FG=y) echo fg ;;
	*MGLRU=y) echo mglru ;;
	*) echo classic ;;
	esac
}

t_policy_switch() {
	[ -w "$LRU/policy" ] || { SKIP_WHY="no writable $LRU/policy (kernel without the policy switch)"; return 4; }
	save_policy
	orig=$(policy_now) rc=0
	write_expect "$LRU/policy" garbage EINVAL || rc=1
	write_expect "$LRU/policy" "" EINVAL || rc=1
	write_expect "$LRU/enabled" garbage EINVAL || rc=1
	case $orig in
	fg)
		write_expect "$LRU/policy" classic EBUSY || rc=1
		write_expect "$LRU/policy" mglru EBUSY || rc=1
		write_expect "$LRU/enabled" n EBUSY || rc=1
		write_expect "$LRU/policy" fg ok || rc=1
		[ "$(policy_now)" = fg ] || { echo "policy left fg"; rc=1; }
		return $rc
		;;
	# fg is chosen at boot only, from classic too
	mglru | classic) write_expect "$LRU/policy" fg EBUSY || rc=1 ;;
	esac
	[ "$(policy_now)" = "$orig" ] || { echo "a refused write changed the policy to $(policy_now)"; rc=1; }
	for p in classic mglru "$orig"; do
		write_expect "$LRU/policy" "$p" ok || rc=1
		enabled_agrees "$p" || rc=1
	done
	return $rc
}

# memcg_policy MEMCG: the policy in force in MEMCG's memory.lru_gen_policy.
memcg_policy() { in_force "$1/memory.lru_gen_policy"; }

# memcg_expect MEMCG WANT: MEMCG reads WANT.
memcg_expect() {
	got=$(memcg_policy "$1")
	echo "${1##*/}: $(cat "$1/memory.lru_gen_policy") (want $2)"
	[ "$got" = "$2" ]
}

# memcg-policy: every outcome of a write that the documentation gives
# (Documentation/admin-guide/cgroup-v2.rst). The memcg that gets charged
# follows the root's policy, and the one that follows fg under an mglru
# root is never charged: removed, it is freed at once, so no memcg left
# behind holds later tests' switches to classic.
t_memcg_policy() {
	a=$(new_memcg mpa) || return 1
	[ -f "$a/memory.lru_gen_policy" ] ||
		{ SKIP_WHY="no memory.lru_gen_policy (kernel without the per-memcg policy)"; return 4; }
	save_policy
	root=$(policy_now) rc=0
	if [ "$root" = classic ]; then
		memcg_expect "$a" classic || rc=1
		for v in fg mglru classic; do write_expect "$a/memory.lru_gen_policy" $v EINVAL || rc=1; done
		memcg_expect "$a" classic || rc=1
		return $rc
	fi
	# a new memcg follows its parent; ours follow the root unless a tuning
	# unit set our ancestors otherwise
	parent=$(dirname "$a")
	want=$root
	[ -f "$parent/memory.lru_gen_policy" ] && want=$(memcg_policy "$parent")
	other=fg
	[ "$want" = fg ] && other=mglru
	memcg_expect "$a" "$want" || rc=1
	for v in garbage "" classic CLASSIC 0 " fg" "fg " "$other$other"; do
		write_expect "$a/memory.lru_gen_policy" "$v" EINVAL || rc=1
	done
	memcg_expect "$a" "$want" || rc=1
	write_expect "$a/memory.lru_gen_policy" "$want" ok || rc=1
	write_expect "$a/memory.lru_gen_policy" "$other" ok || rc=1
	memcg_expect "$a" "$other" || rc=1
	# inheritance at creation, and only then
	echo +memory > "$a/cgroup.subtree_control" || { echo "cannot enable memory in $a"; return 1; }
	mkdir "$a/child" || return 1
	memcg_expect "$a/child" "$other" || rc=1
	write_expect "$a/memory.lru_gen_policy" "$want" ok || rc=1
	memcg_expect "$a/child" "$other" || rc=1
	write_expect "$a/child/memory.lru_gen_policy" "$want" ok || rc=1
	rmdir "$a/child" || rc=1
	# delegated as systemd does it (Delegate=yes: the directory and its
	# cgroup.* files to the user), a subtree's own memcgs are the user's,
	# files and all; their policy is still root's to choose
	if sp=$(setpriv_path); then
		echo +memory > "$a/cgroup.subtree_control" &&
			mkdir "$a/deleg" && chown 1000:1000 "$a/deleg" "$a/deleg/cgroup.procs" \
				"$a/deleg/cgroup.subtree_control" || { echo "cannot delegate $a/deleg"; return 1; }
		user() { "$sp" --reuid 1000 --regid 1000 --clear-groups "$@"; }
		user sh -c 'echo +memory > "$1/cgroup.subtree_control" && mkdir "$1/u"' user "$a/deleg" ||
			{ echo "uid 1000 cannot make a memcg in its subtree"; rc=1; }
		[ "$(stat -c %u "$a/deleg/u/memory.lru_gen_policy")" = 1000 ] ||
			{ echo "the memcg's files are not uid 1000's"; rc=1; }
		got=$(user "$LIBEXEC/kwrite" "$a/deleg/u/memory.lru_gen_policy" "$other")
		echo "uid 1000 writes '$other' > its own memcg's memory.lru_gen_policy: $got (want EPERM)"
		[ "$got" = EPERM ] || rc=1
		memcg_expect "$a/deleg/u" "$want" || rc=1
		user rmdir "$a/deleg/u" && rmdir "$a/deleg" || { echo "cannot remove $a/deleg"; rc=1; }
	else
		echo "no setpriv of util-linux: the delegated write is not tried"
		rc=1
	fi
	# an inner memcg (a slice) is charged for what its children charge when
	# its cgroup.subtree_control lacks +memory: that seals it too
	nm=$(new_memcg mpn) || return 1
	mkdir "$nm/nomem" || return 1
	[ ! -e "$nm/nomem/memory.lru_gen_policy" ] || { echo "nomem has a memory controller"; rc=1; }
	in_memcg "$nm/nomem" sh -c 'seq 1 50000 > /dev/null' || { echo "the charging task failed"; rc=1; }
	nother=fg
	[ "$(memcg_policy "$nm")" = fg ] && nother=mglru
	write_expect "$nm/memory.lru_gen_policy" "$nother" EBUSY || rc=1
	rmdir "$nm/nomem" || rc=1
	# turning +memory off and on again makes a child a new memcg, which
	# takes its parent's policy again (cgroup-v2.rst)
	echo +memory > "$nm/cgroup.subtree_control" && mkdir "$nm/again" || { echo "cannot make $nm/again"; return 1; }
	write_expect "$nm/again/memory.lru_gen_policy" "$nother" ok || rc=1
	echo -memory > "$nm/cgroup.subtree_control" && echo +memory > "$nm/cgroup.subtree_control" ||
		{ echo "cannot toggle +memory in ${nm##*/}"; rc=1; }
	memcg_expect "$nm/again" "$(memcg_policy "$nm")" || rc=1
	rmdir "$nm/again" || rc=1
	# charged once, a memcg keeps its policy, even empty again
	b=$(new_memcg mpb) || return 1
	write_expect "$b/memory.lru_gen_policy" "$root" ok || rc=1
	# its stack and heap are charged to it
	in_memcg "$b" sh -c 'seq 1 50000 > /dev/null' || { echo "the charging task failed"; rc=1; }
	bother=fg
	[ "$root" = fg ] && bother=mglru
	write_expect "$b/memory.lru_gen_policy" "$bother" EBUSY || rc=1
	write_expect "$b/memory.lru_gen_policy" "$root" ok || rc=1
	memcg_expect "$b" "$root" || rc=1
	[ "$root" = mglru ] && [ -w "$LRU/policy" ] || return $rc
	fgs=$(find "$CG" -name memory.lru_gen_policy -exec grep -l '\[fg\]' {} + 2>/dev/null)
	[ -z "$fgs" ] || { echo "not switching to classic: memcgs follow fg:" $fgs; return $rc; }
	# under an mglru root: no switch to classic while a memcg follows fg
	write_expect "$a/memory.lru_gen_policy" fg ok || rc=1
	write_expect "$LRU/policy" classic EBUSY || rc=1
	[ "$(policy_now)" = mglru ] || { echo "a refused switch left the policy $(policy_now)"; rc=1; }
	dmesg | grep -q 'lru_gen: [0-9]* memcgs follow fg' || { echo "no reason in dmesg"; rc=1; }
	write_expect "$a/memory.lru_gen_policy" mglru ok || rc=1
	write_expect "$LRU/policy" classic ok || rc=1
	memcg_expect "$a" classic || rc=1
	write_expect "$a/memory.lru_gen_policy" mglru EINVAL || rc=1
	write_expect "$LRU/policy" mglru ok || rc=1
	memcg_expect "$a" mglru || rc=1
	return $rc
}

# memcg_id MEMCG: MEMCG's ID, the one its shadow entries carry, from
# debugfs (nothing when there is no lru_gen there)
memcg_id() {
	[ -r "$SYS/kernel/debug/lru_gen" ] || return 0
	awk -v path="${1#"$CG"}" '$1 == "memcg" && $3 == path { print $2; exit }' "$SYS/kernel/debug/lru_gen"
}

# shadow-policy: shadow entries name their memcg by ID, and a freed ID
# goes to the next memcg made, whose policy then reads them. An mglru
# memcg evicts half of a file twice its size; once it is gone, an fg
# memcg that took its ID reads the file once. A fresh memcg that reads a
# file once has no history for it: its refaults of the mglru memcg's
# shadows must activate nothing (mm/workingset.c, LRU_FG_TOKEN).
t_shadow_policy() {
	[ "$(policy_now)" != classic ] || { SKIP_WHY="memcgs have no policy of their own under classic"; return 4; }
	[ -r "$SYS/kernel/debug/lru_gen" ] || { SKIP_WHY="no $SYS/kernel/debug/lru_gen to read memcg IDs from"; return 4; }
	f=$file_dir/shadow
	"$LIBEXEC/thrash" --dir "$f" --size "$(size_of 2 1)" --mode prepare 9>&- || return 1
	sync
	echo 1 > /proc/sys/vm/drop_caches
	a=$(new_memcg shadow-mglru) || return 1
	[ -f "$a/memory.lru_gen_policy" ] ||
		{ SKIP_WHY="no memory.lru_gen_policy (kernel without the per-memcg policy)"; return 4; }
	echo mglru > "$a/memory.lru_gen_policy" || { echo "cannot put ${a##*/} on mglru"; return 1; }
	# on one CPU, so on one node: a refault counts only where its folio
	# lands on the node the shadow's lruvec is on
	for pass in 1 2; do
		in_memcg "$a" taskset 1 cat "$f/thrash-11" > /dev/null || { echo "reading in ${a##*/} failed"; return 1; }
	done
	id=$(memcg_id "$a")
	[ -n "$id" ] || { echo "${a##*/} is not in $SYS/kernel/debug/lru_gen"; return 1; }
	rmdir "$a" || { echo "cannot remove ${a##*/}"; return 1; }
	# the ID is freed when the removed memcg goes offline, soon after
	b= tries=0
	while [ $tries -lt 20 ]; do
		b=$(new_memcg shadow-fg) || return 1
		echo fg > "$b/memory.lru_gen_policy" || { echo "cannot put ${b##*/} on fg"; return 1; }
		[ "$(memcg_id "$b")" = "$id" ] && break
		rmdir "$b"
		b=
		sleep 1
		tries=$((tries + 1))
	done
	[ -n "$b" ] || { SKIP_WHY="memcg ID $id was not given to the next memcg within 20 s"; return 4; }
	echo "memcg ID $id: ${a##*/} (mglru), removed, then ${b##*/} (fg)"
	snap "$tmp/a" "$b"
	in_memcg "$b" taskset 1 cat "$f/thrash-11" > /dev/null || { echo "reading in ${b##*/} failed"; return 1; }
	snap "$tmp/b" "$b"
	rm -rf "$f"
	delta "$tmp/a" "$tmp/b" | awk '
		$1 == "memory.stat" { d[$2] = $3 + 0 }
		END {
			r = d["workingset_refault_file"] + 0; a = d["workingset_activate_file"] + 0
			printf "fg memcg reading the file once: %d refaults of the mglru memcg'"'"'s shadows, %d activations (want 0)\n", r, a
			if (r < 1000) { print "too few refaults to judge: the shadows were not read as this memcg'"'"'s"; exit 1 }
			exit a != 0
		}'
}
