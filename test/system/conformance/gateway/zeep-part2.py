#!/usr/bin/python3
"""Gateway part 2 as third-party clients run it: python3-zeep over SOAP 1.1 (a few calls over 1.2),
HTTP Basic on a requests.Session: a merchant (`MerchantID:TransactionKey`), the checkout server
(`service:<GATEWAY_SERVICE_KEY>`) and an anonymous caller (Login, ForgotPassword).

Run with /usr/bin/python3 (Debian's python3-zeep). Reads a JSON job on stdin:

    {"wsdl": "http://127.0.0.1:40123/TransactionService.asmx?WSDL", "phase": "main" | "reset",
     "a": {"id": "100001", "key": "…"}, "b": {"id": "100002", "key": "…"}, "serviceKey": "…",
     "user": {"name", "password", "email"}, "locked": {…}, "newPassword": "…" (phase "reset")}

Merchant "a" owns the profiles, wallet cards, invoices and both users; "b" is another merchant.

Phase "main": payment profiles, the shopper's wallet, one-time codes, CreateInvoice, Login with the
lock-out, ForgotPassword. Phase "reset" (after the test has flushed the notifier): reads the reset
link from GET /dev/outbox, sets a password with POST /reset-password, twice, and signs in. Prints
one JSON object of results on stdout; the test (zeep-part2.test.ts) asserts them.
"""

import datetime
import decimal
import json
import re
import sys

import requests
import zeep
from zeep.exceptions import Fault, TransportError
from zeep.helpers import serialize_object
from zeep.transports import Transport

VISA, MC, AMEX, DECLINED = 4242424242424242, 5555555555554444, 378282246310005, 4000000000000002
TODAY = datetime.date.today()
EXPIRY = "12/%02d" % ((TODAY.year + 2) % 100)
GUID = re.compile(r"TokenGuid=([0-9a-f-]{36})$")


def plain(value):
    """zeep's answer as JSON-able data: long and decimal as text, objects as dicts."""
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


class Caller:
    """One credential (or none): a zeep client with its SOAP 1.1 and SOAP 1.2 bindings."""

    def __init__(self, job, auth=None):
        self.base = job["wsdl"].split("/TransactionService.asmx")[0]
        self.http = requests.Session()
        self.http.trust_env = False  # never through a proxy from the environment
        self.http.auth = auth
        self.client = zeep.Client(job["wsdl"], transport=Transport(session=self.http, timeout=10, operation_timeout=10))
        self.soap11 = self.client.bind("TransactionService", "TransactionServiceSoap")
        self.soap12 = self.client.bind("TransactionService", "TransactionServiceSoap12")

    def call(self, op, soap12=False, **params):
        try:
            return {"result": plain(serialize_object(getattr(self.soap12 if soap12 else self.soap11, op)(**params)))}
        except Fault as fault:
            code = None if fault.detail is None else fault.detail.find("{*}ErrorCode")
            return {"fault": {"code": fault.code, "message": fault.message, "errorCode": None if code is None else code.text}}
        except TransportError as err:
            return {"http": err.status_code}

    def raw(self, op, **params):
        """The response body as sent (to compare two answers byte for byte)."""
        with self.client.settings(raw_response=True):
            return getattr(self.soap11, op)(**params).text


def merchant(job, m):
    caller = Caller(job, (m["id"], m["key"]))
    caller.id, caller.key = m["id"], m["key"]
    return caller


