-- Purpose: one row per (game, seat) with every player column, for paired comparisons
--          of two runs that share their deals (same seed and player counts).
-- Parameters: none.
-- Reads views: games, players.
-- Returns: game_id, n_players, and every column of players except game_id.
WITH seated AS (
    SELECT
        g.n_players::BIGINT AS n_players,
        p.*
    FROM players AS p
    JOIN games AS g ON p.game_id = g.game_id
)
SELECT *
FROM seated
ORDER BY game_id, seat;
