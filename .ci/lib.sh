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
  npm_ci web/client
  (cd web/client && npm run --silent build >/dev/null)
}

# npm_ci DIR: DIR/node_modules as `npm ci` installs it from DIR/package-lock.json. A copy is kept
# per lockfile and Node version under $VAULTD_CI_CACHE (default ~/.cache/vaultd-ci) and copied in
# on the next run: npm ci unpacks and checks every package, 15-20 s of CPU a project on a 2-core
# machine where the lanes already use every core, against about 1 s for a copy. The copy is a
# whole one, not links: nothing a run writes under node_modules reaches the cache. Without a
# copy (a fresh machine, another lockfile), npm ci runs and its result is kept, the directory's
# older copy dropped; failing to keep it fails nothing.
npm_ci() {
  local dir=$1 key cache tmp
  cache="${VAULTD_CI_CACHE:-$HOME/.cache/vaultd-ci}/node_modules/${dir//\//-}"
  key=$( (node --version && cat "$dir/package-lock.json") | sha256sum | cut -c1-16)
  rm -rf "$dir/node_modules"
  if [ -f "$cache/$key/complete" ] && cp -a "$cache/$key/node_modules" "$dir/"; then
    return
  fi
  rm -rf "$dir/node_modules"
  npm --prefix "$dir" ci --no-audit --no-fund --loglevel=error
  tmp="$cache/.new.$$"
  if mkdir -p "$tmp" && cp -a "$dir/node_modules" "$tmp/" && touch "$tmp/complete"; then
    find "$cache" -mindepth 1 -maxdepth 1 ! -name ".new.*" -exec rm -rf {} +
    mv "$tmp" "$cache/$key" 2>/dev/null || rm -rf "$tmp"
  else
    rm -rf "$tmp"
  fi
  return 0
}
