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
# under $VAULTD_CI_CACHE (default ~/.cache/vaultd-ci), keyed by Node's and npm's versions, the
# lockfile and the package.json files (DIR's and those of its file: dependencies: npm ci refuses
# a package.json out of step with the lockfile, and a cached copy must not let one pass), and
# copied in on the next run: npm ci unpacks and checks every package, 15-20 s of CPU a project on
# a 2-core machine where the lanes already use every core, against about 1 s for a copy. The
# copy is a whole one, not links: nothing a run writes under node_modules reaches the cache.
# Without a copy (a fresh machine, another lockfile), npm ci runs and its result is kept, the
# directory's older copy dropped, under a lock; failing to keep it fails nothing.
npm_ci() {
  local dir=$1 key cache tmp
  cache="${VAULTD_CI_CACHE:-$HOME/.cache/vaultd-ci}/node_modules/${dir//\//-}"
  key=$( (node --version && npm --version && cat "$dir/package-lock.json" "$dir/package.json" &&
    node -e 'const d = require(require("path").resolve(process.argv[1], "package.json")).dependencies ?? {};
      for (const v of Object.values(d)) if (String(v).startsWith("file:")) console.log(require("path").join(process.argv[1], v.slice(5), "package.json"))' "$dir" |
      xargs -r cat) | sha256sum | cut -c1-16)
  rm -rf "$dir/node_modules"
  if [ -f "$cache/$key/complete" ] && cp -a "$cache/$key/node_modules" "$dir/"; then
    return
  fi
  rm -rf "$dir/node_modules"
  npm --prefix "$dir" ci --no-audit --no-fund --loglevel=error
  mkdir -p "$cache" && tmp=$(mktemp -d "$cache/.new.XXXXXX") || return 0
  if cp -a "$dir/node_modules" "$tmp/" && touch "$tmp/complete"; then
    # Another run's copy may land at once: the prune and the rename under one lock. Copies left
    # by a run killed mid-copy are dropped once an hour old.
    flock "$cache/.lock" sh -c 'find "$1" -mindepth 1 -maxdepth 1 ! -name ".new.*" ! -name .lock -exec rm -rf {} +;
      find "$1" -mindepth 1 -maxdepth 1 -name ".new.*" -mmin +60 -exec rm -rf {} +;
      [ -e "$1/$2" ] || mv "$3" "$1/$2"' sh "$cache" "$key" "$tmp" || true
  fi
  rm -rf "$tmp"
  return 0
}
