# shellcheck shell=sh
# Sourced by every script after it sets TOP: the pin, the paths, the arch
# table and the ccache setup, so make, rpmbuild and dpkg-buildpackage all
# build the same way and hit the same cache.

. "$TOP/config/base.env"

BUILD=${BUILD:-$TOP/build}
CACHE=${MGLRU_FG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mglru-fg}
JOBS=${JOBS:-$(nproc)}
HOST_ARCH=$("$TOP/scripts/arch" host) || exit 1

# One cache for every caller (make, rpmbuild, dpkg-buildpackage). Every
# caller lays out linux/ and ARCH-FLAVOUR/ side by side, and kmake makes
# their parent the ccache base dir, so the paths the compiler sees are the
# same relative ones everywhere and the callers share hits.
export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}"
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-20G}"

# Where the kernel packages install the certificate that verifies the
# image's Secure Boot signature, as KREL.der (scripts/install-kernel; the
# spec reads it from the macros, scripts/pkg-sources).
SB_CERT_DIR=/usr/share/mglru-fg/secureboot

say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { say "error: $*"; exit 1; }

arches() { awk '!/^#/ && NF { print $1 }' "$TOP/config/arches"; }

# arch_load ARCH: set A_NAME for each column NAME of the arch table
# (scripts/arch vars), or fail: scripts/arch names the choices.
arch_load() {
	_v=$("$TOP/scripts/arch" vars "$1") || exit 1
	eval "$_v"
	# A_COMPAT: the compat vDSO's compiler where it is installed (Fedora
	# has none by that name), as kconfig turns COMPAT_VDSO on for any
	# non-empty CROSS_COMPILE_COMPAT
	[ "$A_COMPAT_TRIPLET" != - ] || A_COMPAT_TRIPLET=
	A_COMPAT=$A_COMPAT_TRIPLET
	[ -n "$A_COMPAT" ] && command -v "$A_COMPAT-gcc" >/dev/null || A_COMPAT=
	if [ "$A_ARCH" = "$HOST_ARCH" ]; then A_CROSS=; else A_CROSS=$A_TRIPLET-; fi
}

# policies: the boot matrix's lru_gen= values (config/policies).
policies() { grep -v '^#' "$TOP/config/policies"; }

# arms: every arm of config/arms. arm_load ARM: its row as ARM_KERNEL,
# ARM_POLICY, ARM_WALK (empty for "-") and ARM_BOOT (spaces, empty for
# "-"), or fail naming the choices.
arms() { awk '!/^#/ && NF { print $1 }' "$TOP/config/arms"; }
arm_load() {
	# shellcheck disable=SC2046 # the table row is split on purpose
	set -- $(awk -v a="$1" '!/^#/ && $1 == a' "$TOP/config/arms") "$1"
	[ $# -eq 6 ] || die "unknown arm '$1' (choose one of: $(arms | paste -sd ' ' -))"
	ARM_KERNEL=$2 ARM_POLICY=$3 ARM_WALK=$4 ARM_BOOT=$(echo "$5" | tr , ' ')
	[ "$ARM_WALK" != - ] || ARM_WALK=
	[ "$ARM_BOOT" != - ] || ARM_BOOT=
}

flavours() { awk '!/^#/ && NF { print $1 }' "$TOP/config/flavours"; }
# flavour_default: the table's first row.
flavour_default() { flavours | sed -n 1p; }
# guest_obj ARCH: the build directory of the kernel the tests' and the
# benchmark's guests boot: the default flavour's.
guest_obj() { echo "$BUILD/$1-$(flavour_default)"; }
# flavour_variant FLAVOUR: what the packages of a flavour add to their
# family's name (kernel-mglru-fg-cloud-core, linux-image-mglru-fg-cloud);
# the default flavour adds nothing. debian/rules and the spec say the same.
flavour_variant() { [ "$1" = "$(flavour_default)" ] || echo "-$1"; }

# flavour_load FLAVOUR: set F_* from the flavours table, or fail naming
# the choices. flavour_has ARCH: whether that flavour exists for ARCH.
flavour_load() {
	_f=$1
	# shellcheck disable=SC2046 # the table row is split on purpose
	set -- $(awk -v f="$_f" '!/^#/ && $1 == f { print $1, $2, $3, $4 }' "$TOP/config/flavours")
	[ $# -eq 4 ] || die "unknown FLAVOUR '$_f' (choose one of: $(flavours | tr '\n' ' '))"
	F_FLAVOUR=$1 F_BASE=$2 F_FRAGS=$3 F_ARCHES=$4
}
flavour_has() { case ,$F_ARCHES, in *,all,* | *,"$1",*) ;; *) return 1 ;; esac; }
# flavour_load_for FLAVOUR ARCH: flavour_load, failing when ARCH lacks it.
flavour_load_for() {
	flavour_load "$1"
	flavour_has "$2" || die "there is no $1 flavour for $2 (config/flavours: $F_ARCHES)"
}

