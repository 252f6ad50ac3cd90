"""`studybot slack manifest`: the app manifest that creates the Slack app in one step."""

from __future__ import annotations

import click


@click.group()
def slack() -> None:
    """Slack set-up helpers."""


@slack.command()
def manifest() -> None:
    """Print the Slack app manifest (YAML) to paste into "Create New App > From a manifest"."""
    from adapters.slack.manifest import manifest_text  # the Slack libraries load only here

    click.echo(manifest_text(), nl=False)
