// The Web Worker the browser's Prover runs in: proving takes a second or more of CPU, and the
// page stays responsive. Its messages: serve.ts.
import { serve, type Message } from "./serve.js";

const answer = serve((m) => self.postMessage(m), () => self.close());
self.onmessage = (e: MessageEvent<Message>) => void answer(e.data);
