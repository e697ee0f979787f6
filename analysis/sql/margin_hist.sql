-- Purpose: histogram of winning margins by player count. The margin of a game is the
--          winner's score minus the runner-up's score (0 when first place is shared or
--          decided by a tie-breaker). Winner/runner-up = first two players by rank, then score.
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, margin, games.
WITH ordered AS (
    SELECT
        game_id,
        score,
        row_number() OVER (PARTITION BY game_id ORDER BY rank, score DESC, seat) AS place
    FROM players
),
margins AS (
    SELECT
        game_id,
        max(score) FILTER (WHERE place = 1) - max(score) FILTER (WHERE place = 2) AS margin
    FROM ordered
    WHERE place <= 2
    GROUP BY game_id
)
SELECT
    g.n_players::BIGINT  AS n_players,
    m.margin::BIGINT     AS margin,
    count(*)::BIGINT     AS games
FROM margins AS m
JOIN games AS g USING (game_id)
WHERE m.margin IS NOT NULL
GROUP BY g.n_players, m.margin
ORDER BY n_players, margin;
