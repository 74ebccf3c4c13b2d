// The redeem journey as a phone lives it: headless Chromium (Debian's) with DevTools' "Fast 4G"
// network (9 Mbps × 0.9 down, 1.5 Mbps × 0.9 up, 165 ms latency; or "Slow 4G", 1.6 Mbps × 0.9
// down, 750 kbps × 0.9 up, 562.5 ms, as a one-off) and a phone's CPU, against a running
// devstack. The CPU: the whole browser, its Workers (where the proof runs) included, in a cgroup
// v1 `cpu` group of half a core (cpu.cfs_quota_us: a 2-core phone with each core at a quarter
// of this machine's; a thread alone may use the whole half core), made here (as root) and
// removed after, Chromium started into it by a wrapper script; the dev stack and this process
// stay outside. Where no group can be made (not root, no cpu controller) that fails under CI
// (CI=true); elsewhere the test says so loudly and throttles with CDP only. Beside it, the same
// visits in a browser outside the group with CDP's Emulation.setCPUThrottlingRate (4×), which
// slows the page's own thread only, not its Workers (a worker's target refuses it: "only
// supported for pages"): the figure the phone test gave before, named as what it is.
// A card made by `card create` is opened by its link, redeemed to a wallet made in the page; then
// a second card in the same browser (its caches kept: the same phone, another card). Prints, per
// visit, the time from opening the link to tokens received, to the wallet step shown, to Redeem
// possible (the prover started: its proving key arrives behind it, proved while it does), the
// proof's time after Redeem (the page begins it once the wallet is made and the prover started,
// before Redeem: fails if it did not) and when the key's last byte came (from Redeem), the bytes
// fetched over the wire before the first proof was ready (the encoded sizes of every response
// the page and its worker had received by then), and a timeline of the journey from opening the
// link: the prover's files fetched, the key's points decoded, the witness, each MSM (a section
// of the key multiplied), the proof, the request sent to the relayer, the transaction mined (its
// block first seen by polling the chain) and the page confirming; in the cgroup, where the
// visit's CPU went, by kind of Chromium thread (the Workers, the page's thread, V8's background
// compiles, the network's), against what the half core allowed, in all and between the
// journey's moments (PHONE_PHASE_KINDS: how many kinds a line, 4). With PHONE_PERSON=1 (not in
// CI: a third first visit, a fifth of the test's time), in the first run, a third card, on a
// first visit (nothing cached), whose wallet's key the person takes 4 s to save: how long they
// wait after Redeem. Fails if a redeem does not complete, if the prover's assets are
// not served compressed and cacheable for ever, if the page did not report the prover's load or
// the proof's MSMs, if the second visit requests the prover again (it comes from Cache Storage),
// or if a cached copy changed is used instead of fetched again.
// PHONE_READS_CARD_MS (with PHONE_PERSON=1) has the person of that third visit read
// the card that long before making a wallet: the prover, idle meanwhile, warms up (Prover.load's
// warmUpAfterMs), and the timeline says whether the proof found it warm. PHONE_REQUESTS=1
// prints each visit's requests, sent and finished. To see inside a visit in the cgroup (each
// costs CPU of its own, so the figures are not comparable): PHONE_PROFILE=<dir> writes V8's CPU
// profile of the page and of each worker for each such visit (<visit>-<target>.cpuprofile,
// sampled every 0.5 ms), PHONE_TRACE=<file> a Chrome trace of the first one.
//   node test/phone.mjs <devnet.json> <registry> <relayer> <faucet> <indexer> <card binary> [runs] [fast4g|slow4g]
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { PredefinedNetworkConditions } from "puppeteer-core";
import { serve } from "../serve.mjs";

const [devnet, registry, relayer, faucet, indexer, cardTool, runsArg = "1", networkArg = "fast4g"] = process.argv.slice(2);
const m = JSON.parse(readFileSync(devnet, "utf8"));
const token = m.tokens[0];
// DevTools' presets (puppeteer's copy of them: throughput in bytes a second) and its CPU
// slowdown for a phone.
const presets = { fast4g: "Fast 4G", slow4g: "Slow 4G" };
if (!presets[networkArg]) throw new Error(`network ${networkArg}: want fast4g or slow4g`);
const preset = PredefinedNetworkConditions[presets[networkArg]];
const network = { offline: false, latency: preset.latency, downloadThroughput: preset.download, uploadThroughput: preset.upload };
const cpuSlowdown = 4;
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
// The two ways the CPU is slowed, as the output names them.
const wholeBrowser = `${presets[networkArg]}, the whole browser at half a core (cgroup: a 2-core phone at a quarter each, Workers included)`;
const pageOnly = `${presets[networkArg]}, CDP's CPU ${cpuSlowdown}× on the page's thread only (its Workers not slowed)`;

const site = await serve({ devnet, registry, relayer, faucet, indexer });
const redeemUrl = new URL("redeem", site.url).href;
const newCard = () =>
  execFileSync(cardTool, ["create", "--devnet", devnet, "--token", token.address, "--amount", (10n ** BigInt(token.decimals)).toString(), "--url", redeemUrl], { encoding: "utf8" }).trim();