def profiles(a, b, svc):
    mid, year = int(a.id), TODAY.year + 2

    def req(customer=501, number=0, month=0, year=0, **more):
        return dict(CustomerId=customer, MerchantId=mid, CardNumber=number, CardExpirationMonth=month,
                    CardExpirationYear=year, **more)

    create = lambda **kw: a.call("CreatePaymentProfile", paymentProfileRequest=req(**kw))
    change = lambda c, op, **kw: c.call(op, paymentProfileRequest=req(**kw))
    get = lambda c, pid, customer=501, merchant=mid, soap12=False: c.call(
        "GetCustomerPaymentProfile", soap12=soap12,
        customerProfileRequest={"MerchantId": merchant, "CustomerId": customer, "PaymentProfileId": pid})
    listed = lambda customer=501, soap12=False: a.call("GetCustomerPaymentProfileList", soap12=soap12, customerID=customer, merchantID=mid)

    out = {"visa": create(number=VISA, month=7, year=year, NameOnCard="Jo Doe"),
           "amex": create(number=AMEX, month=1, year=year % 100)}
    pid = out["visa"]["result"]["PaymentProfileId"]
    out.update({
        "duplicate": create(number=VISA, month=8, year=year + 1),
        "invalidCard": create(number=4242424242424241, month=7, year=year),
        "negativeCard": create(number=-VISA, month=7, year=year),
        "expired": create(number=MC, month=1, year=TODAY.year - 1),
        "invalidExpiry": create(number=MC, month=13, year=year),
        "noCustomer": create(customer=0, number=MC, month=7, year=year),
        "get": get(a, pid),
        "get12": get(a, pid, soap12=True),
        "list": listed(),
        "list12": listed(soap12=True),
        "update": change(a, "UpdatePaymentProfile", PaymentProfileId=pid, month=9, year=year + 1, NameOnCard="J. Doe"),
        "updateToAmex": change(a, "UpdatePaymentProfile", PaymentProfileId=pid, number=AMEX, month=1, year=year),
        "updateExpired": change(a, "UpdatePaymentProfile", PaymentProfileId=pid, month=1, year=TODAY.year - 1),
        "updateUnknown": change(a, "UpdatePaymentProfile", PaymentProfileId="pp_" + "z" * 24, month=9, year=year),
        "otherCustomer": get(a, pid, customer=502),
        "otherMerchant": get(b, pid, merchant=int(b.id)),
        "otherMerchantDelete": b.call("DelelePaymentProfile", paymentProfileRequest=dict(req(PaymentProfileId=pid), MerchantId=int(b.id))),
        "onOtherMerchantsId": get(b, pid),
        "service": change(svc, "CreatePaymentProfile", number=MC, month=7, year=year),
    })
    out["updated"] = get(a, pid)
    out["delete"] = change(a, "DelelePaymentProfile", PaymentProfileId=pid)
    out.update({
        "deleteAgain": change(a, "DelelePaymentProfile", PaymentProfileId=pid),
        "afterDelete": get(a, pid),
        "listAfter": listed(),
        "again": create(number=VISA, month=7, year=year),
        "badList": listed(customer=0),
        "emptyList": listed(customer=999),
    })
    return out


