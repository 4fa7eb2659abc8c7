"""Compliance at the door, the list and the cage (issue 25): patrons'
identity, exclusion lists and money-laundering thresholds.

Personal data (a patron's document, name and birth date) is kept outside the
event log, in rows that can be exported and erased (floor.models.
PatronIdentity, as floor.models.PlayerContact): the log records that a patron
was identified, by whom, with which kind of document and country, never the
document's number, the name or the birth date. Erasing a patron's data then
deletes a row and leaves the audit chain whole (issue 25, item 4).
"""
