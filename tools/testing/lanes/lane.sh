# SPDX-License-Identifier: GPL-2.0
#
# The lanes of make check (README: the format), sourced by check and run.
#
# lane_read LANE: a file of lanes/ (or any, named with a '/') into
#   lane_title, lane_kernel, lane_cpus, lane_boot, lane_mem, lane_timeout,
#   lane_env (VAR=VALUE...) and lane_plan (the guest's lines, "PARAMS :
#   TEST..." or "check WHAT", sets expanded), and the kernel's kind
#   (lane_kernel_kind, lane_kernel_name, lane_kernel_build: below); 1,
#   saying why, on anything it does not know: a typo must not run another
#   lane than written.
# lane_kernel_read KERNEL [WHERE]: what a lane's kernel line names, a file:
#   - a Debian kernel metapackage, linux-image-...: lane_kernel_kind
#     "package", the modules built against its headers (the one make
#     builds for, linux-image-amd64 by default, is the tree's own build);
#   - a config fragment of a kernel the project builds, named from the
#     top of the tree: lane_kernel_kind "build", lane_kernel_build the
#     command that builds it (up to date: at once) and prints its build
#     tree last, lane_kernel_strict 1 when the modules built for it must
#     build without a warning at W=1 and C=2 (another kernel version than
#     the tree's).  tools/testing/debug-kernel/NAME.config: Debian's 6.1
#     source configured with guest.config and NAME.config
#     (debug-kernel/build --variant NAME); tools/upstream/guest.config:
#     Debian's newest source (make upstream's stock kernel).
#   lane_kernel_name: a short name for it (the package, NAME, upstream).
#   A new kernel variant is a new file, and lanes that name it.
# lane_list [LIST]: the lanes LIST (CFLIST) names, one a line.
# lane_counts LOG: "PASSED FAILED SKIPPED" of a lane's output: each test's
#   nested cases (a test without, one case; a failed test without a failed
#   case, or short of its plan, failed cases more) and the lane's checks.

lanes_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lanes_top=$(cd "$lanes_dir/../../.." && pwd)

