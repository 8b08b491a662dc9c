# Sourced by the scripts in bin/ (not run): a script's --help is the comment block at its top.

# usage FILE: prints FILE's leading comment block (after the #! line), without the "# " prefix.
usage() {
  awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
}

# help_if_asked FILE ARGS...: prints the usage and exits 0 when -h or --help is among ARGS.
help_if_asked() {
  local file="$1" a
  shift
  for a in "$@"; do
    if [[ "$a" == -h || "$a" == --help ]]; then
      usage "$file"
      exit 0
    fi
  done
}
