/**
 * The WHATWG URL class, which both of shared/'s runtimes (Node and browsers) provide as a global.
 * Declared here, narrowly, so shared/ can use it without the DOM or Node type libraries.
 */
declare class URL {
  constructor(url: string, base?: string | URL);
  readonly origin: string;
  readonly href: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly host: string;
  readonly port: string;
  readonly username: string;
  readonly password: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}
