"""Serving calcnb: three rooms and what they share, one folder each.

- :mod:`calcnb.serve.cli`: the command line, ``calcnb`` (``python -m calcnb``): it reads what a teacher types,
  builds a server's command line and environment, and starts, shows and stops the server as a process.
- :mod:`calcnb.serve.class_server`: the class server, one Solara process for the whole class (a virtual
  kernel per page), behind its gate.
- :mod:`calcnb.serve.voila`: Voila (a kernel process per page) behind its gate, its kernel manager, and a
  student's server on a school's hub.
- :mod:`calcnb.serve.shared`: what the rooms share: the servers' settings, the notebooks served, the caps on
  pages and the class code (plain logic both gates adapt), the gates' own small pages, and the launcher's watch.

A room imports only its own modules and the shared room's (``tests/test_serve_rooms.py``): the command line
starts a server by its module's name (:data:`calcnb.serve.shared.settings.SOLARA_MODULE`,
:data:`~calcnb.serve.shared.settings.VOILA_MODULE`), never by importing it.
"""
