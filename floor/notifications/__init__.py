"""Notifications to players (issue 24, item 3): a player without the player
page open is told by e-mail or SMS that they are called [CM-6: 5 minutes to
appear], or that their remote entry expired.

One concept a module:

- ``base``: what a backend is (a channel's ``deliver``), a message, a failure;
- ``none``, ``mail``, ``sms``: the backends (the embedded default sends
  nothing; e-mail through Django's e-mail backends; SMS through a provider's
  HTTP API), and ``backends``, which picks one for a channel by the settings;
- ``texts``: the message, in the player's language;
- ``contacts``: a player's contact details, cleaned, and the change of them
  (an event on the Player that names the channel only, and the row of
  personal data kept outside the log);
- ``sending``: ``send(player_id, message_kind, context)``, the one interface;
- ``outbox``: the rows the projection writes for the events that call for a
  message, in its batch's transaction, once each;
- ``delivery``: the Celery tasks' work: send a row, retry it with backoff,
  mark it failed after the last attempt, sweep what a lost task left.

A send never blocks or fails a command or the projector: the projector only
writes a row, and the message goes out after its commit, from a worker.
"""

from floor.notifications.sending import send

__all__ = ["send"]
