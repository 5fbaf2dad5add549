/**
 * QR codes as SVG, made on the server (the `qrcode` package), so the dashboard's page needs no QR
 * code of its own: the second factor's `otpauth://` URI and a payment link's address. The SVG has
 * no script and no external reference; the page shows it as an image.
 */
import QRCode from 'qrcode';

export function qrSvg(text: string): Promise<string> {
  // M: 15 % of the code may be damaged or covered; a 4-module quiet zone as ISO/IEC 18004 asks.
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}