// watch records the bytes of each response a target (the page, or its worker) finished
// receiving, with when (ms since the epoch, by the browser's clock: the event's own timestamp, not
// when it reached this process, which may be after the page's proof was done), by request (a
// worker's may be reported by both), and the URL of each request made (from the HTTP cache too).
const watch = async (session, finished, urls) => {
  const urlOf = new Map();
  const fromOf = new Map();
  let epochOf; // the browser's monotonic timestamps (s) to ms since the epoch, from a request's wallTime
  session.on("Network.loadingFinished", (e) => finished.set(e.requestId, { at: epochOf ? epochOf(e.timestamp) : Date.now(), bytes: e.encodedDataLength, url: urlOf.get(e.requestId), from: fromOf.get(e.requestId) }));
  // A response the page stopped reading (the key's, where its raw tail takes its end's place):
  // the bytes it had received by then.
  const partial = new Map();
  session.on("Network.dataReceived", (e) => partial.set(e.requestId, (partial.get(e.requestId) ?? 0) + e.encodedDataLength));
  session.on("Network.loadingFailed", (e) => {
    if (partial.has(e.requestId)) finished.set(e.requestId, { at: epochOf ? epochOf(e.timestamp) : Date.now(), bytes: partial.get(e.requestId), url: urlOf.get(e.requestId), from: fromOf.get(e.requestId), stopped: true });
  });
  session.on("Network.requestWillBeSent", (e) => {
    urls.add(e.request.url);
    urlOf.set(e.requestId, e.request.url);
    fromOf.set(e.requestId, e.wallTime * 1000);
    if (e.wallTime && !epochOf) {
      const offset = e.wallTime * 1000 - e.timestamp * 1000;
      epochOf = (t) => t * 1000 + offset;
    }
  });
  await session.send("Network.enable");
};
const proverAsset = /\/assets\/(prover|reveal(\.tail)?|wasm_exec)\.[0-9a-f]{16}\./;
// throttle gives the page a phone's network, which holds for its dedicated worker's requests
// too (a worker's target refuses them: "Not supported"), and with cdpCpu DevTools' CPU throttling,
// which does not reach the worker (issue 32).
const throttle = async (session, cdpCpu) => {
  await session.send("Network.emulateNetworkConditions", network);
  if (cdpCpu) await session.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
};

// cpuGroup makes a cgroup v1 `cpu` group of half a core (50 ms of CPU every 100 ms, shared by
// its threads) and a wrapper that starts Chromium in it; answers {executablePath, stat, remove}
// or {why} it could not.
const cpuGroup = () => {
  const dir = `/sys/fs/cgroup/cpu/vaultd-phone-${process.pid}`;
  try {
    mkdirSync(dir);
  } catch (e) {
    return { why: `no cgroup v1 cpu group could be made (${e.code ?? e.message}: not root, or no cpu controller at /sys/fs/cgroup/cpu)` };
  }
  const bin = mkdtempSync(join(tmpdir(), "vaultd-phone-"));
  const remove = async () => {
    rmSync(bin, { recursive: true, force: true });
    // Chromium's processes may take a moment to end after the browser closes; any left (ours:
    // the group holds only what the wrapper started) are ended, by their ids.
    for (let i = 0; i < 50; i++) {
      try {
        rmdirSync(dir);
        return;
      } catch (e) {
        if (e.code === "ENOENT") return;
        if (i === 30) for (const pid of readFileSync(`${dir}/cgroup.procs`, "utf8").split("\n").filter(Boolean)) try { process.kill(Number(pid), "SIGKILL"); } catch {}
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    console.error(`could not remove ${dir}: processes still in it`);
  };
  try {
    writeFileSync(`${dir}/cpu.cfs_period_us`, "100000");
    writeFileSync(`${dir}/cpu.cfs_quota_us`, "50000");
    const executablePath = join(bin, "chromium");
    writeFileSync(executablePath, `#!/bin/sh\nset -e\necho $$ > ${dir}/cgroup.procs\nexec '${chromium}' "$@"\n`, { mode: 0o755 });
    // nr_periods, nr_throttled, throttled_time (ns): how often the group was held back.
    const stat = () => Object.fromEntries(readFileSync(`${dir}/cpu.stat`, "utf8").trim().split("\n").map((l) => l.split(" ")).map(([k, v]) => [k, Number(v)]));
    const holds = (pid) => readFileSync(`${dir}/cgroup.procs`, "utf8").split("\n").includes(String(pid));
    return { dir, executablePath, stat, holds, remove };
  } catch (e) {
    void remove();
    return { why: `the cgroup's limits could not be set: ${e.message}` };
  }
};

// threadsOf samples, every 100 ms until stopped, the CPU time of every thread in the cgroup at
// dir (its tasks): stop() answers the CPU each kind of thread used in between, in ms, by the
// Chromium process it belongs to (browser, renderer, gpu-process, utility: the network service)
// and the thread's name as the kernel keeps it, cut to 15 characters (the renderer's main
// thread, the page's, is named after the process; DedicatedWorker: a Web Worker;
// ThreadPoolForeg: Chromium's thread pool, where V8 compiles and collects in the background). A
// thread that ended is counted to its last sample, one that lived less than 100 ms not at all.
const threadsOf = (dir) => {
  const tick = 1000 / 100; // ms a clock tick (USER_HZ)
  const seen = new Map(); // tid → {kind, stat (its file), first, last}
  const history = []; // {at (ms since the epoch), by (the CPU by kind until then)}, a sample each
  const sample = (initial) => {
    let tasks;
    try {
      tasks = readFileSync(`${dir}/tasks`, "utf8");
    } catch {
      return; // the group removed: a visit that failed, its browser gone
    }
    for (const tid of tasks.split("\n").filter(Boolean)) {
      try {
        let t = seen.get(tid);
        if (!t) {
          const tgid = readFileSync(`/proc/${tid}/status`, "utf8").match(/^Tgid:\s+(\d+)/m)[1];
          const type = readFileSync(`/proc/${tgid}/cmdline`, "utf8").match(/--type=([a-z-]+)/)?.[1] ?? "browser";
          t = { type, stat: `/proc/${tgid}/task/${tid}/stat` }; // the thread's own (/proc/<tid>/stat is its process's)
        }
        const stat = readFileSync(t.stat, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // from field 3 (state) on
        const cpu = (Number(fields[11]) + Number(fields[12])) * tick; // utime + stime
        if (seen.has(tid)) t.last = cpu;
        else seen.set(tid, { ...t, kind: `${t.type} ${name}`, first: initial ? cpu : 0, last: cpu });
      } catch {} // the thread ended between the listing and its reading
    }
    history.push({ at: Date.now(), by: since() });
  };
  sample(true);
  const timer = setInterval(() => sample(false), 100);
  timer.unref(); // a visit that fails before stop() leaves nothing running
  function since() {
    const by = {};
    for (const t of seen.values()) if (t.last > t.first) by[t.kind] = (by[t.kind] ?? 0) + t.last - t.first;
    return by;
  }
  // at: the CPU by kind until the last sample at or before t (ms since the epoch).
  const at = (t) => history.findLast((h) => h.at <= t)?.by ?? {};
  return {
    stop: () => {
      clearInterval(timer);
      sample(false);
      return history.at(-1).by;
    },
    // between: the CPU by kind from t0 to t1 (ms since the epoch), to the samples' 100 ms.
    between: (t0, t1) => {
      const [a, b] = [at(t0), at(t1)];
      return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v - (a[k] ?? 0)]).filter(([, v]) => v > 0));
    },
  };
};

