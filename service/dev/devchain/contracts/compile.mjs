// Compiles every .sol file beside this script with the npm solc package through standard JSON
// (the solcjs CLI cannot set the EVM version) and writes gen/contracts/combined.json in the
// solc combined-json layout (what `abigen --combined-json` reads, and internal/genbindings). Output is deterministic: sorted keys,
// no metadata hash, so a rebuild from the same sources gives the same bytes.
//
// Run: npm --prefix service/dev/devchain/contracts ci && node service/dev/devchain/contracts/compile.mjs
// Then: go generate ./service/dev/devchain   (the v2 bindings from combined.json)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, "../../../../gen/contracts/combined.json");

const sources = {};
for (const file of fs.readdirSync(here).filter((f) => f.endsWith(".sol")).sort()) {
  sources[file] = { content: fs.readFileSync(path.join(here, file), "utf8") };
}

const input = {
  language: "Solidity",
  sources,
  settings: {
    evmVersion: "cancun",
    // Optimized for calls, not for the deployment: with runs at 200 the Poseidon libraries
    // cost 29,336 gas a hash (T3) instead of 18,229, a third of every commit (cmd/gasbench).
    // PoseidonT3's code is then 23,522 bytes, under EIP-170's 24,576 (TestContractsFitEIP170).
    optimizer: { enabled: true, runs: 1000000 },
    viaIR: false,
    metadata: { bytecodeHash: "none", appendCBOR: false },
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  },
};

// Imports of npm packages (poseidon-solidity) resolve to node_modules beside this script.
function findImports(importPath) {
  const file = path.join(here, "node_modules", importPath);
  if (!file.startsWith(path.join(here, "node_modules") + path.sep) || !fs.existsSync(file)) return { error: `not found: ${importPath}` };
  return { contents: fs.readFileSync(file, "utf8") };
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const problems = (output.errors || []).filter((e) => e.severity === "error");
for (const e of output.errors || []) console.error(e.formattedMessage);
if (problems.length > 0) process.exit(1);

const contracts = {};
for (const file of Object.keys(output.contracts).sort()) {
  for (const name of Object.keys(output.contracts[file]).sort()) {
    const c = output.contracts[file][name];
    // Abstract contracts (the vault's bases, CommitmentTree and NullifierRegistry) deploy
    // nothing: their functions and events are in the vault's ABI.
    if (c.evm.bytecode.object === "") continue;
    contracts[`${file}:${name}`] = {
      abi: c.abi,
      bin: c.evm.bytecode.object,
      "bin-runtime": c.evm.deployedBytecode.object,
    };
  }
}

const sortKeys = (v) =>
  Array.isArray(v) ? v.map(sortKeys)
  : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]))
  : v;

fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(sortKeys({ contracts, version: solc.version() }), null, 1) + "\n");
console.log(`wrote ${path.relative(process.cwd(), out)} (${Object.keys(contracts).length} contracts)`);
