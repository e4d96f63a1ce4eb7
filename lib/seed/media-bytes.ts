import { DEMO_IMAGE_PNG, DEMO_STICKER_WEBP, DEMO_VIDEO_MP4 } from "./demo-media";

/**
 * The demo's files. Image, sticker and video are real, small media a person can see and play
 * (made by scripts/demo-media.sh, a few KB each); the PDF and the voice note are built in code.
 * Each is recognised by `file-type` (what the upload endpoint sniffs) as the type its extension claims.
 */

/** A legible 480×360 PNG (a red sweater with its caption). */
export function demoPng(): Buffer {
  return Buffer.from(DEMO_IMAGE_PNG, "base64");
}

/** A one-page PDF saying `text`, with a correct cross-reference table. */
export function demoPdf(text = "Catalogo Tienda Demo"): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, "")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** 1.5 s of H.264 video in MP4 that browsers play. */
export function demoMp4(): Buffer {
  return Buffer.from(DEMO_VIDEO_MP4, "base64");
}

/** A 256×256 WebP sticker with transparency (stickers are WebP on WhatsApp). */
export function demoWebp(): Buffer {
  return Buffer.from(DEMO_STICKER_WEBP, "base64");
}

/** Half a second of silence as 8 kHz mono 16-bit WAV, standing in for a voice note. */
export function demoWav(): Buffer {
  const samples = 4000;
  const data = Buffer.alloc(samples * 2);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(8000, 4);
  fmt.writeUInt32LE(16000, 8);
  fmt.writeUInt16LE(2, 12);
  fmt.writeUInt16LE(16, 14);
  const chunk = (id: string, body: Buffer) => {
    const h = Buffer.alloc(8);
    h.write(id, 0, "latin1");
    h.writeUInt32LE(body.length, 4);
    return Buffer.concat([h, body]);
  };
  const body = Buffer.concat([Buffer.from("WAVE", "latin1"), chunk("fmt ", fmt), chunk("data", data)]);
  return chunk("RIFF", body);
}
