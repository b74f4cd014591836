"""An agent's upstream model as its workspace allows it: checked when saved, resolved per call.

The key is a secret of the agent's own workspace (``api_key_secret``) or an environment
variable the operator listed in ``VIGIA_MODEL_KEY_ENVS`` (never a ``VIGIA_*`` one); the base
URL's host must be in the workspace's hosts (``tool_hosts``, the egress policy of tools), a
private or loopback address only when an address or network entry lists it.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable

import httpx
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.egress import HostPolicy
from vigia.errors import Invalid
from vigia.llm.access import UpstreamAccess, env_key_refusal
from vigia.llm.local_catalog import require_registered
from vigia.llm.settings import ModelSettings
from vigia.workspaces.limits import tool_hosts, turn_limits
from vigia.workspaces.secrets import secret_names, turn_secret_value


def _url_refusal(base_url: str, hosts: list[str]) -> str | None:
    """Why ``base_url`` may not be called under ``hosts``; a name's addresses are checked
    when it is called (DNS may change), an address literal here already."""
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL:
        return "the model's base_url is not a valid URL"
    if url.scheme not in ("http", "https") or not url.host:
        return "the model's base_url must be an http(s) URL with a host"
    policy = HostPolicy(hosts)
    if not policy.allows_host(url.host):
        return f"host '{url.host}' is not in the workspace's hosts (the operator lists them)"
    try:
        address = ipaddress.ip_address(url.host.strip("[]"))
    except ValueError:
        return None
    if not policy.allows_address(address):
        return f"address {address} is private and the workspace's hosts do not list it"
    return None


def _key_refusal(model: ModelSettings, has_secret: Callable[[str], bool]) -> str | None:
    if model.api_key_env and model.api_key_secret:
        return "choose either api_key_secret or api_key_env, not both"
    if model.api_key_env:
        return env_key_refusal(model.api_key_env, get_settings().model_key_envs)
    if model.api_key_secret and not has_secret(model.api_key_secret):
        return f"the workspace has no secret '{model.api_key_secret}'"
    return None


def check_model(session: Session, workspace_id: str, model: ModelSettings) -> None:
    """Raises ``Invalid`` when the workspace may not use ``model`` (when it is saved): a local
    model must name a GGUF file the operator registered."""
    if model.provider == "local":
        require_registered(model.path or "")
        return
    if model.provider != "openai":
        return
    if not model.base_url:
        raise Invalid("an OpenAI-compatible model needs a base_url")
    refusal = _key_refusal(
        model, lambda name: name in secret_names(session, workspace_id)
    ) or _url_refusal(model.base_url, tool_hosts(session, workspace_id))
    if refusal is not None:
        raise Invalid(refusal)


def resolve_model(session: Session, workspace_id: str, model: ModelSettings) -> ModelSettings:
    """``model`` carrying the key and hosts of its workspace for the calls of one turn; a
    stored configuration the rules refuse gets a refused access (nothing is sent)."""
    if model.provider != "openai":
        return model
    limits = turn_limits(session, workspace_id)
    hosts = limits.tool_hosts if limits is not None else ()
    key = None
    if model.api_key_secret and not model.api_key_env:
        key = turn_secret_value(session, workspace_id, model.api_key_secret)
    refusal = _key_refusal(model, lambda _name: key is not None)
    if refusal is not None:
        return model.with_access(UpstreamAccess(hosts=hosts, refused=refusal))
    if model.api_key_env:
        key = os.environ.get(model.api_key_env)
    return model.with_access(UpstreamAccess(api_key=key, hosts=hosts))
