// Builds the prover's assets into dist/assets (never committed): the wasm from cmd/proverwasm,
// Go's wasm_exec.js from the toolchain that built it, and the dev keys (gen/zk/devkeys).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const out = join(root, "web/client/dist/assets");
mkdirSync(out, { recursive: true });
execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", join(out, "prover.wasm"), "./cmd/proverwasm"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, GOOS: "js", GOARCH: "wasm" },
});
const goroot = execFileSync("go", ["env", "GOROOT"], { cwd: root }).toString().trim();
copyFileSync(join(goroot, "lib/wasm/wasm_exec.js"), join(out, "wasm_exec.js"));
for (const f of ["reveal.pk", "reveal.vk", "verification_key.json"]) copyFileSync(join(root, "gen/zk/devkeys", f), join(out, f));
console.log(`prover assets in ${out}`);
