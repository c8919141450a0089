"""The live layer: what exists only because one process builds the site again and again
(``mkdocs serve``, ``qbank build --watch``): what a load of the bank keeps for the next one and
how the next one updates it, the live search index, background work that gives way to
rebuilds. The rules themselves live in ``qbank.bank`` (``rules``, ``crossfile``); nothing here
imports MkDocs, and no lower layer imports this one."""
