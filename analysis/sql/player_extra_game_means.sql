-- Purpose: every game-specific numeric player column with the game as the unit, by player
--          count: each game's mean over its seats, then the mean and sd of those per-game
--          means across games (for comparing runs: seats of one game are not independent).
--          Non-numeric extra columns become NULL under TRY_CAST and drop out (UNPIVOT skips NULLs).
-- Parameters: none. Call only when `players` has at least one extra column.
-- Reads views: games, players.
-- Returns: n_players, metric, n (games), mean, sd.
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
),
per_game AS (
    SELECT
        g.n_players,
        l.metric,
        l.game_id,
        avg(l.value) AS value
    FROM long AS l
    JOIN games AS g USING (game_id)
    GROUP BY g.n_players, l.metric, l.game_id
)
SELECT
    n_players::BIGINT      AS n_players,
    metric,
    count(value)::BIGINT   AS n,
    avg(value)             AS mean,
    stddev_samp(value)     AS sd
FROM per_game
GROUP BY n_players, metric
ORDER BY n_players, metric;
