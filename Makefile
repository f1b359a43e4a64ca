# mglru-fg: the kernel patch series, its packages and its tests.
# Targets are thin: the work is in scripts/ and tests/, shared by every
# caller (this Makefile, SPECS/, debian/rules, CI).

HOST_ARCH := $(shell scripts/arch host)
ARCH     ?= $(HOST_ARCH)
ARCHES   ?= $(shell scripts/arch list)
DEFAULT_FLAVOUR := $(shell scripts/flavour default)
FLAVOUR  ?= $(DEFAULT_FLAVOUR)
POLICY   ?= fg
# smoke-all: the boot matrix's lru_gen= values (config/policies)
POLICIES ?= $(shell grep -v '^\#' config/policies)
JOBS     ?= $(shell nproc)
export JOBS

# Our ARCH/FLAVOUR must not leak into kbuild's make through MAKEFLAGS.
MAKEOVERRIDES :=

.PHONY: all deps source tree export config kernel kunit smoke smoke-all stress kcsan fuzz-kernel soak kselftest-compare fg-check bench bench-quick bench-cloud fg-goals \
	memcg-check memcg-scale memcg-scale-smp compile-check reclaim-check check-series farm-check cloud-check deb rpm packages source-packages repo \
	check check-all clean help

all: packages

help:
	@echo "make                 the Debian and Fedora packages ($(ARCH), $(FLAVOUR)) in build/deb, build/rpm"
	@echo "make deb | make rpm  one format; FLAVOUR=cloud|generic start from Debian's config (config/flavours)"
	@echo "make source-packages the .dsc and the SRPM, for build farms (FLAVOUR=)"
	@echo "make repo            signed APT and DNF repository of what make built, in build/repo"
	@echo "                     (REPO_URL= where it is served; the key: docs/hacking.md)"
	@echo "make check           the test suite (KTAP, ends with 'N passed, N failed')"
	@echo "make check-all       check plus full images for every arch"
	@echo "make source          fetch and verify the pinned base"
	@echo "make tree            build/linux: base + patches/series, one commit each"
	@echo "make export          regenerate patches/ from build/linux"
	@echo "make config          assemble build/ARCH-FLAVOUR/.config"
	@echo "make kernel          build ARCH (config/arches) FLAVOUR (config/flavours)"
	@echo "make kunit           the series' KUnit suites under UML"
	@echo "make smoke           boot ARCH under POLICY in QEMU with the pressure suite"
	@echo "                     (KERNEL=image [KMODDIR=dir] boots another kernel)"
	@echo "make smoke-all       every arch in ARCHES x every policy in POLICIES"
	@echo "make stress          debug kernel, each policy: 100 policy toggles, all access paths (ARCH)"
	@echo "make kcsan           kcsan kernel ($(KCSAN_ARCH)), fg and mglru: the stress suite under the race detector"
	@echo "make fuzz-kernel     debug kernel, each policy: trinity, stress-ng; fg and mglru: pressure suite with faults"
	@echo "make soak            debug kernels looping the pressure suite (SOAK=$(SOAK))"
	@echo "make kselftest-compare  mm and cgroup kselftests, stock 6.12 vs ours per policy"
	@echo "make fg-check        classic vs mglru vs fg on hot-cold and fio zipf (ARCH), and our cloud"
	@echo "                     kernel vs Debian's stock cloud kernel (CLOUD=0 leaves it out)"
	@echo "make compile-check   W6 (a compile with zram swap) on mglru and fg, 3 rounds under icount"
	@echo "make bench           W1-W11 and W14, classic/mglru/fg and stock, 3 rounds (build/bench/DATE)"
	@echo "make bench-quick     W1 at theta 0.9 and 1.2, one round, 1 vCPU under -icount"
	@echo "make fg-goals        W7 at every reuse, W9 and W14 on mglru and fg, 3 rounds: fg's cost and hot-set goals"
	@echo "make bench-cloud     W1-W11, our cloud kernel's mglru vs Debian's stock cloud kernel, 2 rounds"
	@echo "make memcg-check     W5 (16 memcgs, global reclaim): stock vs mglru vs fg, 3 rounds"
	@echo "make memcg-scale     the memcg walk at 16 to 4,096 memcgs (W12, W13): stock vs lru vs iter, -icount"
	@echo "make memcg-scale-smp W12 at 1,024 memcgs on 2 vCPUs, no icount: the concurrency proxy"
	@echo "make farm-check      the .dsc rebuilt by sbuild in a clean chroot, the SRPM by rpmbuild --rebuild (FLAVOUR=)"
	@echo "make cloud-check     the cloud flavour: both formats built, installed and booted in the Debian and rpm images"
	@echo "make reclaim-check   ProactiveReclaim=auto vs a fixed step vs none in the Debian image, per shape and policy"
	@echo "                     (make deb's packages; RECLAIM_OPTS=--tune-from-tree: the tree's helper)"
	@echo "make check-series    every patch builds alone with FG on, FG off, no MGLRU, and boots fg (ARCH, SINCE=N, UNTIL=N, SMOKE=0)"

