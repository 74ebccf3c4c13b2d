// What a share's work costs, section by section, in the module of points.ts (service/vault/zk/
// pointwasm) and in the Go wasm alone, from the built package (npm run build), in one runtime in
// Node: the whole dev key fed to a share (the G1 points' square roots, G2's read), then per proof
// the witness and h, each section's multi-scalar multiplication and the proof's end. Prints, per
// round, wall times in ms; rounds alternate between the two, rounds times each.
//   node scripts/shares.mjs [rounds]
import { readFileSync } from "node:fs";
import { files } from "../dist/pinned.gen.js";
import { pointModule, withPointModule } from "../dist/points.js";

const rounds = Number(process.argv[2] ?? 2);
const assets = new URL("../dist/assets/", import.meta.url);
const read = (name) => readFileSync(new URL(files[name], assets));
await import(new URL(files.wasmExec, assets).href); // defines globalThis.Go
const go = new globalThis.Go();
void go.run((await WebAssembly.instantiate(read("wasm"), go.importObject)).instance);
const ok = (s) => {
  const v = JSON.parse(s);
  if (v.error) throw new Error(v.error);
  return v;
};
const names = { 1: "A", 2: "B1", 3: "B2", 4: "K", 5: "Z" };
const key = read("sectionedKey");
const module = withPointModule(globalThis.vaultdProver, await pointModule());
for (let r = 0; r < 2 * rounds; r++) {
  const [name, raw] = r % 2 ? ["module", module] : ["go", globalThis.vaultdProver];
  const { layout } = ok(raw.keyLayout(key));
  const note = ok(raw.newNote(JSON.stringify({ chainId: 1337, vault: "0x" + "11".repeat(20), token: "0x" + "22".repeat(20), amount: "1000" })));
  const input = { card: note.card, leaves: ["0x1", note.leaf, "0x2"], recipient: "0x2222222222222222222222222222222222222222" };
  const share = ok(raw.shareStart(JSON.stringify(layout))).share;
  let t = performance.now();
  const ms = () => Math.round(performance.now() - t);
  for (const s of layout.sections) ok(raw.shareFeed(share, s.section, 0, key.subarray(s.offset, s.offset + s.count * s.pointSize)));
  const times = { feed: ms() };
  t = performance.now();
  const h = ok(raw.proveStreaming(JSON.stringify(input))).handle;
  ok(raw.layout(h, key));
  ok(raw.shareScalars(share, raw.scalars(h)));
  times.witness = ms();
  for (const s of layout.sections) {
    t = performance.now();
    ok(raw.shareFlush(share, s.section));
    times[names[s.section]] = ms();
  }
  t = performance.now();
  ok(raw.addSums(h, raw.shareSums(share)));
  ok(raw.finish(h));
  times.finish = ms();
  ok(raw.shareDrop(share));
  console.log(name.padEnd(6), JSON.stringify(times));
}
process.exit(0);
