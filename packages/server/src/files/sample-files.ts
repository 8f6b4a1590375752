/**
 * Small valid files of the common types, made the same way every time: what demo data holds in its
 * file and image fields (`ninefold start --demo`), so that a demo's receipts open in a PDF reader
 * and its images show as thumbnails. A PNG is drawn by sharp; a PDF is one page of text.
 */
import sharp from 'sharp';

/** A file's name, media type and bytes, before any upload. */
export interface SampleFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/**
 * A one-page PDF and a 64×64 PNG, in that order.
 *
 * @example const [pdf, png] = await sampleFiles();
 */
export async function sampleFiles(): Promise<SampleFile[]> {
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 11, g: 114, b: 133 } },
  })
    .png()
    .toBuffer();
  return [
    { name: 'sample.pdf', type: 'application/pdf', bytes: onePagePdf('Sample document') },
    { name: 'sample.png', type: 'image/png', bytes: new Uint8Array(png) },
  ];
}

/**
 * A valid PDF of one A4 page showing a line of text (ASCII letters, digits and spaces), its cross
 * reference table giving each object's exact offset.
 *
 * @example onePagePdf('Receipt') // Uint8Array starting with %PDF-1.4
 */
export function onePagePdf(text: string): Uint8Array {
  const line = text.replace(/[^A-Za-z0-9 ]/g, ' ');
  const content = `BT /F1 24 Tf 72 760 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}
