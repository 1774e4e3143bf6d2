# bash completion for h2emv (installed as
# share/bash-completion/completions/h2emv; or `source` this file).
# Commands and each command's options are read from `h2emv --help` and
# `h2emv COMMAND --help` of the very program being completed, so they never
# fall behind it; values that name files, formats and policies are offered
# as such.
_h2emv()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local prog=${COMP_WORDS[0]} cmd="" at=0 i
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--policy | --llm-config) ((i++)) ;;
		-*) ;;
		*)
			cmd=${COMP_WORDS[i]} at=$i
			break
			;;
		esac
	done
	case $prev in
	--policy)
		COMPREPLY=($(compgen -W "builtin llm" -- "$cur"))
		return
		;;
	-f | --format)
		COMPREPLY=($(compgen -W "json dot html jsonl" -- "$cur"))
		return
		;;
	-m | --mem | -d | --dir | --backup)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-o | --output | --llm-config | --token-file | --mapping)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	esac
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--read-only --policy --llm-config --help" -- "$cur"))
		else
			local cmds
			cmds=$("$prog" --help 2>/dev/null |
				sed -n '/^commands:/,/^exit status/s/^  \([a-z][a-z-]*\)  .*/\1/p')
			COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		local opts
		opts=$("$prog" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
		return
	fi
	if ((COMP_CWORD == at + 1)); then
		local sub=""
		case $cmd in
		import) sub="teach armar rosbag" ;;
		rules) sub="list history diff revert" ;;
		snapshots) sub="list pin unpin" ;;
		profile) sub="show set list print" ;;
		llm) sub="ping" ;;
		esac
		if [[ -n $sub ]]; then
			COMPREPLY=($(compgen -W "$sub" -- "$cur"))
			return
		fi
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _h2emv h2emv
