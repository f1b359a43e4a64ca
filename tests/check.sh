#!/bin/sh
# The README's test command (make check; make check-all with --all).
# Prints KTAP and ends with "N passed, N failed[, N skipped]".
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/scripts/lib.sh"
export TAP_LOGDIR="$BUILD/check-logs"
rm -rf "$TAP_LOGDIR"
. "$TOP/tests/lib/tap.sh"
. "$TOP/tests/lib/pkgs.sh"

all=
case ${1:-} in '') ;; --all) all=1 ;; *) echo "usage: ${0##*/} [--all]" >&2; exit 2 ;; esac
tap_begin

# The directories outside mm/ whose C files the series touches. Directory
# targets only: mixing them with single .o targets puts kbuild in
# single-target mode, where mm/modules.order wants mm/damon's and fails.
touched_dirs() {
	git -C "$BUILD/linux" diff --name-only base..HEAD -- '*.c' 2>/dev/null |
		grep -v '^mm/\|^tools/\|^scripts/\|^samples/\|^Documentation/' |
		sed 's,[^/]*$,,' | sort -u
}

tap_run "deps: build, cross, qemu, smoke, pkg, tune and repo packages present" "$TOP/scripts/deps" build cross qemu smoke pkg tune repo
tap_run "source: pinned $BASE_PACKAGE $BASE_DEB_VERSION verifies" "$TOP/scripts/source"
tap_run "source: the pin is the archive's newest $BASE_PACKAGE" "$TOP/tests/build/base-current"
tap_run "series: applies and exports byte-identically" "$TOP/tests/build/roundtrip"
tap_run "series: checkpatch --strict clean or explained" "$TOP/tests/build/checkpatch"
for f in $(flavours); do
	flavour_load "$f"
	for a in $(arches); do
		flavour_has "$a" || continue
		tap_run "config: $a $f assembles with every requested symbol" "$TOP/tests/build/config" "$a-$f"
	done
done
# The cloud flavour is Debian's cloud kernel plus the series, and nothing else.
flavour_load cloud
for a in $(arches); do
	flavour_has "$a" || continue
	tap_run "config: $a cloud differs from Debian's cloud kernel only where config/stock-diff says why" \
		"$TOP/tests/build/config" "stock-$a"
done
tap_run "config: an unknown symbol fails, named" "$TOP/tests/build/config" bogus
tap_run "config: an unmet dependency fails, named" "$TOP/tests/build/config" unmet

tap_run "kernel: $HOST_ARCH $(flavour_default) image builds" "$TOP/scripts/build-kernel" "$HOST_ARCH" "$(flavour_default)"
# That image under UEFI Secure Boot (OVMF, x86_64 only): signed with the
# firmware's enrolled test key it boots locked down; unsigned, or signed
# with a key not enrolled, the firmware refuses it.
if [ "$HOST_ARCH" = x86_64 ]; then
	tap_run "secureboot: the signed virt image boots locked down under Secure Boot, an unsigned one is refused" \
		"$TOP/tests/pkg/secureboot" "$(arch_load "$HOST_ARCH" && echo "$(guest_obj "$HOST_ARCH")/$A_IMAGE")"
else
	tap_skip "secureboot: the signed virt image boots locked down under Secure Boot" \
		"the OVMF test is x86_64's ($HOST_ARCH here)"
fi
tap_run "kunit: the series' suites pass under UML" "$TOP/scripts/kunit"
# The boot matrix of the host arch: each policy, an alias, an invalid
# value and no parameter; make smoke-all does every arch. The three
# policies boot two NUMA nodes, as the machines Debian's configs are for
# (config/x86_64.config has NUMA as they do), on the default memcg walk;
# the alias (mglru) and no parameter (fg) walk memcgs with
# mem_cgroup_iter(), and the invalid value asks for an invalid walk too.
for p in $(policies); do
	case $p in
	classic | mglru | fg) set -- --numa 2 ;;
	bogus) set -- --tag walk-bogus --cmdline lru_gen_walk=bogus ;;
	*) set -- --tag walk-iter --cmdline lru_gen_walk=iter ;;
	esac
	tap_cell "$TOP/tests/smoke/cell" "$@" "$HOST_ARCH" "$p"
done
# fg's refault distance over a scan longer than the memory: its clock must
# not wrap within it.
tap_cell "$TOP/tests/smoke/cell" --tag clock-wrap --suite wrap --timeout 900 "$HOST_ARCH" fg
# A 2-minute slice of make stress on virt: 10 classic <-> mglru toggles
# under three working memcgs, then every access path at once for 30 s.
tap_cell "$TOP/tests/smoke/cell" --tag stress-slice --suite stress --opts --seconds,30,--toggles,10 "$HOST_ARCH" mglru
# A 2-minute slice of make fuzz-kernel: trinity on the mm system calls
# under fg.
tap_cell "$TOP/tests/smoke/cell" --tag trinity-slice --suite fuzz --opts --only,trinity,--seconds,120 --timeout 900 \
	"$HOST_ARCH" fg
