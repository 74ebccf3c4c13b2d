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

# commands DIR PACKAGE...: builds the commands into DIR and prints DIR; under .ci/run, which sets
# VAULTD_CI_BIN, into that directory instead and prints it. The lanes share it, one build at a
# time under its lock: go build leaves a binary that is up to date as it is, so each command is
# linked once a run rather than once a script (a link of devstack is ~10 s of CPU).
commands() {
  local dir=$1
  shift
  if [ -n "${VAULTD_CI_BIN:-}" ]; then
    dir=$VAULTD_CI_BIN
    flock "$dir/.lock" go build -o "$dir/" "$@" >&2
  else
    mkdir -p "$dir"
    go build -o "$dir/" "$@" >&2
  fi
  echo "$dir"
}

# client: installs and builds @vaultd/client (web/client: the wasm prover, its assets, the
# types); once a run under .ci/run, whose journeys lane builds it for the scripts it runs and
# sets VAULTD_CI_CLIENT.
client() {
  [ -n "${VAULTD_CI_CLIENT:-}" ] && return
  (cd web/client && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build >/dev/null)
}
