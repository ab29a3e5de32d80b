"""The demo's stand-in model: a deterministic answer, so the demo needs no model or network.

It stands where a harness would call a language model. Its answers name the model the task
chose with ``/model``, which makes the effect of the command visible in the conversation.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MODEL", "MODELS", "stand_in_answer"]

MODELS = ("balanced", "fast", "thorough")
"""The models a task can choose from with ``/model``."""
DEFAULT_MODEL = "balanced"

_STYLES = {
    "balanced": "Here is a balanced answer",
    "fast": "Quick answer",
    "thorough": "Here is a thorough answer, considered from every side",
}


def stand_in_answer(model: str, text: str) -> str:
    """What the stand-in ``model`` says to ``text``."""
    style = _STYLES.get(model, _STYLES[DEFAULT_MODEL])
    return f"[{model}] {style} to {text!r}."
