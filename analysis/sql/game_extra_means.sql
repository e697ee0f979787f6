-- Purpose: mean, sd and count of every game-specific numeric games column, by player count.
--          Non-numeric extra columns become NULL under TRY_CAST and drop out (UNPIVOT skips NULLs).
-- Parameters: none. Call only when `games` has at least one extra column.
-- Reads views: games.
-- Returns: n_players, metric, n, mean, sd.
WITH extra AS (
    SELECT
        n_players,
        TRY_CAST(COLUMNS(* EXCLUDE (game_id, n_players, rounds, decisions, end_reason, n_winners)) AS DOUBLE)
    FROM games
),
long AS (
    UNPIVOT extra
    ON COLUMNS(* EXCLUDE (n_players))
    INTO NAME metric VALUE value
)
SELECT
    n_players::BIGINT      AS n_players,
    metric,
    count(value)::BIGINT   AS n,
    avg(value)             AS mean,
    stddev_samp(value)     AS sd
FROM long
GROUP BY n_players, metric
ORDER BY n_players, metric;
