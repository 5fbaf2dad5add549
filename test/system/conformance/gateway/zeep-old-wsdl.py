#!/usr/bin/python3
"""StoredCardDetail's appended ExpirationDate (issue 14 §6) as existing python3-zeep clients meet it.

Reads a JSON job on stdin: {"wsdl": "http://…/TransactionService.asmx?WSDL", "a": {"id", "key"},
"serviceKey": "…", "email": "…"}. Merchant "a" saves a card for the e-mail (UpdateToken); then the
checkout server's credential lists the e-mail's cards twice: through a client generated from
today's WSDL, and through ones generated from the same WSDL without the ExpirationDate element (the
WSDL such a client was built from before), strict (zeep's default) and not. Prints one JSON object.
"""

import datetime
import json
import re
import sys
import tempfile

import requests
import zeep
from zeep.helpers import serialize_object
from zeep.transports import Transport

EXPIRY = "10/%02d" % ((datetime.date.today().year + 3) % 100)


def client(wsdl, auth, strict=True):
    http = requests.Session()
    http.trust_env = False
    http.auth = auth
    return zeep.Client(wsdl, transport=Transport(session=http, timeout=10, operation_timeout=10),
                       settings=zeep.Settings(strict=strict))


def listed(c, email):
    try:
        cards = c.service.GetStoredCards(email=email, phoneNumber=None)
        return {"result": [{k: v for k, v in serialize_object(x).items() if v is not None and not k.startswith("_")}
                           for x in cards or []]}
    except Exception as err:  # what the old client would meet, reported rather than raised
        return {"error": "%s: %s" % (type(err).__name__, err)}


job = json.load(sys.stdin)
service = ("service", job["serviceKey"])
merchant = client(job["wsdl"], (job["a"]["id"], job["a"]["key"]))
saved = merchant.service.UpdateToken(token={
    "MerchantID": int(job["a"]["id"]), "IsValidateCard": False, "CardNumber": "4242424242424242",
    "ExpirationDate": EXPIRY, "CardEmail": job["email"]})

wsdl = requests.get(job["wsdl"], timeout=10).text
# The StoredCardDetail type as it was: the same WSDL without its last element.
start = wsdl.index('<s:complexType name="StoredCardDetail">')
end = wsdl.index("</s:complexType>", start)
old_type, count = re.subn(r'\s*<s:element [^>]*name="ExpirationDate"[^>]*/>', "", wsdl[start:end])
with tempfile.NamedTemporaryFile("w", suffix=".wsdl", delete=False) as f:
    f.write(wsdl[:start] + old_type + wsdl[end:])

print(json.dumps({
    "saved": bool(saved["Status"]),
    "removedFromOldWsdl": count,
    "current": listed(client(job["wsdl"], service), job["email"]),
    "old": listed(client(f.name, service), job["email"]),
    "oldLenient": listed(client(f.name, service, strict=False), job["email"]),
}))
