#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# avcstat on crafted cache_stats files (good, bad, rewritten between two
# reads, per-CPU wraps), its command line and signals, its -t and -o csv,
# its header on a terminal and into a pipe, its choice of file (in a mount
# namespace with a crafted /proc/self/mounts), and on the live file of the
# module it loads (lib/module.sh; not root or no module: those cases
# skip).  Runs on the host too (busybox ash and bash).
#
# AVCSTAT: the binary (./avcstat, else ../tools/avcstat/avcstat beside
# this, else avcstat in PATH).  AVCSTAT_TEST_LONG=1 runs the 23-second
# case (one header over 23 rows into a pipe), which does not depend on the
# kernel: by default only where no module is loaded (the host's run).

set -eu

. "$(dirname "$0")/lib/tst.sh"
live=0
PLAN=77
HDR='lookups hits misses allocations reclaims frees'
T=$TMP

if [ -z "${AVCSTAT:-}" ]; then
	for c in ./avcstat "$(dirname "$0")/../tools/avcstat/avcstat" \
		 "$(command -v avcstat || true)"; do
		[ -f "$c" ] && [ -x "$c" ] && AVCSTAT=$c && break
	done
fi
if [ -z "${AVCSTAT:-}" ] || [ ! -x "$AVCSTAT" ]; then
	echo "Bail out! avcstat binary not found (set AVCSTAT)"
	exit 1
