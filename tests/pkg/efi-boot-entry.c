// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi-boot-entry VARS NUMBER DESCRIPTION FILE CMDLINE: make boot option
 * NUMBER (4 hex digits) the only one in BootOrder of an OVMF variable
 * store file (a copy of OVMF_VARS_*.fd), loading FILE (a path on any FAT
 * volume the firmware finds, "\EFI\BOOT\BOOTX64.EFI") with CMDLINE as its
 * load options: what efibootmgr -c -l FILE -u CMDLINE makes on a running
 * machine, written before the first boot. OVMF's secure boot builds have
 * no shell (CVE-2023-48733), so a boot option is how a kernel booted by
 * the firmware itself gets a command line.
 *
 * The store is edk2's authenticated variable format: variables follow one
 * another, each a header, its UTF-16 name and its data, 4-byte aligned,
 * with the free space 0xff after the last. Flash bits only go from 1 to 0,
 * so edk2 deletes a variable by clearing bits of its state and appends
 * the new value; this does the same with BootOrder and Boot<NUMBER>.
 * Nothing is written unless the whole store checks out and has room.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAR_START_ID 0x55aa
#define VAR_ADDED 0x3f
#define VAR_IN_DELETED_TRANSITION 0xfe
#define VAR_DELETED 0xfd
/* non-volatile, boot service and runtime access, as efibootmgr writes */
#define VAR_ATTRS 0x7
#define LOAD_OPTION_ACTIVE 0x1
#define STORE_HDR 28 /* signature GUID, size, format, state, reserved */
#define VAR_HDR 60 /* AUTHENTICATED_VARIABLE_HEADER */

/* gEfiAuthenticatedVariableGuid and EFI_GLOBAL_VARIABLE, as stored */
static const uint8_t auth_store_guid[16] = {
	0x78, 0x2c, 0xf3, 0xaa, 0x7b, 0x94, 0x9a, 0x43,
	0xa1, 0x80, 0x2e, 0x14, 0x4e, 0xc3, 0x77, 0x92 };
static const uint8_t global_guid[16] = {
	0x61, 0xdf, 0xe4, 0x8b, 0xca, 0x93, 0xd2, 0x11,
	0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c };

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "efi-boot-entry: error: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static uint32_t get16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }
static void put16(uint8_t *p, uint32_t v) { p[0] = v; p[1] = v >> 8; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }
static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

/* utf16(DST, S): S (printable ASCII, checked) as UTF-16LE with its NUL;
 * returns the bytes written (DST NULL: only counts). */
static size_t utf16(uint8_t *dst, const char *s)
{
	size_t n = 0;

	for (;; s++, n += 2) {
		if (dst)
			put16(dst + n, (unsigned char)*s);
		if (!*s)
			return n + 2;
	}
}

