# SPDX-License-Identifier: GPL-2.0
#
# lane_read FILE: read one lane of make check (README: the format) into
#   lane_title, lane_kernel (stock, debug, kcsan or a Debian package),
#   lane_cpus, lane_boot (the kernel command line's addition) and
#   lane_env (an array: the suite's environment, VAR=VALUE each).
# Returns 1, with the reason on stderr, on a line it does not know or a
# required key missing: a typo must not run a lane other than written.
# Sourced by bash (tools/testing/check, tools/testing/vm/boot-loop).

lane_read() {
	local file=$1 key rest n=0 loads=() vars=() v

	lane_title='' lane_kernel='' lane_cpus='' lane_boot=''
	lane_env=()
	[[ -f $file ]] || { echo "$file: no such lane" >&2; return 1; }
	while read -r key rest; do
		n=$((n + 1))
		case $key in
		'' | '#'*) ;;
		title) lane_title=$rest ;;
		kernel) lane_kernel=$rest ;;
		cpus) lane_cpus=$rest ;;
		boot) lane_boot=$rest ;;
		load)
			[[ $rest != *';'* && -n $rest ]] || {
				echo "$file:$n: a load is one line of parameters" >&2
				return 1
			}
			loads+=("$rest")
			;;
		tests) lane_env+=("AVC_RCU_TESTS=$rest") ;;
		once) lane_env+=("AVC_RCU_ONCE_TESTS=$rest") ;;
		wrap) lane_env+=("AVC_RCU_WRAP_TESTS=$rest") ;;
		env)
			read -r -a vars <<<"$rest"
			for v in "${vars[@]}"; do
				[[ $v =~ ^AVC_[A-Z0-9_]+=[^\ ]*$ ]] || {
					echo "$file:$n: not AVC_...=VALUE: $v" >&2
					return 1
				}
				lane_env+=("$v")
			done
			;;
		*)
			echo "$file:$n: unknown key: $key" >&2
			return 1
			;;
		esac
	done <"$file"
	if ((${#loads[@]})); then
		local IFS=';'
		lane_env=("AVC_RCU_LOADS=${loads[*]}" "${lane_env[@]}")
	fi
	[[ -n $lane_title ]] || { echo "$file: no title" >&2; return 1; }
	[[ $lane_kernel =~ ^(stock|debug|kcsan|linux-image-[a-z0-9.-]+)$ ]] || {
		echo "$file: kernel: not stock, debug, kcsan or linux-image-...:" \
			"'$lane_kernel'" >&2
		return 1
	}
	[[ $lane_cpus =~ ^[1-9][0-9]*$ ]] || {
		echo "$file: cpus: not a positive number: '$lane_cpus'" >&2
		return 1
	}
}

# lane_list [LIST]: the lanes named in LIST (CFLIST by default), one a
# line, comments and blank lines left out.
lane_list() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${1:-$lanes_dir/CFLIST}"
}

lanes_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
