# Shell helpers the .ci scripts share (sourced, not run).

# free_port FROM: the first loopback port from FROM on that nothing answers on.
free_port() {
  local p
  for p in $(seq "$1" $(($1 + 200))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo "no free port from $1" >&2
  return 1
}
