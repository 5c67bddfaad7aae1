/** The Emscripten factory of qpdf.mjs (MODULARIZE + EXPORT_ES6): resolves to the module once instantiated. */
declare function createQpdf(options?: Record<string, unknown>): Promise<unknown>;
export default createQpdf;
