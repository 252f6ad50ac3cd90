"""Every grading sandbox is built here, from the settings, so none forgets strict isolation.

STUDYBOT_GRADING_ISOLATION=strict (the default when a chat platform is configured) means no
code runs unless every isolation layer came up. Two guards hold it:

    sandbox_for(settings, warm=..)  the sandbox itself refuses every job while a layer is
                                    missing (`Sandbox(strict=...)`: its start logs which), so a
                                    caller that starts it in the background (the bot) is safe
                                    whatever it does next;
    start(sandbox, settings)        starts it and raises `IsolationRefused` at once, before any
                                    job: commands and grader processes stop there, saying which
                                    layer is missing, instead of failing job after job.

The escape drill (`studybot sandbox exec --without LAYER`) turns layers off on purpose, to
see that the others hold. Those are the operator's choice, not the kernel's refusal, so
they do not count as missing: strict mode refuses the drill only when a layer it did not
turn off is missing too. Nothing else turns layers off.
"""

from __future__ import annotations

from bot.errors import IsolationRefused
from bot.grading.pool import Layers, Sandbox
from bot.ports import Metrics
from bot.settings import Settings

NO_LAYERS_OFF: frozenset[str] = frozenset()


def sandbox_for(settings: Settings, *, warm: int, without: frozenset[str] = NO_LAYERS_OFF,
                metrics: Metrics | None = None) -> Sandbox:  # fmt: skip
    """A sandbox with `warm` workers ready, strict as `settings` say. With layers turned off
    (`without`), only `start` can enforce strictness: the sandbox would count them."""
    strict = settings.strict_isolation and not without
    return Sandbox(warm=warm, strict=strict, disabled=without, metrics=metrics)


async def start(sandbox: Sandbox, settings: Settings, without: frozenset[str] = NO_LAYERS_OFF
                ) -> Layers:  # fmt: skip
    """Start `sandbox`; its layers, or `IsolationRefused` if strict isolation forbids it to
    run anything (the caller still closes it)."""
    layers = await sandbox.start()
    if (refused := refusal(settings, layers, without)) is not None:
        raise refused
    return layers


def refusal(settings: Settings, layers: Layers, without: frozenset[str] = NO_LAYERS_OFF
            ) -> IsolationRefused | None:  # fmt: skip
    """Why strict isolation forbids grading with `layers`, or None if it does not."""
    missing = {name: why for name, why in layers.missing.items() if name not in without}
    if not settings.strict_isolation or not missing:
        return None
    return IsolationRefused(missing)
