"""Money received by a village: application and re-inspection fees, and payments of the
bills for its own work on the land, each with a numbered receipt; and the corrections of a
fee, a cost or a payment entered wrong, which are new entries with their reasons, never
changes to or deletions of the old ones."""
