"""Compressed event states that still read a log written uncompressed (issue 23, item 6).

The library compresses every stored state when ``COMPRESSOR_TOPIC`` names a
compressor (eventsourcing.persistence.Compressor), and then decompresses every
state it reads: its own zlib compressor fails on a state stored before it was
switched on. These tell the kinds apart, so a running room may switch it on:
the library's JSON transcoder always writes an object (its first byte ``{``),
a zlib stream always starts with ``x`` (0x78, the deflate header at any level).

On by default (``DEFAULT_TOPIC``: config/settings.py and every application of
the kernel): ``ZlibWithDictionary``. An event state is a few hundred bytes of
JSON; alone, zlib has nothing to refer back to and spells every key once
(64 % of the bytes). With a preset dictionary (zlib's ``zdict``: typical states
of every event type, ``DICTIONARY_1_STATES``) it refers to them from the first
byte: about 31 % (bench/README.md, "store_size.py"). The stream stays a
standard zlib stream: its header says a dictionary was used and names it by its
adler32, so a later dictionary is told apart from this one; each dictionary
committed must stay in ``DICTIONARIES`` for as long as a state names it: a
new one is added beside the others, never in place of one.

Every compressor here reads the three kinds: plain JSON, zlib streams without a
dictionary (``ZlibOrPlain``, which a room could switch on before) and with a
dictionary it knows. ``COMPRESSOR_TOPIC`` in a process's environment names
another (``floor.kernel.compression:ZlibOrPlain``), or none when empty; once a
state is compressed, every reader of the log needs a compressor from here.
"""

from __future__ import annotations

import zlib

from eventsourcing.persistence import Compressor

ZLIB_HEADER = b"x"
FDICT = 0x20  # the header's flag: a preset dictionary, its adler32 in the next four bytes
LEVEL = 6

DEFAULT_TOPIC = "floor.kernel.compression:ZlibWithDictionary"

