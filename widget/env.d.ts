/// <reference types="vite/client" />

/** The card networks' marks, emitted by the build (scripts/brand-marks-plugin.ts). */
declare module 'virtual:brand-marks' {
  export const MARK_URLS: Readonly<Record<string, string>>;
}
