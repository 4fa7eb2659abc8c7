"""Every read of the floor's read models (floor.models), one plain function each.

The API, the consoles, the board and the reports ask these functions; serializers
and templates only shape what they are given, and never query. Each selector
says what it returns and for whom, and loads what its callers show in a fixed
number of queries (prefetching what a serializer walks), so a page's queries do
not grow with the rows it lists.

By concern:
- floor.selectors.tables: sectors, tables, seats and hands;
- floor.selectors.players: players, waiting lists and the staff named on them;
- floor.selectors.balancing: the balance groups, with their tables and list;
- floor.selectors.console: what the jefe's console and the dealer's tablet show;
- floor.selectors.journal: the event journal, selected by declared event types;
- floor.selectors.reports: the read models the reports resolve their filters on;
- floor.selectors.scopes: what the read rule (floor.access) narrows and refuses by.
"""
