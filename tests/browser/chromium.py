"""Headless Debian Chromium driven through selenium and the system chromedriver (no browser
download). Under ``CI=true`` a missing Chromium fails the tests instead of skipping them."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
INSTALL = "apt-get install -y chromium chromium-driver"


def require_chromium() -> None:
    """Skip (or fail under ``CI=true``) when the system Chromium or its driver is missing."""
    missing = [p for p in (CHROMIUM, DRIVER) if not (os.path.exists(p) and os.access(p, os.X_OK))]
    if missing:
        message = f"needs {', '.join(missing)} ({INSTALL})"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[webdriver.Chrome]:
    """A fresh headless Chromium with its own profile, at ``width`` x ``height`` CSS pixels,
    recording every network request it makes (read them with :func:`requests_made`)."""
    require_chromium()
    profile = tempfile.mkdtemp(prefix="arena-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--allow-file-access-from-files", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


#: Schemes of the browser's own pages and inline data: never a request to a server (Chromium's
#: new-tab page, for one, loads ``chrome-untrusted://new-tab-page/...`` parts as it starts).
BROWSER_INTERNAL = ("chrome:", "chrome-untrusted:", "chrome-search:", "devtools:", "about:", "data:")


def requests_made(driver: webdriver.Chrome) -> list[str]:
    """The URL of every request the browser sent to a server since the last call (requests of
    its own internal pages and of inline data are left out)."""
    import json

    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            url = str(message["params"]["request"]["url"])
            if not url.startswith(BROWSER_INTERNAL):
                urls.append(url)
    return urls


def console_errors(driver: webdriver.Chrome) -> list[str]:
    """Messages the page logged as errors (script errors, refused loads) since the last call."""
    return [str(e["message"]) for e in driver.get_log("browser") if e["level"] == "SEVERE"]
