-- Purpose (Dwarfest): mean of each Dwarfest player column by player count and seat, to
--          see where a seat's advantage (or handicap) comes from. Every numeric column
--          beyond the common schema is included, so new Dwarfest columns appear without
--          editing this file. Long format; analysis/games/dwarfest.py pivots it wide.
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, seat, metric, games, mean.
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
    g.n_players::BIGINT    AS n_players,
    l.seat::BIGINT         AS seat,
    l.metric,
    count(*)::BIGINT       AS games,
    avg(l.value)           AS mean
FROM long AS l
JOIN games AS g USING (game_id)
GROUP BY g.n_players, l.seat, l.metric
ORDER BY n_players, seat, metric;
