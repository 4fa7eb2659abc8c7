"""What people read when a command is refused, in their language.

The domain raises errors as a stable code and its params, with no prose
(floor.kernel.errors); this is the one catalogue that says them to people: a
translatable message for each code, filled with the error's params, in es, gl,
pt and en (issue 21: the English is written once, here, not in the domain too).
A code this catalogue lacks is said as the generic "refused" message, never as
its raw code; tests/floor/test_messages_catalogue.py keeps every raised code
catalogued, so that fallback is only a safety net.

The file stays whole, over 400 lines, by design: it is one catalogue, one entry
per code, so a code is looked up (and its translation checked,
tests/floor/test_messages_catalogue.py) in one place.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from floor.amounts import money
from floor.kernel.errors import DomainError, ErrorKind
from floor.kernel.roles import Role
from games.errors import RuleViolation

# The HTTP status of each kind of refusal (the API's status, the console's too).
STATUS_BY_KIND = {
    ErrorKind.INVALID: 400,
    ErrorKind.CONFLICT: 409,
    ErrorKind.FORBIDDEN: 403,
    ErrorKind.NOT_FOUND: 404,
}

MESSAGES = {
    "sector_full": _(
        "%(sector)s already has %(max_tables)s tables: a sector holds at most "
        "%(max_tables)s (GA art. 19)."
    ),
    "sector_exists": _("There is already a sector called %(sector)s."),
    "sector_name_required": _("A sector needs a name."),
    "sector_name_invalid": _("A sector name may not contain control characters."),
    "sector_name_too_long": _("A sector name has at most %(max_length)s characters."),
    "sector_not_found": _("That sector does not exist."),
    "unknown_variant": _("Unknown variant: %(variant)s."),
    "unknown_limit": _("Unknown betting limit: %(limit)s."),
    "not_an_integer": _("Amounts and seats must be whole numbers."),
    "stakes_minimum_not_positive": _("The table minimum must be a positive amount."),
    "stakes_minimum_odd": _(
        "The table minimum must be a whole number of cents that halves evenly: the "
        "small blind is half of it."
    ),
    "stakes_too_large": _("A table maximum is at most %(max_euros)s euros."),
    "stakes_maximum_below_minimum": _("The table maximum may not be below its minimum."),
    "stakes_out_of_band": _(
        "The table minimum must be between %(low_percent)s %% and "
        "%(high_percent)s %% of the maximum (GA art. 22.3a; PT 20)."
    ),
    "seats_out_of_range": _("This table must have between %(low)s and %(high)s seats."),
    # --- players -------------------------------------------------------------------
    "player_not_found": _("There is no player with that card or id."),
    "player_exists": _("Card %(card_number)s is already registered."),
    "card_number_invalid": _("A card number has 1 to 30 letters, digits or dashes."),
    "display_name_required": _("A player needs a name."),
    "display_name_invalid": _("A player's name has at most %(max_length)s printable characters."),
    # A player's contact for the call's message (issue 24, item 3).
    "contact_channel_invalid": _("Choose how the player is told of a call: none, e-mail or SMS."),
    "email_invalid": _("That is not an e-mail address."),
    "phone_invalid": _("Give the mobile number with its country code, as in +34600123456 (E.164)."),
    "email_required": _("To be told by e-mail, the player needs an e-mail address."),
    "phone_required": _("To be told by SMS, the player needs a mobile number."),
    "language_invalid": _("Choose Spanish, Galician, Portuguese or English."),
    # A patron's identity document (issue 25, item 1; floor.compliance.documents).
    "document_type_invalid": _("Choose the document: DNI, NIE, passport or other."),
    "document_number_required": _("Type the document's number."),
    "document_number_invalid": _(
        "That is not a valid number for this document: a DNI is 8 digits and a letter, "
        "a NIE X, Y or Z, 7 digits and a letter, a passport 5 to 9 letters or digits."
    ),
    "document_letter_wrong": _("The letter does not match the number: check the document."),
    "country_invalid": _("Give the issuing country as its two-letter ISO code, as in ES or PT."),
    "full_name_required": _("Type the patron's full name as on the document."),
    "full_name_invalid": _("A full name has at most %(max_length)s printable characters."),
    "birth_date_invalid": _("That is not a real birth date (YYYY-MM-DD)."),
    "patron_under_age": _("The patron is under %(age)s: minors may not enter the casino."),
    "document_other_patron": _("That document is already recorded for another patron."),
    "identity_not_recorded": _("No identity document is recorded for that patron."),
    # Exclusion lists (issue 25, item 2): the staff's refusal names the list
    # and its version; no public screen shows it.
    "patron_excluded": _(
        "The patron is on an exclusion list (%(list)s, version %(version)s): they may not play."
    ),
    "possible_exclusion": _(
        "The patron's name and birth date match an entry of an exclusion list "
        "(%(list)s, version %(version)s) without its document: a director must resolve it."
    ),
    "ask_at_the_desk": _("That cannot be done from here: please ask at the room's desk."),
    "no_possible_exclusion": _("That patron has no possible match to resolve."),
    "patron_already_self_excluded": _("That patron is already self-excluded."),
    # Lifting a self-exclusion and the retention purge (issue 25, item 4).
    "not_self_excluded": _("That patron is not self-excluded."),
    "self_exclusion_too_recent": _(
        "The self-exclusion may not be lifted before %(day)s: the house's minimum period "
        "has not passed."
    ),
    "lift_reason_required": _("Say why the self-exclusion is lifted."),
    "patron_self_excluded": _(
        "The patron is self-excluded: their document is kept while the exclusion is in force."
    ),
    # A director's erasure the law does not allow yet (issue 25, item 4).
    "identity_retention_running": _(
        "The law requires keeping this document until %(day)s (%(source)s); "
        "if it was recorded in error, erase it giving that reason."
    ),
    "identity_kept_for_good": _(
        "This room keeps identity documents for good (%(source)s): "
        "one is erased only if it was recorded in error."
    ),
    "patron_on_exclusion_list": _(
        "The patron's document is on an exclusion list (%(lists)s): "
        "it is kept while the list names it."
    ),
    "erase_reason_invalid": _(
        "Give no reason once the retention has ended, "
        "or recorded_in_error for a document recorded in error."
    ),
    "personal_data_journal_lagging": _(
        "The patron's records are being brought up to date: try again in a moment."
    ),
    "list_version_exists": _("That version (%(version)s) of the list is already imported."),
    "list_version_invalid": _("The list's version is its date (YYYY-MM-DD)."),
    "exclusion_source_invalid": _("Unknown exclusion list: choose rgiaj, regional, srij or house."),
    "exclusion_region_required": _("A regional list needs its region's code (GA)."),
    "exclusion_mapping_invalid": _(
        "The list's column mapping is not valid: document, name, birth_date, "
        "date_format, delimiter."
    ),
    "exclusion_columns_missing": _("The list's file lacks these columns: %(missing)s."),
    "exclusion_file_unreadable": _("The list's file is not a CSV file that can be read."),
    "decision_invalid": _("Decide clear or excluded."),
    "note_too_long": _("The note is too long (at most %(max_length)s characters)."),
    "bar_reason_required": _("Give a reason for barring the player."),
    "player_already_barred": _("That player is already barred."),
    "player_not_barred": _("That player is not barred."),
    "player_seated": _("That player is seated: they leave the table before being barred."),
    "player_barred": _("That player is barred and may not play."),
    "player_already_seated": _("That player already sits at another table."),
    # --- the player's own sign-in (issue 24) -----------------------------------------
    "code_minutes_invalid": _("A sign-in code lasts from 1 to %(max_minutes)s minutes."),
    "player_sign_in_taken": _(
        "The sign-in name %(username)s belongs to a member of staff: no player code for it."
    ),
    "pin_format": _("A PIN has %(min_digits)s to %(max_digits)s digits, and nothing else."),
    "pin_same_digit": _("A PIN may not be one digit repeated: choose another."),
    "pin_straight_run": _("A PIN may not be a run of digits (1234, 9876): choose another."),
    "pin_mismatch": _("The two PINs differ: type the same PIN twice."),
    "drop_invalid": _("Say whether the other lists are kept (false) or dropped (true)."),
    # --- waiting lists ------------------------------------------------------------
    "player_not_on_list": _("That player is not on this waiting list."),
    "seated_same_variant": _("A seated player may register only for a different variant (CM-7)."),
    "reason_invalid": _("That reason is not one the floor accepts."),
    "waiting_list_first": _(
        "The waiting list comes first: the seat is held for a called player, or "
        "someone is waiting ahead of this player."
    ),
    "nobody_to_call": _("Nobody on the waiting list is free to take the seat."),
    # --- the player's side of the list (issue 24) ------------------------------------
    "not_your_player": _("A player may act only for themselves."),
    "reason_not_allowed": _("A player takes themselves off a list only as withdrawn."),
    "already_on_list": _(
        "That player is already on this list: registering again is done in the room (CM-6)."
    ),
    "entry_not_remote": _("That entry was made at the desk: there is nothing to check in."),
    "already_checked_in": _("That player is already checked in."),
    "check_in_lapsed": _(
        "The entry's time to check in has passed and it has expired: the player joins "
        "the list again."
    ),
    "too_many_lists": _(
        "You are on %(most)s lists already: leave one before joining another from outside."
    ),
    "player_not_checked_in": _(
        "That player registered from outside the room: check them in when they arrive."
    ),
    "player_not_called": _("That player has not been called."),
    "answer_invalid": _("The answer to a call is one of: %(answers)s."),
    "more_time_already_asked": _("More time may be asked for once a call."),
    "call_already_answered": _("That answer is already recorded."),
    "call_lapsed": _("The call's time ran out: it can no longer be answered (CM-6)."),
    "seat_already_offered": _("That seat is already offered to a called player."),
    # --- tables and seats ---------------------------------------------------------
    "table_not_found": _("That table does not exist."),
    "table_closed": _("Table %(table)s is closed."),
    "table_full": _("The table has no free seat."),
    "table_not_started": _("The seats of table %(table)s are drawn when it starts."),
    "table_not_registering": _("The seats of table %(table)s were drawn already."),
    "hand_in_progress": _("A hand is being played at table %(table)s: wait for it to end."),
    "seat_out_of_range": _("That seat does not exist at this table."),
    "seat_taken": _("Seat %(seat)s is taken."),
    "seat_required": _("Say which seat the player takes."),
    "seat_is_drawn": _("The draw is open until the table is full: the seat is drawn (CM-3)."),
    "player_not_at_table": _("That player does not sit at this table."),
    "seat_change_already_requested": _("That player has already asked to change seat."),
    "no_seat_change_request": _("That player has not asked to change seat."),
    "seat_change_requested_first": _(
        "A player at this table asked to change seat: offer seat %(seat)s to them first."
    ),
    "player_already_resting": _("That player is already resting."),
    "player_not_resting": _("That player is not resting."),
    "rest_used_repeatedly": _(
        "The player in seat %(seat)s keeps resting and must leave the table (PT 13)."
    ),
    # --- the draw -------------------------------------------------------------------
    "table_ids_required": _("Name the tables to draw."),
    "too_many_tables": _("One draw serves at most four tables (PT 25)."),
    "tables_not_same_game": _("One draw is for one game: the tables must play the same game."),
    "not_enough_players": _(
        "Only %(registered)s players are registered; the draw needs %(needed)s (GA art. 23; PT 24)."
    ),
    # --- chips ------------------------------------------------------------------------
    "amount_invalid": _(
        "That amount is not valid: amounts are whole cents, never negative, and a "
        "buy-in is more than zero."
    ),
    "buy_in_not_table_average": _(
        "Joining a game in progress, a player buys in for the average stack at the table (PT 28)."
    ),
    "buy_in_out_of_limits": _(
        "The buy-in must be between the table minimum (%(minimum_euros)s) and maximum "
        "(%(maximum_euros)s)."
    ),
    "rebuy_out_of_limits": _(
        "A rebuy is at least the table minimum and leaves the stack at most the "
        "table maximum (CM-2)."
    ),
    "buy_in_below_minimum": _(
        "A first buy-in at this table is %(minimum_euros)s to %(maximum_euros)s: "
        "%(amount_euros)s is below the minimum (%(rule)s)."
    ),
    "buy_in_above_maximum": _(
        "A first buy-in at this table is %(minimum_euros)s to %(maximum_euros)s: "
        "%(amount_euros)s is above the maximum (%(rule)s)."
    ),
    "rebuy_below_minimum": _(
        "A rebuy at this table is at least %(minimum_euros)s: %(amount_euros)s is "
        "below the minimum (%(rule)s)."
    ),
    "rebuy_above_maximum": _(
        "A rebuy at this table may not take the stack past %(maximum_euros)s: the "
        "player has %(stack_euros)s and %(amount_euros)s is too much (%(rule)s)."
    ),
    # --- hands ------------------------------------------------------------------------
    "table_not_running": _("Hands are dealt only while the table is running."),
    "variant_required": _("On a mixed table the player with the hand names the variant (PT 23)."),
    "variant_not_at_table": _("This table does not play that variant."),
    "hand_report_invalid": _(
        "The hand report is not valid: check the seats dealt in and their amounts."
    ),
    "too_few_players_dealt_in": _("A hand needs at least two players."),
    "button_required": _(
        "Say which seat holds the button: the dealer marks the first one (GA art. 23.1)."
    ),
    "button_seat_empty": _("Seat %(seat)s is empty: the button cannot go there."),
    "button_out_of_turn": _("The button goes to seat %(expected)s this hand."),
    "seat_empty": _("Seat %(seat)s is empty."),
    "player_resting": _("The player in seat %(seat)s is resting."),
    "rebuy_required": _(
        "The player in seat %(seat)s must buy chips before playing: their stack is "
        "empty or does not cover the blinds they owe (CM-16; PT 79, 90)."
    ),
    "player_must_leave": _("The player in seat %(seat)s must leave the table (PT 13)."),
    "newcomer_on_button_seat": _(
        "The player in seat %(seat)s joined on the button's seat: they play from "
        "the next hand (PT 80)."
    ),
    "blind_over_stack": _("A player cannot post a blind larger than their stack."),
    "big_blind_owed": _(
        "The player in seat %(seat)s owes a big blind: they post it to play this "
        "hand, or wait for the big blind (CM-17, PT 89)."
    ),
    "newcomer_waits_for_big_blind": _(
        "The player in seat %(seat)s has just joined: they post a big blind to play "
        "this hand, or wait for the big blind (CM-17, PT 89)."
    ),
    "no_hand_in_progress": _("No hand is being played at this table."),
    "seat_not_in_hand": _("Seat %(seat)s was not dealt in this hand."),
    "hand_does_not_balance": _(
        "The winnings (%(won_euros)s) plus the rake (%(rake_euros)s) must equal what was put "
        "in the pot (%(pot_euros)s)."
    ),
    "rake_above_maximum": _(
        "A rake of %(rake_euros)s is more than the rules allow on these called pots "
        "(%(pot_euros)s): type at most %(maximum_euros)s."
    ),
    # --- the pots at a hand's end (issue 19) ------------------------------------------
    "blind_not_in_contributions": _(
        "Seat %(seat)s posted a blind of %(blind_euros)s: it belongs in what the seat put in "
        "(PT 89; CM-17)."
    ),
    "dead_blind_not_in_contributions": _(
        "Seat %(seat)s posted %(blind_euros)s of missed blinds dead: they belong in what the "
        "seat put in (PT 90)."
    ),
    "no_live_player": _("At least one player must still be in the hand."),
    "folded_seat_wins": _(
        "Seat %(seat)s folded (it put in less than the bet with chips behind, or was named "
        "folded): it wins nothing. Pot %(pot)s of %(pot_euros)s is for seats %(eligible)s."
    ),
    "winnings_outside_pot": _(
        "Seat %(seat)s and the seats that stop where it does win %(won_euros)s, more than the "
        "pots they may win hold (%(most_euros)s): they reach pot %(pot)s of %(pot_euros)s, "
        "for seats %(eligible)s (PT 49-50; CM restados)."
    ),
    "uncalled_not_returned": _(
        "Nobody called %(returned_euros)s of seat %(seat)s's bet: they go back to that seat, "
        "which takes only %(won_euros)s (PT 38)."
    ),
    "pot_winners_too_many": _("This hand has %(pots)s pots."),
    "pot_winners_missing": _("Say who won pot %(pot)s of %(pot_euros)s (seats %(eligible)s)."),
    "pot_winner_not_eligible": _(
        "Seat %(seat)s may not win pot %(pot)s of %(pot_euros)s: it is for seats %(eligible)s."
    ),
    "folded_seat_shown": _("Seat %(seat)s folded: its cards do not play."),
    "shown_hand_invalid": _("Seat %(seat)s's cards are not a hand of this game."),
    "duplicate_card": _("The card %(card)s is given twice."),
    "showdown_hand_missing": _(
        "Seat %(seat)s contests pot %(pot)s (seats %(eligible)s): give its cards, or name it "
        "folded if it mucked."
    ),
    "hand_result_required": _(
        "Give the winnings, or who won each pot, or the hands shown at the showdown."
    ),
    "hand_result_twice": _(
        "Give either the winnings or who won (each pot's winners or the hands shown), not both."
    ),
    "rake_not_as_announced": _(
        "The service takes the rake the table announced: %(expected_euros)s on these pots, "
        "not %(rake_euros)s."
    ),
    "contribution_over_stack": _("Seat %(seat)s put in more than its stack."),
    # --- opening a table: variants, ante and rake -----------------------------------
    "variant_not_in_profile": _("The %(profile)s rules do not provide for this variant."),
    "mixed_table_not_allowed": _("The %(profile)s rules do not provide for mixed tables."),
    "mixed_table_variants_invalid": _(
        "A mixed table plays two different non-banked variants (PT 23)."
    ),
    "ante_above_half_minimum": _("The ante may be at most half of the table minimum."),
    "rake_field_unknown": _("Unknown rake setting: %(field)s."),
    "bad_override_value": _("One of the rake settings has a value that is not valid."),
    "rake_model_not_in_profile": _("These rules do not provide for that rake model."),
    "rake_not_for_banked": _("Banked games have no rake: the bank plays against the boxes."),
    "override_not_for_rake_model": _(
        "Some of those rake settings do not apply to the chosen rake model."
    ),
    "rake_percent_out_of_band": _(
        "The rake per hand is between 0 %% and %(high_percent)s %% of the pot."
    ),
    "rake_cap_not_allowed": _("These rules have no cap on the rake."),
    "rake_cap_above_profile": _("The rake cap is above what these rules allow."),
    "rake_step_not_in_profile": _("These rules do not allow that rake step."),
    "session_percent_out_of_band": _(
        "The session charge is between %(low_percent)s %% and %(high_percent)s %%."
    ),
    "session_base_not_in_profile": _(
        "The session charge is a share of the table maximum or of the stack."
    ),
    "role_not_allowed": _("Your role may not do this: it needs the role %(roles)s."),
    "not_your_sector": _("You do not run %(sector)s; its jefes are %(jefes)s."),
    "not_your_table": _("You do not deal at table %(table)s."),
    # The dealer rotation (issue 26; GA art. 19).
    "dealer_required": _("Name the dealer (their username)."),
    "dealer_invalid": _("That is not a dealer's username."),
    "dealer_games_required": _("Name at least one game the dealer may deal."),
    "unknown_game": _("Unknown game: %(game)s."),
    "dealer_not_clocked_in": _("%(dealer)s has not clocked in."),
    "dealer_in_another_sector": _("%(dealer)s is clocked in at another sector."),
    "dealer_already_clocked_in": _("%(dealer)s has already clocked in."),
    "dealer_has_no_games": _("Set the games %(dealer)s may deal before they clock in."),
    "dealer_still_dealing": _(
        "%(dealer)s is dealing: push a relief in first, a table always has a dealer (GA art. 19)."
    ),
    "dealer_on_break": _("%(dealer)s is already on break."),
    "dealer_not_on_break": _("%(dealer)s is not on break."),
    "no_push_planned": _("No push is planned at table %(table)s: nobody in the box may deal it."),
    "push_changed": _("The plan has changed: %(dealer)s goes to table %(table)s now."),
    "override_reason_required": _("Say why you send another dealer."),
    "override_reason_too_long": _("A reason has at most %(max_length)s characters."),
    "dealer_already_at_table": _("%(dealer)s already deals table %(table)s."),
    "dealer_may_not_deal_game": _("%(dealer)s may not deal the game of table %(table)s."),
    "dealer_deals_game": _(
        "%(dealer)s deals table %(table)s now: keep its game, or push a relief in there first."
    ),
    "dealer_at_another_table": _("%(dealer)s deals table %(table)s: push a relief in there first."),
    "command_id_required": _("The request has no command id."),
    "command_id_invalid": _("A command id may not contain control characters."),
    "command_id_too_long": _("A command id has at most %(max_length)s characters."),
    "command_id_reused": _("This command id was already used for a different command."),
    "unknown_rule_profile": _("Unknown rule profile."),
    "invalid_input": _("Some fields are missing or wrong."),
    # Said for a refusal whose code is not catalogued (floor.messages.describe).
    "refused": _("The floor refused this request; nothing was recorded."),
    "not_found": _("Not found."),
    # --- reports ------------------------------------------------------------------
    "report_filter_invalid": _(
        "The report's filter %(field)s cannot be read: docs/reporting.md gives its values."
    ),
    "report_format_invalid": _("A report's format is json or csv."),
    "report_range_empty": _("The end of the range (to) must come after its start (from)."),
    "report_by_invalid": _(
        "The report cannot be grouped by that: docs/reporting.md lists its groupings."
    ),
    "report_subject_invalid": _(
        "A history is of one table, one player or one account: give exactly one of them."
    ),
    "report_moment_before_table": _(
        "That table did not exist yet at that moment: it opened at %(opened_at)s."
    ),
    "account_not_found": _("The books have no such account."),
    "stored_event_unreadable": _(
        "The event at log position %(position)s cannot be read from the event store, so "
        "this cannot be answered. It is logged: run verify_log."
    ),
    "filter_invalid": _(
        "The filter %(field)s cannot be read: the API's schema (/api/schema/) gives its values."
    ),
    "server_error": _("Something went wrong on the server. It is logged; please try again."),
    "bad_request": _("The request could not be read."),
    "store_unavailable": _(
        "The floor's records did not answer. Please try again: the same request "
        "is never recorded twice."
    ),
    "read_models_lagging": _(
        "The command was recorded but the screens are behind; reload in a moment."
    ),
    "timer_not_due": _("That deadline has not come yet."),
    "reseat_cooldown": _(
        "This player left a table of this game a short while ago: they may sit at "
        "another without the draw only after the cool-down (CM-13)."
    ),
    "tables_unbalanced": _(
        "That would leave %(fullest)s and %(emptiest)s more than %(limit)s player apart: "
        "tables of one game stay balanced (CM-10)."
    ),
    "no_such_proposal": _("That move is no longer proposed: the tables changed since."),
    "move_not_same_game": _("A player moves only between tables of one game and stakes."),
    "same_table": _("The player already sits at that table."),
    "player_not_seated": _("That player is not seated."),
    "reason_required": _("Say why: every move the jefe chooses records it."),
    "table_change_already_requested": _("That player has already asked to change table."),
    "table_change_requested_first": _(
        "A seated player asked to change to this table: the seat is offered to them "
        "before the list (CM-11)."
    ),
    "no_table_change_request": _("Nobody at that table asked to change table."),
    # Must-move tables (floor.domain.must_move).
    "must_move_not_allowed": _(
        "Players here change table only once their stack is lost (PT 26): a must-move "
        "table cannot be run."
    ),
    "must_move_same_table": _("A table cannot be its own must-move table."),
    "must_move_other_sector": _(
        "A must-move table and its main table are in the same sector: one jefe runs both."
    ),
    "must_move_already": _("This table is already a must-move table."),
    "must_move_chain": _(
        "A must-move table feeds a main table directly: neither may already feed or be fed "
        "by another."
    ),
    "main_has_must_move": _("That main table already has a must-move table."),
    "not_must_move": _("This table is not a must-move table."),
    "no_must_move_table": _("No must-move table feeds this table."),
    "nobody_to_move": _(
        "Nobody at the must-move table may move now: the tables would be unbalanced "
        "(CM-10), or its players are away or kept apart from this table. The seat goes "
        "to the list."
    ),
    "must_move_first": _(
        "A player of the must-move table moves to this seat before the list: move them first."
    ),
    "table_change_needs_stack_lost": _(
        "A player changes table only after losing their stack (PT 26)."
    ),
    "table_would_fall_below_minimum": _(
        "The table would fall below the players a game needs (PT 26)."
    ),
    "players_kept_apart": _("This player is kept apart from a player at that table (CM-14)."),
    "keep_apart_self": _("A player cannot be kept apart from themselves."),
    "not_kept_apart": _("Those players are not kept apart."),
    "player_in_tournament": _(
        "This player plays the tournament: a cash table only during its dinner break (CM-23)."
    ),
    "already_in_tournament": _("That player is already in the tournament."),
    "not_in_tournament": _("That player is not in the tournament."),
    "balance_group_not_found": _("There are no tables of that game."),
    "absence_clock_not_in_profile": _(
        "These rules have no absence clock: a player away rests, within the hands "
        "the rules allow (GA art. 20; PT 13)."
    ),
    "absence_needs_hand_played": _(
        "The absence clock is for a player who has played a hand at this table (CM-19)."
    ),
    "absence_needs_chips": _("The absence clock is for a player with chips on the table (CM-19)."),
    "absence_table_full": _(
        "%(away)s players of this table are already away: at most %(maximum)s at a time (CM-18)."
    ),
    "absence_used_today": _("This player has used the absence clock today already (CM-18)."),
    "player_already_away": _("That player is already away on the clock."),
    "player_not_away": _("That player is not away."),
    "player_in_hand": _(
        "The player in seat %(seat)s is in this hand: they step away once it ends."
    ),
    "player_away": _("The player in seat %(seat)s is away (CM-18)."),
    "time_charge_due": _(
        "The player in seat %(seat)s owes this session's time charge: they buy chips "
        "to pay it first (GA art. 18.3b; PT 7b)."
    ),
    "session_charge_not_in_profile": _("These rules charge no time per session."),
    "closing_time_past": _("That closing time has passed."),
    "sector_closing": _("%(sector)s is playing the last hands of the night (CM-24)."),
    "last_hands_started": _("This table already plays its last hands."),
    "last_hands_played": _("This table has dealt the last hands of the night (CM-24)."),
    "action_clock_not_in_profile": _(
        "These rules have no action clock: a slow player is warned (GA art. 24.3a; PT 71a)."
    ),
    "action_clock_running": _("The clock already runs on seat %(seat)s."),
    "no_action_clock": _("No clock runs on seat %(seat)s."),
    "seat_hand_dead": _(
        "Seat %(seat)s's hand is dead (the action clock ran out, CM-22): it wins nothing."
    ),
    "deadline_invalid": _("A deadline is a date and time with its time zone."),
    "waiting_list_not_found": _("That waiting list does not exist."),
    "concurrent_update": _(
        "The floor changed while your command was being decided; nothing was "
        "recorded. Please try again."
    ),
    # The cage and the books
    "gaming_day_not_open": _("The cage has no gaming day open: open the day first."),
    "gaming_day_open": _("The gaming day %(gaming_day)s is still open: close it first."),
    "gaming_day_closed": _(
        "That gaming day was closed, or comes before the last day closed: gaming days "
        "open once, in order."
    ),
    "gaming_day_invalid": _("A gaming day is a date (YYYY-MM-DD)."),
    "gaming_day_not_found": _("That gaming day does not exist."),
    "gaming_day_not_counted": _(
        "Count the trays, the boxes and the cage before closing the gaming day."
    ),
    "counts_invalid": _("The counts are given account by account, in cents."),
    "count_missing": _(
        "Some accounts have not been counted: the cage counts every tray, drop box, "
        "rake box and tip box, and its own cash and chips."
    ),
    "count_unknown_account": _(
        "That account is not counted at the close: the cage counts the trays, drop "
        "boxes, rake boxes and tip boxes, and its own cash and chips."
    ),
    "exception_not_found": _("The count of that account has no difference left to explain."),
    "books_moved_since_count": _(
        "The books moved since the count (a hand, a buy-in, a cash-out): count again "
        "before closing the gaming day."
    ),
    "reason_code_invalid": _("Unknown reason code for a count difference."),
    "note_required": _('A difference explained as "other" needs a note.'),
    "exceptions_unexplained": _(
        "Every count difference needs a reason code before the gaming day closes."
    ),
    "account_invalid": _("That is not an account of the books."),
    "insufficient_funds": _(
        "That account does not hold enough for this: a tray, a stack, a box or the "
        "cage never goes below zero."
    ),
    "transaction_does_not_balance": _("A transaction's postings must add up to zero."),
    "transaction_empty": _("A transaction must move some money."),
    "transaction_not_found": _("That transaction does not exist."),
    "no_chips_to_cash": _("That player has no chips at the cage to cash."),
    "cash_out_above_chips": _(
        "The player has %(held_euros)s in chips off the tables: %(amount_euros)s cannot be "
        "cashed. Chips still on a table are cashed once the player leaves it."
    ),
    "identification_required": _(
        "With this operation the patron's chips bought (or cashed) at the cage today come "
        "to %(total_euros)s, at or above %(threshold_euros)s (%(source)s): record the "
        "patron's identity document first, then enter the operation again."
    ),
    "instrument_invalid": _("%(field)s must be one of: %(choices)s."),
    "cheque_to_identified_only": _(
        "A casino cheque is paid only to an identified patron (%(source)s): record the "
        "patron's identity document first."
    ),
    "transfer_to_identified_only": _(
        "A transfer is made only to an identified patron (%(source)s): record the patron's "
        "identity document first."
    ),
    "certificate_to_identified_only": _(
        "A certificate of winnings is given only to an identified patron (%(source)s): record "
        "the patron's identity document first."
    ),
    "cheque_above_card_purchases": _(
        "A casino cheque may pay at most %(most_euros)s: what the patron bought today by card "
        "or cheque, less the cheques already paid (%(source)s). Pay the rest in cash."
    ),
    "winnings_above_day_result": _(
        "The certificate may state at most %(most_euros)s: the patron's chips cashed at the "
        "cage today (%(cashed_euros)s) less what they paid for chips today, at the cage or "
        "the tables (%(bought_euros)s), the chips they held from an earlier day "
        "(%(carried_euros)s) and the winnings already certified (%(certified_euros)s)."
    ),
    "books_catching_up": _(
        "The books are still catching up with the last operations: try again in a moment."
    ),
    "void_behind_a_certificate": _(
        "This cash-out cannot be voided: a certificate of winnings of %(certified_euros)s "
        "given today rests on it."
    ),
    "void_behind_a_cheque": _(
        "This purchase cannot be voided: the casino cheques paid today (%(cheques_euros)s) "
        "rest on what the patron bought by card or cheque."
    ),
    "paid_with_invalid": _(
        "At the table a buy-in is paid in cash or with the player's own chips; one paid "
        "at the cage is entered by the cage."
    ),
    "jackpot_already_staked": _("Seat %(seat)s already staked on the jackpot for this hand."),
    "jackpot_not_staked": _(
        "Seat %(seat)s did not stake on the jackpot in the hand just played, or its "
        "prizes were already paid."
    ),
    "seat_not_playing": _("Seat %(seat)s does not play the next hand (away or resting)."),
    "chips_may_not_leave": _("Chips leave the table only for tips or hospitality (CM-15)."),
    "chips_off_over_limit": _(
        "At most 15 euros of chips may leave the table for tips or hospitality (CM-15)."
    ),
    "stack_too_small": _("Seat %(seat)s does not have that many chips."),
    "tray_move_invalid": _("A tray request is a fill or a credit."),
    "tray_request_not_found": _("That fill or credit request does not exist."),
    "tray_request_not_pending": _("That request has already been confirmed or cancelled."),
    "same_person_confirms": _(
        "Whoever asked for a fill or credit may not confirm it: another person does."
    ),
    "name_required": _("A jackpot needs a name."),
    "jackpot_scheme_invalid": _("A jackpot follows either the GA or the PT-SD rules."),
    "jackpot_tables_required": _("A jackpot is fed by at least one table: name its tables."),
    "jackpot_not_found": _("That jackpot does not exist."),
    "table_not_in_jackpot": _("That table does not feed this jackpot."),
    "jackpot_stake_not_fixed_amount": _(
        "The jackpot stake is the fixed amount set by the inspectorate (PT-SD 8)."
    ),
    "jackpot_stake_over_half_minimum": _(
        "The progressive jackpot stake is at most half the table minimum (GA art. 8b)."
    ),
    "jackpot_seed_too_small": _("A jackpot fund starts at no less than 10,000 stakes (PT-SD 10)."),
    "stakes_required": _("Name the seats that staked on the jackpot."),
    "seats_required": _("Give the amounts or hands seat by seat."),
    "seat_invalid": _("%(seat)s is not a seat number."),
    "hand_category_invalid": _("That is not a hand category."),
    "no_jackpot_prize": _("None of those hands wins a jackpot prize."),
    # --- banked tables [GA art. 2-16; PT-SD; PG] --------------------------------------
    "banked_band_not_authorised": _(
        "A banked table's maximum is 10, 20 or 25 times its minimum in sen descarte "
        "(GA art. 6.3), 10, 20 or 30 times in Trijoker (GA art. 14.2)."
    ),
    "banked_band_too_wide": _(
        "The maximum may be at most %(max_multiple)s times the minimum (PT-SD 14)."
    ),
    "seat_given_twice": _("Seat %(seat)s is given twice in the report: name each seat once."),
    "first_five_not_these_cards": _(
        "Box %(seat)s: its first five cards and the hand it plays are the six it saw: "
        "they share at least four (GA art. 8c)."
    ),
    "table_is_banked": _(
        "Table %(table)s is a banked table: its hands are settled box by box, with the bank's hand."
    ),
    "table_not_banked": _(
        "Table %(table)s is not a banked table: its hands are reported with their start and end."
    ),
    "boxes_required": _("Report the boxes that played, seat by seat."),
    "box_invalid": _("Box %(seat)s is not reported as it should be."),
    "box_field_required": _("Box %(seat)s needs %(field)s."),
    "box_field_unknown": _("This game does not report %(field)s."),
    "bank_required": _("Report the bank's hand."),
    "cards_required": _("Give the %(count)s cards of that hand."),
    "wrong_card_count": _("That hand has %(count)s cards."),
    "bad_card": _("A card is written rank then suit: As, Kd, Th, 9c, 2s (Jk: the joker)."),
    "card_not_in_deck": _("%(card)s is not in this game's deck."),
    "stake_over_stack": _("Box %(seat)s bets %(stake_euros)s with %(stack_euros)s in front of it."),
    "bet_out_of_limits": _(
        "Each bet lies between the table's minimum and maximum, %(minimum_euros)s and "
        "%(maximum_euros)s."
    ),
    "insurance_not_offered": _("This table offers no insurance (GA art. 8a; none under PT-SD)."),
    "insurance_over_half_minimum": _("Insurance is at most half the table minimum (GA art. 8a)."),
    "extra_card_not_offered": _("This table sells no extra card (GA art. 8c; none under PT-SD)."),
    "first_five_without_extra_card": _(
        "Only a box that bought a card gives its first five cards (GA art. 8c)."
    ),
    "jackpot_required": _(
        "Name the progressive jackpot this table feeds to stake on it (GA art. 8b)."
    ),
    "took_back_invalid": _("Only bets 1 and 2 may be taken back (GA art. 15.2)."),
    # --- issue 22: the seat's absence asked for during a hand ---------------------
    "absence_already_asked": _(
        "The player in seat %(seat)s already steps away when this hand ends (CM-18)."
    ),
    # --- issue 22: corrections, each with its reason ------------------------------
    "correction_reason_invalid": _("Choose the reason for the correction from the list."),
    "correction_note_required": _('A correction whose reason is "other" needs a note.'),
    "note_invalid": _("The note must be one line of at most 300 characters."),
    "entry_already_voided": _("That entry is already voided: an entry is voided once."),
    "entry_booked_by_the_floor": _(
        "That money was booked at a table (a hand, a buy-in at the seat, a stack that "
        "left): it is corrected on the floor, by fixing the seat's stack."
    ),
    "entry_not_voidable": _(
        "Only a chip sale, a cash-out, a fill, a credit or a buy-in paid at the cage may be "
        "voided at the cage."
    ),
    "entry_day_not_open": _(
        "That entry belongs to the gaming day %(gaming_day)s, which is not open: a "
        "closed day is never changed (GA art. 19.1)."
    ),
    "entry_day_counted": _(
        "The gaming day %(gaming_day)s is counted: entries are voided before the count, "
        "never after it (GA art. 19.1)."
    ),
    "void_leaves_account_negative": _(
        "Voiding it would take %(amount_euros)s from an account that holds %(balance_euros)s "
        "(the chips were already used): a tray, a stack, a box or the cage never goes "
        "below zero."
    ),
    "no_move_to_undo": _(
        "That player has no move or seat change to undo: it was undone already, or "
        "something happened since."
    ),
    "move_played_since": _(
        "The player was dealt a hand in seat %(seat)s since the move: undoing it now "
        "would not be fair to the table."
    ),
    "former_seat_taken": _(
        "Seat %(seat)s at table %(table)s, the player's former seat, is taken now."
    ),
    "former_table_closed": _("Table %(table)s, the player's former table, is closed."),
    "former_table_played_since": _(
        "Table %(table)s, the player's former table, has dealt a hand since the move: "
        "back there the player would owe no blinds for it, so the move may no longer be "
        "undone (PT 90; CM-17)."
    ),
    "stack_invalid": _("A stack is a whole number of cents, zero or more."),
    "buy_in_player_gone": _(
        "The player no longer sits at table %(table)s: the chips of that buy-in left with "
        "him. Correct it there, or at the cage from his chips."
    ),
    "buy_in_chips_played": _(
        "The seat holds %(stack_euros)s, less than the %(amount_euros)s of that buy-in: "
        "its chips were played. Fix the seat's stack on the floor instead."
    ),
    "stack_unchanged": _("The seat's stack is already %(stack_euros)s: nothing to fix."),
}


ROLE_LABELS = {
    Role.JEFE_SECTOR: _("floor supervisor (jefe de sector)"),
    Role.CAJERO: _("cashier"),
    Role.CRUPIER: _("dealer"),
    Role.DIRECTOR: _("director"),
    Role.INSPECTOR: _("inspector"),
    Role.CLOCK: _("floor clock (automatic deadlines)"),
}


def role_names(roles: object) -> str:
    """Role codes as people call them: "jefe_sector" -> "floor supervisor ..."."""
    codes = roles if isinstance(roles, (list, tuple)) else [roles]
    return str(_(" or ")).join(str(ROLE_LABELS.get(code, code)) for code in codes)


def _as_euros(params: dict) -> dict:
    """Each ``X_cents`` param also as ``X_euros``, written as the consoles write
    money ("1.000,00 €" in Spanish, floor.amounts.money)."""
    return {
        f"{name[: -len('_cents')]}_euros": money(value)
        for name, value in params.items()
        if name.endswith("_cents") and isinstance(value, int) and not isinstance(value, bool)
    }


def message_for(code: str, fallback: str = "", **params: object) -> str:
    """The catalogued message for ``code`` in the active language."""
    template = MESSAGES.get(code)
    if template is None:
        return fallback
    if "roles" in params:
        params["roles"] = role_names(params["roles"])
    params.update(_as_euros(params))
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return fallback or str(template)


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def said_params(code: str, params: dict) -> dict:
    """The params a refusal's catalogued message shows (``X_euros`` shows
    ``X_cents``), and no others: a refusal may carry more for the log (an
    account's balance, say) than its reader may see."""
    template = MESSAGES.get(code)
    if template is None:
        return {}
    named = set(_PLACEHOLDER.findall(str(template)))
    named |= {f"{name[: -len('_euros')]}_cents" for name in named if name.endswith("_euros")}
    return {key: value for key, value in params.items() if key in named}


def describe(error: RuleViolation) -> str:
    """The refusal in the active language. The floor's refusals carry no prose
    (their text is ``code (params)``, for logs), so one the catalogue lacks is
    said as the generic "refused"; a games refusal keeps its own message."""
    fallback = message_for("refused") if isinstance(error, DomainError) else error.message
    return message_for(error.code, fallback, **error.params)


# Why a balancing move picks its player and its seat (floor.domain.balance says
# them in English, in the proposal); the consoles show them in the reader's language.
BALANCE_REASONS = {
    "due to pay the big blind next": _("due to pay the big blind next"),
    "next in turn for the big blind": _("next in turn for the big blind"),
    "every player here was moved today already": _("every player here was moved today already"),
    "the big blind's seat of the next hand": _("the big blind's seat of the next hand"),
    "the free seat soonest to pay the big blind, not a blind": _(
        "the free seat soonest to pay the big blind, not a blind"
    ),
    "the only free seat that is not the small blind's: the button's": _(
        "the only free seat that is not the small blind's: the button's"
    ),
}


def balance_reason(text: str) -> str:
    """A balancing reason from the domain, in the reader's language (parts joined by '; ')."""
    return "; ".join(str(BALANCE_REASONS.get(part, part)) for part in text.split("; "))