fi
echo "1..$PLAN"
echo "# avcstat: $AVCSTAT"
# Its messages start with the name it runs as.
NAME=${AVCSTAT##*/}

cleanup() {
	for p in "$T"/*.pid; do
		[ ! -s "$p" ] || [ -s "${p%.pid}.rc" ] ||
			kill -s KILL "$(cat "$p")" 2>/dev/null || true
	done
}
trap 'exit 1' INT TERM
if tst_module_try_load; then
	live=1
elif [ $? -ne 1 ]; then
	echo "Bail out! $tst_module_why"
	exit 1
fi
AVCSTAT_TEST_LONG=${AVCSTAT_TEST_LONG:-$((1 - live))}

# diag_file WHAT FILE: FILE, unless empty, as diagnostics
diag_file() {
	[ ! -s "$2" ] || { echo "# $1:"; sed 's/^/#   /' "$2"; }
}

# wait_until SECONDS CMD...: poll CMD every 0.05 s, fail after SECONDS
wait_until() {
	tries=$(($1 * 20))
	shift
	while ! "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.05
	done
}

lines() { echo $(($(wc -l <"$1"))); }
has_lines() { [ -f "$1" ] && [ "$(lines "$1")" -ge "$2" ]; }

# start NAME ARGS...: avcstat ARGS in the background, with its pid,
# stdout, stderr and exit status in $T/NAME.{pid,out,err,rc}
start() {
	name=$1
	shift
	rm -f "$T/$name.pid" "$T/$name.rc" "$T/$name.out" "$T/$name.err"
	(
		"$AVCSTAT" "$@" >"$T/$name.out" 2>"$T/$name.err" &
		echo $! >"$T/$name.pid"
		st=0
		wait $! || st=$?
		echo "$st" >"$T/$name.rc"
	) &
	wait_until 10 test -s "$T/$name.pid" || true
}

# finish NAME SECONDS: wait for NAME to exit, set rc (124: timed out)
finish() {
	if wait_until "$2" test -s "$T/$1.rc"; then
		rc=$(cat "$T/$1.rc")
	else
		kill -s KILL "$(cat "$T/$1.pid")" 2>/dev/null || true
		rc=124
	fi
}

# run ARGS...: avcstat ARGS to completion; rc, $T/r.out, $T/r.err
run() { start r "$@"; finish r 10; }

show() {
	echo "# exit status $rc"
	diag_file stdout "$T/$1.out"
	diag_file stderr "$T/$1.err"
}

# clean NAME: NAME exited 0 with nothing on stderr
clean() { [ "$rc" = 0 ] && [ ! -s "$T/$1.err" ]; }

# is DESC NAME COND [DIAG]: a case from the shell condition COND
# (evaluated, with NAME as $2); if it fails, NAME's exit status and
# output are shown (NAME -: nothing), then DIAG is evaluated.
is() {
	if eval "$3"; then
		ok "$1"
	else
		not_ok "$1"
		[ "$2" = - ] || show "$2"
		eval "${4:-}"
	fi
}

header() {
	printf '%10s %10s %10s %10s %10s %10s\n' \
		lookups hits misses allocs reclaims frees
}

# row "A B C D E F": an output row as avcstat prints it
row() {
	# shellcheck disable=SC2086
	printf '%10s %10s %10s %10s %10s %10s\n' $1
}

# stats FILE ROW...: write a cache_stats file in place
stats() {
	f=$1
	shift
	printf '%s\n' "$HDR" "$@" >"$f"
}

# out_is DESC NAME: NAME exited 0, with no stderr, and printed $E
out_is() {
	is "$1" "$2" 'clean "$2" && cmp -s "$E" "$T/$2.out"' 'diag_file expected "$E"'
}

# expect_out DESC ARGS...: avcstat ARGS exits 0, no stderr, prints $E
expect_out() {
	desc=$1; shift
	run "$@"
	out_is "$desc" r
}

# one_error NAME PATTERN: exit 1, nothing on stdout, one stderr line
# matching the glob PATTERN
one_error() {
	[ "$rc" = 1 ] && [ ! -s "$T/$1.out" ] && [ "$(lines "$T/$1.err")" = 1 ] &&
		# shellcheck disable=SC2254
		case $(cat "$T/$1.err") in $2) ;; *) false ;; esac
}

# expect_err DESC PATTERN ARGS...
expect_err() {
	desc=$1 pat=$2; shift 2
	run "$@"
	is "$desc" r 'one_error r "$pat"' 'echo "# expected stderr: $pat"'
}

# Every line a complete header or row: 65 characters and a newline.
whole_rows() {
	[ -s "$1" ] &&
		[ "$(($(wc -c <"$1")))" = "$(($(lines "$1") * 66))" ] &&
		awk 'length($0) != 65 { exit 1 }' "$1"
}

# --- the long runs, started first, checked later --------------------------
#
# Into a pipe the header is printed once: 23 rows, more than the 22 a
# 24-row screen held when it was repeated.  On a terminal of 6 rows it is
# repeated every 4 data rows, as libselinux's repeats it every screenful.

LF=$T/long_stats
stats "$LF" "1 2 3 4 5 6"
if [ "$AVCSTAT_TEST_LONG" = 1 ]; then
	(
		"$AVCSTAT" -f "$LF" 1 23 2>"$T/pipe.err" | cat >"$T/pipe.out"
		echo $? >"$T/pipe.rc"
	) &
fi
have_script=0
if command -v script >/dev/null 2>&1 && command -v stty >/dev/null 2>&1 &&
   script -qec true /dev/null >/dev/null 2>&1; then
	have_script=1
	(
		script -qec "stty rows 6 cols 80; exec '$AVCSTAT' -f '$LF' 1 6" \
			/dev/null </dev/null 2>"$T/tty.err" | tr -d '\r' \
			>"$T/tty.out"
		echo $? >"$T/tty.rc"
	) &
	# -o csv on the same terminal: a CSV has one header, never repeated.
	(
		script -qec "stty rows 6 cols 80; exec '$AVCSTAT' -o csv -f '$LF' 1 6" \
			/dev/null </dev/null 2>"$T/ttycsv.err" | tr -d '\r' \
			>"$T/ttycsv.out"
		echo $? >"$T/ttycsv.rc"
	) &
fi

# --- help ---------------------------------------------------------------

USAGE="Usage: $NAME [-c] [-r] [-t] [-o format] [-f status_file] [interval [count]]"
for opt in -h --help; do
	run "$opt"
	is "$opt prints the usage on stdout, exit 0" r \
		'clean r && [ "$(head -n 1 "$T/r.out")" = "$USAGE" ]'
done

# --- good files ---------------------------------------------------------

F=$T/stats
E=$T/expected

stats "$F" "1 2 3 4 5 6"
{ header; row "1 2 3 4 5 6"; } >"$E"
expect_out "one CPU row: header and totals" -f "$F"

stats "$F" "1 2 3 4 5 6" "10 20 30 40 50 60" \
	"100 200 300 400 500 600" "4294967295 4294967295 0 0 7 4294967295"
{ header; row "4294967406 4294967517 333 444 562 4294967961"; } >"$E"
expect_out "4 CPU rows summed in 64 bits" -f "$F"

awk -v hdr="$HDR" 'BEGIN {
	print hdr
	for (i = 0; i < 300; i++)
		printf "4294967295 %d %d 7 0 %.0f\n", i, i * 1000, 4294967295 - i
}' >"$F"
size=$(($(wc -c <"$F")))
is "300-row file is larger than 8 KiB ($size bytes)" - '[ "$size" -gt 8192 ]'
{ header; row "1288490188500 44850 44850000 2100 0 1288490143650"; } >"$E"
expect_out "300 CPU rows: exact totals" -f "$F"

printf '%s\n%s\n%s' "$HDR" "1 2 3 4 5 6" "1 1 1 1 1 1" >"$F"
{ header; row "2 3 4 5 6 7"; } >"$E"
expect_out "last row without its newline is accepted" -f "$F"

# --- count ----------------------------------------------------------------

stats "$F" "1 2 3 4 5 6" "6 5 4 3 2 1"
{ header; row "7 7 7 7 7 7"; row "0 0 0 0 0 0"; row "0 0 0 0 0 0"; } >"$E"
start cnt -f "$F" 1 3
finish cnt 15
out_is "-f F 1 3: header and 3 rows, exit 0" cnt

# --- -t: the time of day before each row -------------------------------

# tod_rows FILE N: N lines after the -t header, each HH:MM:SS and a row,
# 74 characters
tod_rows() {
	[ "$(head -n 1 "$1")" = "$(printf '%-8s ' time)$(header)" ] &&
		[ "$(lines "$1")" = "$(($2 + 1))" ] &&
		awk 'NR > 1 && (length($0) != 74 ||
		     $1 !~ /^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$/) { exit 1 }' "$1"
}

stats "$F" "1 2 3 4 5 6" "6 5 4 3 2 1"
start tod -t -f "$F" 1 2
finish tod 15
is "-t 1 2: a time column, HH:MM:SS, before the same rows (74 columns)" tod \
	'clean tod && tod_rows "$T/tod.out" 2 &&
	 [ "$(cut -c 10- "$T/tod.out" | sed -n 2,3p)" = \
	   "$(row "7 7 7 7 7 7"; row "0 0 0 0 0 0")" ]'

# The time of day, not the time since boot: the row's HH:MM:SS is the
# local time of a second between the run's start and its end.
stats "$T/tod" "1 2 3 4 5 6"
t0=$(date +%s)
run -t -f "$T/tod"
t1=$(date +%s)
hms=$(sed -n '2s/ .*//p' "$T/r.out")
tod_ok=0
s=$t0
while [ "$s" -le "$t1" ]; do
	[ "$(date -d "@$s" +%H:%M:%S)" != "$hms" ] || tod_ok=1
	s=$((s + 1))
done
is "-t: the row's time is the time of day ($hms, between $(date -d "@$t0" +%H:%M:%S) and $(date -d "@$t1" +%H:%M:%S))" r \
	'clean r && [ "$tod_ok" = 1 ]'

# --- -o csv -----------------------------------------------------------------

CSVHDR=time,elapsed,interval,lookups,hits,misses,allocs,reclaims,frees,threshold
# (No {N}: mawk has no interval expressions.)
D2='[0-9][0-9]'
ISO="$D2$D2-$D2-${D2}T$D2:$D2:$D2[.]$D2[0-9][+-]$D2:$D2"

# csv_rows FILE N: the header, then N rows of 10 fields whose first is an
# ISO 8601 time and whose elapsed and interval are seconds to the
# millisecond, the first row's interval empty; prints the rows without
# their time, elapsed and interval ("lookups,...,threshold")
csv_rows() {
	[ "$(head -n 1 "$1")" = "$CSVHDR" ] &&
		[ "$(lines "$1")" = "$(($2 + 1))" ] &&
		awk -F, -v iso="^$ISO\$" 'NR == 1 { next }
			NF != 10 || $1 !~ iso || $2 !~ /^[0-9]+[.][0-9][0-9][0-9]$/ ||
			(NR == 2 && ($2 != "0.000" || $3 != "")) ||
			(NR > 2 && ($3 !~ /^[0-9]+[.][0-9][0-9][0-9]$/ ||
				    (d = $2 - prev - $3) > 0.002 ||
				    d < -0.002)) { exit 1 }
			{ prev = $2 }' "$1" &&
		sed 1d "$1" | cut -d , -f 4-
}

D=$T/avc
mkdir -p "$D"
CF=$D/cache_stats
stats "$CF" "1 2 3 4 5 6" "10 20 30 40 50 60"
echo 512 >"$D/cache_threshold"
run -o csv -f "$CF"
is "-o csv: the header, then time, elapsed, interval, totals, threshold" r \
	'clean r && [ "$(csv_rows "$T/r.out" 1)" = "11,22,33,44,55,66,512" ]'

run -o csv -f "$F"
is "-o csv: threshold empty without a cache_threshold beside the file" r \
	'clean r && [ "$(csv_rows "$T/r.out" 1)" = "7,7,7,7,7,7," ]'

# SELinux takes 0 (every insert reclaims): recorded as 0, not as none.
echo 0 >"$D/cache_threshold"
run -o csv -f "$CF"
is "-o csv: a cache_threshold of 0 is recorded as 0, not left empty" r \
	'clean r && [ "$(csv_rows "$T/r.out" 1)" = "11,22,33,44,55,66,0" ]'
echo 512 >"$D/cache_threshold"

# A recording over a change of threshold, one read apart: the changes
# per row, the threshold of each read, the header once.
stats "$CF" "4294967290 0 0 0 0 0" "100 200 300 400 500 600"
start csv -o csv -f "$CF" 2 3
wait_until 15 has_lines "$T/csv.out" 2 || true
stats "$CF" "5 1 0 0 0 0" "101 202 303 404 505 606"
echo 1024 >"$D/cache_threshold"
wait_until 15 has_lines "$T/csv.out" 3 || true
stats "$CF" "6 1 0 0 0 0" "101 202 303 404 505 606"
finish csv 15
got=$(csv_rows "$T/csv.out" 3 || echo bad)
exp=$(printf '%s\n' 4294967390,200,300,400,500,600,512 \
	12,3,3,4,5,6,1024 1,0,0,0,0,0,1024)
is "-o csv 2 3: deltas modulo 2^32, each read's threshold, one header" csv \
	'clean csv && [ "$got" = "$exp" ]' \
	'echo "# expected rows (after time, elapsed, interval):"
	 echo "$exp" | sed "s/^/#   /"'

echo "1024 x" >"$D/cache_threshold"
expect_err "-o csv: a malformed cache_threshold is an error" \
	"$NAME: $D/cache_threshold: expected a whole number" -o csv -f "$CF"
echo 512 >"$D/cache_threshold"

# --- deltas, -c and per-CPU wraps, the file rewritten between reads ------
#
# The file is rewritten once both runs have printed the row of the
# previous read, which leaves almost a whole interval (2 s) of margin.

stats "$F" "4294967290 4294967295 0 7 1 2" "100 200 300 400 500 600"
start dlt -f "$F" 2 3
start cum -c -f "$F" 2 3
wait_until 15 has_lines "$T/dlt.out" 2 || true
wait_until 15 has_lines "$T/cum.out" 2 || true
stats "$F" "5 9 1 8 1 2" "101 202 303 404 505 606"
wait_until 15 has_lines "$T/dlt.out" 3 || true
wait_until 15 has_lines "$T/cum.out" 3 || true
stats "$F" "2147483652 10 1 8 1 2" "101 202 303 404 505 606"

{ header; row "4294967390 4294967495 300 407 501 602"; row "12 12 4 5 5 6"
  row "2147483647 1 0 0 0 0"; } >"$E"
finish dlt 15
out_is "deltas per CPU modulo 2^32 (4294967290 -> 5 is 11; 2^31 - 1 forward)" dlt

{ header; row "4294967390 4294967495 300 407 501 602"
  row "4294967402 4294967507 304 412 506 608"
  row "6442451049 4294967508 304 412 506 608"; } >"$E"
finish cum 15
out_is "-c: first totals plus deltas, monotonic across wraps" cum

# A counter that goes back (by 2^31 or more modulo 2^32: no wrap) is a
# reset, not 4 billion events: one error line after the rows so far.
stats "$F" "1000 900 100 100 0 0" "7 7 7 7 7 7"
start back -f "$F" 2
wait_until 15 has_lines "$T/back.out" 2 || true
stats "$F" "1000 900 100 100 0 0" "7 7 3 7 7 7"
finish back 15
{ header; row "1007 907 107 107 7 7"; } >"$E"
pat="$NAME: $F: CPU row 2: misses went back from 7 to 3 (counters reset? a 32-bit wrap is a step of less than 2^31)"
is "a counter that goes back: one error line naming it, exit 1" back \
	'[ "$rc" = 1 ] && cmp -s "$E" "$T/back.out" &&
	 [ "$(lines "$T/back.err")" = 1 ] && [ "$(cat "$T/back.err")" = "$pat" ]'

# --- the number of CPU rows changes ---------------------------------------

stats "$F" "1 2 3 4 5 6" "1 2 3 4 5 6"
start chg -f "$F" 2
wait_until 15 has_lines "$T/chg.out" 2 || true
stats "$F" "1 2 3 4 5 6" "1 2 3 4 5 6" "1 2 3 4 5 6"
finish chg 15
{ header; row "2 4 6 8 10 12"; } >"$E"
pat="$NAME: $F: number of CPU rows changed from 2 to 3"
is "CPU row count change: one error line, exit 1" chg \
	'[ "$rc" = 1 ] && cmp -s "$E" "$T/chg.out" &&
	 [ "$(lines "$T/chg.err")" = 1 ] && [ "$(cat "$T/chg.err")" = "$pat" ]'

# --- bad files ------------------------------------------------------------

B=$T/bad

# bad_row DESC LINE WHY ROW...: a file of ROWs refused, naming LINE and
# saying WHY (a glob)
bad_row() {
	desc=$1 line=$2 why=$3; shift 3
	stats "$B" "$@"
	expect_err "$desc" "$NAME: $B: line $line: $why" -f "$B"
}

# What a bad row is told, by its fault.
NOT_NUM='is not an unsigned decimal number'
SPACES='a space before, after or between two fields: fields are separated by one space'

bad_header() {
	printf '%s\n1 2 3 4 5 6\n' "$2" >"$B"
	expect_err "$1" \
		"$NAME: $B: invalid header \"*\" (expected \"$HDR\")" -f "$B"
}

bad_header "bad header: avcstat's column names" \
	"lookups hits misses allocs reclaims frees"
bad_header "bad header: trailing space" "$HDR "
bad_header "bad header: CRLF" "$(printf '%s\r' "$HDR")"
bad_header "bad header: a CPU row instead" "1 2 3 4 5 6"

bad_row "bad row: 5 fields" 3 "5 fields, expected 6" "1 2 3 4 5 6" \
	"1 2 3 4 5"
bad_row "bad row: 7 fields" 2 "7 fields, expected 6" "1 2 3 4 5 6 7"
bad_row "bad row: letters, named with their field" 2 \
	"field 6, \"x6\", $NOT_NUM" "1 2 3 4 5 x6"
bad_row "bad row: negative" 2 "field 4, \"-4\", $NOT_NUM" "1 2 3 -4 5 6"
bad_row "bad row: 2^32, too large for a 32-bit counter" 2 \
	"field 1, \"4294967296\", is larger than 4294967295 (the counters are 32-bit)" \
	"4294967296 2 3 4 5 6"
bad_row "bad row: plus sign" 2 "field 1, \"+1\", $NOT_NUM" "+1 2 3 4 5 6"
bad_row "bad row: hex" 2 "field 1, \"0x10\", $NOT_NUM" "0x10 2 3 4 5 6"
bad_row "bad row: two spaces" 2 "$SPACES" "1  2 3 4 5 6"
bad_row "bad row: leading space" 2 "$SPACES" " 1 2 3 4 5 6"
bad_row "bad row: trailing space" 2 "$SPACES" "1 2 3 4 5 6 "
bad_row "bad row: tab separator" 2 "5 fields, expected 6" \
	"$(printf '1\t2 3 4 5 6')"
bad_row "bad row: tab separator among six fields" 2 \
	"field 1, \"1\\\\x092\", $NOT_NUM" "$(printf '1\t2 3 4 5 6 7')"
bad_row "bad row: empty line between rows" 3 \
	"empty, expected a CPU row of 6 numbers" "1 2 3 4 5 6" "" "1 2 3 4 5 6"
bad_row "bad row: trailing empty line" 3 \
	"empty, expected a CPU row of 6 numbers" "1 2 3 4 5 6" ""

awk -v hdr="$HDR" 'BEGIN {
	print hdr
	for (i = 0; i < 299; i++)
		print i, i, i, i, i, i
	print "1 2 3 4 5"
}' >"$B"
expect_err "bad row 300 of 300: line number 301 named" \
	"$NAME: $B: line 301: 5 fields, expected 6" -f "$B"

printf '%s\n' "$HDR" >"$B"
expect_err "header only: no CPU rows" "$NAME: $B: no CPU rows" -f "$B"

: >"$B"
expect_err "empty file" "$NAME: $B: empty file" -f "$B"

expect_err "missing file" "$NAME: $T/missing: No such file or directory" \
	-f "$T/missing"

expect_err "unreadable file (a directory)" "$NAME: $T: *" -f "$T"

stats "$B" "1 2 3 4 5 6"
chmod 000 "$B"
if [ "$(id -u)" = 0 ]; then
	skip "file without read permission" "running as root"
else
	expect_err "file without read permission" \
		"$NAME: $B: Permission denied" -f "$B"
fi
chmod 644 "$B"

# --- command line errors --------------------------------------------------

stats "$F" "1 2 3 4 5 6"
for a in 0 -1 abc 1.5 " 1" 2147483648 99999999999999999999 ""; do
	expect_err "interval '$a' rejected" "$NAME: invalid interval*" \
		-f "$F" -- "$a"
done
for a in 0 abc -2 18446744073709551616; do
	expect_err "count '$a' rejected" "$NAME: invalid count*" \
		-f "$F" -- 1 "$a"
done
expect_err "too many arguments rejected" "$NAME: too many arguments*" \
	-f "$F" 1 2 3
expect_err "unknown option rejected" "$NAME: invalid option '-x'*" \
	-f "$F" -x
expect_err "-f without an argument rejected" "$NAME: option '-f'*" -f
expect_err "-o without an argument rejected" "$NAME: option '-o'*" -o
expect_err "-o json rejected" "$NAME: invalid format 'json'*" -f "$F" -o json
expect_err "-c with -o csv rejected" "$NAME: -c and -o csv exclude*" \
	-c -o csv -f "$F"
expect_err "-r with -f rejected" "$NAME: -r and -f exclude*" -r -f "$F"

# --- the default file -------------------------------------------------------
#
# In a mount namespace with a tmpfs over /proc holding a crafted
# self/mounts, and one over /sys: SELinux's file whenever selinuxfs is
# mounted, avc_rcu's with -r or without selinuxfs.

# in_ns MOUNTS ARGS...: avcstat ARGS with /proc/self/mounts reading
# MOUNTS and an empty /sys; rc, $T/r.out, $T/r.err
in_ns() {
	printf '%s' "$1" >"$T/mounts"
	shift
	rc=0
	# shellcheck disable=SC2016,SC2086 # expanded by the inner shell
	unshare $NS_ARGS sh -c '
		mount -t tmpfs none /proc && mount -t tmpfs none /sys &&
		mkdir /proc/self && cp "$1" /proc/self/mounts || exit 125
		shift
		exec "$@"' sh "$T/mounts" "$AVCSTAT" "$@" \
		>"$T/r.out" 2>"$T/r.err" || rc=$?
}

NS_ARGS=-m
[ "$(id -u)" = 0 ] || NS_ARGS="-r -m"
in_ns "" -h
mkdir -p "$T/sel fs/avc" "$T/rcu/avc"
stats "$T/sel fs/avc/cache_stats" "7 7 7 7 7 7"
stats "$T/rcu/avc/cache_stats" "9 9 9 9 9 9"
MOUNTS="proc /proc proc rw 0 0
avcrcufs $T/rcu avcrcufs rw 0 0
selinuxfs $(echo "$T/sel fs" | sed 's/ /\\040/g') selinuxfs rw 0 0
"
ns_cases="default:_selinuxfs's_file_when_both_are_mounted
-r:_avcrcufs's_file_though_selinuxfs_is_mounted
default:_avcrcufs's_file_without_selinuxfs
default:_neither_mounted_is_one_error_naming_both
-r:_no_avcrcufs_mounted_is_one_error"
if [ "$rc" != 0 ]; then
	for d in $ns_cases; do
		skip "$(echo "$d" | tr _ ' ')" "no mount namespace (unshare $NS_ARGS)"
	done
else
	in_ns "$MOUNTS"
	is "default: selinuxfs's file when both are mounted" r \
		'[ "$rc" = 0 ] && [ "$(cat "$T/r.out")" = "$(header; row "7 7 7 7 7 7")" ]'
	in_ns "$MOUNTS" -r
	is "-r: avcrcufs's file though selinuxfs is mounted" r \
		'[ "$rc" = 0 ] && [ "$(cat "$T/r.out")" = "$(header; row "9 9 9 9 9 9")" ]'
	in_ns "$(echo "$MOUNTS" | grep -v selinuxfs)"
	is "default: avcrcufs's file without selinuxfs" r \
		'[ "$rc" = 0 ] && [ "$(cat "$T/r.out")" = "$(header; row "9 9 9 9 9 9")" ]'
	in_ns "proc /proc proc rw 0 0
"
	is "default: neither mounted is one error naming both" r \
		'one_error r "$NAME: /sys/fs/selinux/avc/cache_stats: *(neither selinuxfs nor avcrcufs mounted? see -f)"'
	in_ns "$(echo "$MOUNTS" | grep -v avcrcufs)" -r
	is "-r: no avcrcufs mounted is one error" r \
		'one_error r "$NAME: /sys/fs/avc_rcu/avc/cache_stats: *(no avcrcufs mounted? see -f)"'
fi

# --- signals --------------------------------------------------------------

stats "$F" "1 2 3 4 5 6"
start sig -f "$F" 1
wait_until 15 has_lines "$T/sig.out" 2 || true
kill -s WINCH "$(cat "$T/sig.pid")" 2>/dev/null || true
wait_until 15 has_lines "$T/sig.out" 3 || true
is "SIGWINCH: still running, rows continue" - \
	'[ ! -s "$T/sig.rc" ] && has_lines "$T/sig.out" 3'
kill -s TERM "$(cat "$T/sig.pid")" 2>/dev/null || true
finish sig 15
is "SIGTERM: exit 0, only whole rows" sig 'clean sig && whole_rows "$T/sig.out"'

start sig -f "$F" 1
wait_until 15 has_lines "$T/sig.out" 2 || true
kill -s INT "$(cat "$T/sig.pid")" 2>/dev/null || true
finish sig 15
is "SIGINT: exit 0, only whole rows" sig 'clean sig && whole_rows "$T/sig.out"'

# --- the long runs ----------------------------------------------------------

if [ "$AVCSTAT_TEST_LONG" = 1 ]; then
	wait_until 40 test -s "$T/pipe.rc" || true
	{ header; row "1 2 3 4 5 6"; i=1; while [ $i -lt 23 ]; do
		row "0 0 0 0 0 0"; i=$((i + 1)); done; } >"$E"
	rc=$(cat "$T/pipe.rc" 2>/dev/null || true)
	is "into a pipe: one header over 23 rows" pipe \
		'clean pipe && cmp -s "$E" "$T/pipe.out"'
else
	skip "into a pipe: one header over 23 rows" "AVCSTAT_TEST_LONG=0"
fi

if [ "$have_script" = 1 ]; then
	wait_until 20 test -s "$T/tty.rc" || true
	{ header; row "1 2 3 4 5 6"; row "0 0 0 0 0 0"; row "0 0 0 0 0 0"
	  row "0 0 0 0 0 0"; header; row "0 0 0 0 0 0"; row "0 0 0 0 0 0"
	} >"$E"
	rc=$(cat "$T/tty.rc" 2>/dev/null || true)
	is "on a terminal of 6 rows: the header again every 4 rows" tty \
		'[ "$rc" = 0 ] && cmp -s "$E" "$T/tty.out"'
	wait_until 20 test -s "$T/ttycsv.rc" || true
	rc=$(cat "$T/ttycsv.rc" 2>/dev/null || true)
	is "-o csv on a terminal of 6 rows: one header over 6 rows" ttycsv \
		'[ "$rc" = 0 ] && csv_rows "$T/ttycsv.out" 6 >/dev/null'
else
	skip "on a terminal of 6 rows: the header again every 4 rows" \
		"no script(1)"
	skip "-o csv on a terminal of 6 rows: one header over 6 rows" \
		"no script(1)"
fi

# --- live -----------------------------------------------------------------

# sum_file FILE: the six column totals of a cache_stats file
sum_file() {
	awk 'NR > 1 { for (i = 1; i <= 6; i++) s[i] += $i }
	     END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n",
			  s[1], s[2], s[3], s[4], s[5], s[6] }' "$1"
}

