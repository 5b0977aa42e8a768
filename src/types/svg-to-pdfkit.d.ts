// svg-to-pdfkit ships no types; this declares the one call the whitepaper generator makes.
declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    /** Read SVG lengths as points rather than CSS pixels (which are 3/4 of a point). */
    assumePt?: boolean;
    /** Chooses the PDF font for an SVG font family; returns a font name pdfkit knows. */
    fontCallback?: (family: string, bold: boolean, italic: boolean) => string;
  }
  export default function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: SvgToPdfOptions,
  ): void;
}
