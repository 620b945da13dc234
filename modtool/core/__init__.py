"""Any game's engine: votes and names, rules, the ledger of a game folder, the count of a day,
the checks of a recorded event, and the `Variant` protocol each game implements."""