# ge "A..F" "G..L": every column of the first >= the same of the second
ge() {
	echo "$1 $2" | awk '{ for (i = 1; i <= 6; i++)
				if ($i + 0 < $(i + 6) + 0) exit 1 }'
}

if [ "$live" = 1 ]; then
	before=$(sum_file "$MNT/avc/cache_stats")
	w=0
	for i in 1 2 3 4 5; do
		! printf '1 2 3 4\n' 2>/dev/null >"$MNT/access" || w=$((w + 1))
	done
	min=$(echo "$before" | awk -v w="$w" '{ $1 += w; print }')
	run -r
	is "live: avcstat -r prints the header and one row" r \
		'clean r && [ "$(lines "$T/r.out")" = 2 ] &&
		 [ "$(head -n 1 "$T/r.out")" = "$(header)" ]'
	after=$(sed -n 2p "$T/r.out")
	is "live: totals >= the file's sums before (+$w lookups)" - \
		'[ "$rc" = 0 ] && ge "$after" "$min"' \
		'echo "# before: $before (+$w lookups)"; echo "# after:  $after"'
	start live -r -c 1 2
	finish live 15
	r1=$(sed -n 2p "$T/live.out")
	r2=$(sed -n 3p "$T/live.out")
	is "live: -c 1 2 re-reads the file, totals do not decrease" live \
		'clean live && [ "$(lines "$T/live.out")" = 3 ] && ge "$r2" "$r1"'
	thr=$(cat "$MNT/avc/cache_threshold")
	start live -r -o csv 1 2
	finish live 15
	is "live: -o csv 1 2 records cache_threshold ($thr) on each row" live \
		'clean live && csv_rows "$T/live.out" 2 >"$T/live.rows" &&
		 [ "$(cut -d , -f 7 "$T/live.rows" | sort -u)" = "$thr" ]'
else
	for d in "live: avcstat -r prints the header and one row" \
		 "live: totals >= the file's sums before" \
		 "live: -c 1 2 re-reads the file, totals do not decrease" \
		 "live: -o csv 1 2 records cache_threshold on each row"; do
		skip "$d" "$tst_module_why"
	done
fi

wait
if [ "$n" != "$PLAN" ]; then
	echo "# ran $n tests but planned $PLAN"
	failed=$((failed + 1))
fi
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