# The tuning helper: unit tests under ASan+UBSan, a bounded fuzz run.
# The benchmark's yardstick against its reference table of ideal and LRU miss ratios.
zipf_limits() {
	gcc -O2 -Wall -Werror -o "$BUILD/zipf-limits" "$TOP/tests/bench/zipf-limits.c" -lm && "$BUILD/zipf-limits" --check
}
tap_run "results: every docs/results.md section is a make target's, as tests/bench/publish writes it" \
	"$TOP/tests/bench/test-results-md"
tap_run "bench: zipf-limits reproduces the ideal and Che-LRU reference table" zipf_limits
tap_run "tune: unit tests (ASan+UBSan)" make -s -C "$TOP/systemd" O="$BUILD/tune" check
# After the unit tests, which build the binary it runs.
tap_run "tune: without the DAC capabilities, an unreadable config dir or a mistyped header changes nothing" \
	"$TOP/tests/tune/unreadable-config" "$BUILD/tune/mglru-fg-tune"
tap_run "tune: fuzz the config parser (bounded)" make -s -C "$TOP/systemd" O="$BUILD/tune" fuzz-smoke
# The test runner's cleanup, lock and option checks, on the host against fakes.
tap_run "suite: mglru-fg-test undoes only what it did (a killed run's at the next run), runs alone and checks its options" "$TOP/tests/suite/test-runner"
tap_run "suite: the man page, README and --help agree with the test registry" "$TOP/tests/suite/docs"
tap_run "lib: tap.sh nests a guest's KTAP under its cell and counts leaves" "$TOP/tests/lib/test-tap"
tap_run "smoke: kcsan-judge fails the series' races, lists the others, counts each once" "$TOP/tests/smoke/test-kcsan-judge"
tap_run "smoke: judged numbers come from the runner's result lines; rewording its diagnostics changes none" \
	"$TOP/tests/smoke/test-results"
tap_run "smoke: fg-check leaves out a stock round that Debian's kernel ended in a memcg OOM kill, and only that" \
	"$TOP/tests/smoke/test-compare-stock-oom"
# The boot-entries hooks on the host, in a mount namespace (no image).
tap_run "boot-entries: update-grub works with the grub hook whatever /boot and the command line hold" \
	"$TOP/tests/pkg/test-grub-entries"
tap_run "boot-entries: the kernel-install plugin warns and exits 0 on a full or read-only /boot" \
	"$TOP/tests/pkg/test-policies-install"
tap_run "boot-entries: the rpm's %posttrans runs only its own kernel-install plugin" \
	"$TOP/tests/pkg/test-entries-posttrans"
tap_run "tune: the rpm enables the units Debian enables, through a systemd preset" "$TOP/tests/pkg/test-tune-preset"
# make reclaim-check's judge on made-up consoles (its boots are not in check).
tap_run "tune: reclaim-check's judge passes auto reaching W, fails a helper without auto, a stall, a halt" \
	"$TOP/tests/pkg/test-reclaim-auto-judge"
# make repo's signing key and its refusals, with a small deb and rpm.
tap_run "repo: pkg-repo signs with MGLRU_FG_SIGNING_KEY or GNUPGHOME's key; bad input changes nothing" \
	"$TOP/tests/pkg/test-repo-key"

# The packages of the virt flavour: built without compiling a kernel
# object again, linted, installed into the Debian and rpm images and
# booted, then as a signed repository installed by name (tests/lib/pkgs.sh).
pkg_checks virt

# --all: every other arch's image, and the packages cross-built for the
# first of them in config/arches (one cross build shows the cross path).
crosspkg=
for a in $(arches); do
	[ "$a" = "$HOST_ARCH" ] && continue
	if [ -n "$all" ]; then
		tap_run "kernel: $a virt image builds" "$TOP/scripts/build-kernel" "$a" virt
		[ -z "$crosspkg" ] || continue
		crosspkg=$a
		tap_run "deb: dpkg-buildpackage -a$a cross-builds" "$TOP/scripts/pkg-deb" "$a" virt
		tap_run "rpm: rpmbuild --target cross-builds for $a" "$TOP/scripts/pkg-rpm" "$a" virt
	else
		# shellcheck disable=SC2046
		tap_run "kernel: $a virt compiles mm/ and the series' files" \
			"$TOP/scripts/build-kernel" "$a" virt mm/ $(touched_dirs)
	fi
done

tap_done