deps:
	scripts/deps build cross qemu smoke pkg tune repo

source: deps
	scripts/source

tree: deps
	scripts/tree $(if $(FORCE),--force)

export:
	scripts/export

config: tree
	scripts/mkconfig $(ARCH) $(FLAVOUR) build/$(ARCH)-$(FLAVOUR)

kernel: deps
	scripts/build-kernel $(ARCH) $(FLAVOUR)

packages: deb rpm

# For the distros' build farms (sbuild, OBS, a PPA; COPR, Koji): the
# .dsc with its orig and debian tarballs in build/deb/DEBARCH-FLAVOUR-source/, and
# the SRPM in build/rpm/SRPMS/. FLAVOUR=cloud or generic for real machines.
source-packages: deps
	scripts/pkg-deb --source $(ARCH) $(FLAVOUR)
	scripts/pkg-rpm --source $(ARCH) $(FLAVOUR)

# What a buildd and mock do with the source packages: cold builds in
# clean roots, about 20 minutes for virt here. Not part of check.
farm-check: deps
	tests/pkg/farm-check $(FLAVOUR)

# The cloud flavour (Debian's cloud config plus the series) as users get
# it: both formats, linted, installed and booted. An hour or more cold.
cloud-check: deps
	tests/pkg/flavour-check cloud

# Each build's paths also go to build/deb-FLAVOUR.list and
# rpm-FLAVOUR.list (deb-FLAVOUR.ARCH.list for an arch not the host's), as
# make check's package steps write them: make repo reads them all.
PKG_LIST = $(FLAVOUR)$(if $(filter $(HOST_ARCH),$(ARCH)),,.$(ARCH)).list
deb: deps
	mkdir -p build && scripts/pkg-deb $(ARCH) $(FLAVOUR) > build/deb-$(PKG_LIST).tmp && \
		mv build/deb-$(PKG_LIST).tmp build/deb-$(PKG_LIST) && cat build/deb-$(PKG_LIST)

rpm: deps
	mkdir -p build && scripts/pkg-rpm $(ARCH) $(FLAVOUR) > build/rpm-$(PKG_LIST).tmp && \
		mv build/rpm-$(PKG_LIST).tmp build/rpm-$(PKG_LIST) && cat build/rpm-$(PKG_LIST)

# A signed APT and DNF repository of every package the lists above name
# (every flavour and arch built), in build/repo, for REPO_URL (default:
# file:// of build/repo). The key from MGLRU_FG_SIGNING_KEY or GNUPGHOME;
# without either, a throwaway one (docs/hacking.md).
repo:
	scripts/deps repo
	scripts/pkg-repo $(if $(REPO_URL),--url $(REPO_URL))

kunit: deps
	scripts/kunit

smoke: deps
	$(if $(KERNEL),,scripts/build-kernel $(ARCH) $(DEFAULT_FLAVOUR) >/dev/null)
	tests/smoke/run $(if $(KERNEL),--kernel $(KERNEL)) $(if $(KMODDIR),--kmoddir $(KMODDIR)) $(ARCH) "$(POLICY)"

smoke-all: deps
	for a in $(ARCHES); do scripts/build-kernel $$a $(DEFAULT_FLAVOUR) >/dev/null || exit 1; done
	tests/smoke/run "$(ARCHES)" "$(POLICIES)"

# mglru-fg-test's stress suite on the debug flavour under each policy: 100
# classic <-> mglru toggles under three working memcgs, and every access
# path at once for STRESS_SECONDS. Not part of check (check boots a
# 2-minute slice of it on virt): see docs/hacking.md.
STRESS_SECONDS ?= 600
stress: deps
	k=$$(scripts/build-kernel $(ARCH) debug | tail -n1) && [ -f "$$k" ] || exit 1; \
		rc=0; for s in stress charge; do \
			tests/smoke/run --kernel $$k --tag $$s --suite $$s --opts --seconds,$(STRESS_SECONDS) \
				--timeout $$(($(STRESS_SECONDS) + 2400)) $(ARCH) "classic mglru fg" || rc=1; \
		done; exit $$rc

