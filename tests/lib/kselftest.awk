# The one reader of kselftest results and of the skip list
# (tests/suite/kselftest-skip: "COLLECTION:PROGRAM[:SUBTEST] | reason"),
# for mglru-fg-test and tests/smoke/kselftest-compare. The tests package
# installs it as /usr/share/mglru-fg/kselftest.awk.
#
# awk -f kselftest.awk -v mode=MODE -v skips=SKIPLIST [...] FILE
#   mode=run: FILE is run_kselftest.sh's output, with "# category: CAT"
#     lines between the runs of a collection (-v coll=). Each result goes
#     to the file -v sub_out= as a KTAP line, named
#     COLL:PROGRAM-or-CATEGORY[:SUBTEST]. A program's own results ("# ok N
#     name" under it) are the subtests; a program that prints none, or
#     fails with all of them passing (a timeout, say), is one itself. A
#     failure named in the skip list is a skip with its reason; a listed
#     test that passed is named. Prints the counts; exit 1 when any failed
#     or none ran.
#   mode=results: FILE holds those KTAP lines as mglru-fg-test printed
#     them; prints "NAME<TAB>RESULT", RESULT pass, FAIL, skip or kfail (a
#     failure the skip list names).
#   mode=skips: prints the names in the skip list.

BEGIN {
	while (skips != "" && (getline l < skips) > 0) {
		if (l ~ /^[[:space:]]*(#|$)/) continue
		n = index(l, "|")
		name = n ? substr(l, 1, n - 1) : l
		gsub(/^[[:space:]]+|[[:space:]]+$/, "", name)
		why = n ? substr(l, n + 1) : "listed"
		gsub(/^[[:space:]]+/, "", why)
		known[name] = why
		if (mode == "skips") print name
	}
	if (mode == "skips") exit 0
	kfail = "SKIP fails on stock 6.12 here too: "
}

# parse LINE: res (ok, fail, skip), num, nm and dir of a result line
function parse(line,    d) {
	res = line ~ /^not ok / ? "fail" : "ok"
	sub(/^(not )?ok /, "", line)
	num = line + 0
	sub(/^[0-9]+ /, "", line)
	dir = ""
	# ksft_test_result_skip() puts the directive first
	if (line ~ /^# SKIP /) { dir = "SKIP"; line = substr(line, 8) }
	else if ((d = index(line, " # ")) > 0) { dir = substr(line, d + 3); line = substr(line, 1, d - 1) }
	if (res == "ok" && dir ~ /^SKIP/) res = "skip"
	nm = line
}

function emit(name, r, dir) {
	k++
	if (r == "fail" && name in known) { r = "skip"; dir = kfail known[name] }
	else if (r == "ok" && name in known) printf "%s is in the skip list but passed\n", name
	if (r == "fail") { nfail++; printf "not ok %d %s%s\n", k, name, dir == "" ? "" : " # " dir > sub_out }
	else printf "ok %d %s%s\n", k, name, dir == "" ? "" : " # " dir > sub_out
	count[r]++
}

mode == "results" && /^(not )?ok [0-9]+ / {
	parse($0)
	r = res == "fail" ? "FAIL" : res == "skip" ? "skip" : "pass"
	if (index(dir, kfail) == 1) r = "kfail"
	print nm "\t" r
	next
}
mode != "run" { next }

/^# category: / { cat = $3; next }
/^# selftests: / { nleaf = 0; bad = 0; split("", seen); next }
/^# (not )?ok [0-9]+ / {
	l = $0; sub(/^# /, "", l); parse(l)
	# a result printed again by a fork()ed child is not a result
	if (num in seen) next
	seen[num] = 1
	leaf[++nleaf] = res SUBSEP nm SUBSEP dir
	if (res == "fail") bad++
	next
}
/^(not )?ok [0-9]+ selftests: / {
	parse($0); sub(/^selftests: [^:]*: /, "", nm)
	prog = coll ":" (cat != "" ? cat : nm)
	for (i = 1; i <= nleaf; i++) {
		split(leaf[i], f, SUBSEP)
		emit(prog ":" f[2], f[1], f[3])
	}
	if (nleaf == 0 || (res == "fail" && !bad)) emit(prog, res, dir)
	nleaf = 0; bad = 0
}

END {
	if (mode != "run") exit 0
	printf "%s: %d passed, %d failed, %d skipped\n", coll, count["ok"], count["fail"], count["skip"]
	exit (nfail > 0 || k == 0)
}
