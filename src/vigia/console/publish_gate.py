"""«Publicar solo si pasan los casos»: the agent page's publish through the same gate as
``vigia agent publish --require-eval`` (``evaluation.runner.publish_if_passing``), with
the reason it did not publish in the console's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vigia.errors import Conflict
from vigia.evaluation.runner import EvaluationFailed, publish_if_passing


@dataclass(frozen=True)
class GateRefusal:
    """Why the draft was not published: it has no cases, some fail, or it changed while
    they ran; ``failed`` of ``total`` cases for ``failing``."""

    reason: Literal["no_cases", "failing", "changed"]
    failed: int = 0
    total: int = 0


def gated_publish(workspace_id: str, slug: str, *, by: str) -> GateRefusal | None:
    """Runs the draft's cases and publishes it when all pass (None), else says why not."""
    try:
        publish_if_passing(workspace_id, slug, by=by)
    except EvaluationFailed as error:
        if error.report is None:
            return GateRefusal("no_cases")
        return GateRefusal("failing", error.report.failed, len(error.report.cases))
    except Conflict:
        return GateRefusal("changed")
    return None
