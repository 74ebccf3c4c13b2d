// QR codes for the pages: SVG (crisp on screen and in print), error correction M (a printed card
// survives a smudge), the standard 4-module quiet zone.
import QRCode from "qrcode";

/** Draws text as a QR code into el; answers its version and its width in modules (quiet zone included). */
export async function qrInto(el: HTMLElement, text: string): Promise<{ version: number; modules: number }> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  el.replaceChildren(document.importNode(doc.documentElement, true));
  const q = QRCode.create(text, { errorCorrectionLevel: "M" });
  return { version: q.version, modules: q.modules.size + 8 };
}

/**
 * Reads one QR code from the camera (the back one on a phone) into video, shown while it looks:
 * answers the code's text, or throws after timeoutMs (30 s) or when there is no camera. The
 * camera is released either way.
 */
export async function scanQR(video: HTMLVideoElement, timeoutMs = 30_000): Promise<string> {
  // The decoder (a third of the redeem page's code) is fetched only by a page that scans.
  const { default: jsQR } = await import("jsqr");
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  try {
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    const canvas = document.createElement("canvas");
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (video.videoWidth > 0) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        ctx.drawImage(video, 0, 0);
        const frame = ctx.getImageData(0, 0, canvas.width, canvas.height);
        const code = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: "dontInvert" });
        if (code?.data) return code.data;
      }
      if (performance.now() > deadline) throw new Error("no QR code seen in 30 s");
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    for (const t of stream.getTracks()) t.stop();
    video.srcObject = null;
    video.hidden = true;
  }
}