def wallet(a, b, svc, send_codes):
    email, phone = "Shopper.One@Example.COM", "+1 415 555 0101"
    tok = lambda c, **f: c.call("UpdateToken", token={"MerchantID": int(a.id), "IsValidateCard": False, **f})
    out = {"saved": tok(a, CardNumber=str(VISA), ExpirationDate=EXPIRY, CVV2="123", NameOnCard="Jo Doe",
                        DisplayName="Work card", CardEmail=email, PhoneNumber=phone)}
    guid = GUID.search(out["saved"]["result"]["Message"]).group(1)
    out.update({
        "savedMc": tok(a, IsValidateCard=True, CardNumber=str(MC), ExpirationDate="11/2031", CVV2="123", CardEmail=email),
        "savedAgain": tok(a, CardNumber=str(VISA), ExpirationDate=EXPIRY, CardEmail=email, PhoneNumber=phone),
        "updated": tok(a, TokenGuid=guid, ExpirationDate="10/%d" % (TODAY.year + 3), DisplayName="Main card", CardEmail=email),
        "declined": tok(a, IsValidateCard=True, CardNumber=str(DECLINED), ExpirationDate=EXPIRY, CVV2="123", CardEmail=email),
        "declinedUpdate": tok(a, IsValidateCard=True, TokenGuid=guid, CardNumber=str(DECLINED), ExpirationDate=EXPIRY, CardEmail=email),
        "byOtherMerchant": b.call("UpdateToken", token={"MerchantID": int(b.id), "IsValidateCard": False, "TokenGuid": guid,
                                                        "DisplayName": "Mine now", "CardEmail": email}),
        "onOtherMerchantsId": b.call("UpdateToken", token={"MerchantID": int(a.id), "IsValidateCard": False,
                                                           "CardNumber": str(VISA), "ExpirationDate": EXPIRY, "CardEmail": email}),
        "noContact": tok(a, CardNumber=str(VISA), ExpirationDate=EXPIRY),
        "listed": svc.call("GetStoredCards", email=email.lower(), phoneNumber=None),
        "listedByPhone": svc.call("GetStoredCards", email=None, phoneNumber="(415) 555-0101"),
        "listedRaw": svc.raw("GetStoredCards", email=email, phoneNumber=phone),
        "merchantList": a.call("GetStoredCards", email=email, phoneNumber=None),
        "nobody": svc.call("GetStoredCards", email="nobody@example.com", phoneNumber=None),
        "badContact": svc.call("GetStoredCards", email="not-an-email", phoneNumber=None),
    })
    out["codes"] = send_codes(email, phone)
    out.update({
        "merchantRemove": a.call("RemoveStoredCard", email=email, phoneNumber=None, tokenGuid=guid),
        "removed": svc.call("RemoveStoredCard", email=email, phoneNumber=phone, tokenGuid=guid),
        "removedAgain": svc.call("RemoveStoredCard", email=email, phoneNumber=phone, tokenGuid=guid),
        "listedAfter": svc.call("GetStoredCards", email=email, phoneNumber=phone),
        "updateRemoved": tok(a, TokenGuid=guid, DisplayName="Back?", CardEmail=email),
    })
    out["guid"] = guid
    return out


def codes(a, svc, anon):
    def run(email, phone):
        send = lambda c, e, p, soap12=False: c.call("SendVerificationCode", soap12=soap12, email=e, phoneNumber=p)
        stranger = ("stranger@example.com", "+44 20 7946 0958")
        return {
            "known": send(svc, email, phone),
            "known12": send(svc, email, phone, soap12=True),
            "unknown": send(svc, *stranger),
            "mixed": send(svc, email, stranger[1]),
            "knownRaw": svc.raw("SendVerificationCode", email=email, phoneNumber=phone),
            "unknownRaw": svc.raw("SendVerificationCode", email=stranger[0], phoneNumber=stranger[1]),
            "merchant": send(a, email, phone),
            "merchant12": send(a, email, phone, soap12=True),
            "anonymous": send(anon, email, phone),
        }
    return run


def invoices(a, b, svc):
    mid, today = int(a.id), TODAY.isoformat()
    inv = lambda number, amount, date=today: {"InvoiceNumber": number, "InvoiceAmount": decimal.Decimal(amount), "InvoiceDate": date}

    def create(c, fee, percentage, items, **more):
        return c.call("CreateInvoice", invoiceRequest=dict(MerchantID=mid, ConvenienceFee=decimal.Decimal(fee),
                      ConvenienceFeePercentage=percentage, Invoices={"InvoiceDetails": items}, **more))

    mix = [inv("1001", "100.00"), inv("1002", "1.50", today + "T09:30:00"), inv("1003", "0"), inv(None, "10.005"),
           inv("1005", "5.00", None), inv("1001", "1.00"), inv("1007", "2.00", "0001-01-01T00:00:00")]
    out = {"mix": create(a, "3", True, mix, TransactionKey=a.key, QbCustomerId="QB-7"),
           "twoAndHalf": create(a, "2.5", True, [inv("2001", "100.01")]),
           "allInvalid": create(a, "1.00", False, [inv("3001", "-1.00"), inv("3002", "1.999")]),
           "badFee": create(a, "100.01", True, [inv("4001", "1.00")]),
           "wrongKey": create(a, "0", False, [inv("5001", "1.00")], TransactionKey="not-the-key"),
           "otherMerchant": create(b, "0", False, [inv("6001", "1.00")]),
           "service": create(svc, "0", False, [inv("7001", "1.00")])}
    details = lambda c, r, soap12=False: c.call("GetHostedPaymentDetails", soap12=soap12, token=r["result"].get("InvoiceRandomNumber"))
    out["mixSession"] = details(a, out["mix"])
    out["mixSession12"] = details(svc, out["mix"], soap12=True)
    out["mixSessionForB"] = details(b, out["mix"])
    out["twoAndHalfSession"] = details(a, out["twoAndHalf"])
    return out


