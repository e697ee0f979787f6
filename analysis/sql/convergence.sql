-- Purpose: wins per game_id bucket, for convergence charts (the cumulative sums are taken
--          in Python). Factions are pooled over player counts (with expected wins, the sum of
--          1/n, for the fair share); seats are kept per player count.
-- Parameters: $buckets - number of equal game_id buckets (game ids run 0 .. max);
--             $by_faction - true: one series per faction; false: one per (n_players, seat);
--             $none_label - the faction label of symmetric games (left out by faction).
-- Reads views: games, players.
-- Returns: n_players (0 when pooled), series, bucket, games, wins, expected.
WITH span AS (
    SELECT max(game_id) + 1 AS n FROM games
),
seated AS (
    SELECT
        CASE WHEN $by_faction THEN 0 ELSE g.n_players END                    AS n_players,
        CASE WHEN $by_faction THEN p.faction ELSE 'seat ' || p.seat::VARCHAR END AS series,
        least(floor(p.game_id * $buckets / s.n), $buckets - 1)               AS bucket,
        p.win,
        1.0 / g.n_players                                                    AS fair
    FROM players AS p
    JOIN games AS g USING (game_id)
    CROSS JOIN span AS s
    WHERE NOT $by_faction OR p.faction <> $none_label
)
SELECT
    n_players::BIGINT     AS n_players,
    series,
    bucket::BIGINT        AS bucket,
    count(*)::BIGINT      AS games,
    sum(win)::DOUBLE      AS wins,
    sum(fair)::DOUBLE     AS expected
FROM seated
GROUP BY n_players, series, bucket
ORDER BY n_players, series, bucket;