# Dictionary 1, built by bench/zlib_dictionary.py from the ledger bench's floor
# and hands, ids and moments made generic; the most frequent event types last.
# Never edited nor regenerated in place: a state compressed with it names it by
# its adler32, and would no longer read. A new dictionary is ADDED beside it
# (DICTIONARY_2_STATES, DICTIONARY_2, a new entry of ``DICTIONARIES``, then
# ``DICTIONARY_ID`` pointed at it), never in its place
# (tests/floor/test_compressed_store.py pins this one's adler32 and sha256).
DICTIONARY_1_STATES = (
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","day":"2026-11-27"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.cage:Cage","actor":"cajero","actor_role":"c'
        b'ajero","command_id":"00000000-0000-0000-0000-000000000000","rule_profile":"CM"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.gaming_day:GamingDay","actor":"cajero","act'
        b'or_role":"cajero","command_id":"00000000-0000-0000-0000-000000000000","rule_prof'
        b'ile":"CM","day":"2026-11-27","opening":{"cage_cash":1000000000,"cage_chips":1000'
        b'000000},"opening_totals":{"cage_cash":[1000000000,0],"cage_chips":[1000000000,0]'
        b'},"exceptions":[]}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.sector:Sector","actor":"director","actor_rol'
        b'e":"director","command_id":"00000000-0000-0000-0000-000000000000","rule_profile"'
        b':"CM","name":"Ledger 0"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.sector:Sector","actor":"director","actor_rol'
        b'e":"director","command_id":"00000000-0000-0000-0000-000000000000","rule_profile"'
        b':"CM","name":"Ledger 1"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.balance_group:BalanceGroup","actor":"jefe","'
        b'actor_role":"jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","r'
        b'ule_profile":"CM","game_key":"texas_holdem/no_limit/4000/10012"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.balance_group:BalanceGroup","actor":"jefe","'
        b'actor_role":"jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","r'
        b'ule_profile":"CM","game_key":"texas_holdem/no_limit/4000/10014"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","table_id":"0000000000000000000000000000000'
        b'0"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","table_id":"0000000000000000000000000000000'
        b'0"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","table_id":{"_type_":"uuid_hex","_data_":"0'
        b'0000000000000000000000000000000"},"number":3}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","table_id":{"_type_":"uuid_hex","_data_":"0'
        b'0000000000000000000000000000000"},"number":4}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","dealer":"dealer"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","dealer":"dealer"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.table:Table","actor":"jefe","actor_role":"je'
        b'fe_sector","command_id":"00000000-0000-0000-0000-000000000000","rule_profile":"C'
        b'M","sector_id":{"_type_":"uuid_hex","_data_":"00000000000000000000000000000000"}'
        b',"number":3,"variant":"texas_holdem","limit":"no_limit","minimum_cents":4000,"ma'
        b'ximum_cents":10012,"seats":10,"second_variant":null,"banked":false,"ante_cents":'
        b'0,"rake":{"model":"per_hand","share":"1/20","cap_cents":1000,"step_cents":2000}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.table:Table","actor":"jefe","actor_role":"je'
        b'fe_sector","command_id":"00000000-0000-0000-0000-000000000000","rule_profile":"C'
        b'M","sector_id":{"_type_":"uuid_hex","_data_":"00000000000000000000000000000000"}'
        b',"number":4,"variant":"texas_holdem","limit":"no_limit","minimum_cents":4000,"ma'
        b'ximum_cents":10014,"seats":10,"second_variant":null,"banked":false,"ante_cents":'
        b'0,"rake":{"model":"per_hand","share":"1/20","cap_cents":1000,"step_cents":2000}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","assignment":{"0000000000000000000000000000'
        b'0000":1,"00000000000000000000000000000000":5,"00000000000000000000000000000000":'
        b'8,"00000000000000000000000000000000":3,"00000000000000000000000000000000":7,"000'
        b'00000000000000000000000000000":4,"00000000000000000000000000000000":10,"00000000'
        b'000000000000000000000000":9},"record":{"order":["0000000000000000000000000000000'
        b'0","00000000000000000000000000000000","00000000000000000000000000000000","000000'
        b'00000000000000000000000000","00000000000000000000000000000000","0000000000000000'
        b'0000000000000000","00000000000000000000000000000000","00000000000000000000000000'
        b'000000"],"seats":[1,5,8,3,7,4,10,9],"suits":{},"priority":[]},"button":4,"button'
        b'_draw":{"cards":{"1":"2d","3":"Qd","4":"Ad","5":"Ks","7":"Js","8":"Jc","9":"Qs",'
        b'"10":"Kc"},"winner":4},"draw_open":true}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","assignment":{"0000000000000000000000000000'
        b'0000":3,"00000000000000000000000000000000":2,"00000000000000000000000000000000":'
        b'9,"00000000000000000000000000000000":6,"00000000000000000000000000000000":7,"000'
        b'00000000000000000000000000000":10,"00000000000000000000000000000000":1,"00000000'
        b'000000000000000000000000":5},"record":{"order":["0000000000000000000000000000000'
        b'0","00000000000000000000000000000000","00000000000000000000000000000000","000000'
        b'00000000000000000000000000","00000000000000000000000000000000","0000000000000000'
        b'0000000000000000","00000000000000000000000000000000","00000000000000000000000000'
        b'000000"],"seats":[3,2,9,6,7,10,1,5],"suits":{},"priority":[]},"button":10,"butto'
        b'n_draw":{"cards":{"1":"Jc","2":"6h","3":"3c","5":"Js","6":"3s","7":"Tc","9":"5d"'
        b',"10":"Kd"},"winner":10},"draw_open":true}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.waiting_list:WaitingList","actor":"jefe","ac'
        b'tor_role":"jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","rul'
        b'e_profile":"CM","game_key":"texas_holdem/no_limit/4000/10012"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.waiting_list:WaitingList","actor":"jefe","ac'
        b'tor_role":"jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","rul'
        b'e_profile":"CM","game_key":"texas_holdem/no_limit/4000/10014"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","table_id":"00000000000000000000000000000000"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","table_id":"00000000000000000000000000000000"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","table_id":"00000000000000000000000000000000",'
        b'"move":"fill","amount":2000000}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","table_id":"00000000000000000000000000000000",'
        b'"move":"fill","amount":2000000}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","confirmed_by":"cajero","transaction_id":"0000'
        b'0000000000000000000000000000"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"cajero","actor_role":"cajero","command_id":"00000000-0000-0000-0000-'
        b'000000000000","rule_profile":"CM","confirmed_by":"cajero","transaction_id":"0000'
        b'0000000000000000000000000000"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.tray_request:TrayRequest","actor":"jefe","a'
        b'ctor_role":"jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","ru'
        b'le_profile":"CM","move":"fill","table_id":"00000000000000000000000000000000","am'
        b'ount":2000000,"requested_by":"jefe"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.tray_request:TrayRequest","actor":"jefe","a'
        b'ctor_role":"jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","ru'
        b'le_profile":"CM","move":"fill","table_id":"00000000000000000000000000000000","am'
        b'ount":2000000,"requested_by":"jefe"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","game_key":"texas_holdem/no_limit/4000/1001'
        b'4"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","game_key":"texas_holdem/no_limit/4000/1001'
        b'4"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","game_key":"texas_holdem/no_limit/4000/1001'
        b'4"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","game_key":"texas_holdem/no_limit/4000/1001'
        b'4"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.player:Player","actor":"jefe","actor_role":"'
        b'jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","rule_profile":'
        b'"CM","card_number":"LB-3FDFA7E1-6","display_name":"LB-3fdfa7e1-6"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.player:Player","actor":"jefe","actor_role":"'
        b'jefe_sector","command_id":"00000000-0000-0000-0000-000000000000","rule_profile":'
        b'"CM","card_number":"LB-3FDFA7E1-7","display_name":"LB-3fdfa7e1-7"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","table_id":{"_type_":"uuid_hex","_data_":"0'
        b'0000000000000000000000000000000"},"seat":2,"game_key":"texas_holdem/no_limit/400'
        b'0/10014"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","table_id":{"_type_":"uuid_hex","_data_":"0'
        b'0000000000000000000000000000000"},"seat":3,"game_key":"texas_holdem/no_limit/400'
        b'0/10014"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","seat":1,"amount":100000,"stack":100000,"play'
        b'er_id":"00000000000000000000000000000000","paid_with":"cash"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","seat":5,"amount":100000,"stack":100000,"play'
        b'er_id":"00000000000000000000000000000000","paid_with":"cash"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","player_id":{"_type_":"uuid_hex","_data_":"'
        b'00000000000000000000000000000000"},"reservation":7,"at":{"_type_":"datetime_iso"'
        b',"_data_":"2026-01-01T00:00:00.000000+00:00"},"relisted":false,"at_top":false}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","player_id":{"_type_":"uuid_hex","_data_":"'
        b'00000000000000000000000000000000"},"reservation":8,"at":{"_type_":"datetime_iso"'
        b',"_data_":"2026-01-01T00:00:00.000000+00:00"},"relisted":false,"at_top":false}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","player_id":{"_type_":"uuid_hex","_data_":"'
        b'00000000000000000000000000000000"},"reason":"seated"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"jefe","actor_role":"jefe_sector","command_id":"00000000-0000-0000-00'
        b'00-000000000000","rule_profile":"CM","player_id":{"_type_":"uuid_hex","_data_":"'
        b'00000000000000000000000000000000"},"reason":"seated"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","number":10,"pot_cents":8000,"rake_cents":400'
        b',"contributions":{"7":4000,"8":4000},"winnings":{"8":7600},"stacks":{"1":99600,"'
        b'3":99600,"4":99600,"5":95600,"7":99200,"8":103200,"9":99600,"10":99600},"idle_ha'
        b'nds":{"1":4,"3":3,"4":2,"5":1,"7":0,"8":7,"9":6,"10":5},"must_rebuy":[],"must_po'
        b'st_big_blind":[],"must_leave":{},"players":{"1":"0000000000000000000000000000000'
        b'0","3":"00000000000000000000000000000000","4":"00000000000000000000000000000000"'
        b',"5":"00000000000000000000000000000000","7":"00000000000000000000000000000000","'
        b'8":"00000000000000000000000000000000","9":"00000000000000000000000000000000","10'
        b'":"00000000000000000000000000000000"},"away_posted":{},"pots":[{"amount_cents":8'
        b'000,"eligible":[7,8]}],"returned":{},"folded":[1,3,4,5,9,10]}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","number":10,"pot_cents":8000,"rake_cents":400'
        b',"contributions":{"2":4000,"3":4000},"winnings":{"3":7600},"stacks":{"1":95600,"'
        b'2":99200,"3":103200,"5":99600,"6":99600,"7":99600,"9":99600,"10":99600},"idle_ha'
        b'nds":{"1":1,"2":0,"3":7,"5":6,"6":5,"7":4,"9":3,"10":2},"must_rebuy":[],"must_po'
        b'st_big_blind":[],"must_leave":{},"players":{"1":"0000000000000000000000000000000'
        b'0","2":"00000000000000000000000000000000","3":"00000000000000000000000000000000"'
        b',"5":"00000000000000000000000000000000","6":"00000000000000000000000000000000","'
        b'7":"00000000000000000000000000000000","9":"00000000000000000000000000000000","10'
        b'":"00000000000000000000000000000000"},"away_posted":{},"pots":[{"amount_cents":8'
        b'000,"eligible":[2,3]}],"returned":{},"folded":[1,5,6,7,9,10]}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","number":10,"variant":"texas_holdem","button"'
        b':5,"dealt_in":[1,3,4,5,7,8,9,10],"blinds":{"7":2000,"8":4000},"dead_blinds":{},"'
        b'missed":{},"resting":[],"rest_exceeded":[],"must_leave":{},"away_blinds":{}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","number":10,"variant":"texas_holdem","button"'
        b':1,"dealt_in":[1,2,3,5,6,7,9,10],"blinds":{"2":2000,"3":4000},"dead_blinds":{},"'
        b'missed":{},"resting":[],"rest_exceeded":[],"must_leave":{},"away_blinds":{}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.account:Account","actor":"dealer","actor_ro'
        b'le":"crupier","command_id":"00000000-0000-0000-0000-000000000000","rule_profile"'
        b':"CM","name":"rake:00000000000000000000000000000000"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.account:Account","actor":"dealer","actor_ro'
        b'le":"crupier","command_id":"00000000-0000-0000-0000-000000000000","rule_profile"'
        b':"CM","name":"rake:00000000000000000000000000000000"}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.transaction:Transaction","actor":"dealer","'
        b'actor_role":"crupier","command_id":"00000000-0000-0000-0000-000000000000","rule_'
        b'profile":"CM","kind":"hand","postings":{"rake:00000000000000000000000000000000":'
        b'400,"stack:00000000000000000000000000000000:00000000000000000000000000000000":-4'
        b'000,"stack:00000000000000000000000000000000:00000000000000000000000000000000":36'
        b'00},"reason":"hand 10","gaming_day":"2026-11-27","table_id":"0000000000000000000'
        b'0000000000000","player_id":null,"reference":"10","reason_code":"hand","reason_pa'
        b'rams":{"number":10}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"ledger.domain.transaction:Transaction","actor":"dealer","'
        b'actor_role":"crupier","command_id":"00000000-0000-0000-0000-000000000000","rule_'
        b'profile":"CM","kind":"hand","postings":{"rake:00000000000000000000000000000000":'
        b'400,"stack:00000000000000000000000000000000:00000000000000000000000000000000":-4'
        b'000,"stack:00000000000000000000000000000000:00000000000000000000000000000000":36'
        b'00},"reason":"hand 10","gaming_day":"2026-11-27","table_id":"0000000000000000000'
        b'0000000000000","player_id":null,"reference":"10","reason_code":"hand","reason_pa'
        b'rams":{"number":10}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.command_record:CommandRecord","actor":"deale'
        b'r","actor_role":"crupier","command_id":"00000000-0000-0000-0000-000000000000","r'
        b'ule_profile":"CM","command":"start_hand","fingerprint":"000000000000000000000000'
        b'0000000000000000000000000000000000000000","result":{"table_id":"00000000-0000-00'
        b'00-0000-000000000000","number":10,"variant":"texas_holdem","button":1,"dealt_in"'
        b':[1,2,3,5,6,7,9,10],"blinds":{"2":2000,"3":4000},"dead_blinds":{},"missed":{},"r'
        b'esting":[],"rest_exceeded":[],"must_leave":{},"away_blinds":{}}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"originator_topic":"floor.domain.command_record:CommandRecord","actor":"deale'
        b'r","actor_role":"crupier","command_id":"00000000-0000-0000-0000-000000000000","r'
        b'ule_profile":"CM","command":"end_hand","fingerprint":"00000000000000000000000000'
        b'00000000000000000000000000000000000000","result":{"table_id":"00000000-0000-0000'
        b'-0000-000000000000","number":10,"pot_cents":8000,"rake_cents":400,"contributions'
        b'":{"2":4000,"3":4000},"winnings":{"3":7600},"stacks":{"1":95600,"2":99200,"3":10'
        b'3200,"5":99600,"6":99600,"7":99600,"9":99600,"10":99600},"idle_hands":{"1":1,"2"'
        b':0,"3":7,"5":6,"6":5,"7":4,"9":3,"10":2},"must_rebuy":[],"must_post_big_blind":['
        b'],"must_leave":{},"players":{"1":"00000000000000000000000000000000","2":"0000000'
        b'0000000000000000000000000","3":"00000000000000000000000000000000","5":"000000000'
        b'00000000000000000000000","6":"00000000000000000000000000000000","7":"00000000000'
        b'000000000000000000000","9":"00000000000000000000000000000000","10":"000000000000'
        b'00000000000000000000"},"away_posted":{},"pots":[{"amount_cents":8000,"eligible":'
        b'[2,3]}],"returned":{},"folded":[1,5,6,7,9,10],"status":"running","transaction_id'
        b's":["00000000-0000-0000-0000-000000000000"]}}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","transaction_id":"000000000000000000000000000'
        b'00000","amount":-4000,"balance":99200}'
    ),
    (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00.000000+00:00'
        b'"},"actor":"dealer","actor_role":"crupier","command_id":"00000000-0000-0000-0000'
        b'-000000000000","rule_profile":"CM","transaction_id":"000000000000000000000000000'
        b'00000","amount":3600,"balance":103200}'
    ),
)
DICTIONARY_1 = b"".join(DICTIONARY_1_STATES)

