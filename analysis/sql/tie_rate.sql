-- Purpose: share of games whose victory is shared (n_winners > 1), by player count.
-- Parameters: none.
-- Reads views: games.
-- Returns: n_players, games, ties, rate.
WITH flagged AS (
    SELECT
        n_players,
        (n_winners > 1)::INTEGER AS tied
    FROM games
)
SELECT
    n_players::BIGINT         AS n_players,
    count(*)::BIGINT          AS games,
    sum(tied)::BIGINT         AS ties,
    sum(tied) / count(*)      AS rate
FROM flagged
GROUP BY n_players
ORDER BY n_players;
