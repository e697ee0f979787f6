-- Purpose: every faction of the run, sorted: the codes of card_holder_cells.sql.
-- Parameters: none.
-- Reads views: players.
-- Returns: faction.
SELECT DISTINCT faction
FROM players
ORDER BY faction;
