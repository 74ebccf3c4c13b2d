// zbarimg (Debian's zbar-tools) for the browser tests: reads the one QR code in a PNG.
import { execFileSync } from "node:child_process";

/** The text of the QR code in png. QR codes only: zbar's other symbologies can read a false
 * barcode in a dense QR code's modules (a six-digit one was printed beside a voucher card's link). */
export const zbar = (png) => execFileSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png], { encoding: "utf8" }).trim();
