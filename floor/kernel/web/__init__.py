"""The kernel's Django part: the web machinery the floor's and the ledger's
interfaces share, and the projector runner (issue 21).

Both contexts answer over HTTP and in consoles the same way: a command's
endpoint is built from one declaration (endpoints), its body extends the same
bases (serializers), it runs through one door that waits for the read models
(gateway) and answers 201 or, for a repeat, 200 (responses); a list reads its
query filters one way (filters); a console page checks its reader before it is
built (access) and tells its script where the read models stood (live). The
read models of both follow the log through one catch-up projector (projector).

Why in the kernel: the ledger may import the kernel but not the floor
(pyproject.toml, [tool.importlinter]), and this machinery is neither's. It is
the only part of the kernel that imports Django and DRF; the rest stays free of
them. It imports nothing of ``floor`` or ``ledger`` outside the kernel: what it
needs of the running floor (the application, its projector, the read rule, the
logs and metrics) the floor hands it when Django loads it (host).
"""