# The race detector on the lockless FG paths: the kcsan flavour (on the
# first arch config/flavours gives it; KCSAN excludes KASAN) boots the
# stress suite under fg and mglru on KCSAN_SMP vCPUs. A KCSAN report in
# the series' code fails unless config/kcsan-allow gives its reason
# (tests/smoke/kcsan-judge).
KCSAN_SMP ?= 2
KCSAN_ARCH ?= $(firstword $(shell scripts/flavour arches kcsan))
kcsan: deps
	k=$$(scripts/build-kernel $(KCSAN_ARCH) kcsan | tail -n1) && [ -f "$$k" ] || exit 1; \
		rc=0; for s in stress charge; do \
			tests/smoke/run --kernel $$k --tag kcsan-$$s --suite $$s --smp $(KCSAN_SMP) \
				--opts --seconds,$(STRESS_SECONDS),--toggles,20 \
				--timeout $$(($(STRESS_SECONDS) + 2400)) $(KCSAN_ARCH) "fg mglru" || rc=1; \
		done; exit $$rc

# Tools we did not write, on the debug flavour (ARCH = the host's): trinity
# for FUZZ_SECONDS and each stress-ng stressor for 10 s under every
# policy, then the pressure suite under fg and mglru with FAIL_PERCENT of
# the workloads' allocations failed (fault injection). One boot each.
FUZZ_SECONDS ?= 600
FAIL_PERCENT ?= 3
fuzz-kernel: deps
	k=$$(scripts/build-kernel $(HOST_ARCH) debug | tail -n1) && [ -f "$$k" ] || exit 1; \
		rc=0; \
		tests/smoke/run --kernel $$k --tag trinity --suite fuzz --opts --only,trinity,--seconds,$(FUZZ_SECONDS) \
			--timeout $$(($(FUZZ_SECONDS) + 1800)) $(HOST_ARCH) "classic mglru fg" || rc=1; \
		tests/smoke/run --kernel $$k --tag stress-ng --suite fuzz --opts --only,stress-ng,--seconds,100 \
			--timeout 3600 $(HOST_ARCH) "classic mglru fg" || rc=1; \
		tests/smoke/run --kernel $$k --tag faults --opts --fail,$(FAIL_PERCENT) \
			--timeout 2400 $(HOST_ARCH) "fg mglru" || rc=1; \
		exit $$rc

# The debug flavour soaked under pressure: SOAK is a list of
# ARCH:MINUTES[:POLICY,...]; by default 30 minutes of every policy on the
# host's arch and 10 of fg on each other one. Hours of TCG; not part of
# check.
SOAK ?= $(foreach a,$(ARCHES),$(a):$(if $(filter $(HOST_ARCH),$(a)),30,10:fg))
soak: deps
	for s in $(SOAK); do scripts/build-kernel $${s%%:*} debug >/dev/null || exit 1; done
	tests/smoke/soak $(SOAK)

# The upstream mm and cgroup kselftests on Debian's stock 6.12 and on ours
# under each policy (host arch); about an hour per kernel under TCG.
kselftest-compare: deps
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/smoke/kselftest-compare

