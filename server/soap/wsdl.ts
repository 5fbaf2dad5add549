/**
 * The `?WSDL` document of the Transaction Service in the shape ASMX generates
 * (asmx-compatibility.md §1.6), derived from the contract table (DESIGN.md §1): adding an operation
 * or a field to `shared/contract/` changes this document with no other edit.
 *
 * Order as ServiceDescriptionReflector writes it: types; messages protocol by protocol (SOAP, then
 * HTTP GET, then HTTP POST); portTypes `{Svc}Soap` (shared by the SOAP 1.1 and 1.2 bindings),
 * `{Svc}HttpGet`, `{Svc}HttpPost`; bindings Soap, Soap12, HttpGet, HttpPost; the service with one
 * port per binding. HTTP GET/POST messages, portTypes, bindings and ports exist only when those
 * protocols are on, and only for operations whose parameters are all scalars (`hasSimpleParams`);
 * HTTP GET's only for those that change nothing, unless `httpGetChanges` (shared/contract/effects.ts).
 */
import { servedOverGet } from '../../shared/contract/effects.ts';
import { hasSimpleParams, httpRootElement, type Operation, operations } from '../../shared/contract/index.ts';
import { writeSchema } from './wsdl-schema.ts';
import { XmlWriter } from './wsdl-writer.ts';

export interface WsdlOptions {
  /** `TransactionService`. */
  readonly serviceName: string;
  /** The service's XML namespace, e.g. `http://tempuri.org/`. */
  readonly namespace: string;
  /** Full URL of the .asmx, built from the request's Host: `http://127.0.0.1:3000/TransactionService.asmx`. */
  readonly location: string;
  /** Whether the HTTP GET and POST bindings are on. */
  readonly httpBindings: boolean;
  /**
   * Whether HTTP GET also serves operations that change state (ASMX's behaviour); by default the
   * HttpGet binding lists reads only (shared/contract/effects.ts).
   */
  readonly httpGetChanges?: boolean;
}

const NS = {
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  tm: 'http://microsoft.com/wsdl/mime/textMatching/',
  soapenc: 'http://schemas.xmlsoap.org/soap/encoding/',
  mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
  s: 'http://www.w3.org/2001/XMLSchema',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
} as const;

const SOAP_HTTP_TRANSPORT = 'http://schemas.xmlsoap.org/soap/http';

/**
 * The SOAPAction of an operation: the namespace, a `/` when it does not end with one, and the
 * operation's name (SoapReflector's default action). Routing must use the same value.
 */
export function operationSoapAction(namespace: string, operationName: string): string {
  return `${namespace.endsWith('/') ? namespace : `${namespace}/`}${operationName}`;
}

/** The text of `<wsdl:documentation>` for an operation; extensions say that they are Payframe's. */
export function operationDoc(op: Operation): string {
  return op.extension ? `Payframe extension: ${op.doc}` : op.doc;
}

type HttpVerb = 'HttpGet' | 'HttpPost';

