"""The player's side of the floor (issue 24): a registered player signs in on
their phone at /jugador/ and sees the games running, their own list entries,
and joins or leaves lists, each act a floor command with the player as actor.

Its own door: a player's sign-in reaches these pages only (floor.player.fence),
and the staff's doors let no player in (floor.logins.DoorBackend).
"""
