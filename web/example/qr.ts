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
