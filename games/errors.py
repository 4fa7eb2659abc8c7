"""The one exception type the rules raise."""


class RuleViolation(Exception):
    """A rule of the game or of the regulation refuses what was asked.

    ``code`` is stable and machine-readable (clients switch on it); ``message``
    is English prose for logs; ``params`` fill the translated message the
    interface shows to people.
    """

    code = "rule_violation"

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params
