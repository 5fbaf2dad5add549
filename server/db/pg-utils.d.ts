/** node-postgres's value conversion, which the PGlite driver shares (server/db/pglite.ts). */
declare module 'pg/lib/utils.js' {
  const utils: {
    /** A parameter as node-postgres sends it: null, text, or a Buffer (binary). */
    prepareValue(value: unknown): string | Buffer | null;
  };
  export default utils;
}
