# shellcheck shell=sh
# pkg_checks FLAVOUR: the host arch's packages of FLAVOUR as a user gets
# them, into the KTAP stream of tests/lib/tap.sh (sourced first). For
# make check (virt) and tests/pkg/flavour-check (cloud).
#
# The kernel is built once: after the caller's build-kernel of FLAVOUR,
# neither dpkg-buildpackage nor rpmbuild may compile a kernel object
# again, which ccache's log shows. Not counted: kbuild's compiler probes
# (in .tmp_* directories), the host tools under tools/ (objtool: its
# __FILE__ is an absolute path), and the objects that hold the build's
# time and number (UTS_VERSION): init/version-timestamp, x86's boot/version
# and boot/header, and with RANDOMIZE_BASE (cloud) x86's
# boot/compressed/kaslr. The userspace programs bypass
# ccache. The package lists go to build/deb-FLAVOUR.list, rpm-FLAVOUR.list
# (as make deb and make rpm write them), which make repo reads.

pkg_stamped='(^|/)(init/version-timestamp|arch/[^/]*/boot/(version|header|compressed/kaslr))[.]o$'
# pkgs_from_cache deb|rpm FLAVOUR
pkgs_from_cache() {
	_clog=$TAP_LOGDIR/ccache-$1-$2
	rm -f "$_clog"
	CCACHE_LOGFILE=$_clog "$TOP/scripts/pkg-$1" "$HOST_ARCH" "$2" > "$BUILD/$1-$2.list" &&
		[ -s "$BUILD/$1-$2.list" ] || return 1
	awk -v stamped="$pkg_stamped" '/ Object file: / { o[$2] = $NF }
		/ Result: cache_miss/ && o[$2] !~ /(^|\/)(\.tmp_|tools\/)/ && o[$2] !~ stamped { print o[$2] }' \
		"$_clog" > "$_clog.missed"
	rm -f "$_clog"
	echo "$(wc -l < "$_clog.missed") kernel objects compiled again (list in $_clog.missed)"
	head -n 5 "$_clog.missed"
	[ ! -s "$_clog.missed" ]
}

# pkg_install_why: why the packages cannot be installed and booted here,
# or nothing: that takes root (chroots, mounts, loop devices) and a test
# root, cached or made from Debian's archive (tests/pkg/rootfs --why).
# With both, a test root that cannot be made fails the tests.
pkg_install_why() {
	if [ "$(id -u)" != 0 ]; then
		echo "installing and booting the packages needs root (chroots, mounts, loop devices)"
	else
		"$TOP/tests/pkg/rootfs" --why
	fi
}
# pkg_cell TEST ARGS...: tap_cell of a test that installs and boots
# packages, or a skip with pkg_install_why's reason
pkg_cell() {
	if [ -n "$_why" ]; then tap_skip "${1##*/} ($_f)" "$_why"; else tap_cell "$@"; fi
}

pkg_checks() {
	_f=$1
	_deb=$BUILD/deb-$_f.list _rpm=$BUILD/rpm-$_f.list
	rm -f "$_deb" "$_rpm"
	tap_run "deb: dpkg-buildpackage builds the $_f packages, compiling no kernel object again" pkgs_from_cache deb "$_f"
	tap_run "rpm: rpmbuild -ba builds the $_f SRPM and packages, compiling no kernel object again" pkgs_from_cache rpm "$_f"
	_why=$(pkg_install_why)
	if [ -s "$_deb" ]; then
		# shellcheck disable=SC2046 # one argument a package
		tap_run "deb: lintian clean ($_f)" "$TOP/tests/pkg/lint" deb $(cat "$_deb")
		# the default flavour's upgrade test (below) boots fg and the
		# mglru entry; deb-test boots the rest
		_boots="fg classic mglru-entry"
		[ "$_f" != "$(flavour_default)" ] || _boots=classic
		export DEB_TEST_BOOTS="$_boots"
		# shellcheck disable=SC2046
		pkg_cell "$TOP/tests/pkg/deb-test" $(cat "$_deb")
		unset DEB_TEST_BOOTS
	fi
	if [ -s "$_rpm" ]; then
		# shellcheck disable=SC2046
		tap_run "rpm: rpmlint clean ($_f)" "$TOP/tests/pkg/lint" rpm $(cat "$_rpm")
		# shellcheck disable=SC2046
		pkg_cell "$TOP/tests/pkg/rpm-test" $(grep -v '\.src\.rpm$' "$_rpm")
		tap_cell "$TOP/tests/pkg/srpm-rebuild" "$(grep '\.src\.rpm$' "$_rpm")" "$_f"
	fi
	# Every list in build/ as one signed repository (scripts/pkg-repo),
	# served on loopback: the flavour's packages installed by name, the
	# signatures checked, and refused once tampered with.
	if [ -s "$_deb" ] && [ -s "$_rpm" ]; then
		pkg_cell "$TOP/tests/pkg/repo-test" "$_f"
	fi
	# The next version, as config/base.env says to make one, and the
	# upgrade to it as each distribution does one: the same scripts for
	# every flavour, so only the default's (make check's) pays the build.
	[ "$_f" = "$(flavour_default)" ] || return 0
	for _k in deb rpm; do
		_first=$BUILD/$_k-$_f.list _next=$BUILD/pkgtest/next/build/$_k-$_f.list
		[ -s "$_first" ] || continue
		rm -f "$_next"
		tap_run "$_k: the next version (KREL_TAG and PKG_RELEASE one higher) builds" \
			"$TOP/tests/pkg/second-version" "$_k" "$_f"
		[ ! -s "$_next" ] || pkg_cell "$TOP/tests/pkg/$_k-upgrade-test" "$_first" "$_next"
	done
}
