"""Zip-based documents (DOCX) are checked before any library opens them: a small upload must
not expand into hundreds of megabytes in memory (a "zip bomb").

Every member's declared size is checked against a per-member cap and a total cap, then each
member is decompressed once as a stream, 64 KiB at a time, counting the bytes that really
come out (a member that yields more than it declares, or a broken one, is refused). Memory
stays at one chunk; the time is bounded by the caps.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from vigia.errors import Invalid, TooLarge

MAX_MEMBERS = 5_000
MAX_MEMBER_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
CHUNK_BYTES = 64 * 1024
MIB = 1024 * 1024
# What zipfile raises for corrupt, truncated, encrypted or oddly compressed members.
UNREADABLE = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    RuntimeError,
    NotImplementedError,
    ValueError,
    OSError,
)


def _too_large(kind: str) -> TooLarge:
    return TooLarge(
        f"this {kind} expands to more than {MAX_TOTAL_BYTES // MIB} MiB "
        f"(or one part to more than {MAX_MEMBER_BYTES // MIB} MiB); it is refused unread",
        code="document_too_large",
    )


def check_zip_bounds(data: bytes, kind: str) -> None:
    """413 when the archive ``data`` expands past the caps; 422 when it is not a readable zip."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise Invalid(f"this file is not a readable {kind}", code="unreadable_document") from error
    with archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise _too_large(kind)
        declared = 0
        for member in members:
            declared += member.file_size
            if member.file_size > MAX_MEMBER_BYTES or declared > MAX_TOTAL_BYTES:
                raise _too_large(kind)
        try:
            _count_actual_bytes(archive, members, kind)
        except UNREADABLE as error:
            raise Invalid(
                f"this file is not a readable {kind}", code="unreadable_document"
            ) from error


def _count_actual_bytes(
    archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], kind: str
) -> None:
    total = 0
    for member in members:
        size = 0
        with archive.open(member) as stream:
            while chunk := stream.read(CHUNK_BYTES):
                size += len(chunk)
                total += len(chunk)
                if size > member.file_size or size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
                    raise _too_large(kind)
