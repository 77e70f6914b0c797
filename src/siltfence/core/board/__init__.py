"""The appeals board as a board: how it sits (``sitting``) and how many votes decide
(``rule``, the village's data)."""
