#!/usr/bin/python3
"""The gateway scenario as a merchant's Python integration runs it: python3-zeep over SOAP 1.1,
HTTP Basic `MerchantID:TransactionKey` on a requests.Session (docs/gateway.md "Authentication").

Run with /usr/bin/python3 (Debian's python3-zeep). Reads a JSON job on stdin:

    {"wsdl": "http://127.0.0.1:40123/TransactionService.asmx?WSDL",
     "merchantId": "100001", "key": "…", "otherMerchantId": "100002", "otherKey": "…",
     "phase": "payments" | "after-runner", "ids": {…}}

Phase "payments" charges every test card, authorises and captures, voids, refunds, debits bank
accounts, pays by token, creates a recurring schedule and goes through a 3-D Secure challenge
(answering the sandbox ACS's form with `requests`, as a test would). Phase "after-runner" (after the
test has run the recurring runner) lists the schedules, settles and reads the history. Prints one
JSON object of results on stdout; the test (zeep-scenario.test.ts) asserts them.
"""

import datetime
import decimal
import json
import sys
import urllib.parse

import requests
import zeep
from zeep.exceptions import Fault, TransportError
from zeep.helpers import serialize_object
from zeep.transports import Transport

CARDS = {
    "visa": ("4242424242424242", "123"),
    "mastercard": ("5555555555554444", "123"),
    "amex": ("378282246310005", "1234"),
    "declined": ("4000000000000002", "123"),
    "insufficientFunds": ("4000000000009995", "123"),
    "expiredCard": ("4000000000000069", "123"),
    "cvvMismatch": ("4000000000000127", "123"),
    "partialApproval": ("4000000000000036", "123"),
    "threeDSecure": ("4000000000003220", "123"),
}
NEVER = datetime.datetime(1, 1, 1)  # ASMX's DateTime.MinValue: "no date" in a Required dateTime
EXPIRY = "12/%02d" % ((datetime.date.today().year + 2) % 100)


