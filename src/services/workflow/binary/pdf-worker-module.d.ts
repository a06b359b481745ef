// pdf.js's worker part, imported by pdf-worker.ts for its side effect only (it sets
// globalThis.pdfjsWorker, which pdf.js then runs in the same thread); pdfjs-dist ships no types for it.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
