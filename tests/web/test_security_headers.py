"""The arena's pages carry a Content-Security-Policy; the API's interactive docs do not."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/", "/games/lie21/", "/games/lie21/rules/", "/accounts/login/", "/docs/bot-api/"]
)
def test_pages_forbid_foreign_and_inline_scripts(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy


def test_swagger_ui_keeps_its_own_inline_scripts(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert "Content-Security-Policy" not in response