# Debian's archive: the test roots and the stock kernels come from it.
# DEBIAN_ARCHIVE= names a mirror. archive_why SUITE: why it cannot be
# reached from here, or nothing.
DEBIAN_ARCHIVE=${DEBIAN_ARCHIVE:-http://deb.debian.org/debian}
archive_why() {
	curl -fsS -o /dev/null --max-time 30 "$DEBIAN_ARCHIVE/dists/$1/InRelease" 2>/dev/null ||
		echo "Debian's archive ($DEBIAN_ARCHIVE, suite $1) cannot be reached"
}

# The one definition of KERNELRELEASE: the base version (which build-kernel
# checks against the tree's Makefile) plus CONFIG_LOCALVERSION, which is
# krel_suffix. One dash only: rpm takes what follows it as the release.
krel_suffix() { echo "-$KREL_TAG.$1"; }
krel() { echo "$BASE_VERSION$(krel_suffix "$1")"; }
# image_deb FLAVOUR: the linux-image deb that make deb built for the loaded
# arch, or nothing
image_deb() { ls "$BUILD/deb/$A_DEBARCH-$1/linux-image-$(krel "$1")_"*.deb 2>/dev/null | head -n1; }
# image_unpack FLAVOUR: that deb unpacked under build/smoke (again only
# when the deb is newer), for booting it with its modules; prints the root
# (boot/vmlinuz-KREL, lib/modules/KREL) or fails naming the make to run.
image_unpack() {
	_iu_krel=$(krel "$1") _iu_deb=$(image_deb "$1")
	[ -n "$_iu_deb" ] || die "no linux-image-$_iu_krel deb in build/deb/$A_DEBARCH-$1 (make deb FLAVOUR=$1)"
	_iu_root=$BUILD/smoke/$_iu_krel
	[ -n "$(find "$_iu_root/.deb" -newer "$_iu_deb" 2>/dev/null)" ] || {
		rm -rf "$_iu_root"
		mkdir -p "$_iu_root"
		dpkg-deb -x "$_iu_deb" "$_iu_root" || die "cannot unpack $_iu_deb"
		# the deb's mtimes are the commit's: make the initramfs
		# builders see these modules as new
		touch "$_iu_root/.deb" "$_iu_root/lib/modules/$_iu_krel"
	}
	echo "$_iu_root"
}
# Debian's own cloud kernel of the pinned base, for the loaded arch: the
# stock arm of the A/B, and the config the cloud flavour is held to.
# stock_krel prints its release; stock_fetch unpacks it and prints where.
stock_krel() { echo "$BASE_VERSION+deb12-cloud-$A_DEBARCH"; }
stock_fetch() {
	"$TOP/scripts/debfetch" "$A_DEBARCH" "linux-image-$(stock_krel)-unsigned" ||
		die "cannot fetch Debian's linux-image-$(stock_krel)-unsigned"
}

# ccache when there is one (a Fedora mock root may not have it).
CCACHE=$(command -v ccache || true)

# kmake OBJDIR SRCDIR args...: kbuild with our compiler and cache settings.
# ccache hashes the locale variables (they change the compiler's
# messages), and rpmbuild sets LANG=C where a shell has C.UTF-8: one
# locale for every caller, or the rpm build misses every object.
kmake() {
	_obj=$1 _src=$2
	shift 2
	LANG=C LC_ALL=C LC_CTYPE=C LC_MESSAGES=C CCACHE_BASEDIR=$(cd "$_src/.." && pwd) \
	make -C "$_src" O="$_obj" ARCH="$A_KARCH" CROSS_COMPILE="$A_CROSS" \
		${A_COMPAT:+CROSS_COMPILE_COMPAT="$A_COMPAT-"} \
		CC="${CCACHE:+$CCACHE }${A_CROSS}gcc" HOSTCC="${CCACHE:+$CCACHE }gcc" LOCALVERSION= \
		-j"$JOBS" "$@"
}

# series_files DIR: the patch names DIR/series lists, in order.
series_files() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/series"; }

# patches_hash DIR: one hash over a series and its patches, to tell
# whether build/linux and patches/ still agree.
patches_hash() {
	{
		cat "$1/series"
		for _p in $(series_files "$1"); do
			[ -f "$1/$_p" ] || die "$1/series names $_p, which does not exist"
			cat "$1/$_p"
		done
	} | sha256sum | cut -d' ' -f1
}

# spec_patches DIR: the Patch lines SPECS/kernel-mglru-fg.spec must carry
# for DIR/series.
spec_patches() {
	_n=0
	for _p in $(series_files "$1"); do
		_n=$((_n + 1))
		printf 'Patch%04d:      %s\n' "$_n" "$_p"
	done
}

# spec_patches_now: the Patch lines the spec carries.
spec_patches_now() {
	sed -n '/^# BEGIN patches/,/^# END patches/{/^Patch/p}' "$TOP/SPECS/kernel-mglru-fg.spec"
}
