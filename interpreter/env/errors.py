"""The errors of the learning environment that need none of its extras.

:class:`EnvStateError` is raised when the environment is used in a state
where the call makes no sense (no game yet, the game over, the environment
closed); its message says what to call first. It imports nothing.
"""

from __future__ import annotations


class EnvStateError(RuntimeError):
    """A call the environment cannot answer now; the message says what to call first."""


class NoGameYet(EnvStateError, AttributeError):
    """A game's attribute (``agents``, ``agent_selection``…) read before the first reset.

    It is an AttributeError too, so ``hasattr`` and ``getattr`` with a default
    still answer that the attribute is not there yet."""


class ActionSpaceTooSmall(ValueError):
    """A decision with more answers than the action space holds (``max_options``).

    The game stops at that decision rather than offer only the answers that fit
    (which would be another game); the message says which ``max_options`` would
    hold it. Until ``reset`` the environment then refuses to go on."""
