"""The browser client signs in with the account of the app that opened it (js/account.js), in headless
Chromium against the real parlor-server (started with --auth-config: HS256, no clock skew, a short
grace):
- Ann's page is opened at /#jwt=TOKEN: the token leaves the address at once, and the page is signed in
  as the account's user (the one POST /session {jwt} names).
- Bo's page signs in with a token about to expire; when the server says it has (tokenExpired), the page
  asks its app (postMessage {type: "parlor:tokenExpired"}), which answers with a fresh token
  ({type: "parlor:jwt"}); the same connection is still up after the grace.
- Cy's page has no app to ask: it says to sign in again.

Usage: browser_account.py HTTP_URL SCREENSHOT_DIR ISSUER SECRET GRACE_SECONDS. Exits non-zero on any
surprise. Needs what browser_client.py needs, and PyJWT."""
import json
import os
import sys
import time
import urllib.request
import uuid

import jwt as pyjwt

from browser_client import Phone, check


def token(issuer, secret, sub, lifetime):
    now = int(time.time())
    return pyjwt.encode({"iss": issuer, "sub": sub, "aud": "authenticated", "role": "authenticated",
                         "iat": now, "exp": now + lifetime}, secret, algorithm="HS256")


def session_user(base, jwt):
    request = urllib.request.Request(base + "/session", data=json.dumps({"jwt": jwt}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["userId"]


def user_id(phone):
    return phone.driver.execute_script("return window.parlor.connection.userId")


def main(base, shots, issuer, secret, grace):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        ann, bo, cy = Phone("ann", base, shots), Phone("bo", base, shots), Phone("cy", base, shots)
        phones = [ann, bo, cy]

        # A handed-over token signs the page in as the account, and is gone from the address.
        long_lived = token(issuer, secret, str(uuid.uuid4()), 3600)
        ann.open(f"/#jwt={long_lived}")
        href = ann.driver.execute_script("return location.href")
        check("jwt" not in href and ann.driver.execute_script("return location.hash") == "", f"the token left the address: {href}")
        check(user_id(ann) == session_user(base, long_lived), "the page is the account's user")
        ann.shot("a01-signed-in")

        # An expiring sign-in, refreshed by the app that opened the page (acted here by a listener).
        bo_sub = str(uuid.uuid4())
        fresh = token(issuer, secret, bo_sub, 3600)
        # Ten seconds: time to load the page and sign in, even on a busy machine.
        bo.open(f"/#jwt={token(issuer, secret, bo_sub, 10)}")
        expires = time.time() + 10
        bo.driver.execute_script("""
            const fresh = arguments[0];
            window.appAsked = 0;
            window.firstSocket = window.parlor.connection.socket;
            window.addEventListener("message", (event) => {
              if (event.data?.type !== "parlor:tokenExpired") return;
              window.appAsked += 1;
              window.postMessage({ type: "parlor:jwt", jwt: fresh }, "*");
            });""", fresh)
        bo_user = user_id(bo)
        check(bo_user == session_user(base, fresh), "Bo's page is his account's user")

        # No app to ask: the page says to sign in again.
        cy.open(f"/#jwt={token(issuer, secret, str(uuid.uuid4()), 10)}")

        bo.wait(lambda d: d.execute_script("return window.appAsked") >= 1, "the page asks its app for a fresh token")
        bo.wait_text("#notice", "You are signed in again.")
        cy.wait(lambda d: d.execute_script("return document.getElementById('notice').dataset.code") == "TOKEN_EXPIRED",
                "Cy is told the sign-in expired")
        cy.wait_text("#notice", "sign in again in the app")
        cy.shot("c01-sign-in-again")

        # Past the grace: Bo's first connection is still the one, signed in as before.
        time.sleep(max(0, expires + grace + 2 - time.time()))
        same = bo.driver.execute_script("return window.parlor.connection.socket === window.firstSocket")
        check(same and bo.driver.execute_script("return window.parlor.connection.state") == "online",
              "Bo's connection outlived its first token")
        check(user_id(bo) == bo_user, "Bo is still his account's user")
        print(json.dumps({"ok": True, "ann": user_id(ann), "bo": bo_user, "asked": bo.driver.execute_script("return window.appAsked")}))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
