// The worker thread (node:worker_threads) Node's Prover runs in, as a browser's runs in Web
// Workers (prover-worker.ts): the same messages (serve.ts), so that a proof in Node shares its
// multiplications between the machine's cores and leaves the process's own thread free.
import { parentPort } from "node:worker_threads";
import { serve, type Message } from "./serve.js";

const port = parentPort!;
const answer = serve((m) => port.postMessage(m), () => process.exit(1));
port.on("message", (m: Message) => void answer(m));
