#!/usr/bin/env bash
# Makes the snarkjs fixture that service/vault/zk's tests verify with the project's Go verifier:
# verification_key.json, proof.json and public.json, all written by the npm snarkjs package
# from fixture.circom (compiled by circom2, the WebAssembly build of circom) and input.json.
# The setup is a throwaway single-party one. Run from anywhere:
#   bash service/vault/zk/testdata/snarkjs/make-fixture.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=node_modules/.bin

$bin/circom2 fixture.circom --r1cs --wasm -o "$work"
$bin/snarkjs powersoftau new bn128 8 "$work/pot0.ptau"
$bin/snarkjs powersoftau contribute "$work/pot0.ptau" "$work/pot1.ptau" --name=vaultd -e="vaultd fixture entropy"
$bin/snarkjs powersoftau prepare phase2 "$work/pot1.ptau" "$work/pot.ptau"
$bin/snarkjs groth16 setup "$work/fixture.r1cs" "$work/pot.ptau" "$work/fixture0.zkey"
$bin/snarkjs zkey contribute "$work/fixture0.zkey" "$work/fixture.zkey" --name=vaultd -e="vaultd fixture zkey entropy"
$bin/snarkjs zkey export verificationkey "$work/fixture.zkey" verification_key.json
$bin/snarkjs wtns calculate "$work/fixture_js/fixture.wasm" input.json "$work/witness.wtns"
$bin/snarkjs groth16 prove "$work/fixture.zkey" "$work/witness.wtns" proof.json public.json
$bin/snarkjs groth16 verify verification_key.json public.json proof.json
