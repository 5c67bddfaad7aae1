/** A PDF with layers (optional content), one hidden by default: for the tools that copy pages. */
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/**
 * Two pages. Page 1: text, a layer hidden by default ("Answers": a red band over the lower half),
 * a layer shown ("Notes": a blue square). Page 2: text only. With `baseStateOff`, the default
 * configuration starts every layer OFF and lists the shown one in /ON.
 */
export async function layeredPdf({ baseStateOff = false } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([300, 300]);
  first.drawText('Question', { x: 20, y: 260, size: 20, font });
  doc.addPage([300, 300]).drawText('Second', { x: 20, y: 260, size: 20, font });
  const ctx = doc.context;
  const answers = ctx.register(ctx.obj({ Type: 'OCG', Name: PDFString.of('Answers') }));
  const notes = ctx.register(ctx.obj({ Type: 'OCG', Name: PDFString.of('Notes') }));
  const config = baseStateOff ? { BaseState: 'OFF', ON: [notes] } : { OFF: [answers] };
  doc.catalog.set(
    PDFName.of('OCProperties'),
    ctx.obj({ OCGs: [answers, notes], D: { Order: [answers, notes], ...config } }),
  );
  const resources = first.node.normalizedEntries().Resources;
  resources.set(PDFName.of('Properties'), ctx.obj({ A: answers, N: notes }));
  const layers = '/OC /A BDC 1 0 0 rg 0 0 300 150 re f EMC /OC /N BDC 0 0 1 rg 200 200 40 40 re f EMC';
  first.node.addContentStream(ctx.register(ctx.stream(layers)));
  return doc.save();
}