def users(anon, job):
    user, locked = job["user"], job["locked"]
    login = lambda name, password, profile=False: anon.call("Login", loginRequest={"UserName": name, "Password": password, "ProfileInfo": profile})
    raw_login = lambda name, password: anon.raw("Login", loginRequest={"UserName": name, "Password": password, "ProfileInfo": False})
    forgot = lambda name, email: anon.call("ForgotPassword", request={"UserName": name, "Email": email})
    raw_forgot = lambda name, email: anon.raw("ForgotPassword", request={"UserName": name, "Email": email})
    out = {
        "ok": login(user["name"].upper(), user["password"]),
        "profile": login(user["name"], user["password"], True),
        "wrong": login(user["name"], user["password"] + "x"),
        "unknown": login("no.such.user", user["password"]),
        "empty": login("", ""),
        "wrongRaw": raw_login(user["name"], "wrong password 1"),
        "unknownRaw": raw_login("no.such.user", "wrong password 1"),
        "lockOut": [login(locked["name"], "wrong password %d" % i) for i in range(10)],
    }
    out["eleventh"] = login(locked["name"], locked["password"])
    out["forgot"] = {
        "known": forgot(locked["name"].lower(), locked["email"].upper()),
        "unknown": forgot("no.such.user", "nobody@example.com"),
        "wrongEmail": forgot(user["name"], "not.ann@example.com"),
        "missing": forgot(user["name"], ""),
        "knownRaw": raw_forgot(user["name"], user["email"]),
        "unknownRaw": raw_forgot("no.such.user", user["email"]),
    }
    return out


def reset(anon, job):
    locked, new = job["locked"], job["newPassword"]
    outbox = lambda to: anon.http.get(anon.base + "/dev/outbox", params={"to": to}, timeout=10).json()["messages"]
    messages = outbox(locked["email"])
    link = re.search(r"/reset-password\?token=(pr_[A-Za-z0-9_-]{43})", messages[0]["text"]) if messages else None
    token = link.group(1) if link else None
    post = lambda password: anon.http.post(anon.base + "/reset-password", json={"token": token, "password": password}, timeout=10)
    answer = lambda r: {"status": r.status_code, "body": r.json()}
    login = lambda password: anon.call("Login", loginRequest={"UserName": locked["name"], "Password": password, "ProfileInfo": False})
    out = {
        "messages": [{k: m[k] for k in ("channel", "to", "subject", "purpose")} for m in messages],
        "token": token,
        "notSentTo": {to: len(outbox(to)) for to in ("nobody@example.com", "not.ann@example.com")},
        "weak": answer(post("short")),
        "reset": answer(post(new)),
        "again": answer(post(new + "9")),
    }
    out["loginNew"] = login(new)
    out["loginOld"] = login(locked["password"])
    return out


def main():
    job = json.load(sys.stdin)
    anon = Caller(job)
    if job["phase"] == "reset":
        out = reset(anon, job)
    else:
        a, b = merchant(job, job["a"]), merchant(job, job["b"])
        svc = Caller(job, ("service", job["serviceKey"]))
        out = {"profiles": profiles(a, b, svc), "wallet": wallet(a, b, svc, codes(a, svc, anon)),
               "invoices": invoices(a, b, svc), "users": users(anon, job)}
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
