"""What a load of the bank under ``mkdocs serve`` keeps for the next one, and how the next
one updates it instead of computing it again. The rules themselves live in the core
modules (``qbank.rules``, ``qbank.crossfile``); nothing here imports MkDocs, and nothing in
the core imports this package."""
