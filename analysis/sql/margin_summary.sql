-- Purpose: summary of winning margins by player count (winner's score minus runner-up's,
--          same definition as margin_hist.sql).
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, games, mean, sd, min, q25, median, q75, max, zero_share.
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
        (max(score) FILTER (WHERE place = 1) - max(score) FILTER (WHERE place = 2))::DOUBLE AS margin
    FROM ordered
    WHERE place <= 2
    GROUP BY game_id
)
SELECT
    g.n_players::BIGINT                        AS n_players,
    count(*)::BIGINT                           AS games,
    avg(m.margin)                              AS mean,
    stddev_samp(m.margin)                      AS sd,
    min(m.margin)                              AS min,
    quantile_cont(m.margin, 0.25)              AS q25,
    quantile_cont(m.margin, 0.50)              AS median,
    quantile_cont(m.margin, 0.75)              AS q75,
    max(m.margin)                              AS max,
    avg((m.margin = 0)::DOUBLE)                AS zero_share
FROM margins AS m
JOIN games AS g USING (game_id)
WHERE m.margin IS NOT NULL
GROUP BY g.n_players
ORDER BY n_players;