# The A/B of the FG series: hot-cold and fio zipf under each policy, judged
# side by side, and on the host arch our cloud flavour beside Debian's
# stock cloud kernel, the same config but for the series (CLOUD=0 leaves
# it out; its cold build is an hour or more). 35 minutes here under TCG
# without the cloud arms; not part of check.
CLOUD ?= 1
fg-check: deps
	scripts/build-kernel $(ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	$(if $(filter 1,$(CLOUD)),$(if $(filter $(HOST_ARCH),$(ARCH)),scripts/pkg-deb $(ARCH) cloud >/dev/null))
	CLOUD=$(CLOUD) tests/smoke/compare --publish $(ARCH)

# classic vs mglru vs fg vs Debian's stock kernel on W1-W11 and W14, under -icount,
# into build/bench/DATE-TIME (results.csv, results.md, plots); BENCH_OPTS=
# more options of tests/bench/bench. Not part of check.
bench: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --icount --publish bench $(BENCH_OPTS)

bench-quick: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --quick --icount --publish bench-quick $(BENCH_OPTS)

# Our cloud flavour under mglru beside Debian's stock cloud kernel, the
# same config but for the series, on W1-W11 under -icount: the report's
# identical-config section judges every number by the run-to-run spread,
# so every workload runs in both rounds. About 2 h 10 min here, after the
# cloud deb; BENCH_OPTS='--arms "stock-mglru cloud-mglru cloud-fg"' adds
# fg on Debian's config. Not part of check.
bench-cloud: deps
	scripts/deps bench
	scripts/pkg-deb $(HOST_ARCH) cloud >/dev/null
	tests/bench/bench --icount --rounds 2 --arms "stock-mglru cloud-mglru" \
		--workloads "W1 W2 W3 W4 W5 W6 W7 W8 W9 W10" --publish bench-cloud $(BENCH_OPTS)

# The goals of frequency-guided promotion that make bench's ratios do not
# show alone, mglru against fg, FG_GOALS_ROUNDS rounds under -icount: the
# CPU cost of a cached read at about 200 and at 2, 4 and 8 reads a page
# (W7) and a hot file among cold files read a few times (W9) and among
# single-use ones streaming past it at more than the memcg a round (W14).
# 5 to 7 minutes a boot, 40 minutes for 3 rounds beside kernel builds
# (2026-12-07). Not part of check.
FG_GOALS_ROUNDS ?= 3
fg-goals: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --icount --rounds $(FG_GOALS_ROUNDS) --arms "mglru fg" --workloads "W7 W9 W14" \
		--publish fg-goals $(BENCH_OPTS)

# Global reclaim over many memcgs (W5: 16 memcgs, no limits) on Debian's
# stock 6.12 and on ours under mglru and fg, 3 rounds: the spread of
# pgsteal over the memcgs and the work done. About 25 minutes.
memcg-check: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --arms "stock-mglru mglru fg" --workloads W5 --rounds 3 --publish memcg-check $(BENCH_OPTS)

# The memcg walk of global reclaim at scale: W12 at 16, 256, 1,024 and
# 4,096 memcgs and W13 (the memcg LRU's own test, scaled down) on Debian's
# stock 6.12 and on ours under mglru with each walk (lru_gen_walk=lru, the
# default, and iter), one vCPU under -icount, each workload in a boot of
# its own (no memcgs left over from the one before); the report judges
# whether mem_cgroup_iter() may be the default. SCALE_ROUNDS rounds; hours
# here: a boot at 4,096 memcgs runs for more than two hours of host time
# (see docs/hacking.md). Not part of check.
SCALE_ROUNDS ?= 2
SCALE_WORKLOADS = W12:16 W12:256 W12:1024 W12:4096 W13
memcg-scale: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --icount --boot-each --timeout 21600 --rounds $(SCALE_ROUNDS) \
		--arms "stock-mglru mglru mglru-iter" --workloads "$(SCALE_WORKLOADS)" \
		--publish memcg-scale $(BENCH_OPTS)

# The closest concurrency proxy this machine has: W12 at 1,024 memcgs on 2
# vCPUs without icount, several direct reclaimers at once. Times and
# rates indicative only.
memcg-scale-smp: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --rounds 1 --arms "stock-mglru mglru mglru-iter" --workloads W12:1024 \
		--publish memcg-scale-smp $(BENCH_OPTS)

# The compile under memory pressure (W6) on mglru and fg, at swappiness
# 60 and 100, 3 rounds under -icount: the seed's columns, and the goal of
# fg <= 1.02 x mglru on each. About 25 minutes.
compile-check: deps
	scripts/deps bench
	scripts/build-kernel $(HOST_ARCH) $(DEFAULT_FLAVOUR) >/dev/null
	tests/bench/bench --icount --arms "mglru fg" --workloads W6 --rounds 3 --publish compile-check $(BENCH_OPTS)

# ProactiveReclaim=auto live: in the Debian image (systemd as PID 1, make
# deb's packages), one boot per shape and policy (classic, mglru, fg), a
# slice's service keeps hot data in use after a finished job's cold read
# (the reader, and make bench's W2 and W9 shapes); auto beside the fixed
# step and no reclaim, auto judged on issue #48's terms for the reader,
# the tables to docs/results.md. About 2.4 hours here under TCG (16
# minutes a boot, the image's install included); not part of check.
# RECLAIM_OPTS=--tune-from-tree installs the tree's mglru-fg-tune over the
# packaged one (a development run, said so in the section);
# RECLAIM_SHAPES= and RECLAIM_POLICIES= pick the boots.
reclaim-check: deps
	tests/pkg/reclaim-auto-test --publish $(RECLAIM_OPTS) $${BUILD:-build}/deb-$(PKG_LIST)

# Bisectability: each commit of build/linux, three configs. Slow (an
# incremental kernel build per commit and config); not part of check.
check-series: deps
	SINCE=$(SINCE) UNTIL=$(UNTIL) SMOKE=$(SMOKE) VARIANTS="$(VARIANTS)" tests/build/check-series $(ARCH)

check:
	tests/check.sh

check-all:
	tests/check.sh --all

clean:
	rm -rf build
