/**
 * The HTML documentation pages of `/TransactionService.asmx` in the shape of ASMX's help generator
 * (asmx-compatibility.md §1.7): the service page (GET with no query) lists the operations; the
 * `?op=Op` page shows a test form and sample messages. Derived from the contract table, so a new
 * operation or field appears here with no other edit.
 *
 * Served as `text/html; charset=utf-8` with a CSP allowing `style-src 'unsafe-inline'` for this page
 * only (help-page-style.ts); there is no script at all. Everything interpolated is escaped, table
 * text included.
 */
import { hasSimpleParams, type Operation, operations } from '../../shared/contract/index.ts';
import { operationSamples, type Sample } from './help-page-samples.ts';
import { HELP_PAGE_STYLE } from './help-page-style.ts';
import { escapeAttr, escapeText } from './xml-escape.ts';

export interface HelpPageOptions {
  /** `TransactionService`. */
  readonly serviceName: string;
  /** The service's XML namespace, e.g. `http://tempuri.org/`. */
  readonly namespace: string;
  /** Path of the .asmx: `/TransactionService.asmx`. */
  readonly path: string;
  /** The request's Host, shown in the samples: `127.0.0.1:3000`. */
  readonly host: string;
  /** Whether the HTTP GET and POST bindings are on. */
  readonly httpBindings: boolean;
  /** Whether HTTP GET also serves operations that change state (ASMX's behaviour). */
  readonly httpGetChanges?: boolean;
  /** Whether the request comes from the local machine: only then is the test form shown (§1.1). */
  readonly local: boolean;
}

const TEMPURI = 'http://tempuri.org/';

/** `TransactionService.asmx`: ASMX's links are relative to the .asmx itself. */
function fileOf(options: HelpPageOptions): string {
  return options.path.slice(options.path.lastIndexOf('/') + 1);
}

function page(options: HelpPageOptions, content: string): string {
  const svc = escapeText(options.serviceName);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="alternate" type="text/xml" href="${escapeAttr(options.path)}?disco" />
    <style>${HELP_PAGE_STYLE}</style>
    <title>${svc} Web Service</title>
  </head>
  <body>
    <main id="content">
      <p class="heading1" role="heading" aria-level="1">${svc}</p><br>
${content}
    </main>
  </body>
</html>
`;
}

const EXTENSION_MARK = '(Payframe extension)';

function operationLink(file: string, op: Operation): string {
  const mark = op.extension ? ` ${EXTENSION_MARK}` : '';
  const doc =
    op.doc === '' ? '' : `\n            <span>\n              <br>${escapeText(op.doc)}\n            </span>`;
  return `          <li>
            <a href="${escapeAttr(`${file}?op=${encodeURIComponent(op.name)}`)}">${escapeText(op.name)}</a>${mark}${doc}
          </li>`;
}

/** A short version of ASMX's "This web service is using http://tempuri.org/…" notice. */
const TEMPURI_WARNING = `      <span>
        <h2>This web service uses http://tempuri.org/ as its namespace.</h2>
        <p class="intro">http://tempuri.org/ is the default namespace, meant for services under development. A published service needs a namespace of its own, one its operator controls, so that clients can tell its messages apart from those of every other service that kept the default.</p>
        <p class="intro">Set it with the <code>SOAP_NAMESPACE</code> setting, for example <code>SOAP_NAMESPACE=https://payments.example.com/TransactionService/</code> (a URI ending with a slash; it need not point to a web page). Clients must then read the WSDL again.</p>
      </span>`;

/** The service page: every operation, alphabetically, with its description. */
export function renderServiceHelp(options: HelpPageOptions, ops: readonly Operation[] = operations): string {
  const file = fileOf(options);
  const sorted = [...ops].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const list = sorted.map((op) => operationLink(file, op)).join('\n');
  const content = `      <span>
        <p class="intro">The following operations are supported.  For a formal definition, please review the <a href="${escapeAttr(`${file}?WSDL`)}">Service Description</a>. </p>
        <ul>
${list}
        </ul>
      </span>
${options.namespace === TEMPURI ? TEMPURI_WARNING : ''}`;
  return page(options, content);
}

function testForm(op: Operation, file: string): string {
  const rows = op.params.map((p) => {
    const id = escapeAttr(`param-${p.name}`);
    return `            <tr>
              <td class="frmtext"><label for="${id}">${escapeText(p.name)}:</label></td>
              <td><input class="frmInput" type="text" size="50" id="${id}" name="${escapeAttr(p.name)}"></td>
            </tr>`;
  });
  return `        <p class="intro">To test the operation using the HTTP POST protocol, click the 'Invoke' button.</p>
        <form action="${escapeAttr(`${file}/${encodeURIComponent(op.name)}`)}" method="POST">
          <table class="frmtable">
            <tr>
              <th scope="col" class="frmheader">Parameter</th>
              <th scope="col" class="frmheader">Value</th>
            </tr>
${rows.join('\n')}${rows.length > 0 ? '\n' : ''}            <tr>
              <td></td>
              <td class="frmsubmit"><input type="submit" value="Invoke" class="button"></td>
            </tr>
          </table>
        </form>`;
}

/** The form where ASMX would show it; otherwise why there is none. */
function testSection(op: Operation, options: HelpPageOptions, file: string): string {
  const say = (text: string) => `        <p class="intro">${text}</p>`;
  if (!options.local) return say('The test form is only available for requests from the local machine.');
  if (!hasSimpleParams(op)) {
    return say('The test form is only available for methods with primitive types as parameters.');
  }
  if (!options.httpBindings) {
    return say('The test form is only available when the HTTP GET and POST protocols are enabled.');
  }
  return testForm(op, file);
}

function sampleSection(sample: Sample): string {
  return `      <span>
        <h3>${escapeText(sample.title)}</h3>
        <p>The following is a sample ${escapeText(sample.title)} request and response.  The <font class=value>placeholders</font> shown need to be replaced with actual values.</p>
        <pre>${sample.request}</pre>
        <pre>${sample.response}</pre>
      </span>`;
}

/** The `?op=Op` page: description, test form, and sample messages of every binding that has it. */
export function renderOperationHelp(options: HelpPageOptions & { readonly operation: Operation }): string {
  const { operation: op } = options;
  const file = fileOf(options);
  const { host, path } = options;
  const doc = [op.extension ? EXTENSION_MARK : '', op.doc].filter((s) => s !== '').join(' ');
  const samples = operationSamples(
    op,
    { namespace: options.namespace, host, path },
    options.httpBindings,
    options.httpGetChanges ?? false,
  );
  const content = `      <span>
        <p class="intro">Click <a href="${escapeAttr(file)}">here</a> for a complete list of operations.</p>
        <h2>${escapeText(op.name)}</h2>
        <p class="intro">${escapeText(doc)}</p>
        <h3>Test</h3>
${testSection(op, options, file)}
      </span>
${samples.map(sampleSection).join('\n')}`;
  return page(options, content);
}
