-- Purpose: histogram of final scores by player count (count of player-games per score).
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, score, players.
WITH scored AS (
    SELECT
        g.n_players,
        p.score
    FROM players AS p
    JOIN games AS g USING (game_id)
)
SELECT
    n_players::BIGINT  AS n_players,
    score::BIGINT      AS score,
    count(*)::BIGINT   AS players
FROM scored
GROUP BY n_players, score
ORDER BY n_players, score;
