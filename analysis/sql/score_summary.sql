-- Purpose: distribution of final scores by player count (every seat of every game).
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, players, mean, sd, min, q10, q25, median, q75, q90, max.
WITH scored AS (
    SELECT
        g.n_players,
        p.score::DOUBLE AS score
    FROM players AS p
    JOIN games AS g USING (game_id)
)
SELECT
    n_players::BIGINT                AS n_players,
    count(*)::BIGINT                 AS players,
    avg(score)                       AS mean,
    stddev_samp(score)               AS sd,
    min(score)                       AS min,
    quantile_cont(score, 0.10)       AS q10,
    quantile_cont(score, 0.25)       AS q25,
    quantile_cont(score, 0.50)       AS median,
    quantile_cont(score, 0.75)       AS q75,
    quantile_cont(score, 0.90)       AS q90,
    max(score)                       AS max
FROM scored
GROUP BY n_players
ORDER BY n_players;