// rpc calls the dev chain.
const rpc = async (method, params = []) => {
  const r = await (await fetch(m.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json();
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};

// blocks watches the chain's head from outside the browser while page is open: when each block
// was first seen (ms since the epoch; polled every 100 ms, every 20 ms while fast() says a
// transaction is awaited), to tell when a transaction was mined.
const blocks = (page, fast) => {
  const seen = new Map();
  let stopped = false;
  const polling = (async () => {
    while (!stopped && !page.isClosed()) {
      const n = await rpc("eth_blockNumber").catch(() => undefined);
      if (n !== undefined && !seen.has(Number(n))) seen.set(Number(n), Date.now());
      await new Promise((r) => setTimeout(r, fast() ? 20 : 100));
    }
  })();
  return { seen, stop: () => ((stopped = true), polling) };
};

// visit opens a card's link on a throttled phone page, makes a wallet, redeems; answers its figures.
// savesKeyInMs: how long the person takes to save the new wallet's key (the first tap on "I saved
// the key" waits that long after the wallet is shown); 0: a tap at once.
// cdpCpu: DevTools' CPU throttling on the page's thread (a browser outside the cgroup).
let visits = 0; // for PHONE_PROFILE's file names
const visit = async (browser, link, { savesKeyInMs = 0, readsCardInMs = 0, cdpCpu = false, cgroup } = {}) => {
  const page = await browser.newPage();
  const finished = new Map();
  const urls = new Set();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const session = await page.createCDPSession();
  await watch(session, finished, urls);
  let revealSentAt; // the POST /reveal's wall time (the page's own request)
  session.on("Network.requestWillBeSent", (e) => {
    if (e.request.method === "POST" && new URL(e.request.url).pathname.endsWith("/reveal")) revealSentAt ??= e.wallTime * 1000;
  });
  await throttle(session, cdpCpu);
  const profiling = process.env.PHONE_PROFILE && cgroup ? [] : undefined;
  const profile = (name, s) => {
    profiling.push([name, s]);
    return s.send("Profiler.enable").then(() => s.send("Profiler.setSamplingInterval", { interval: 500 })).then(() => s.send("Profiler.start"));
  };
  if (profiling) await profile("page", session);
  page.on("workercreated", (w) => {
    watch(w.client, finished, urls).catch((e) => errors.push(`watching the worker: ${e}`));
    if (profiling) profile(`worker${profiling.length}`, w.client).catch((e) => errors.push(`profiling the worker: ${e}`));
  });
  const chain = blocks(page, () => revealSentAt !== undefined);
  const threads = cgroup && threadsOf(cgroup);
  const tracing = process.env.PHONE_TRACE && cgroup && !visits;
  if (tracing) await page.tracing.start({ path: process.env.PHONE_TRACE, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "toplevel"] });
  const opened = Date.now();
  await page.goto(link, { waitUntil: "load" });
  // As a person would: the wallet step as soon as the page shows it, Redeem as soon as it is possible.
  await page.waitForFunction(() => !document.querySelector("#redeem-form").hidden || document.body.dataset.state === "refused", { timeout: 120_000, polling: 100 });
  const formAt = Date.now();
  await new Promise((r) => setTimeout(r, readsCardInMs));
  if ((await page.evaluate(() => document.body.dataset.state)) === "refused") throw new Error(`the redeem page refused the card: ${await page.$eval("#problem", (p) => p.textContent)}`);
  // The form may show before its buttons' handlers are set (the registry's refused addresses are
  // read in between): tap again until the wallet shows.
  for (let i = 0; !(await page.$eval("#new-wallet", (w) => !w.hidden)); i++) {
    if (i === 300) throw new Error("making a wallet showed nothing");
    await page.tap("#make-wallet");
    await new Promise((r) => setTimeout(r, 200));
  }
  // "I saved the key", ticked again if a tap on "Make a wallet" that landed late made another
  // wallet (which unticks it), or if a tap did not tick it (one landed while the page moved the
  // box), as a person would; then Redeem once possible.
  for (let i = 0, tickedFor = 0, tappedAt = 0, walletAt = 0; ; i++) {
    const seen = await page.evaluate(() => ({ ready: !document.querySelector("#redeem").disabled || document.body.dataset.state === "refused", saved: document.querySelector("#saved").checked, making: document.querySelector("#make-wallet").disabled, state: document.body.dataset.state, journey: window.journey }));
    if (seen.ready) break;
    if (i === 1200) throw new Error(`Redeem not possible within 2 minutes: ${JSON.stringify(seen)}`);
    // Once a wallet, or again 3 s after a tap that left it unticked (a tap on the box toggles it,
    // and the throttled page's thread may be slow to show it: not sooner).
    const wallets = seen.journey?.walletsMade ?? 0;
    if (wallets > 0) walletAt ||= Date.now();
    const saving = wallets > 0 && Date.now() - walletAt < savesKeyInMs;
    if (!saving && !seen.saved && !seen.making && (wallets > tickedFor || (wallets > 0 && Date.now() - tappedAt > 3000))) {
      tickedFor = wallets;
      tappedAt = Date.now();
      await page.tap("#saved");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const readyAt = Date.now();
  if ((await page.evaluate(() => document.body.dataset.state)) !== "ready") throw new Error(`the redeem page is not ready: ${await page.$eval("#problem", (p) => p.textContent)}`);
  await page.tap("#redeem");
  await page.waitForFunction(() => document.body.dataset.state === "done" || document.querySelector("#progress")?.textContent.startsWith("It did not"), { timeout: 180_000, polling: 100 });
  const received = Date.now();
  if (tracing) await page.tracing.stop();
  if (profiling) {
    mkdirSync(process.env.PHONE_PROFILE, { recursive: true });
    for (const [name, s] of profiling) {
      const { profile: p } = await s.send("Profiler.stop").catch(() => ({}));
      if (p) writeFileSync(join(process.env.PHONE_PROFILE, `${visits}-${name}.cpuprofile`), JSON.stringify(p));
    }
  }
  visits++;
  if (process.env.PHONE_REQUESTS) for (const f of [...finished.values()].sort((a, b) => a.from - b.from)) console.log(`  request ${f.from === undefined ? "?" : Math.round(f.from - opened)}..${Math.round(f.at - opened)} ms ${f.bytes} B ${f.url?.slice(0, 90)}`);
  const cpuByThread = threads?.stop();
  await chain.stop();
  const j = await page.evaluate(() => ({ ...window.journey, state: document.body.dataset.state, origin: performance.timeOrigin }));
  if (j.state !== "done") throw new Error(`the redeem ended ${j.state}: ${j.error ?? ""}`);
  if (errors.length) throw new Error(`errors in the page:\n${errors.join("\n")}`);
  const proofAt = j.origin + j.proofStartedMs;
  const proofReadyAt = proofAt + j.proofMs;
  const bytesBy = (t) => [...finished.values()].filter((f) => f.at <= t).reduce((s, f) => s + f.bytes, 0);
  // The key's request, and its last byte: its raw tail's, if it came (the key's own request then
  // stopped where the tail begins).
  const keyAsked = [...finished.values()].find((f) => /\/reveal\.[0-9a-f]{16}\.pks$/.test(f.url ?? ""));
  const key = [...finished.values()].find((f) => !f.stopped && /\/reveal\.tail\.[0-9a-f]{16}\.pks$/.test(f.url ?? "")) ?? keyAsked;
  const wasm = [...finished.values()].find((f) => /\/prover\.[0-9a-f]{16}\.wasm$/.test(f.url ?? ""));
  const receipt = j.txHash ? await rpc("eth_getTransactionReceipt", [j.txHash]) : undefined;
  // The key's points, kept decoded for the next card after the first proof, are written while
  // the person reads "received"; a page closed before leaves the next visit to decode them again.
  await page.waitForFunction(() => window.journey.pointsKept !== undefined, { timeout: 60_000, polling: 100 }).catch(() => {});
  Object.assign(j, await page.evaluate(() => ({ pointsKept: window.journey.pointsKept, pointsKeptMs: window.journey.pointsKeptMs })));
  await page.close();
  // The journey's moments, in ms from opening the link (those that did not happen: absent).
  const from = (t) => (t === undefined || Number.isNaN(t) ? undefined : Math.round(t - opened));
  const began = proofAt - (j.provedAheadMs ?? 0); // the proof the page used: begun before Redeem, or on it
  const stage = (name) => (j.proofAt?.[name] === undefined ? undefined : from(began + j.proofAt[name]));
  const moments = [
    ["the wallet step shown", from(formAt)],
    [`the prover's wasm fetched (${wasm ? mb(wasm.bytes) : ""})`, wasm && from(wasm.at)],
    ["the key asked for (its request sent)", keyAsked && from(keyAsked.from)],
    ["the prover ready", j.loadAt?.ready === undefined ? undefined : from(j.origin + j.loadAt.ready)],
    [`bytes fetched: the key's last (${mb(bytesBy(proofReadyAt))} over the wire by the proof's end)`, key && from(key.at)],
    [j.keyPoints === "stored" ? "the key's points copied to the workers, decoded (kept from the first visit)" : "the key's points decoded", from(j.keyDecodedAt)],
    [`the proof begun${j.proofWarm ? " (the runtime warm: it had solved a witness before)" : ""}`, from(began)],
    ["the witness solved (and h)", stage("proving")],
    ...Object.keys(j.proofAt ?? {}).filter((k) => k.startsWith("MSM ")).map((k) => [`${k} done`, stage(k)]),
    ["the proof done", stage("done")],
    ["Redeem tapped", from(readyAt)],
    ["the request sent (POST /reveal)", from(revealSentAt)],
    [`the transaction mined (block ${receipt ? Number(receipt.blockNumber) : "?"} first seen)`, receipt && from(chain.seen.get(Number(receipt.blockNumber)))],
    ["the page confirmed (tokens received)", j.receivedMs === undefined ? undefined : from(j.origin + j.receivedMs)],
    [j.keyPoints === "stored" ? "the key's points known kept (read from Cache Storage)" : `the key's points ${j.pointsKept ? "kept decoded in Cache Storage" : "NOT kept"} for the next card`, j.pointsKeptMs === undefined ? undefined : from(j.origin + j.pointsKeptMs)],
  ].filter(([, t]) => t !== undefined);
  // The CPU between the journey's main moments (those the visit had, in their order).
  const marks = [["opening the link", 0], ...moments.filter(([what]) => /^(the prover ready|the witness solved|bytes fetched: the key's last|the proof done|the page confirmed)/.test(what))].sort((a, b) => a[1] - b[1]);
  const cpuByPhase = threads && marks.slice(1).map(([what, t], i) => ({ from: marks[i][1], to: t, what: `${marks[i][0].split(" (")[0].replace(/^bytes fetched: /, "")} → ${what.split(" (")[0].replace(/^bytes fetched: /, "")}`, by: threads.between(opened + marks[i][1], opened + t) }));
  return {
    moments,
    cpuByPhase,
    openToReceivedMs: received - opened,
    redeemToReceivedMs: received - readyAt, // the wait after the person's tap
    openToFormMs: formAt - opened,
    openToReadyMs: readyAt - opened,
    bytesBeforeProof: bytesBy(proofReadyAt), // every byte the first proof needed, over the wire
    bytesBeforeProofBegan: bytesBy(proofAt),
    proofMs: j.proofMs,
    proofStages: j.proofAt, // when each of the proof's stages began, from its start
    proverWorkers: j.proverWorkers,
    provedAheadMs: j.provedAheadMs, // the proof begun this long before Redeem (once the wallet was made and the prover ready)
    keyAtProofStart: j.keyAtProofStart, // the key's bytes already received when the proof began
    // The key's request sent this long before the wasm's last byte: printed, not checked, as the
    // page's thread (4× slower under CDP's throttling) may hear of the wasm's progress too late.
    keyAskedBeforeWasmEndMs: keyAsked && wasm ? Math.round(wasm.at - keyAsked.from) : undefined,
    keyLastByteInProofMs: key ? Math.round(key.at - proofAt) : null, // null: the key came from Cache Storage (or negative: before the proof)
    loadAt: j.loadAt, // when each of the prover's stages began, in ms from the page's start
    loadTotal: j.loadTotal, // the bytes the progress bar was told, at its first report, it would count to
    proverRequests: [...urls].filter((u) => proverAsset.test(u)).length,
    proofWarm: j.proofWarm, // the runtime had solved a witness before (a proof, or the warm-up while the person read the card)
    keyPoints: j.keyPoints, // "decoded" by the workers from the key, or "stored": copied to them decoded, from Cache Storage
    keyTail: j.keyTail, // the key's end: the rates that decided it (points decompressed, key bytes received a ms), asked, and whether it came raw
    pointsKept: j.pointsKept, // the key's points in Cache Storage, decoded, for the next card (undefined: not within a minute)
    pointsKeptAfterReceivedMs: j.pointsKeptMs === undefined || j.receivedMs === undefined ? undefined : j.pointsKeptMs - j.receivedMs,
    msms: Object.keys(j.proofAt ?? {}).filter((k) => k.startsWith("MSM ")).length,
    cpuByThread, // ms of CPU by the browser's kinds of thread, from opening the link to tokens received (in the cgroup only)
  };
};

// timeline prints a visit's moments, one a line, in the order they came.
const timeline = (title, f) => {
  const lines = [...f.moments].sort((a, b) => a[1] - b[1]).map(([what, t]) => `  ${String(t).padStart(6)} ms  ${what}`);
  console.log(`timeline, ${title} (ms from opening the link${f.proverRequests === 0 ? "; the prover from Cache Storage" : ""}):\n${lines.join("\n")}`);
};

// cpuLine prints the CPU a visit used by kind of thread, the largest first, against what the
// group's half core allowed from opening the link to tokens received.
const cpuLine = (title, f) => {
  const line = (by, allowed, n) => {
    const kinds = Object.entries(by).sort((a, b) => b[1] - a[1]);
    const total = kinds.reduce((s, [, ms]) => s + ms, 0);
    const top = kinds.slice(0, n).map(([kind, ms]) => `${kind} ${Math.round(ms)}`);
    const rest = kinds.slice(n).reduce((s, [, ms]) => s + ms, 0);
    return `${Math.round(total)} ms of the ${Math.round(allowed)} ms the half core allowed: ${top.join(", ")}${rest ? `, the rest ${Math.round(rest)}` : ""} (ms)`;
  };
  console.log(`CPU by thread, ${title}: ${line(f.cpuByThread, f.openToReceivedMs / 2, 8)}`);
  for (const p of f.cpuByPhase ?? []) console.log(`  ${String(p.from).padStart(6)}–${String(p.to).padEnd(6)} ms  ${p.what}: ${line(p.by, (p.to - p.from) / 2, Number(process.env.PHONE_PHASE_KINDS ?? 4))}`);
};

// pinnedHash is the sha256 of a prover file as built (dist/assets).
const pinnedHash = (url) => createHash("sha256").update(readFileSync(new URL(`../dist/assets/${url.slice(url.lastIndexOf("/") + 1)}`, import.meta.url))).digest("hex");

// tamperedCache changes one byte of the cached wasm and proving key and adds an older build's
// wasm, opens a card's link (unthrottled) until Redeem is possible, and answers what was fetched
// and what the cache holds after: the pinned files, fetched again, and no older build's; the key's
// points kept decoded (by the visits before), one byte changed too, are dropped, not used.
const tamperedCache = async (browser, link) => {
  const page = await browser.newPage();
  const session = await page.createCDPSession();
  const urls = new Set();
  await watch(session, new Map(), urls);
  page.on("workercreated", (w) => watch(w.client, new Map(), urls).catch(() => {}));
  await page.goto(new URL("config.json", site.url).href);
  const tampered = await page.evaluate(async () => {
    const cache = await caches.open("vaultd-prover");
    const out = [];
    for (const req of await cache.keys()) {
      if (/\/reveal\.[0-9a-f]{16}\.pks\.points$/.test(req.url)) {
        const r = await cache.match(req);
        const data = new Uint8Array(await r.arrayBuffer());
        data[data.length - 100] ^= 1;
        await cache.put(req, new Response(data, { headers: r.headers }));
        out.points = req.url;
        continue;
      }
      if (!/\/(prover\.[0-9a-f]{16}\.wasm|reveal\.[0-9a-f]{16}\.pks)$/.test(req.url)) continue;
      const r = await cache.match(req);
      const data = new Uint8Array(await r.arrayBuffer());
      data[data.length - 100] ^= 1;
      await cache.put(req, new Response(data, { headers: r.headers }));
      out.push(req.url);
    }
    await cache.put(new URL("assets/prover.0123456789abcdef.wasm", location.href).href, new Response("an older build's"));
    return { urls: out, points: out.points };
  }).then((t) => Object.assign(t.urls, { points: t.points }));
  await page.goto(link, { waitUntil: "load" });
  await page.waitForFunction(() => ["ready", "refused"].includes(document.body.dataset.state), { timeout: 120_000, polling: 100 });
  const state = await page.evaluate(() => document.body.dataset.state);
  // The copies fetched again are written to the cache while the prover starts (the key: once it
  // has arrived, behind the wasm): a few seconds, during which a dropped copy may be missing.
  let held;
  for (let i = 0; i < 60; i++) {
    held = await page.evaluate(async (names) => {
      const cache = await caches.open("vaultd-prover");
      const out = {};
      for (const url of names) {
        const r = await cache.match(url);
        if (!r) { // dropped, and its fresh copy not written yet: look again
          out[url] = "missing";
          continue;
        }
        const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await r.arrayBuffer()));
        out[url] = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
      }
      return out;
    }, tampered);
    held.older = await page.evaluate(async () => (await (await caches.open("vaultd-prover")).keys()).filter((r) => r.url.includes("0123456789abcdef")).length);
    held.points = await page.evaluate(async () => (await (await caches.open("vaultd-prover")).keys()).filter((r) => r.url.endsWith(".pks.points")).length);
    if (tampered.every((u) => held[u] === pinnedHash(u)) && held.older === 0 && held.points === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await page.close();
  return { tampered, tamperedPoints: tampered.points, state, fetched: [...urls].filter((u) => proverAsset.test(u)), held };
};

const mb = (b) => `${(b / 1e6).toFixed(2)} MB`;
const fail = (msg) => {
  throw new Error(msg);
};
try {
  // The prover's wasm as a CDN would see it: compressed for whoever accepts it, the same bytes
  // once decoded, cached for ever under its content-addressed name; the page itself is revalidated.
  const wasmFile = readdirSync(new URL("../dist/assets/", import.meta.url)).find((f) => /^prover\.[0-9a-f]{16}\.wasm$/.test(f));
  const raw = readFileSync(new URL(`../dist/assets/${wasmFile}`, import.meta.url));
  for (const [accept, want] of [["br, gzip", "br"], ["gzip", "gzip"], ["identity", undefined], ["br;q=0, gzip", "gzip"]]) {
    const r = await fetch(new URL(`assets/${wasmFile}`, site.url), { headers: { "accept-encoding": accept } });
    const body = Buffer.from(await r.arrayBuffer()); // undici decodes br and gzip
    const h = Object.fromEntries(r.headers);
    if (h["content-encoding"] !== want || !body.equals(raw) || h["cache-control"] !== "public, max-age=31536000, immutable" || h.vary !== "Accept-Encoding" || h["content-type"] !== "application/wasm") {
      fail(`the wasm for Accept-Encoding "${accept}": ${JSON.stringify(h)}, ${body.length} bytes decoded (want ${raw.length})`);
    }
  }
  const page = await fetch(redeemUrl, { headers: { "accept-encoding": "br" } });
  const again = await fetch(redeemUrl, { headers: { "accept-encoding": "br", "if-none-match": page.headers.get("etag") } });
  if (page.headers.get("cache-control") !== "no-cache" || again.status !== 304) fail(`the redeem page's caching: ${page.headers.get("cache-control")}, then ${again.status}`);
  console.log(`ok  the prover's assets are sent brotli or gzip as accepted (the same bytes decoded), cached for ever under their hashed names; the pages revalidated (304)`);

  // The whole browser slowed, in a cgroup; where none can be made, CDP only (a failure in CI).
  const group = cpuGroup();
  if (group.why) {
    if (process.env.CI === "true") fail(`${group.why}: the phone test slows the whole browser in one (run it as root)`);
    console.log(`\n!!! ${group.why}:\n!!! the CPU is throttled by CDP only, on the page's thread: the Workers, where the proof runs, are NOT slowed.\n!!! These are not a phone's figures.\n`);
  }
  const ways = group.why ? [{ profile: pageOnly, cdpCpu: true }] : [{ profile: wholeBrowser, executablePath: group.executablePath, cgroup: group.dir }, { profile: pageOnly, cdpCpu: true }];
  try {
    for (let run = 1; run <= Number(runsArg); run++) {
      for (const [w, way] of ways.entries()) {
        const browser = await puppeteer.launch({ executablePath: way.executablePath ?? chromium, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
        try {
          if (way.executablePath && !group.holds(browser.process().pid)) fail(`Chromium (pid ${browser.process().pid}) is not in the cgroup`);
          const before = way.executablePath && group.stat();
          const first = await visit(browser, newCard(), way);
          const second = await visit(browser, newCard(), way);
          for (const [name, f] of [["first visit", first], ["second visit", second]]) {
            const key = f.keyLastByteInProofMs === null ? "the key from Cache Storage" : `the key's last byte ${f.keyLastByteInProofMs} ms into it${f.keyTail?.raw ? " (its end raw)" : ""}`;
            console.log(`phone (${way.profile}) run ${run}, ${name}: ${(f.openToReceivedMs / 1000).toFixed(1)} s from opening the link to tokens received (the wallet step shown after ${(f.openToFormMs / 1000).toFixed(1)} s, Redeem possible after ${(f.openToReadyMs / 1000).toFixed(1)} s, proof ${f.proofMs} ms after Redeem in ${f.proverWorkers} workers${f.provedAheadMs !== undefined ? ` (begun ${f.provedAheadMs} ms before it)` : ""}, ${key}), ${mb(f.bytesBeforeProof)} over the wire before the first proof was ready`);
            timeline(`${way.profile}, run ${run}, ${name}`, f);
            if (f.cpuByThread) cpuLine(`${way.profile}, run ${run}, ${name}`, f);
          }
          if (before) {
            const after = group.stat();
            console.log(`the cgroup held Chromium back in ${after.nr_throttled - before.nr_throttled} of ${after.nr_periods - before.nr_periods} periods of 100 ms (${((after.throttled_time - before.throttled_time) / 1e9).toFixed(1)} s in all) during the two visits`);
          }
          const { moments: _a, cpuByPhase: _pa, ...firstFigures } = first;
          const { moments: _b, cpuByPhase: _pb, ...secondFigures } = second;
          console.log(`figures ${JSON.stringify({ run, profile: way.profile, first: firstFigures, second: secondFigures })}`);
          if (first.provedAheadMs === undefined || second.provedAheadMs === undefined) fail("the proof was not begun before Redeem, once the wallet was made and the prover ready");
          if (!["downloading", "starting", "ready"].every((s) => s in (first.loadAt ?? {}))) fail(`the page was told the prover's stages ${JSON.stringify(first.loadAt)}`);
          if (!["solving", "proving", "done"].every((s) => s in (first.proofStages ?? {}))) fail(`the page was told the proof's stages ${JSON.stringify(first.proofStages)}`);
          // An MSM a section of the key (A, B1, B2, K, Z), each told as it ends.
          if (first.msms !== 5 || second.msms !== 5) fail(`the page was told of ${first.msms} and ${second.msms} MSMs, not 5: ${JSON.stringify(first.proofStages)}`);
          // The files arrive compressed, so no answer says their size: the package's build does, from
          // the first report on (the wasm and wasm_exec.js: the key arrives behind, during the proof).
          const loaded = readdirSync(new URL("../dist/assets/", import.meta.url)).filter((f) => /^(prover\.[0-9a-f]{16}\.wasm|wasm_exec\.[0-9a-f]{16}\.js)$/.test(f));
          const want = loaded.reduce((s, f) => s + statSync(new URL(`../dist/assets/${f}`, import.meta.url)).size, 0);
          if (loaded.length !== 2 || first.loadTotal !== want) fail(`the progress bar was told a total of ${first.loadTotal} bytes on a first visit, not the prover's files' size (${want})`);
          // The same phone, another card: the prover comes from Cache Storage, not even a request.
          if (second.bytesBeforeProof > 200_000) fail(`the second visit fetched ${mb(second.bytesBeforeProof)} before its proof: the prover again`);
          if (second.proverRequests !== 0) fail(`the second visit requested ${second.proverRequests} of the prover's files: not kept in Cache Storage`);
          // Its key's points decoded by the first, kept decoded: no square root taken again.
          if (first.pointsKept !== true) fail(`the first visit's key's points were not kept in Cache Storage (${first.pointsKept === false ? "refused" : "not within a minute of the tokens received"})`);
          if (first.keyPoints !== "decoded" || second.keyPoints !== "stored") fail(`the key's points were ${first.keyPoints} on the first visit and ${second.keyPoints} on the second: want decoded, then stored (Cache Storage)`);
          if (run === 1 && w === 0) {
            // A cached copy that is not the pinned one is dropped and fetched again.
            const t = await tamperedCache(browser, newCard());
            if (t.tampered.length !== 2 || !t.tamperedPoints || t.held.points !== 0 || t.state !== "ready" || t.held.older !== 0 || t.tampered.some((u) => !t.fetched.includes(u) || t.held[u] !== pinnedHash(u))) fail(`a changed cached copy: ${JSON.stringify(t)}`);
            console.log(`ok  the prover's files come from Cache Storage on a second card (no request); a cached wasm and sectioned proving key with one byte changed are fetched again and replaced by the pinned files; an older build's are dropped, and so are the key's points kept decoded, one byte changed`);
          }
          if (run === 1 && w === 0 && process.env.PHONE_PERSON === "1") {
            // A person saving the new wallet's key before Redeem, on a first visit (a browser context of
            // its own: nothing cached): the proof, begun meanwhile, is ready or nearly when they tap.
            const fresh = await browser.createBrowserContext();
            const person = await visit(fresh, newCard(), { ...way, savesKeyInMs: 4000, readsCardInMs: Number(process.env.PHONE_READS_CARD_MS ?? 0) }).finally(() => fresh.close());
            timeline(`${way.profile}, run ${run}, a first visit whose person saves the wallet's key in 4 s${process.env.PHONE_READS_CARD_MS ? ` after reading the card ${process.env.PHONE_READS_CARD_MS} ms` : ""}`, person);
            console.log(`phone (${way.profile}) run ${run}, a first visit whose person saves the wallet's key in 4 s: tokens received ${person.redeemToReceivedMs} ms after Redeem (${first.redeemToReceivedMs} and ${second.redeemToReceivedMs} ms for the visits above, Redeem tapped as soon as possible), ${(person.openToReceivedMs / 1000).toFixed(1)} s after opening the link; the proof begun ${person.provedAheadMs} ms before Redeem, ready ${person.proofMs} ms after it`);
            if (person.cpuByThread) cpuLine(`${way.profile}, run ${run}, a first visit whose person saves the wallet's key in 4 s`, person);
            const { moments: _c, cpuByPhase: _pc, ...personFigures } = person;
            console.log(`figures ${JSON.stringify({ person: personFigures })}`);
            if (person.provedAheadMs === undefined) fail("the proof was not begun while the person saved the key");
          }
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    await group.remove?.();
  }
} finally {
  site.close();
}
