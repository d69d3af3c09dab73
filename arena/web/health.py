"""``/healthz``: is the database answering, and the broker?"""

from django.http import HttpRequest, JsonResponse

from arena.preflight import check_broker, check_database


def healthz(request: HttpRequest) -> JsonResponse:
    problems = {"database": check_database(), "broker": check_broker(timeout_s=2.0)}
    ok = not any(problems.values())
    body = {"status": "ok" if ok else "unhealthy"}
    body.update({name: problem or "ok" for name, problem in problems.items()})
    return JsonResponse(body, status=200 if ok else 503)
