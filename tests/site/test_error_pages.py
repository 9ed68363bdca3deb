"""The 403 page is the site's own (the organisers' trial: a reviewer opening a course's editor met Django's bare
"403 Forbidden"): the header, the sentence the view gave, a way back; nothing else of the request."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_refused_page_says_why_in_the_sites_frame(client, courses, make_user):
    client.force_login(make_user("rita"))
    answer = client.get(f"/courses/{courses['tiny-yard'].slug}/edit/")  # a stable course: nobody edits it
    page = answer.content.decode()
    assert answer.status_code == 403
    assert "<h1>Not allowed</h1>" in page and "only the course&#x27;s author and staff can edit it" in page
    assert 'class="site-header' in page and 'href="/"' in page
