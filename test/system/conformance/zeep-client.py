#!/usr/bin/python3
"""Calls the Transaction Service through python3-zeep, as a merchant's Python integration would.

Run with /usr/bin/python3 (Debian's python3-zeep is not visible from a venv). Reads a JSON job on
stdin:

    {"wsdl": "http://127.0.0.1:3000/TransactionService.asmx?WSDL",
     "calls": [{"op": "GetMerchantInfo", "binding": "soap11", "params": {"merchantID": "42"}}]}

binding is soap11, soap12, httpGet or httpPost (the TransactionService{Soap,Soap12,HttpGet,HttpPost}
ports of the WSDL); an optional "requestId" is sent as the X-Request-Id header of that call, so the
server side can tell which call it is serving. Params and results are in the JSON form of the Payframe contract (model.ts):
long and decimal as strings, int as a number, dateTime as an XML Schema string, nil as null, lists
as arrays. The conversion to and from zeep's Python values is driven by the types zeep read from
the WSDL, never by knowledge of the contract, so a wrong type in the WSDL shows up as a wrong value:

    xsd:long     <-> int (any size)                 JSON string
    xsd:int      <-> int                            JSON number
    xsd:decimal  <-> decimal.Decimal (keeps scale)  JSON string, '{:f}' so no exponent
    xsd:dateTime <-> datetime.datetime (isodate)    JSON string, datetime.isoformat()
    ArrayOfX     <-> zeep wants {'X': [...]} for a nested ArrayOf element, but returns a bare list
                     when the whole result is one
A Python value of another type than the WSDL's comes back as {"$unexpected": ..., "repr": ...}.

Prints {"results": [...]} on stdout, one entry per call: {"result": value}, or
{"fault": {"code", "message", "errorCode"}} for a SOAP fault, or {"error": {"type", "message"}}.
"""

import datetime
import decimal
import json
import sys

import isodate
import requests
import zeep
from zeep.exceptions import Fault
from zeep.helpers import serialize_object
from zeep.transports import Transport
from zeep.xsd.types import builtins as xsd

PORTS = {
    "soap11": "TransactionServiceSoap",
    "soap12": "TransactionServiceSoap12",
    "httpGet": "TransactionServiceHttpGet",
    "httpPost": "TransactionServiceHttpPost",
}


def is_repeated(element):
    return element.max_occurs == "unbounded" or (
        isinstance(element.max_occurs, int) and element.max_occurs > 1
    )


def array_item(xsd_type):
    """(name, element) of the one repeated child of an ASMX ArrayOfX type, else None."""
    elements = getattr(xsd_type, "elements", None)
    if elements and len(elements) == 1 and is_repeated(elements[0][1]):
        return elements[0]
    return None


def to_zeep(value, xsd_type):
    """A contract JSON value as the Python value zeep serializes for this schema type."""
    if value is None:
        return None
    item = array_item(xsd_type)
    if item is not None:
        name, element = item
        return {name: [to_zeep(v, element.type) for v in value]}
    if hasattr(xsd_type, "elements"):
        fields = dict(xsd_type.elements)
        return {k: to_zeep(v, fields[k].type) for k, v in value.items()}
    # Integer before Decimal: zeep's Integer types subclass its Decimal.
    if isinstance(xsd_type, xsd.Integer):
        return int(value)
    if isinstance(xsd_type, xsd.Decimal):
        return decimal.Decimal(value)
    if isinstance(xsd_type, xsd.DateTime):
        return isodate.parse_datetime(value)
    return value


def unexpected(value, expected):
    return {"$unexpected": expected, "repr": repr(value)}


def scalar_from_zeep(value, xsd_type):
    if isinstance(xsd_type, xsd.Int):  # before Long: zeep's Int subclasses Long
        return value if isinstance(value, int) and not isinstance(value, bool) else unexpected(value, "int")
    if isinstance(xsd_type, xsd.Integer):
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else unexpected(value, "long")
    if isinstance(xsd_type, xsd.Decimal):
        return "{:f}".format(value) if isinstance(value, decimal.Decimal) else unexpected(value, "decimal")
    if isinstance(xsd_type, xsd.DateTime):
        return value.isoformat() if isinstance(value, datetime.datetime) else unexpected(value, "dateTime")
    if isinstance(xsd_type, xsd.Boolean):
        return value if isinstance(value, bool) else unexpected(value, "boolean")
    if isinstance(xsd_type, xsd.String):
        return value if isinstance(value, str) else unexpected(value, "string")
    return unexpected(value, type(xsd_type).__name__)


def from_zeep(value, xsd_type):
    """zeep's Python value (after serialize_object) as contract JSON, by the schema type."""
    if value is None:
        return None
    item = array_item(xsd_type)
    if item is not None:
        name, element = item
        # A whole result that is an ArrayOf comes back as a bare list, a nested one as {'X': [...]}.
        items = value.get(name) if isinstance(value, dict) else value
        return [None if v is None else from_zeep(v, element.type) for v in (items or [])]
    if hasattr(xsd_type, "elements"):
        if not isinstance(value, dict):
            return unexpected(value, "complex")
        out = {}
        for name, element in xsd_type.elements:
            v = value.get(name)
            # zeep gives None both for an absent element and for xsi:nil; only nillable ones can be nil.
            if v is None and not element.nillable:
                continue
            out[name] = None if v is None else from_zeep(v, element.type)
        return out
    return scalar_from_zeep(value, xsd_type)


def operation_of(client, port, name):
    binding = client.wsdl.services["TransactionService"].ports[port].binding
    return binding._operations[name]


def call(client, session, spec):
    session.headers.pop("X-Request-Id", None)
    if spec.get("requestId"):
        session.headers["X-Request-Id"] = spec["requestId"]
    port = PORTS[spec["binding"]]
    op = operation_of(client, port, spec["op"])
    service = client.bind("TransactionService", port)
    params = spec.get("params", {})
    if spec["binding"] in ("soap11", "soap12"):
        fields = dict(op.input.body.type.elements)
        kwargs = {k: to_zeep(v, fields[k].type) for k, v in params.items()}
        result_type = op.output.body.type.elements[0][1].type
    else:
        # HTTP GET/POST parameters are all xsd:string in an ASMX WSDL: zeep sends the text as given.
        kwargs = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
        result_type = op.output.body.type
    try:
        result = getattr(service, spec["op"])(**kwargs)
    except Fault as fault:
        detail = fault.detail
        code = None if detail is None else detail.find("{*}ErrorCode")
        return {
            "fault": {
                "code": fault.code,
                "message": fault.message,
                "subcodes": [str(s) for s in (fault.subcodes or [])],
                "errorCode": None if code is None else code.text,
            }
        }
    return {"result": from_zeep(serialize_object(result), result_type)}


def json_fallback(value):
    """zeep puts the raw answer (bytes) into some errors; anything else unexpected is shown by repr."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return repr(value)


def main():
    job = json.load(sys.stdin)
    session = requests.Session()
    session.trust_env = False  # never send the test's local calls through a proxy from the environment
    client = zeep.Client(job["wsdl"], transport=Transport(session=session, timeout=10, operation_timeout=10))
    results = []
    for spec in job["calls"]:
        try:
            results.append(call(client, session, spec))
        except Exception as err:  # one failing call must not hide the others
            results.append({"error": {"type": type(err).__name__, "message": str(err)}})
    json.dump({"results": results}, sys.stdout, ensure_ascii=False, default=json_fallback)


if __name__ == "__main__":
    main()