/** The WSDL of `ops` (the whole contract by default), uncached. */
export function buildWsdl(options: WsdlOptions, ops: readonly Operation[] = operations): string {
  const { serviceName: svc, namespace, location, httpBindings } = options;
  const httpOps = httpBindings ? ops.filter(hasSimpleParams) : [];
  const getOps = httpOps.filter((op) => servedOverGet(op.name, options.httpGetChanges ?? false));
  const opsOf = (verb: HttpVerb) => (verb === 'HttpGet' ? getOps : httpOps);
  const verbs: readonly HttpVerb[] = httpBindings ? ['HttpGet', 'HttpPost'] : [];
  const w = new XmlWriter();

  const documentation = (op: Operation): void => {
    if (op.doc !== '') w.text('wsdl:documentation', { 'xmlns:wsdl': NS.wsdl }, operationDoc(op));
  };
  const portTypeOperation = (op: Operation, suffix: string): void => {
    w.element('wsdl:operation', { name: op.name }, () => {
      documentation(op);
      w.empty('wsdl:input', { message: `tns:${op.name}${suffix}In` });
      w.empty('wsdl:output', { message: `tns:${op.name}${suffix}Out` });
    });
  };
  const soapBinding = (prefix: 'soap' | 'soap12', name: string): void => {
    w.element('wsdl:binding', { name, type: `tns:${svc}Soap` }, () => {
      w.empty(`${prefix}:binding`, { transport: SOAP_HTTP_TRANSPORT });
      for (const op of ops) {
        w.element('wsdl:operation', { name: op.name }, () => {
          w.empty(`${prefix}:operation`, {
            soapAction: operationSoapAction(namespace, op.name),
            style: 'document',
          });
          w.element('wsdl:input', {}, () => w.empty(`${prefix}:body`, { use: 'literal' }));
          w.element('wsdl:output', {}, () => w.empty(`${prefix}:body`, { use: 'literal' }));
        });
      }
    });
  };
  const httpBinding = (verb: HttpVerb): void => {
    w.element('wsdl:binding', { name: `${svc}${verb}`, type: `tns:${svc}${verb}` }, () => {
      w.empty('http:binding', { verb: verb === 'HttpGet' ? 'GET' : 'POST' });
      for (const op of opsOf(verb)) {
        w.element('wsdl:operation', { name: op.name }, () => {
          w.empty('http:operation', { location: `/${op.name}` });
          w.element('wsdl:input', {}, () => {
            if (verb === 'HttpGet') w.empty('http:urlEncoded');
            else w.empty('mime:content', { type: 'application/x-www-form-urlencoded' });
          });
          w.element('wsdl:output', {}, () => w.empty('mime:mimeXml', { part: 'Body' }));
        });
      }
    });
  };

  const root = {
    'xmlns:soap': NS.soap,
    'xmlns:tm': NS.tm,
    'xmlns:soapenc': NS.soapenc,
    'xmlns:mime': NS.mime,
    'xmlns:tns': namespace,
    'xmlns:s': NS.s,
    'xmlns:soap12': NS.soap12,
    'xmlns:http': NS.http,
    targetNamespace: namespace,
    'xmlns:wsdl': NS.wsdl,
  };
  w.element('wsdl:definitions', root, () => {
    writeSchema(w, ops, namespace, httpBindings);

    for (const op of ops) {
      w.element('wsdl:message', { name: `${op.name}SoapIn` }, () => {
        w.empty('wsdl:part', { name: 'parameters', element: `tns:${op.name}` });
      });
      w.element('wsdl:message', { name: `${op.name}SoapOut` }, () => {
        w.empty('wsdl:part', { name: 'parameters', element: `tns:${op.name}Response` });
      });
    }
    for (const verb of verbs) {
      for (const op of opsOf(verb)) {
        w.element('wsdl:message', { name: `${op.name}${verb}In` }, () => {
          // GET/POST parameters travel as text whatever their schema type (ASMX writes s:string).
          for (const p of op.params) w.empty('wsdl:part', { name: p.name, type: 's:string' });
        });
        w.element('wsdl:message', { name: `${op.name}${verb}Out` }, () => {
          const rootElement = httpRootElement(op);
          if (rootElement !== null) w.empty('wsdl:part', { name: 'Body', element: `tns:${rootElement}` });
        });
      }
    }

    w.element('wsdl:portType', { name: `${svc}Soap` }, () => {
      for (const op of ops) portTypeOperation(op, 'Soap');
    });
    for (const verb of verbs) {
      w.element('wsdl:portType', { name: `${svc}${verb}` }, () => {
        for (const op of opsOf(verb)) portTypeOperation(op, verb);
      });
    }

    soapBinding('soap', `${svc}Soap`);
    soapBinding('soap12', `${svc}Soap12`);
    for (const verb of verbs) httpBinding(verb);

    w.element('wsdl:service', { name: svc }, () => {
      w.element('wsdl:port', { name: `${svc}Soap`, binding: `tns:${svc}Soap` }, () => {
        w.empty('soap:address', { location });
      });
      w.element('wsdl:port', { name: `${svc}Soap12`, binding: `tns:${svc}Soap12` }, () => {
        w.empty('soap12:address', { location });
      });
      for (const verb of verbs) {
        w.element('wsdl:port', { name: `${svc}${verb}`, binding: `tns:${svc}${verb}` }, () => {
          w.empty('http:address', { location });
        });
      }
    });
  });
  return w.toString();
}

/**
 * Rendered documents by (service, namespace, location, httpBindings), one cache per list of
 * operations served (served-operations.ts). The location comes from the request's Host header,
 * which a client chooses, so each cache is bounded: the least recently used entry goes when it is
 * full (an unbounded WSDL cache is node-soap's #1261).
 */
const CACHE_LIMIT = 32;
const caches = new WeakMap<readonly Operation[], Map<string, string>>();

/** The WSDL of the Transaction Service serving `ops`, cached: it never changes while the process runs. */
export function renderWsdl(options: WsdlOptions, ops: readonly Operation[] = operations): string {
  let cache = caches.get(ops);
  if (cache === undefined) {
    cache = new Map();
    caches.set(ops, cache);
  }
  const key = JSON.stringify([
    options.serviceName,
    options.namespace,
    options.location,
    options.httpBindings,
    options.httpGetChanges ?? false,
  ]);
  let document = cache.get(key);
  if (document !== undefined) {
    cache.delete(key);
  } else {
    document = buildWsdl(options, ops);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, document);
  return document;
}
