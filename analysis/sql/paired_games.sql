-- Purpose: one row per game with every game column and a 0/1 tie flag, for paired
--          comparisons of two runs that share their deals (same seed and player counts).
-- Parameters: none.
-- Reads views: games.
-- Returns: every column of games, plus tied (1.0 when the victory was shared, else 0.0).
WITH flagged AS (
    SELECT
        *,
        (n_winners > 1)::DOUBLE AS tied
    FROM games
)
SELECT *
FROM flagged
ORDER BY game_id;