lane_kernel_read() {
	local k=$1 where=${2:-} name

	lane_kernel_build=() lane_kernel_strict=0
	case $k in
	linux-image-*)
		[[ $k =~ ^linux-image-[a-z0-9.+-]+$ ]] || {
			echo "${where}kernel: not a package name: '$k'" >&2
			return 1
		}
		lane_kernel_kind=package lane_kernel_name=$k
		return 0
		;;
	tools/testing/debug-kernel/*.config)
		name=${k#tools/testing/debug-kernel/}
		name=${name%.config}
		[[ $name =~ ^[a-z0-9-]+$ && $name != guest ]] || {
			echo "${where}kernel: $k: not a variant's fragment" \
				"(guest.config is every variant's base)" >&2
			return 1
		}
		lane_kernel_build=(tools/testing/debug-kernel/build --variant "$name")
		;;
	tools/upstream/guest.config)
		name=upstream lane_kernel_strict=1
		lane_kernel_build=(tools/upstream/build --stock)
		;;
	*)
		echo "${where}kernel: not linux-image-..., tools/testing/debug-kernel/NAME.config" \
			"or tools/upstream/guest.config: '$k'" >&2
		return 1
		;;
	esac
	[[ -f $lanes_top/$k ]] || { echo "${where}kernel: no such file: $k" >&2; return 1; }
	lane_kernel_kind=build lane_kernel_name=$name
}

# The kselftest entries (selftests/Makefile), which a run may name.
lane_tests() {
	sed -n -e '/^TEST_GEN_PROGS :=/,/[^\\]$/p' -e '/^TEST_PROGS :=/,/[^\\]$/p' \
		"$lanes_dir/../../../selftests/Makefile" |
		sed -e 's/^[A-Z_]* :=//' -e 's/\\$//' | tr -s ' \t' '\n' | sed '/^$/d'
}

lane_read() {
	local file=$1 key rest n=0 w words name known
	declare -A sets=()

	[[ $file == */* ]] || file=$lanes_dir/$file
	lane_title='' lane_kernel='' lane_cpus='' lane_boot=''
	lane_mem=1024 lane_timeout=1000 lane_env=() lane_plan=()
	[[ -f $file ]] || { echo "$file: no such lane" >&2; return 1; }
	known=" $(lane_tests | tr '\n' ' ') "
	while read -r key rest; do
		n=$((n + 1))
		case $key in
		'' | '#'*) continue ;;
		title) lane_title=$rest ;;
		kernel) lane_kernel=$rest ;;
		cpus) lane_cpus=$rest ;;
		boot) lane_boot=$rest ;;
		mem) lane_mem=$rest ;;
		timeout) lane_timeout=$rest ;;
		set)
			name=${rest%% *}
			[[ $name =~ ^[a-z]+$ && $rest == *' '* ]] || {
				echo "$file:$n: set NAME TEST..." >&2
				return 1
			}
			sets[$name]=${rest#* }
			;;
		run)
			[[ $rest == *:* ]] || {
				echo "$file:$n: run PARAMS : TEST..." >&2
				return 1
			}
			words=''
			for w in ${rest#*:}; do
				if [[ $w == @* ]]; then
					[[ -n ${sets[${w#@}]:-} ]] || {
						echo "$file:$n: no set $w" >&2
						return 1
					}
					words+=" ${sets[${w#@}]}"
				elif [[ $known == *" $w "* ]]; then
					words+=" $w"
				else
					echo "$file:$n: no test $w in selftests/Makefile" >&2
					return 1
				fi
			done
			[[ -n $words ]] || { echo "$file:$n: no test" >&2; return 1; }
			w=$(echo ${rest%%:*})
			lane_plan+=("${w:+$w }:$words")
			;;
		check)
			[[ $rest == kmemleak || $rest == kcsan ]] || {
				echo "$file:$n: check kmemleak | kcsan" >&2
				return 1
			}
			lane_plan+=("check $rest")
			;;
		env)
			for w in $rest; do
				[[ $w =~ ^AVC_[A-Z0-9_]+=[^\ ]*$ ]] || {
					echo "$file:$n: not AVC_...=VALUE: $w" >&2
					return 1
				}
				lane_env+=("$w")
			done
			;;
		*)
			echo "$file:$n: unknown key: $key" >&2
			return 1
			;;
		esac
	done < <(cat "$lanes_dir/sets" "$file")
	[[ -n $lane_title ]] || { echo "$file: no title" >&2; return 1; }
	lane_kernel_read "$lane_kernel" "$file: " || return 1
	for w in cpus mem timeout; do
		name=lane_$w
		[[ ${!name} =~ ^[1-9][0-9]*$ ]] || {
			echo "$file: $w: not a positive number: '${!name}'" >&2
			return 1
		}
	done
	((${#lane_plan[@]})) || { echo "$file: no run" >&2; return 1; }
}

lane_list() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${1:-$lanes_dir/CFLIST}"
}

lane_counts() {
	awk '
	function close_test(failed_top,   c) {
		c = np + nf + ns
		if (!c) {
			if (skip_top) s++; else if (failed_top) f++; else p++
		} else {
			p += np; f += nf; s += ns
			if (failed_top && !nf) f++
			if (plan > c) f += plan - c
		}
		np = nf = ns = plan = 0
	}
	/^# (not )?ok [0-9]+ / {
		if ($0 ~ /^# not ok/) nf++
		else if ($0 ~ /# [Ss][Kk][Ii][Pp]/) ns++
		else np++
	}
	/^# 1\.\.[0-9]+/ { split($2, a, "."); plan = a[3] + 0 }
	/^(not )?ok [0-9]+ selftests: / {
		skip_top = $0 ~ /# SKIP$/
		close_test($1 == "not")
	}
	/^ok - / { p++ }
	/^not ok - / { f++ }
	END { printf "%d %d %d\n", p, f, s }' "$1"
}
