"""The built site in a real browser (issue 22 item 5): headless Chromium (Debian's ``chromium``
and ``chromium-driver``, which ``.ci/run`` installs), driven by selenium, over HTTP as a reader
would open it (search runs in a web worker, which a ``file://`` page may not start). The search
box finds a generated resource's page by name, and the diagrams render to non-empty SVG: the
state machine from the vendored mermaid, with nothing fetched from outside the site; the layer
graph Graphviz drew at build time.

Without Chromium the tests fail, never skip: CI must not pass a browser check it did not run.
"""

from __future__ import annotations

import functools
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from tests.docs.site import Site, site  # noqa: F401  (the session's fixture)

CHROMIUM = ("chromium", "chromium-browser")
DRIVER = "chromedriver"
WAIT = 60  # seconds: a cold search index of ~340 pages on a shared machine

# Material attaches each rendered diagram in a *closed* shadow root; opened here, before any
# page script runs, so the test can look at the SVG mermaid drew (nothing else changes)
OPEN_SHADOW_ROOTS = """
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: "open"}); };
"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def url(site: Site) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site.folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    binary = next((found for name in CHROMIUM if (found := shutil.which(name))), None)
    driver_path = shutil.which(DRIVER)
    if binary is None or driver_path is None:
        pytest.fail("headless Chromium is needed: apt-get install -y chromium chromium-driver "
                    f"(found browser {binary}, driver {driver_path}); .ci/run installs them")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OPEN_SHADOW_ROOTS})
    try:
        yield driver
    finally:
        driver.quit()


def test_the_search_box_finds_a_resource_by_name(browser: webdriver.Chrome, url: str) -> None:
    start = time.monotonic()
    browser.get(url + "/")
    box = WebDriverWait(browser, WAIT).until(
        expected_conditions.element_to_be_clickable((By.CSS_SELECTOR, "input[data-md-component=search-query]"))
    )
    box.click()
    box.send_keys("Vpc")

    def vpc_result(driver: webdriver.Chrome) -> str | None:
        links = driver.find_elements(By.CSS_SELECTOR, ".md-search-result__item a")
        hrefs = [link.get_attribute("href") or "" for link in links]
        # a result links the page (?h= highlights the words found) or one of its sections (#...)
        return next((h for h in hrefs if urlsplit(h).path.rstrip("/").endswith("/reference/aws/ec2/Vpc")), None)

    href = WebDriverWait(browser, WAIT).until(vpc_result)
    browser.get(href)
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Vpc")
    assert "rule:aws.create-input-without-update" in browser.page_source
    print(f"search found {href} in {time.monotonic() - start:.1f}s")


def test_the_create_once_state_machine_renders(browser: webdriver.Chrome, url: str) -> None:
    start = time.monotonic()
    browser.get(url + "/architecture/")

    def drawn(driver: webdriver.Chrome) -> dict[str, float] | None:
        return driver.execute_script("""
            for (const host of document.querySelectorAll("div.mermaid")) {
                const svg = host.shadowRoot && host.shadowRoot.querySelector("svg");
                if (!svg) continue;
                const box = svg.getBBox();
                return {width: box.width, height: box.height, shapes: svg.querySelectorAll("g.node, g.statediagram-state, path").length,
                        text: svg.textContent};
            }
            return null;""")

    svg = WebDriverWait(browser, WAIT).until(drawn)
    assert svg["width"] > 100 and svg["height"] > 50 and svg["shapes"] > 5, svg
    assert "OUTCOME UNKNOWN" in svg["text"] and "UNSEEN" in svg["text"], svg["text"][:300]
    fetched = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert any(name.endswith("/assets/mermaid/mermaid.min.js") for name in fetched), fetched
    assert all(name.startswith(url) for name in fetched), [n for n in fetched if not n.startswith(url)]
    print(f"diagram drawn ({svg['width']:.0f}x{svg['height']:.0f}) in {time.monotonic() - start:.1f}s")


def test_the_layer_graph_drawn_at_build_time_shows(browser: webdriver.Chrome, url: str) -> None:
    browser.get(url + "/architecture/")
    box = browser.execute_script("""
        const svg = document.querySelector("div.diagram-runtime-layers svg");
        if (!svg) return null;
        const box = svg.getBoundingClientRect();
        return {width: box.width, height: box.height, nodes: svg.querySelectorAll("g.node").length};""")
    assert box is not None and box["width"] > 100 and box["height"] > 100 and box["nodes"] >= 7, box