def plain(value):
    """zeep's answer as JSON-able data: long, decimal and dateTime as text, objects as dicts."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, decimal.Decimal):
        return "{:f}".format(value)
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


class Merchant:
    def __init__(self, job, merchant_id, key):
        self.id = merchant_id
        self.wsdl = job["wsdl"]
        self.base = job["wsdl"].split("/TransactionService.asmx")[0]
        session = requests.Session()
        session.trust_env = False  # never through a proxy from the environment
        session.auth = (merchant_id, key)
        self.http = session
        client = zeep.Client(job["wsdl"], transport=Transport(session=session, timeout=10, operation_timeout=10))
        self.service = client.bind("TransactionService", "TransactionServiceSoap")

    def call(self, op, **params):
        try:
            return {"result": plain(serialize_object(getattr(self.service, op)(**params)))}
        except Fault as fault:
            code = None if fault.detail is None else fault.detail.find("{*}ErrorCode")
            return {"fault": {"code": fault.code, "message": fault.message, "errorCode": None if code is None else code.text}}

    def request(self, **fields):
        """A Request with every Required element at its neutral value, then `fields`."""
        req = {
            "TestRequest": False, "MerchantID": int(self.id), "CreateToken": False, "IsSwipe": False,
            "Amount": decimal.Decimal("0"), "OriginalTransactionID": 0, "IsRecurring": False,
            "RecurringAmount": decimal.Decimal("0"), "RecurringStartDate": NEVER, "RecurringEndDate": NEVER,
            "MerchantReceipt": False, "CardHolderReceipt": False, "MagensaLogID": 0, "CustomerID": 0,
            "IsCitTransaction": False, "IsPartialRevesal": False, "SettlementAmount": decimal.Decimal("0"),
            "IsAchTransaction": False, "IsAddDSRPValue": False, "InAppTransaction": False, "IsRegisteredUser": False,
        }
        req.update(fields)
        return req

    def pay(self, **fields):
        out = self.call("ProcessTransaction", request=self.request(**fields))
        return out.get("result", out)

    def card(self, name, amount, **fields):
        number, cvv = CARDS[name]
        return self.pay(CardNumber=number, ExpirationDate=EXPIRY, CVV2=cvv, Amount=decimal.Decimal(amount), **fields)


def payments(m, other):
    out = {"sales": {name: m.card(name, "10.01", Zip="12345") for name in CARDS}}
    out["avsNoMatch"] = m.card("visa", "3.00", Zip="00000")

    auth = m.card("visa", "100.00", TransactionType="auth")
    capture = lambda amount: m.pay(TransactionType="capture", OriginalTransactionID=int(auth["TransactionID"]), Amount=decimal.Decimal(amount))
    out["auth"] = {"auth": auth, "first": capture("40.00"), "rest": capture("0"), "third": capture("0.01")}

    sale = m.card("mastercard", "15.00")
    out["void"] = {"sale": sale, "void": m.pay(TransactionType="void", OriginalTransactionID=int(sale["TransactionID"]))}

    sale = m.card("visa", "50.00")
    refund = lambda amount: m.pay(TransactionType="refund", OriginalTransactionID=int(sale["TransactionID"]), Amount=decimal.Decimal(amount))
    out["refund"] = {"sale": sale, "part": refund("20.00"), "over": refund("30.01"), "rest": refund("30.00")}

    ach = lambda account: m.pay(IsAchTransaction=True, Amount=decimal.Decimal("42.00"), RoutingNumber="011000015",
                                AccountNumber=account, AccountType="checking", NameOnAccount="Jo Doe")
    out["ach"] = {"approved": ach("000123456789"), "returned": ach("000111111116")}

    tokenized = m.card("visa", "11.00", CreateToken=True)
    out["token"] = {
        "created": tokenized,
        "paid": m.pay(SaveCardID=tokenized.get("Token"), Amount=decimal.Decimal("12.00")),
        "otherMerchant": other.pay(SaveCardID=tokenized.get("Token"), Amount=decimal.Decimal("1.00")),
        "otherMerchantOnMyId": other.call("ProcessTransaction", request=m.request(SaveCardID=tokenized.get("Token"), Amount=decimal.Decimal("1.00"))),
    }

    out["recurring"] = m.card("visa", "30.00", IsRecurring=True, RecurringAmount=decimal.Decimal("9.99"), RecurringFrequency="monthly")

    asked = m.card("threeDSecure", "25.00")
    path = urllib.parse.urlparse(asked.get("ResponseMessageDetail") or "").path
    posted = m.http.post(m.base + path, data={"outcome": "authenticate"}, timeout=10)
    result = m.http.get(m.base + path + "/result.json", timeout=10).json()
    values = dict(CAVV=result["cavv"], ECI=result["eci"], XID=result["xid"], DirectoryServerTransactionId=result["dsTransactionId"])
    out["threeDs"] = {
        "asked": asked,
        "challengeStatus": posted.status_code,
        "result": {"status": result["status"], "eci": result["eci"]},
        "paid": m.card("threeDSecure", "25.00", **values),
        "replayed": m.card("threeDSecure", "25.00", **values),
    }
    out["testRequest"] = m.card("visa", "10.00", TestRequest=True)
    out["cardInfo"] = m.call("GetCardInfo", request={"MerchantID": m.id, "CardNumber": CARDS["amex"][0]})
    out["enrolled"] = m.call("Verify3DSecureMerchant", merchantID=int(m.id))
    out["noCredential"] = without_credential(m, job_wsdl=m.wsdl)
    return out


def without_credential(m, job_wsdl):
    """What zeep meets without HTTP Basic: the transport's 401 (?WSDL itself is public)."""
    session = requests.Session()
    session.trust_env = False
    client = zeep.Client(job_wsdl, transport=Transport(session=session, timeout=10, operation_timeout=10))
    try:
        client.service.GetMerchantInfo(merchantID=int(m.id))
    except TransportError as err:
        return {"status": err.status_code, "body": err.content.decode("utf-8", "replace") if err.content else ""}
    return {"status": 200}


def after_runner(m):
    today = datetime.datetime.now(datetime.timezone.utc)
    history = lambda: m.call("GetTransactionHistories", startDate=today - datetime.timedelta(days=1),
                             endDate=today + datetime.timedelta(days=1), merchantID=int(m.id))
    return {
        "schedules": m.call("GetRecurringCustomerDetail", merchantID=int(m.id)),
        "historyBefore": history(),
        "settle": m.call("SettleTransaction", request={"MerchantID": m.id}),
        "settleAgain": m.call("SettleTransaction", request={"MerchantID": m.id}),
        "history": history(),
    }


def main():
    job = json.load(sys.stdin)
    m = Merchant(job, job["merchantId"], job["key"])
    if job["phase"] == "payments":
        out = payments(m, Merchant(job, job["otherMerchantId"], job["otherKey"]))
    else:
        out = after_runner(m)
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
