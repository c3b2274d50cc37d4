"""The browser's "Your data" card (js/mydata.js), in headless Chromium against the real parlor-server:
- "Download my data" fetches GET /users/me/export as the page's identity (with the profile made for it
  over HTTP) and offers it as the file the server names;
- "Delete my account" asks for "delete": a wrong word deletes nothing; "delete" deletes the account
  (its profile is gone, its token answers ACCOUNT_DELETED) and the page carries on as a new player.

Usage: browser_my_data.py HTTP_URL SCREENSHOT_DIR. Exits non-zero on any surprise."""
import json
import os
import sys
import urllib.error
import urllib.request

from browser_client import Phone, check


def http(base, method, path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def main(base, shots):
    os.makedirs(shots, exist_ok=True)
    phone = None
    try:
        phone = Phone("dana", base, shots)
        phone.open("/")
        token = phone.driver.execute_script("return window.parlor.connection.token")
        user = phone.driver.execute_script("return window.parlor.connection.userId")
        status, _ = http(base, "POST", "/users", token, {"handle": "dana_web", "display_name": "Dana Web"})
        check(status == 201, f"Dana's profile was made ({status})")
        phone.find("#my-data")
        phone.shot("d01-home-with-your-data")

        # The download: the page fetches the export and hands it over as the file the server names.
        # (The page's Content-Security-Policy keeps fetch() off blob: addresses, so the test reads the
        # blob the page makes its link from, and the name the link would save it under.)
        phone.driver.execute_script("""
            window.downloaded = null;
            const blobs = new Map();
            const create = URL.createObjectURL;
            URL.createObjectURL = function (blob) { const url = create.call(URL, blob); blobs.set(url, blob); return url; };
            const click = HTMLAnchorElement.prototype.click;
            HTMLAnchorElement.prototype.click = function () {
              const blob = blobs.get(this.href);
              if (!this.download || !blob) return click.call(this);
              const name = this.download;
              blob.text().then((text) => { window.downloaded = { name, text }; });
            };""")
        phone.click("#download-data")
        phone.wait(lambda d: d.execute_script("return window.downloaded") is not None, "the export to be downloaded")
        downloaded = phone.driver.execute_script("return window.downloaded")
        check(downloaded["name"] == f"parlor-export-{user}.json", f"the file's name: {downloaded['name']}")
        document = json.loads(downloaded["text"])
        check(document["userId"] == user and document["profile"]["handle"] == "dana_web", "the export is Dana's")

        # Deleting asks for the word.
        phone.click("#delete-account")
        phone.type("#delete-confirm", "nope")
        phone.click("#delete-account-confirm")
        phone.wait_text("#notice", "Type delete")
        # (Profiles are read signed in: as another player, who is there before and after.)
        status, other = http(base, "POST", "/session", None, {})
        check(status == 200, f"another player signed in ({status})")
        check(http(base, "GET", f"/users/{user}", other["token"])[0] == 200, "nothing was deleted")
        phone.shot("d02-delete-asks")
        phone.type("#delete-confirm", "delete")
        phone.click("#delete-account-confirm")
        phone.wait_text("#notice", "Your account was deleted.")
        phone.wait(lambda d: d.execute_script("return document.body.dataset.accountDeleted") == "true", "the deletion")
        check(http(base, "GET", f"/users/{user}", other["token"])[0] == 404, "the profile is gone")
        status, answer = http(base, "GET", "/users/me/export", token)
        check(status == 401 and answer["error"]["code"] == "ACCOUNT_DELETED", f"the old token is refused ({status} {answer})")
        # The page carries on as a new player.
        phone.wait(lambda d: d.execute_script("return window.parlor.connection.state") == "online"
                   and d.execute_script("return window.parlor.connection.userId") not in (None, user), "a new identity")
        phone.shot("d03-deleted")
        print(json.dumps({"ok": True, "deleted": user}))
    finally:
        if phone:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
