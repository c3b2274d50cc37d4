"""The operator's page (GET /admin) in headless Chromium while three phones play: a wrong token is
refused, the right one shows the room the three are in (its code, its three members connected), the
room can be watched, and closing it with a reason takes it off the list.

Usage: admin_page.py HTTP_URL ADMIN_TOKEN SCREENSHOT_DIR. Exits non-zero on any surprise; screenshots
of the page at 1280x800 and 390x844 go to SCREENSHOT_DIR. Needs what browser_client.py needs."""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from browser_client import Phone, check, fail


class Operator(Phone):
    """The operator's browser: a laptop (1280x800), which the test narrows to a phone for one look."""

    def __init__(self, base, shots):
        # Not Phone's constructor: ChromeDriver re-applies a phone's emulation on every navigation.
        self.name, self.base, self.shots = "operator", base, shots
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--no-first-run", "--disable-extensions", "--window-size=1280,800"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        self.driver.set_page_load_timeout(30)
        self.desktop()

    def desktop(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})

    def phone(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})

    def open_admin(self):
        self.driver.get(self.base + "/admin")
        self.find("#admin-token")

    def paste(self, token):
        self.type("#admin-token", token)
        self.click("#token-form button[type=submit]")

    def listed_codes(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#games li')].map(li => li.dataset.code)")


def seat_three(ann, bo, cy):
    ann.open("/")
    ann.type("#name", "Ann")
    ann.click("#create-room")
    ann.wait(lambda d: len(ann.text("#room-code")) == 6, "the room code")
    code = ann.text("#room-code")
    for phone, name in ((bo, "Bo"), (cy, "Cy")):
        phone.open(f"/?code={code}")
        phone.type("#name", name)
        phone.click("#join")
        phone.wait_text("#room-code", code)
    ann.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 3, "three seats")
    return code


def main(base, token, shots):
    os.makedirs(shots, exist_ok=True)
    browsers = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots), Phone("cy", base, shots)]
        browsers += phones
        operator = Operator(base, shots)
        browsers.append(operator)
        code = seat_three(*phones)

        # A wrong token: refused, said so, nothing shown, nothing kept.
        operator.open_admin()
        operator.shot("admin-01-token")
        operator.paste(token + "x")
        operator.find("#token-refused")
        check(not operator.exists("#games"), "nothing is shown for a wrong token")
        check(operator.driver.execute_script("return sessionStorage.getItem('parlor.adminToken')") is None,
              "a refused token is not kept")
        operator.shot("admin-02-refused")

        # The right one: the room the three are playing, with its three members connected.
        operator.paste(token)
        operator.wait(lambda d: code in operator.listed_codes(), f"room {code} listed")
        operator.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, f"#games li[data-code='{code}'] .dot.online")) == 3,
                      "three members connected")
        operator.wait(lambda d: operator.text("[data-figure=connections] b") == "3", "three connections")
        kinds = operator.text("#kinds")
        check("rummy" in kinds, f"the games by kind: {kinds!r}")
        operator.wait(lambda d: operator.text("#connections h2") == "Connections (3)", "three connections listed")
        operator.click(f"#games li[data-code='{code}'] button.watch")
        operator.wait_text("#watched", f"Watching rummy {code}")
        operator.wait_text("#watched pre.view", '"Ann"')
        operator.shot("admin-03-desktop")

        # The same page on a phone.
        operator.phone()
        operator.wait_text("#watched", code)
        operator.shot("admin-04-phone")
        operator.desktop()

        # A reload keeps the token for this tab.
        operator.driver.refresh()
        operator.wait(lambda d: code in operator.listed_codes(), "still signed in after a reload")

        # Close the room with a reason: it leaves the list.
        operator.type("#close-reason", "The venue is closing")
        operator.click("#watched button.danger")
        operator.wait(lambda d: code not in operator.listed_codes(), f"room {code} gone from the list")
        operator.wait_text("#kinds", "rummy")
        operator.shot("admin-05-closed")
        # The players are told why, and are back at the start.
        for phone in phones:
            phone.wait_text("#notice", "The venue is closing")
            phone.find("#code")
        phones[1].shot("admin-06-player-told")

        errors = [entry for entry in operator.driver.get_log("browser") if entry.get("level") == "SEVERE"
                  and "401" not in entry.get("message", "")]
        check(not errors, f"operator: console errors {errors}")
        print(json.dumps({"ok": True, "room": code, "screenshots": shots}))
    except SystemExit:
        raise
    except Exception as error:  # noqa: BLE001 — any surprise is a failure with its sentence
        fail(f"{type(error).__name__}: {error}")
    finally:
        for browser in browsers:
            browser.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3])
