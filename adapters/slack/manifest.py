"""The Slack app manifest shipped with the adapter (manifest.yaml), for `studybot slack manifest`.

The manifest declares what the listeners in app.py handle; tests hold the two together.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

import yaml


def manifest_text() -> str:
    return files("adapters.slack").joinpath("manifest.yaml").read_text(encoding="utf-8")


def manifest() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(manifest_text())
    return loaded