static void check_ascii(const char *what, const char *s)
{
	for (const char *c = s; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			die("only printable ASCII is supported in", what);
}

/* A live variable named NAME under EFI_GLOBAL_VARIABLE at V? */
static int is_global(const uint8_t *v, const char *name)
{
	uint8_t want[64];
	size_t n = utf16(want, name);

	return get32(v + 36) == n && !memcmp(v + 44, global_guid, 16) && !memcmp(v + VAR_HDR, want, n);
}

/* append(P, NAME, DATA, LEN): one variable at P; returns the next slot */
static uint8_t *append(uint8_t *p, const char *name, const uint8_t *data, size_t len)
{
	size_t n = utf16(NULL, name);

	memset(p, 0, VAR_HDR);
	put16(p, VAR_START_ID);
	p[2] = VAR_ADDED;
	put32(p + 4, VAR_ATTRS);
	put32(p + 36, n);
	put32(p + 40, len);
	memcpy(p + 44, global_guid, 16);
	utf16(p + VAR_HDR, name);
	memcpy(p + VAR_HDR + n, data, len);
	return p + align4(VAR_HDR + n + len);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: efi-boot-entry VARS NUMBER DESCRIPTION FILE CMDLINE\n");
		return 2;
	}
	const char *path = argv[1], *num = argv[2], *desc = argv[3], *file = argv[4], *cmdline = argv[5];

	if (strlen(num) != 4 || !isxdigit((unsigned char)num[0]) || !isxdigit((unsigned char)num[1]) ||
	    !isxdigit((unsigned char)num[2]) || !isxdigit((unsigned char)num[3]))
		die("NUMBER is 4 hex digits", num);
	check_ascii("DESCRIPTION", desc);
	check_ascii("FILE", file);
	check_ascii("CMDLINE", cmdline);
	if (file[0] != '\\')
		die("FILE is a path from the volume's root, \\EFI\\...", file);

	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot read", path);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	uint8_t *img = malloc(size > 0 ? size : 1);
	if (!img || size < 0x100 || fread(img, 1, size, f) != (size_t)size)
		die("cannot read a firmware volume from", path);
	fclose(f);

	/* the firmware volume header, then the variable store */
	if (memcmp(img + 0x28, "_FVH", 4))
		die("not a firmware volume (no _FVH)", path);
	size_t store = get16(img + 0x30);
	if (store + STORE_HDR > (size_t)size || memcmp(img + store, auth_store_guid, 16) ||
	    img[store + 20] != 0x5a || img[store + 21] != 0xfe)
		die("no healthy authenticated variable store", path);
	size_t end = store + get32(img + store + 16);
	if (end > (size_t)size)
		die("the variable store runs past the end of", path);

	char bootname[9];
	snprintf(bootname, sizeof(bootname), "Boot%c%c%c%c", toupper((unsigned char)num[0]),
		 toupper((unsigned char)num[1]), toupper((unsigned char)num[2]),
		 toupper((unsigned char)num[3]));

	/* walk to the free space, noting the values that ours replace */
	size_t off = align4(store + STORE_HDR), old[64];
	int nold = 0;
	while (off + VAR_HDR <= end && get16(img + off) == VAR_START_ID) {
		uint8_t *v = img + off;
		size_t len = VAR_HDR + (size_t)get32(v + 36) + get32(v + 40);
		if (off + len > end)
			die("a variable runs past the end of the store in", path);
		if ((v[2] == VAR_ADDED || v[2] == (VAR_ADDED & VAR_IN_DELETED_TRANSITION)) &&
		    (is_global(v, "BootOrder") || is_global(v, bootname))) {
			if (nold == 64)
				die("too many live BootOrder copies in", path);
			old[nold++] = off;
		}
		off = align4(off + len);
	}
	for (size_t i = off; i < end; i++)
		if (img[i] != 0xff)
			die("the free space of the store is not blank in", path);

	/* EFI_LOAD_OPTION: attributes, the device path's length, the
	 * description, a short-form file path (the firmware looks for FILE
	 * on every volume) and the command line as the optional data, in
	 * UTF-16 as the kernel's EFI stub reads it */
	size_t dlen = utf16(NULL, desc), flen = 4 + utf16(NULL, file), clen = utf16(NULL, cmdline);
	size_t olen = 6 + dlen + flen + 4 + clen;
	uint8_t *opt = calloc(1, olen), order[2];
	if (!opt)
		die("out of memory", NULL);
	put32(opt, LOAD_OPTION_ACTIVE);
	put16(opt + 4, flen + 4);
	utf16(opt + 6, desc);
	uint8_t *dp = opt + 6 + dlen;
	dp[0] = 4; /* media device path */
	dp[1] = 4; /* file path */
	put16(dp + 2, flen);
	utf16(dp + 4, file);
	memcpy(dp + flen, "\x7f\xff\x04\x00", 4); /* end of the whole path */
	utf16(dp + flen + 4, cmdline);
	put16(order, strtoul(num, NULL, 16));

	size_t need = align4(VAR_HDR + utf16(NULL, bootname) + olen) +
		      align4(VAR_HDR + utf16(NULL, "BootOrder") + sizeof(order));
	if (off + need > end)
		die("no room left in the variable store of", path);
	for (int i = 0; i < nold; i++)
		img[old[i] + 2] &= VAR_DELETED;
	uint8_t *p = append(img + off, bootname, opt, olen);
	append(p, "BootOrder", order, sizeof(order));

	f = fopen(path, "r+b");
	if (!f || fwrite(img, 1, size, f) != (size_t)size || fclose(f))
		die("cannot write", path);
	printf("%s: %s \"%s\" %s %s, the only entry in BootOrder\n", path, bootname, desc, file, cmdline);
	return 0;
}
