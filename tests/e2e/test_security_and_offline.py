"""Through the live stack in Chromium: no page breaks its Content-Security-Policy (lobby, game page,
course gallery, demo, API docs, admin log-in), the API docs page fetches nothing from outside the site, the
favicon answers, and serving static files under ASGI leaves no warning in the server's log."""

from urllib.request import urlopen

import pytest

from tests.e2e.test_play_three_turns import create_game, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Every violation, as the page sees it (the console message's wording varies between browser versions).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def watched_page(new_page, name):
    page, console = new_page(name)
    page.add_init_script(RECORD_VIOLATIONS)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    return page, console, requests


def violations(page):
    return page.evaluate("window.__cspViolations")


def test_no_page_breaks_the_content_security_policy(live_stack, courses, new_page):
    base = live_stack.base_url
    page, console, _ = watched_page(new_page, "alice")
    sign_up(page, base, "alice")
    page.select_option("#id_course", label="Tiny Yard")
    page.wait_for_selector("[data-course-select-preview] svg.rr-board")  # the bundle ran and drew it
    seen = {"lobby": violations(page)}
    page.fill("#id_max_seats", "2")
    game_url, _ = create_game(page, base)
    page.wait_for_selector("svg.rr-board")
    page.wait_for_function("() => document.getElementById('roboracer-styles') !== null")
    seen["game"] = violations(page)
    for name, path, ready in [("courses", "/courses/", "svg.rr-board"), ("demo", "/games/demo/", "svg.rr-board"),
                              ("docs", "/api/docs/", "text=RoboRacer API"), ("admin", "/admin/login/", "#id_username")]:
        response = page.goto(f"{base}{path}")
        assert "script-src 'self'" in response.headers["content-security-policy"], name
        page.wait_for_selector(ready)
        # Everything the page loads has loaded (a blocked load is a violation too), and the violation events
        # the browser queued meanwhile have been dispatched.
        page.wait_for_load_state("networkidle")
        page.evaluate("() => new Promise(done => setTimeout(done, 0))")
        seen[name] = violations(page)
    assert {name: found for name, found in seen.items() if found} == {}
    assert not [e for e in console.errors if "Content Security Policy" in e], console.errors
    # The bundle's injected stylesheet applies (style-src allows it): the board has its styled size.
    page.goto(game_url)
    page.wait_for_selector("svg.rr-board")
    assert page.eval_on_selector("#roboracer-styles", "el => el.sheet.cssRules.length") > 10


def test_the_api_docs_page_works_offline(live_stack, new_page):
    base = live_stack.base_url
    page, console, requests = watched_page(new_page, "reader")
    page.goto(f"{base}/api/docs/")
    page.wait_for_selector("text=RoboRacer API")
    # Redoc rendered the operations
    page.wait_for_function("() => document.body.innerText.includes('Create an account and log in')")
    page.wait_for_load_state("networkidle")
    outside = [url for url in requests if not url.startswith(base) and not url.startswith(("data:", "blob:"))]
    assert requests and outside == [], outside
    assert violations(page) == [] and console.errors == []


def test_favicon_and_static_files_under_asgi_without_warnings(live_stack):
    base = live_stack.base_url
    with urlopen(f"{base}/favicon.ico", timeout=10) as response:  # follows the redirect to the SVG
        assert response.status == 200 and response.headers["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in response.read()
    with urlopen(f"{base}/", timeout=10) as response:
        assert '/static/favicon.svg" type="image/svg+xml"' in response.read().decode()
    for path in ("/static/site.css", "/static/dist/game.js", "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"):
        with urlopen(f"{base}{path}", timeout=10) as response:
            body = response.read()
            assert response.status == 200 and len(body) == int(response.headers["Content-Length"]) > 1000
    log = live_stack.logs["web"].read_text()
    assert "Warning:" not in log and "StreamingHttpResponse" not in log, log[-2000:]
