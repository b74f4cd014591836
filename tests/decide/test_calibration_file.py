"""The calibration loader (``vigia.decide.calibration.parse``) checks what a file is for:
its model id and the feature names of its maps, not only that the numbers parse."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from vigia.decide import scoring
from vigia.decide.calibration import (
    CALIBRATION_FILE,
    MAP_FEATURES,
    MODEL_ID,
    CalibrationMismatch,
    get_calibration,
    parse,
)
from vigia.decide.reference import Reference


def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CALIBRATION_FILE.read_text())
    return data


def test_the_shipped_file_is_the_model_the_code_reads() -> None:
    assert _shipped()["model"] == MODEL_ID == get_calibration().model


def test_a_file_of_another_model_id_is_refused() -> None:
    data = {**_shipped(), "model": "vigia-decide-9.0.0"}
    with pytest.raises(CalibrationMismatch, match=r"'vigia-decide-9\.0\.0'.*vigia-decide-1\.3\.0"):
        parse(data)


@pytest.mark.parametrize("map_name", ["choice", "binary", "examples"])
def test_a_map_that_weighs_a_feature_the_code_does_not_compute_is_refused(map_name: str) -> None:
    data = _shipped()
    data[map_name] = {**data[map_name], "state_length": 0.5}
    with pytest.raises(CalibrationMismatch, match=f"the {map_name} map .*state_length"):
        parse(data)


def test_the_known_feature_names_are_those_the_scoring_code_computes() -> None:
    """``MAP_FEATURES`` lists the keys of ``scoring``'s feature dicts (plus ``bias``), so a
    file the loader accepts never asks ``Linear`` for a feature that is not there."""
    languages = scoring.language_features("es")
    choice = scoring.choice_features(np.array([0.3, 0.1, 0.0]), languages)
    assert set(MAP_FEATURES["choice"]) == {"bias", *choice}
    assert set(MAP_FEATURES["examples"]) == {"bias", *choice}
    vectors = np.eye(4)[:3]
    reference = Reference(centre=np.zeros(4), states=vectors, asks=vectors)
    binary = scoring.binary_features(reference, vectors[0], vectors[1], 0.5, "es", "en")
    assert set(MAP_FEATURES["binary"]) == {"bias", *binary}
    assert math.isfinite(get_calibration().binary(binary))  # every weighed name is there
