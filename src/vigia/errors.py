"""One domain error base carrying status and detail; each surface renders it its own way."""

from __future__ import annotations

from collections.abc import Mapping


class VigiaError(Exception):
    """An error a client should see: HTTP status, human detail and a short machine code."""

    status: int = 400
    code: str = "bad_request"

    def __init__(
        self,
        detail: str,
        *,
        status: int | None = None,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code
        self.headers = dict(headers or {})


class Unauthorized(VigiaError):
    status = 401
    code = "unauthorized"


class Forbidden(VigiaError):
    status = 403
    code = "forbidden"


class NotFound(VigiaError):
    status = 404
    code = "not_found"


class Conflict(VigiaError):
    status = 409
    code = "conflict"


class TooLarge(VigiaError):
    status = 413
    code = "too_large"


class UnsupportedMedia(VigiaError):
    status = 415
    code = "unsupported_media_type"


class Invalid(VigiaError):
    status = 422
    code = "invalid"


class RateLimited(VigiaError):
    status = 429
    code = "rate_limited"


class QuotaExceeded(VigiaError):
    status = 429
    code = "quota_exceeded"


class Overloaded(VigiaError):
    """The server is saturated (writer queue full, pool or lock timeout); carries Retry-After."""

    status = 503
    code = "overloaded"


class ClientGone(VigiaError):
    """The client closed the connection: the work for it stops (nobody reads the answer)."""

    status = 499
    code = "client_closed_request"


class UpstreamError(VigiaError):
    """A model provider failed; raised only by adapters, after translating the vendor error."""

    status = 502
    code = "upstream_error"
