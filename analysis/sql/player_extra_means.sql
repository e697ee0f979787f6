-- Purpose: mean, sd and count of every game-specific numeric player column, by player
--          count. Used to compare two runs on columns neither knows in advance.
--          Non-numeric extra columns become NULL under TRY_CAST and drop out (UNPIVOT skips NULLs).
-- Parameters: none. Call only when `players` has at least one extra column.
-- Reads views: games, players.
-- Returns: n_players, metric, n, mean, sd.
WITH extra AS (
    SELECT
        game_id,
        seat,
        TRY_CAST(COLUMNS(* EXCLUDE (game_id, seat, faction, policy, score, rank, win)) AS DOUBLE)
    FROM players
),
long AS (
    UNPIVOT extra
    ON COLUMNS(* EXCLUDE (game_id, seat))
    INTO NAME metric VALUE value
)
SELECT
    g.n_players::BIGINT   AS n_players,
    l.metric,
    count(l.value)::BIGINT AS n,
    avg(l.value)          AS mean,
    stddev_samp(l.value)  AS sd
FROM long AS l
JOIN games AS g USING (game_id)
GROUP BY g.n_players, l.metric
ORDER BY n_players, metric;