DICTIONARIES = {0xA3349478: DICTIONARY_1}
"""Every dictionary a stored state may name, by its adler32, written as a
literal: a dictionary whose bytes changed no longer matches its key, and the
module refuses to load (below) rather than leave the states it compressed
unreadable."""

DICTIONARY_ID = 0xA3349478
"""The dictionary new states are compressed with."""
DICTIONARY = DICTIONARIES[DICTIONARY_ID]

for _id, _dictionary in DICTIONARIES.items():
    if zlib.adler32(_dictionary) != _id:
        raise RuntimeError(
            f"zlib dictionary {_id:#010x} was edited (its adler32 is now "
            f"{zlib.adler32(_dictionary):#010x}): the states stored with it would not "
            "read; restore it and add a new dictionary beside it instead"
        )

# One compressor and one raw inflater primed with the dictionary, copied per
# state: priming either costs more than compressing a state (a copy of the
# compressor is a quarter of zlib.compress's own cost, measured in bench/store_size.py).
_DEFLATE = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 8, zlib.Z_DEFAULT_STRATEGY, DICTIONARY)
_INFLATE = {key: zlib.decompressobj(-15, zdict=value) for key, value in DICTIONARIES.items()}


def inflate(data: bytes) -> bytes:
    """A stored state as the transcoder wrote it: plain JSON as it is, a zlib
    stream inflated, with the dictionary its header names."""
    if data[:1] != ZLIB_HEADER:
        return data
    if len(data) < 6 or not data[1] & FDICT:
        return zlib.decompress(data)
    primed = _INFLATE.get(int.from_bytes(data[2:6], "big"))
    if primed is None:
        raise zlib.error(f"a state compressed with an unknown dictionary {data[2:6].hex()}")
    inflater = primed.copy()
    state = inflater.decompress(data[6:])
    # The raw inflater leaves zlib's trailer (the adler32 of the state) unread.
    if not inflater.eof or inflater.unused_data != zlib.adler32(state).to_bytes(4, "big"):
        raise zlib.error("a compressed state is cut short or its checksum does not match")
    return state


class ZlibOrPlain(Compressor):
    """zlib on the way in, without a dictionary; on the way out, any state
    (``inflate``)."""

    def compress(self, data: bytes) -> bytes:
        return zlib.compress(data)

    def decompress(self, data: bytes) -> bytes:
        return inflate(data)


class ZlibWithDictionary(ZlibOrPlain):
    """zlib with the preset dictionary on the way in (a standard zlib stream
    naming it); on the way out, any state (``inflate``)."""

    def compress(self, data: bytes) -> bytes:
        deflater = _DEFLATE.copy()
        return deflater.compress(data) + deflater.flush()
