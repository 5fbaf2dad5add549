/**
 * The `?WSDL` document loaded by python3-zeep as a real client would: all four bindings, HTTP GET
 * and POST included when they are on (server/soap/wsdl.test.ts checks the document itself).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { renderWsdl, type WsdlOptions } from '../../../server/soap/wsdl.ts';
import { describeWithTools, PYTHON3, python3Zeep } from '../../kit/tools.ts';

const ON: WsdlOptions = {
  serviceName: 'TransactionService',
  namespace: 'http://tempuri.org/',
  location: 'http://127.0.0.1:3000/TransactionService.asmx',
  httpBindings: true,
};
const OFF: WsdlOptions = { ...ON, httpBindings: false };

describeWithTools([python3Zeep], 'python3-zeep', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payframe-wsdl-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // zeep reads all four bindings, HTTP GET/POST included, and prints the service's port names.
  const script =
    'import zeep,sys; c=zeep.Client(sys.argv[1]); ' +
    "print(' '.join(sorted(c.wsdl.services['TransactionService'].ports)))";

  for (const [label, options, ports] of [
    [
      'GET/POST on',
      ON,
      'TransactionServiceHttpGet TransactionServiceHttpPost TransactionServiceSoap TransactionServiceSoap12',
    ],
    ['GET/POST off', OFF, 'TransactionServiceSoap TransactionServiceSoap12'],
  ] as const) {
    it(`loads the WSDL with ${label}`, () => {
      const file = join(dir, `${label.replace(/\W/g, '')}.wsdl`);
      writeFileSync(file, renderWsdl(options));
      expect(execFileSync(PYTHON3, ['-c', script, file], { encoding: 'utf8' }).trim()).toBe(ports);
    });
  }
});
