"""Routes of this domain (placeholder until the domain lands)."""

from fastapi import APIRouter

router = APIRouter()
